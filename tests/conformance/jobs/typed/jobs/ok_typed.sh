#!/bin/bash
#SBATCH --partition=gpu --gres=gpu:a100:2
srun hostname
