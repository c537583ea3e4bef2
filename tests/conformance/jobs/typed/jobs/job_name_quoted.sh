#!/bin/bash
#SBATCH --job-name="big run" -p gpu --gres=gpu:a100:1
srun hostname
