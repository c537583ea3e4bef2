#!/bin/sh
#SBATCH -A lab
#SBATCH --gres=gpu:1
sleep 300
