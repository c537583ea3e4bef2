#!/bin/bash
#SBATCH -p gpu --gpus-per-node=A100:2
srun hostname
