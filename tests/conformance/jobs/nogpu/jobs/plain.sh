#!/bin/bash
#SBATCH -N 2
srun hostname
