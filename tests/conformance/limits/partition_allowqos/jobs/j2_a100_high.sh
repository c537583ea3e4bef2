#!/bin/sh
#SBATCH -p a100
#SBATCH --qos=high
#SBATCH --gres=gpu:1
sleep 300
