#!/usr/bin/env bash
# run.sh — build (Release) and print every benchmark table.
# Usage: bench/run.sh [runs] [--exec] [--sim] [--sim-scale] [--a2a-tables] [--a2a-figs]
#   the synthesis benchmarks always (a few minutes: bench_forest_pack's 1024-node case takes
#   about 20 s a run), then the commands users run, timed
#   end to end beside those kernels (bench_cli.py, under a minute: what a kernel leaves
#   out — sorting, costing, output — shows there) and `topocoll forest` against the
#   ForestColl authors' figures (bench_forest.py, a few minutes: 1024 GPUs take ~35 s a
#   run) and the all-to-all master LP on Clp against GLPK (bench_a2a_lp, N = 16..64, at most
#   3 runs: a few minutes, N = 64 takes 8-16 s a solve) and `topocoll train` on 1024 nodes
#   (bench_train.sh, median of 3: about 3 minutes); --exec adds the MPI executor overhead
#   (bench_exec.sh, about 5 minutes on a quiet machine), --sim the SMPI comparison
#   (bench_sim.sh, most of an hour: every SMPI algorithm up to 1 GiB on three topologies),
#   --sim-scale `topocoll simulate` on the 256- and 1024-node plans (bench_sim_scale.sh,
#   a few minutes), --a2a-tables paper 000's all-to-all column of Tables 7 and 4 beside our
#   certified MCF values (bench_a2a_tables.py, about 40 minutes: the N = 256..1024 rows
#   without large automorphism groups run to their 300 s limit or beyond), --a2a-figs paper
#   000 Fig. 7 (GenKautz near the all-to-all bound, N = 900..1000) and a paper 003 Fig. 10-style
#   comparison of GenKautz, torus, Xpander and Jellyfish (bench_a2a_figs.py, up to 40 minutes:
#   at most 120 s per topology).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 exec_bench=0 sim_bench=0 sim_scale=0 a2a_tables=0 a2a_figs=0
for a in "$@"; do
  case $a in
    --exec) exec_bench=1 ;;
    --sim) sim_bench=1 ;;
    --sim-scale) sim_scale=1 ;;
    --a2a-tables) a2a_tables=1 ;;
    --a2a-figs) a2a_figs=1 ;;
    *[!0-9]*) echo "run.sh: unknown argument '$a' (usage: bench/run.sh [runs] [--exec] [--sim] [--sim-scale] [--a2a-tables] [--a2a-figs])" >&2; exit 2 ;;
    *) runs=$a ;;
  esac
done
bash scripts/deps.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}"
kernels=$(mktemp -d)
trap 'rm -rf "$kernels"' EXIT
# A missed target (exit 1) does not stop the later tables; the exit status reports it.
# The kernel tables are kept for bench_cli.py's command / kernel column.
status=0
./build-bench/bench_graph "$runs" | tee "$kernels/graph.md" || status=1
./build-bench/bench_bfb "$runs" | tee "$kernels/bfb.md" || status=1
./build-bench/bench_find "$runs" | tee "$kernels/find.md" || status=1
# ForestColl's tree packing (Algorithm 5) on generated D*; no CLI command drives it alone.
./build-bench/bench_forest_pack "$runs" || status=1
# The LP engine's backends on paper 003's master LP (Clp, the default, against GLPK).
./build-bench/bench_a2a_lp "$((runs < 3 ? runs : 3))" 64 || status=1
python3 bench/bench_cli.py --bin build-bench/topocoll --runs "$runs" --kernels "$kernels"/*.md || status=1
python3 bench/bench_forest.py --bin build-bench/topocoll --runs "$runs" || status=1
# All-to-all by column generation (method dw): the issue's targets and the scaling table; the
# 10-minute target and the N >= 512 rows run once.
python3 bench/bench_a2a_scale.py --bin build-bench/topocoll --runs "$runs" || status=1
# `topocoll train` at 1024 nodes (the all-to-all MCFs of eight topologies): about a minute a run.
bash bench/bench_train.sh --build build-bench --runs "$((runs < 3 ? runs : 3))" || status=1
if [ "$exec_bench" = 1 ]; then bash bench/bench_exec.sh --build build-bench || status=1; fi
if [ "$sim_bench" = 1 ]; then bash bench/bench_sim.sh --build build-bench || status=1; fi
if [ "$sim_scale" = 1 ]; then bash bench/bench_sim_scale.sh --build build-bench || status=1; fi
if [ "$a2a_tables" = 1 ]; then python3 bench/bench_a2a_tables.py --bin build-bench/topocoll || status=1; fi
if [ "$a2a_figs" = 1 ]; then python3 bench/bench_a2a_figs.py --bin build-bench/topocoll || status=1; fi
exit $status
