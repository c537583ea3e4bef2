#!/bin/bash
#SBATCH -p gpu --gpus-per-socket=2 --sockets-per-node=2 -C a100
srun hostname
