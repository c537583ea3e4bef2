#!/bin/bash
#SBATCH -p gpu
  #SBATCH --gres=gpu:h100:1
srun hostname
