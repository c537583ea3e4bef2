#!/bin/bash
#SBATCH --gres=gpu:7
srun hostname
