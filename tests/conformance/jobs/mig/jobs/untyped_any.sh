#!/bin/bash
#SBATCH --gres=gpu:10
srun hostname
