#!/bin/bash
#SBATCH -p gpu --gpus=7
srun hostname
