#!/bin/bash
#SBATCH -p gpu --gres=gpu:1 --gpus=2
srun hostname
