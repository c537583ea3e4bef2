#!/bin/bash
#SBATCH --gres=gpu:1g.10gb:4
srun hostname
