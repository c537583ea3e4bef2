#!/bin/bash
#SBATCH -p gpu --gpus-per-node=1 --cpus-per-gpu=4 -c 2
srun hostname
