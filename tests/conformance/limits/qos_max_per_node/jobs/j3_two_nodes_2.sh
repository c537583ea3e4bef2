#!/bin/sh
#SBATCH -N 2
#SBATCH --gres=gpu:2
sleep 300
