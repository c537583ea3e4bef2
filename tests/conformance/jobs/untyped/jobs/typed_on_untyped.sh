#!/bin/bash
#SBATCH -p gpu --gres=gpu:a100:1
srun hostname
