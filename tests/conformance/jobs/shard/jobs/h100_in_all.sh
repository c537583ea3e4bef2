#!/bin/bash
#SBATCH -p all --gpus-per-node=h100:4
srun hostname
