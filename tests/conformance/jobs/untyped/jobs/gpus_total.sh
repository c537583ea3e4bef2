#!/bin/bash
#SBATCH -p gpu --gpus=6
srun hostname
