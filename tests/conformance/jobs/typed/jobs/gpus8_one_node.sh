#!/bin/bash
#SBATCH -p gpu --gpus=8 -N 1 -C a100
srun hostname
