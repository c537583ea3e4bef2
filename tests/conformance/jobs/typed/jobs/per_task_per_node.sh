#!/bin/bash
#SBATCH -p gpu -C a100 --ntasks-per-node=4 --gpus-per-task=2
srun hostname
