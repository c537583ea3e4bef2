#!/bin/bash
#SBATCH --gpus=1 --gres=shard:1
srun hostname
