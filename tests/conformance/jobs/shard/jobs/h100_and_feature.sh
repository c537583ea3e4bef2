#!/bin/bash
#SBATCH -p all --gpus-per-node=4 -C l40
srun hostname
