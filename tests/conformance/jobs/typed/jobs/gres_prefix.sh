#!/bin/bash
#SBATCH -p gpu --gres=gres/gpu:a100:1
srun hostname
