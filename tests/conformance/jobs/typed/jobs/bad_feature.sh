#!/bin/bash
#SBATCH -p gpu --gres=gpu:1 -C h100
srun hostname
