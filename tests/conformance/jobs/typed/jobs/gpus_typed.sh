#!/bin/bash
#SBATCH -p gpu --gpus=V100:8
srun hostname
