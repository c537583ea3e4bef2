#!/bin/bash
#SBATCH -p v100 --gres=gpu
srun hostname
