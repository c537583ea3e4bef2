#!/bin/bash
#SBATCH -p cpu --gres=gpu:1
srun hostname
