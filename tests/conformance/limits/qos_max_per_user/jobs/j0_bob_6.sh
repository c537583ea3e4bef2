#!/bin/sh
#SBATCH --gres=gpu:3
#SBATCH -N 2
sleep 300
