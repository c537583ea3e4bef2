#!/bin/bash
#SBATCH -p gpu -N 3 --gres=gpu:1
srun hostname
