#!/bin/bash
#SBATCH --gres=shard:17
srun hostname
