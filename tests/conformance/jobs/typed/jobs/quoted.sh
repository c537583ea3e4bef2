#!/bin/bash
#SBATCH -p gpu --gres="gpu:a100:2" # a comment --gres=gpu:h100:1
srun hostname
