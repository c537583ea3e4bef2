#!/bin/sh
#SBATCH --qos=empty
#SBATCH --time=10
#SBATCH --gres=gpu:1
sleep 300
