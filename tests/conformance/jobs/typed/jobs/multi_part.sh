#!/bin/bash
#SBATCH -p cpu,v100 --gres=gpu:V100:8
srun hostname
