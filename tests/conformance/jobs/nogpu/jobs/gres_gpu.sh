#!/bin/bash
#SBATCH --gres=gpu:1
srun hostname
