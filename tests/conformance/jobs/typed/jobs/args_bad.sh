#!/bin/bash
#SBATCH -p gpu
srun hostname
