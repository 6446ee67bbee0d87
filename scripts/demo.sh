#!/usr/bin/env bash
# demo.sh [PLAN OPTIONS] — the main job: install dependencies, build, and run `topocoll plan`
# on a default cluster (256 nodes with 4 ports each, 10 us per step, 25 Gbps links, a
# workload of 1 MB and 64 MB allreduces), then print the plan's summary.md. Any options
# replace the default cluster (see `topocoll help plan`); the plan goes to out/plan-N-D
# (replaced on every run) unless --out is given.
set -euo pipefail
cd "$(dirname "$0")/.."
# Progress on stderr when it is a terminal (or TOPOCOLL_PROGRESS=1; =0: never): the first
# build takes minutes on 2 cores. build.sh reports its own progress by the same rule.
progress() {
  if [ "${TOPOCOLL_PROGRESS:-}" = 1 ] || { [ "${TOPOCOLL_PROGRESS:-}" != 0 ] && [ -t 2 ]; }; then
    echo "demo: [$SECONDS s] $*" >&2
  fi
}
progress "dependencies (scripts/deps.sh)"
bash scripts/deps.sh
progress "building build/ (scripts/build.sh normal; minutes the first time)"
bash scripts/build.sh normal
if [ $# -eq 0 ]; then
  set -- --nodes 256 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1
fi
nodes=N degree=D out=""
args=("$@")
for ((i = 0; i < ${#args[@]} - 1; i++)); do
  case "${args[i]}" in
    --nodes) nodes=${args[i + 1]} ;;
    --degree) degree=${args[i + 1]} ;;
    --out) out=${args[i + 1]} ;;
  esac
done
if [ -z "$out" ]; then
  out=out/plan-$nodes-$degree
  mkdir -p out
  set -- "$@" --out "$out" --force
fi
progress "planning: topocoll plan $*"
./build/topocoll plan "$@"
progress "done: $out/summary.md"
echo
cat "$out/summary.md"
