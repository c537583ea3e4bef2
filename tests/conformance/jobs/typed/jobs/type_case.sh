#!/bin/bash
#SBATCH --partition=gpu --gres=gpu:v100:2
srun hostname
