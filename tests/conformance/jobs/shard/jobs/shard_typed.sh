#!/bin/bash
#SBATCH --gres=shard:l40:2
srun hostname
