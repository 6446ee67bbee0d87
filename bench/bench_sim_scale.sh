#!/usr/bin/env bash
# bench_sim_scale.sh — benchmark "simulate at scale": `topocoll simulate` end to end at one
# size (1 MB, checked: the schedule on real data, compared with MPI's result) and without
# SMPI's algorithms, and the size of a large SimGrid platform export.
#   - the demo plan (README, scripts/demo.sh): --nodes N --degree 4 --alpha 10us
#     --link-bw 25Gbps --size 1MB,64MB:1; its allreduce.json and allgather.json;
#   - at 256 nodes, the alltoall of the 2D fully connected network 16x16 (hyperx(16,16),
#     the dissertation's 2dfc, issue 13): topocoll sched 'hyperx(16,16)' --coll alltoall
#     --algo direct;
#   each: topocoll simulate FILE --link-bw 25Gbps --alpha 10us --sizes 1MB --smpi-algos none.
#     Targets: <= 20 s and <= 2 GiB max RSS at 256 nodes, <= 120 s at 1024.
#     Before (measured on this machine, 2 cores, loaded): allreduce at 256 did not finish in
#     600 s before the programs file; allgather and alltoall at 256 did not finish in 200 s
#     and 400 s while the check took MPI's result from SMPI's default algorithm (N(N-1)
#     transfers in flight; now ring, sim_smpi.h);
#   - topocoll export 'kautz(4,5)' --format simgrid (5120 nodes): platform.xml's size.
#     Before: 3.3 GB (every one of the N(N-1) routes declared).
# Each simulate runs --runs times under /usr/bin/time, with --timeout (default 300 s, past
# every target; a run that times out is reported as such and ends that plan's runs): wall
# time, CPU time (user + system) and max RSS (topocoll and everything it waited for:
# smpirun and the simulation, one process); the table shows their medians. Timings of a
# loaded machine are noisy (wall time most, CPU time less): the load average is printed.
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
rows="$work/rows.tsv" # kind, name, run, wall s, max RSS KiB, simulated s, CPU s
: >"$rows"
# sim NAME FILE: --runs timed simulations of FILE at 1 MB, one row each.
sim() {
  local r sim
  for r in $(seq 1 "$runs"); do
    if /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$bin" simulate "$2" --inplace 0 --link-bw 25Gbps --alpha 10us \
      --sizes 1MB --smpi-algos none --timeout "$timeout" --json >"$work/out.json" 2>"$work/err"; then
      sim=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["sim_time_s"])' "$work/out.json")
    else # timed out (or failed): one row saying so, no more runs
      sim=nan
      echo "$1: $(tail -1 "$work/err")"
    fi
    read -r wall rss user sys < <(tail -1 "$work/time")
    printf 'simulate\t%s\t%d\t%s\t%s\t%s\t%s\n' "$1" "$r" "$wall" "$rss" "$sim" \
      "$(python3 -c "print($user + $sys)")" >>"$rows"
    [ "$sim" != nan ] || break
  done
}
for n in $nodes; do
  plan="$work/plan-$n"
  "$bin" plan --nodes "$n" --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1 --out "$plan" >/dev/null
  spec=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["graph"]["spec"])' "$plan/allreduce.json")
  for coll in allreduce allgather; do sim "$n nodes, $coll, $spec" "$plan/$coll.json"; done
  if [ "$n" = 256 ]; then
    "$bin" sched 'hyperx(16,16)' --coll alltoall --algo direct --out "$work/a2a.json" >/dev/null
    sim "256 nodes, alltoall, hyperx(16,16) direct" "$work/a2a.json"
  fi
done
"$bin" export 'kautz(4,5)' --format simgrid --link-bw 25Gbps --alpha 10us --out "$work/k45" >/dev/null
printf 'export\tkautz(4,5)\t1\t%s\t0\t0\t0\n' "$(stat -c %s "$work/k45/platform.xml")" >>"$rows"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/bench_sim_scale_table.py" "$rows"
