#!/bin/bash
#SBATCH -p gpu --gres=gpu:1 --gres-flags=enforce-binding
srun hostname
