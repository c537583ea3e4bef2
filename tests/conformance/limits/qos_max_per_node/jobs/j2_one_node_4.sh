#!/bin/sh
#SBATCH -N 1
#SBATCH --gres=gpu:4
sleep 300
