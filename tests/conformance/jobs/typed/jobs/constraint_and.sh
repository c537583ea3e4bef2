#!/bin/bash
#SBATCH -p gpu --gres=gpu:1 -C "a100&ib"
srun hostname
