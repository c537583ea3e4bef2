#!/bin/sh
#SBATCH -p a100
#SBATCH --gres=gpu:a100:2
sleep 300
