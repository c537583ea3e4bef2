#!/bin/bash
#SBATCH --partition=gpu --gpus-per-node=8 --constraint=a100
srun hostname
