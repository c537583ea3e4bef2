#!/bin/bash
#SBATCH --gres=gpu:4 -w w01
srun hostname
