#!/bin/bash
#SBATCH --gres=shard:4
srun hostname
