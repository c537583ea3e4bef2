#!/bin/bash
#SBATCH -p small --gres=gpu:1
srun hostname
