#!/bin/bash
#SBATCH -p gpu --gpus=2 --cpus-per-gpu=40 --gpus-per-node=2
srun hostname
