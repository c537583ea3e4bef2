#!/bin/sh
#SBATCH --gpus=a100:4
sleep 300
