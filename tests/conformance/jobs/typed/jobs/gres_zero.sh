#!/bin/bash
#SBATCH -p gpu --gres=gpu:0
srun hostname
