#!/bin/sh
#SBATCH -c 1
sleep 300
