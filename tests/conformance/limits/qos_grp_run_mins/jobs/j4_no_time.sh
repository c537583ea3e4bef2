#!/bin/sh
#SBATCH --gres=gpu:1
sleep 300
