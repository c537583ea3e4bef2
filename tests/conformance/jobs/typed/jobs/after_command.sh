#!/bin/bash
#SBATCH -p gpu
echo start
#SBATCH --gres=gpu:fpga:1
srun hostname
