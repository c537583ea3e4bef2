#!/bin/bash
#SBATCH -p gpu -C a100 --gpus-per-socket=3 --sockets-per-node=2
srun hostname
