#!/bin/sh
#SBATCH --gres=gpu:4
sleep 300
