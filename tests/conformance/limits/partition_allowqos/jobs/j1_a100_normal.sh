#!/bin/sh
#SBATCH -p a100
#SBATCH --gres=gpu:1
sleep 300
