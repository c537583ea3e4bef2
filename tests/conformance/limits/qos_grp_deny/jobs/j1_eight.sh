#!/bin/sh
#SBATCH -N 2
#SBATCH --gres=gpu:4
sleep 300
