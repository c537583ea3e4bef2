#!/bin/bash
#SBATCH --gres=mps:50
srun hostname
