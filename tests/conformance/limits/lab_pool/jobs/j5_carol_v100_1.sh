#!/bin/sh
#SBATCH --gres=gpu:v100:1
sleep 300
