#!/bin/sh
#SBATCH --time=120
#SBATCH --gres=gpu:4
sleep 300
