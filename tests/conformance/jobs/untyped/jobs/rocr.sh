#!/bin/bash
#SBATCH -p gpu --gpus=1
ROCR_VISIBLE_DEVICES=1 python train.py
srun hostname
