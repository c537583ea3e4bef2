#!/bin/bash
#SBATCH -p gpu --gres=GPU:1
srun hostname
