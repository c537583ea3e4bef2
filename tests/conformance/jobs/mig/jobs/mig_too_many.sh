#!/bin/bash
#SBATCH --gres=gpu:1g.10gb:8
srun hostname
