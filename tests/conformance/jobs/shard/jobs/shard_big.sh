#!/bin/bash
#SBATCH -p big --gres=shard:1
srun hostname
