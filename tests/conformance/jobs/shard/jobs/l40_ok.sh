#!/bin/bash
#SBATCH --gres=gpu:l40:1
srun hostname
