#!/bin/sh
#SBATCH -N 2
#SBATCH --gres=gpu:3
sleep 300
