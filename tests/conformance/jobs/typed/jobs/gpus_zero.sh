#!/bin/bash
#SBATCH -p gpu --gpus=0
srun hostname
