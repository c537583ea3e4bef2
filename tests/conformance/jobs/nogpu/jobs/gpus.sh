#!/bin/bash
#SBATCH --gpus=1
srun hostname
