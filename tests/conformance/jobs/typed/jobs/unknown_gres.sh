#!/bin/bash
#SBATCH -p gpu --gres=fpga:1
srun hostname
