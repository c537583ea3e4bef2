#!/bin/sh
#SBATCH -p open
#SBATCH --gres=gpu:4
sleep 300
