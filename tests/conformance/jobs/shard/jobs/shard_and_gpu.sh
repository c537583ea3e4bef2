#!/bin/bash
#SBATCH --gres=shard:2,gpu:1
srun hostname
