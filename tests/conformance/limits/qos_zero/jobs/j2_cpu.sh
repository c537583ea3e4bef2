#!/bin/sh
#SBATCH -c 2
sleep 300
