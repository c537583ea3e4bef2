#!/bin/sh
#SBATCH -p a100
#SBATCH --gres=gpu:a100:4
sleep 300
