#!/usr/bin/env bash
# bench_sim_scale.sh — benchmark "simulate at scale": `topocoll simulate` end to end on the
# plans `topocoll plan` makes, at one size and without SMPI's algorithms, and the size of a
# large SimGrid platform export.
#   - the demo plan (README, scripts/demo.sh): --nodes 256 --degree 4 --alpha 10us
#     --link-bw 25Gbps --size 1MB,64MB:1; then
#     topocoll simulate PLAN/allreduce.json --link-bw 25Gbps --alpha 10us --sizes 1MB
#       --smpi-algos none
#     (1 MB <= --check-max: one checked run on real data, the schedule and MPI's allreduce);
#     targets: <= 20 s and <= 2 GiB max RSS. Before: did not finish in 600 s.
#   - the same at 1024 nodes; target <= 120 s.
#   - topocoll export 'kautz(4,5)' --format simgrid (5120 nodes): platform.xml's size.
#     Before: 3.3 GB (every one of the N(N-1) routes declared).
# Each simulate runs --runs times under /usr/bin/time, with --timeout (default 300 s, past
# every target; a run that times out is reported as such and ends that plan's runs): wall time and max RSS (topocoll and
# everything it waited for: smpirun and the simulation, one process); the table shows
# their medians. Timings of a loaded machine are noisy: the load average is printed.
# bench_sim_scale_table.py prints the table and the targets.
#
# usage: bench/bench_sim_scale.sh [--build DIR] [--runs K] [--nodes "256 1024"] [--timeout S]
#        default DIR: build-bench, configured (Release) and built if it has no
#        topocoll-smpi-exec; K = 3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build="$root/build-bench"
runs=3
nodes="256 1024"
timeout=300
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) echo "bench_sim_scale.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
. "$here/lib_bench.sh"
bench_setup topocoll-smpi-exec

echo "machine: $(nproc) cores, $(smpirun -version 2>/dev/null | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
rows="$work/rows.tsv" # kind, name, run, wall s, max RSS KiB, simulated s
: >"$rows"
for n in $nodes; do
  plan="$work/plan-$n"
  "$bin" plan --nodes "$n" --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1 --out "$plan" >/dev/null
  spec=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["graph"]["spec"])' "$plan/allreduce.json")
  for r in $(seq 1 "$runs"); do
    if /usr/bin/time -f '%e %M' -o "$work/time" "$bin" simulate "$plan/allreduce.json" --link-bw 25Gbps --alpha 10us \
      --sizes 1MB --smpi-algos none --timeout "$timeout" --json >"$work/out.json" 2>"$work/err"; then
      sim=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["sim_time_s"])' "$work/out.json")
    else # timed out (or failed): one row saying so, no more runs
      sim=nan
      echo "$n nodes: $(tail -1 "$work/err")"
    fi
    printf 'simulate\t%s nodes, %s\t%d\t%s\t%s\n' "$n" "$spec" "$r" "$(tail -1 "$work/time" | tr ' ' '\t')" "$sim" >>"$rows"
    [ "$sim" != nan ] || break
  done
done
"$bin" export 'kautz(4,5)' --format simgrid --link-bw 25Gbps --alpha 10us --out "$work/k45" >/dev/null
printf 'export\tkautz(4,5)\t1\t%s\t0\t0\n' "$(stat -c %s "$work/k45/platform.xml")" >>"$rows"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/bench_sim_scale_table.py" "$rows"
