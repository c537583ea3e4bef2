#!/bin/bash
#SBATCH --gpus-per-node=a100:4
srun hostname
