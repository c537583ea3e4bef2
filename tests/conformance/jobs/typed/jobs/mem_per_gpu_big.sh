#!/bin/bash
#SBATCH -p gpu --gpus-per-node=a100:4 --mem-per-gpu=200G
srun hostname
