#!/bin/sh
#SBATCH --gres=gpu:a100:2
sleep 300
