#!/bin/sh
#SBATCH -p a100
#SBATCH -N 2
#SBATCH --gres=gpu:a100:4
sleep 300
