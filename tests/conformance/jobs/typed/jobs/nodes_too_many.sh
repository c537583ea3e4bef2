#!/bin/bash
#SBATCH -p v100 -N 3 --gres=gpu:1
srun hostname
