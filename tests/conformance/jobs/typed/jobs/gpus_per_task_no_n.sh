#!/bin/bash
#SBATCH -p gpu --gpus-per-task=1
srun hostname
