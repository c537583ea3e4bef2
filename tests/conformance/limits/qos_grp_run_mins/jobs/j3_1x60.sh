#!/bin/sh
#SBATCH --time=60
#SBATCH --gres=gpu:1
sleep 300
