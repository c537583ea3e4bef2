#!/bin/bash
#SBATCH -p gpu --gres=gpu:8
srun hostname
