#!/bin/bash
#SBATCH -p gpu --gres=gpu:2
srun hostname
