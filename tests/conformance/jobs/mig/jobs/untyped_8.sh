#!/bin/bash
#SBATCH --gres=gpu:8
srun hostname
