#!/bin/sh
#SBATCH --gres=gpu:v100:2
sleep 300
