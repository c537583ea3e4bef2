#!/bin/bash
#SBATCH -p gpu --gres=gpu:a100:2,gpu:V100:1
srun hostname
