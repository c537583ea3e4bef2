#!/bin/bash
#SBATCH -p gpu --gres=gpu:a100:1
export CUDA_VISIBLE_DEVICES=0
srun hostname
