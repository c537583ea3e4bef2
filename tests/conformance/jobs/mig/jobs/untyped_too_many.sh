#!/bin/bash
#SBATCH --gres=gpu:12
srun hostname
