#!/bin/bash
#SBATCH --gres=gpu:1G.10GB:1
srun hostname
