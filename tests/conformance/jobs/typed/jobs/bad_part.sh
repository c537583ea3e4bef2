#!/bin/bash
#SBATCH -p gpus --gres=gpu:1
srun hostname
