#!/bin/bash
#SBATCH -p gpu --gpus-per-node=1 --mem=1000 --mem-per-gpu=1000
srun hostname
