#!/bin/bash
#SBATCH --gres=gpu:5
srun hostname
