#!/bin/bash
#SBATCH -p gpu --gpus-per-node=a100:2 --cpus-per-gpu=16
srun hostname
