#!/usr/bin/env bash
# demo.sh [PLAN OPTIONS] — the main job: install dependencies, build, and run `topocoll plan`
# on a default cluster (256 nodes with 4 ports each, 10 us per step, 25 Gbps links, a
# workload of 1 MB and 64 MB allreduces), then print the plan's summary.md and where its HTML
# report is (report.html, docs/report.md). An option
# given replaces its default and keeps the others (`--nodes 64` plans 64 nodes of degree
# 4 at 10 us and 25 Gbps for 1 MB and 64 MB), any other `topocoll plan` option is passed
# on (see `topocoll help plan`; with --fabric the cluster is the fabric's: no --nodes or
# --degree is added); the plan goes to out/plan-N-D (replaced on every run) unless --out
# is given. `demo.sh --print [OPTIONS]` prints the `topocoll plan` command it would run
# and does nothing else (no dependencies, no build).
set -euo pipefail
cd "$(dirname "$0")/.."
# Progress on stderr when it is a terminal (or TOPOCOLL_PROGRESS=1; =0: never): the first
# build takes minutes on 2 cores. build.sh reports its own progress by the same rule.
progress() {
  if [ "${TOPOCOLL_PROGRESS:-}" = 1 ] || { [ "${TOPOCOLL_PROGRESS:-}" != 0 ] && [ -t 2 ]; }; then
    echo "demo: [$SECONDS s] $*" >&2
  fi
}
print=0
if [ "${1:-}" = --print ]; then
  print=1
  shift
fi
defaults=(--nodes 256 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1)
# given OPTION: was it on the command line?
given() {
  local a
  for a in "${args[@]}"; do
    [ "$a" != "$1" ] || return 0
  done
  return 1
}
args=("$@")
for ((i = 0; i < ${#defaults[@]}; i += 2)); do
  opt=${defaults[i]}
  case $opt in --nodes | --degree) ! given --fabric || continue ;; esac
  given "$opt" || set -- "$@" "$opt" "${defaults[i + 1]}"
done
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
  set -- "$@" --out "$out" --force
fi
if [ $print = 1 ]; then
  echo "./build/topocoll plan $*"
  exit 0
fi
progress "dependencies (scripts/deps.sh)"
bash scripts/deps.sh
progress "building build/ (scripts/build.sh normal; minutes the first time)"
bash scripts/build.sh normal
[ "$out" != "out/plan-$nodes-$degree" ] || mkdir -p out
progress "planning: topocoll plan $*"
./build/topocoll plan "$@"
progress "done: $out/summary.md"
echo
cat "$out/summary.md"
echo
echo "report: $(cd "$out" && pwd)/report.html (open it in a browser; 'build/topocoll report $out' redraws it with results you save there)"
