#!/bin/sh
#SBATCH --qos=nosuch
#SBATCH --gres=gpu:1
sleep 300
