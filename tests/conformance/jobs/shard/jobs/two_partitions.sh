#!/bin/bash
#SBATCH -p shared,big --gpus-per-node=4
srun hostname
