#!/bin/bash
#SBATCH --gres=gpu:1g.10gb:1
export NVIDIA_VISIBLE_DEVICES=all
srun hostname
