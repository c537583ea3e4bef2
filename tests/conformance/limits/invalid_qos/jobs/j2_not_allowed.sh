#!/bin/sh
#SBATCH --qos=high
#SBATCH --gres=gpu:1
sleep 300
