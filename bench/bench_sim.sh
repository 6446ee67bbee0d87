#!/usr/bin/env bash
# bench_sim.sh — benchmark "simulated": the BFB allreduce against the best of SMPI's
# built-in allreduce algorithms on the same simulated platform, at the dissertation's
# settings (100 Gbps links, alpha = 1 us), 1 KiB .. 1 GiB, on three degree-4 topologies:
#   genkautz(4,64)  generalized Kautz Pi_{4,64}, 64 nodes, diameter 3
#   kautz(4,1)      Kautz K(4,2) in the usual convention (diameter 2), 20 nodes
#                   (topocoll's kautz(d,n) is L^n(K_{d+1}), (d+1) d^n nodes)
#   torus(8,8)      64 nodes, diameter 8
# Targets: >= 1.5x faster than the best SMPI algorithm at 1 MiB on the low-diameter
# topologies (genkautz, kautz), and within 10 % of the alpha-beta lower bound
# T_L* alpha + tau* M/B at 1 GiB.
#
# Each topology: `topocoll sched SPEC --coll allreduce --algo bfb --out PLAN`, then
# `topocoll simulate PLAN --inplace 0 --link-bw 100Gbps --alpha 1us --sizes 1KiB..1GiB --json` (every
# SMPI allreduce algorithm, see docs/running.md; sizes <= 1 MB run on real data and are
# checked, larger ones run without computing). bench_sim_table.py prints the table.
# Simulation is deterministic: one run per size. SMPI algorithms whose temporary buffers do
# not fit in memory at the large sizes fail and are listed as skipped.
#
# usage: bench/bench_sim.sh [--build DIR] [--topos "genkautz(4,64) kautz(4,1) torus(8,8)"]
#                           [--sizes 1KiB..1GiB] [--smpi-algos all] [--timeout 3600]
#        default DIR: build-bench, configured (Release) and built if it has no
#        topocoll-smpi-exec.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build="$root/build-bench"
topos="genkautz(4,64) kautz(4,1) torus(8,8)"
sizes=1KiB..1GiB
algos=all
timeout=3600
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --topos) topos=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --smpi-algos) algos=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) echo "bench_sim.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
. "$here/lib_bench.sh"
bench_setup topocoll-smpi-exec

echo "machine: $(nproc) cores, $(smpirun -version 2>/dev/null | head -1); links 100 Gbps, alpha 1 us"
results=()
for spec in $topos; do
  name=$(echo "$spec" | tr -c 'a-z0-9\n' '_')
  plan="$work/$name.json"
  out="$work/$name.out.json"
  "$bin" sched "$spec" --coll allreduce --algo bfb --out "$plan" >/dev/null
  start=$(date +%s)
  "$bin" simulate "$plan" --inplace 0 --link-bw 100Gbps --alpha 1us --sizes "$sizes" --smpi-algos "$algos" \
    --timeout "$timeout" --json >"$out"
  echo "$spec: simulated in $(($(date +%s) - start)) s"
  results+=("$out")
done
python3 "$here/bench_sim_table.py" "${results[@]}"
