#!/bin/sh
#SBATCH --qos=lab
#SBATCH --gres=gpu:1
sleep 300
