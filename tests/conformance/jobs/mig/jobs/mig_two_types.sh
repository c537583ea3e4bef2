#!/bin/bash
#SBATCH --gres=gpu:1g.10gb:1,gpu:3g.40gb:1
srun hostname
