#!/bin/bash
#SBATCH --part=gpu --gpus-per-n=a100:4
srun hostname
