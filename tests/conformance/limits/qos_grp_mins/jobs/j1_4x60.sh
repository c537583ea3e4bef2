#!/bin/sh
#SBATCH --time=60
#SBATCH --gres=gpu:4
sleep 300
