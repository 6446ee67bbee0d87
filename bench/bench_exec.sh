#!/usr/bin/env bash
# bench_exec.sh — benchmark "executor overhead": the ring allreduce plan run by
# the MPI executor (topocoll-exec, through `topocoll run`) against MPI_Allreduce on the same
# ranks, 1 KiB .. 256 MiB on this machine; target: time ratio <= 1.2 at >= 1 MB.
#
# The plan is `topocoll sched "uniring(1,N)" --coll allreduce --algo ring`: N-1
# reduce-scatter steps then N-1 allgather steps, rank r sending one block (M/N bytes) to
# r+1 per step — the algorithm of Open MPI's ring allreduce (coll tuned algorithm 4,
# ompi_coll_base_allreduce_intra_ring), which is forced for the first table with
#   --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4
# (number checked with `ompi_info --param coll tuned --level 9`). The second table is
# against Open MPI's default choice (no MCA parameters). Each `topocoll run` times both
# sides in the same processes on the same data and checks the executor's result against
# MPI's; a size that is not verified aborts the benchmark.
#
# Each (np, baseline) is run RUNS times (fresh mpirun each time). Per size the tables show
# the best run's time of each side (other load on a shared machine only adds time) and
# their ratio, and the median of the per-run ratios executor / MPI (bench_exec_table.py).
# Iterations per size (one mpirun per band): < 1 MiB 100 (+10 warm-up), 1..16 MiB 20 (+2),
# > 16 MiB 5 (+1). Ranks are not bound (--bind-to none) and are oversubscribed when np
# exceeds the cores, which makes the large-np timings noisy: the machine line says how
# many cores there were.
#
# usage: bench/bench_exec.sh [--build DIR] [--np "2 4"] [--runs 7] [--max-size 256MiB]
#        default DIR: build-bench, configured (Release) and built if it has no topocoll-exec.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build="$root/build-bench"
nps="2 4"
runs=7
max_size=256MiB
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    *) echo "bench_exec.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
. "$here/lib_bench.sh"
bench_setup topocoll-exec

ring_mca="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4"
# Size bands: "sizes iters warmup", each one mpirun.
bands=("1KiB..512KiB 100 10" "1MiB..16MiB 20 2" "32MiB..$max_size 5 1")

echo "machine: $(nproc) cores, $(mpirun --version 2>/dev/null | head -1), $runs runs per table," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for np in $nps; do
  plan="$work/ring-$np.json"
  "$bin" sched "uniring(1,$np)" --coll allreduce --algo ring --out "$plan" >/dev/null
  for baseline in ring default; do
    extra=""
    [ "$baseline" = ring ] && extra=$ring_mca
    for run in $(seq 1 "$runs"); do
      for band in "${bands[@]}"; do
        read -r sizes iters warmup <<<"$band"
        out="$work/$np-$baseline-$run-${sizes//./_}.json"
        # A band whose smallest size exceeds --max-size is skipped.
        if ! "$bin" run "$plan" --inplace 0 --sizes "$sizes" --iters "$iters" --warmup "$warmup" --json \
          --mpirun-args "$extra" >"$out" 2>"$work/err"; then
          if grep -q -- "--sizes" "$work/err"; then rm -f "$out"; continue; fi
          echo "bench_exec.sh: np $np $baseline run $run $sizes failed:" >&2
          cat "$work/err" >&2
          exit 1
        fi
      done
    done
    python3 "$here/bench_exec_table.py" "$np" "$baseline" "$work"/"$np-$baseline"-*.json
  done
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
