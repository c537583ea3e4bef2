#!/bin/sh
#SBATCH --time=60
#SBATCH --gres=gpu:2
sleep 300
