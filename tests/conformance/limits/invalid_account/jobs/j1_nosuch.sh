#!/bin/sh
#SBATCH -A nosuch
#SBATCH --gres=gpu:1
sleep 300
