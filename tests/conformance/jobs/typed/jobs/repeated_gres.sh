#!/bin/bash
#SBATCH -p gpu --gres=gpu:1
#SBATCH --gres=gpu:a100:9
srun hostname
