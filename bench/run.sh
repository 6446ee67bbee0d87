#!/usr/bin/env bash
# run.sh — build (Release) and print every benchmark table.
# Usage: bench/run.sh [runs] [--exec] [--sim]
#   the synthesis benchmarks always (a minute or two); --exec adds the MPI executor overhead
#   (bench_exec.sh, about 5 minutes on a quiet machine), --sim the SMPI comparison
#   (bench_sim.sh, most of an hour: every SMPI algorithm up to 1 GiB on three topologies).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 exec_bench=0 sim_bench=0
for a in "$@"; do
  case $a in
    --exec) exec_bench=1 ;;
    --sim) sim_bench=1 ;;
    *[!0-9]*) echo "run.sh: unknown argument '$a' (usage: bench/run.sh [runs] [--exec] [--sim])" >&2; exit 2 ;;
    *) runs=$a ;;
  esac
done
bash scripts/deps.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}"
./build-bench/bench_graph "$runs"
./build-bench/bench_bfb "$runs"
./build-bench/bench_find "$runs"
[ "$exec_bench" = 1 ] && bash bench/bench_exec.sh --build build-bench
[ "$sim_bench" = 1 ] && bash bench/bench_sim.sh --build build-bench
exit 0
