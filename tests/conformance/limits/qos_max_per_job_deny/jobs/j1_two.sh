#!/bin/sh
#SBATCH --gres=gpu:2
sleep 300
