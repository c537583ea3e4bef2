#!/bin/sh
#SBATCH -N 1
#SBATCH --gres=gpu:2
sleep 300
