#!/bin/bash
#SBATCH --gpus=3g.40gb:2
srun hostname
