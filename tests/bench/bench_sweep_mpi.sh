#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Elk Studio contributors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 19's benchmark: a 9 × 9 HBM × NoC sweep of llama2-13b on ipu-pod4-hbm, cold, in one process
# (all cores) and as `mpirun -np 2` ranks; wall time and points per second of each, and that the two
# CSVs are identical. Usage: tests/bench/bench_sweep_mpi.sh [build/default/app/elk]
set -euo pipefail
elk="${1:-build/default/app/elk}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
sweep=(sweep llama2-13b --chip ipu-pod4-hbm --vary hbm.bandwidthGBpsPerStack=125:1125:125
    --vary interconnect.linkBandwidthGBpsPerCore=1.5:9.5:1)
points=81

start=$(date +%s.%N)
"$elk" "${sweep[@]}" --cache "$work/one.sqlite" --csv "$work/one.csv" > /dev/null
one=$(echo "$(date +%s.%N) - $start" | bc)
printf "1 process:   %6.1f s, %5.2f points/s\n" "$one" "$(echo "$points / $one" | bc -l)"

if ! command -v mpirun > /dev/null; then
    echo "mpirun: not installed (packaging/install-deps.sh installs openmpi-bin)"
    exit 0
fi
start=$(date +%s.%N)
mpirun --oversubscribe -np 2 "$elk" "${sweep[@]}" --threads 1 --mpi --cache "$work/mpi.sqlite" --csv "$work/mpi.csv" > /dev/null
two=$(echo "$(date +%s.%N) - $start" | bc)
printf "mpirun -np 2: %6.1f s, %5.2f points/s\n" "$two" "$(echo "$points / $two" | bc -l)"
cmp -s "$work/one.csv" "$work/mpi.csv" && echo "CSV: identical" || echo "CSV: DIFFERENT"
