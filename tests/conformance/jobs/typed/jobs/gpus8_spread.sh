#!/bin/bash
#SBATCH -p gpu --gpus=8 -C a100
srun hostname
