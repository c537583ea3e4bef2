#!/bin/bash
#SBATCH -p gpu -n 8 --gpus-per-task=1 -C a100
srun hostname
