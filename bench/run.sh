#!/usr/bin/env bash
# run.sh — build (Release) and print every benchmark table. Usage: bench/run.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}"
./build-bench/bench_graph "${1:-5}"
./build-bench/bench_bfb "${1:-5}"
./build-bench/bench_find "${1:-5}"
