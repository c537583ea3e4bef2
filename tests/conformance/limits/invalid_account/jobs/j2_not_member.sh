#!/bin/sh
#SBATCH -A chem
#SBATCH --gres=gpu:1
sleep 300
