#!/bin/sh
#SBATCH --gres=gpu:a100:4
sleep 300
