#!/usr/bin/env bash
# bench_train.sh — `topocoll train` end to end (docs/training.md): the issue's speed target,
#   topocoll train --model switch-c --nodes 1024 --degree 4        (target <= 60 s)
# and the 256-node case of paper 000 App. A.4 (switch-base with 256 experts). The all-to-all
# MCFs dominate: eight topologies (five frontier members and three baselines at N = 1024),
# each solved by column generation to a 1 % gap or 10 s. Each command runs --runs times
# under /usr/bin/time; the table shows the median wall time, CPU time (user + system) and
# max RSS, and whether the median meets the target. Timings of a loaded machine are noisy
# (the load average is printed).
#
# usage: bench/bench_train.sh [--build DIR] [--runs K]
#        default DIR: build-bench, configured (Release) and built if it has no topocoll; K = 3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=$root/build-bench runs=3
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "bench_train.sh: unknown argument '$1' (usage: bench/bench_train.sh [--build DIR] [--runs K])" >&2; exit 2 ;;
  esac
done
. "$here/lib_bench.sh"
bench_setup topocoll

echo "## topocoll train (paper 000 App. A.4), median of $runs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | wall (s) | CPU (s) | max RSS (MB) | target |"
echo "| --- | --- | --- | --- | --- |"
status=0
row() { # TARGET_S ARGS...
  local target=$1; shift
  local walls=() cpus=() rsss=()
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" train "$@" >"$work/out" 2>"$work/err" ||
      { echo "| train $* | failed: $(head -1 "$work/err") | | | |"; status=1; return; }
    read -r wall user sys rss <"$work/time"
    walls+=("$wall"); cpus+=("$(echo "$user + $sys" | bc)"); rsss+=("$rss")
  done
  med() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
  local w c r
  w=$(med "${walls[@]}"); c=$(med "${cpus[@]}"); r=$(med "${rsss[@]}")
  local verdict="<= ${target} s: met"
  if [ "$(echo "$w > $target" | bc)" = 1 ]; then verdict="<= ${target} s: MISSED"; status=1; fi
  echo "| train $* | $w | $c | $((r / 1024)) | $verdict |"
}
row 60 --model switch-c --nodes 1024 --degree 4
row 60 --model switch-base --experts 256 --nodes 256 --degree 4
exit $status
