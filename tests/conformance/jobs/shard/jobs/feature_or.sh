#!/bin/bash
#SBATCH -p all --gpus-per-node=4 -C "l40|h100"
srun hostname
