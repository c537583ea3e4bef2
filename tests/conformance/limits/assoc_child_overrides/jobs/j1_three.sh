#!/bin/sh
#SBATCH --gres=gpu:3
sleep 300
