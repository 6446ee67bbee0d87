#!/usr/bin/env bash
# fuzz.sh [--werror] [SECONDS] [TARGET...] — run the libFuzzer harnesses of fuzz/
# (docs/fuzzing.md) for SECONDS each (default 600), one after the other, and print a table:
# target, seconds it ran, executions, exec/s, corpus size at the end, crashes and their
# artifacts.
#
# Builds the fuzz kind first (scripts/build.sh [--werror] fuzz; incremental). Each target
# starts from a scratch copy of fuzz/corpus/<target>/ plus fuzz/regressions/<target>/ (the
# inputs of bugs already fixed, so every run replays them), and grows only that copy: the
# committed corpus changes only when someone copies an input into it. A crash, leak,
# timeout (-timeout=10 s per input) or out-of-memory (-rss_limit_mb=2048) stops that
# target; its input is kept in build-fuzz/artifacts/<target>/ with the fuzzer's log
# (reproduce: build-fuzz/fuzz_<target> ARTIFACT). Exit status: 0 when no target found
# anything, 1 otherwise, 2 for bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bench/fuzz.sh [--werror] [SECONDS] [TARGET...]"
werror=()
if [ "${1:-}" = --werror ]; then
  werror=(--werror)
  shift
fi
seconds=600
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
[ "$seconds" -ge 1 ] || { echo "fuzz.sh: SECONDS must be at least 1 ($usage)" >&2; exit 2; }
all=()
for f in fuzz/fuzz_*.c; do
  t=${f#fuzz/fuzz_}
  all+=("${t%.c}")
done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  [ -f "fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: unknown target '$t' (one of: ${all[*]})" >&2; exit 2; }
done

# Longest input per target: past each format's own limits (a spec is at most 4096 bytes,
# a unit text 64), yet short enough that one run stays in milliseconds.
max_len() {
  case $1 in
    spec) echo 4200 ;;
    units) echo 160 ;;
    simgrid) echo 1024 ;;
    edgelist) echo 2048 ;;
    graph_json) echo 4096 ;;
    *) echo 8192 ;;
  esac
}

bash scripts/build.sh "${werror[@]}" fuzz
# In memory when /dev/shm allows: the harnesses write files and the library's atomic
# writes fsync them, which on a disk would make the file targets I/O-bound.
scratch=$(mktemp -d -p /dev/shm tc-fuzz.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0
rows=()
for t in "${targets[@]}"; do
  art=build-fuzz/artifacts/$t
  mkdir -p "$art" "$scratch/$t/corpus" "$scratch/$t/tmp"
  rm -f "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-* "$art/log"
  cp fuzz/corpus/"$t"/* "$scratch/$t/corpus/"
  if [ -d "fuzz/regressions/$t" ]; then cp fuzz/regressions/"$t"/* "$scratch/$t/corpus/"; fi
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  echo "== fuzz_$t for $seconds s" >&2
  # The harness's scratch files go to TMPDIR, inside this run's scratch directory.
  rc=0
  start=$SECONDS
  TMPDIR="$scratch/$t/tmp" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build-fuzz/fuzz_$t" "$scratch/$t/corpus" "${dict[@]}" -max_total_time="$seconds" \
    -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$art/" >"$art/log" 2>&1 || rc=$?
  took=$((SECONDS - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$art/log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$art/log" | tail -1)
  found=$(find "$art" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
  ncrash=0
  [ -n "$found" ] && ncrash=$(echo "$found" | wc -l)
  if [ "$rc" -ne 0 ] && [ "$ncrash" -eq 0 ]; then
    found="(exit $rc without an artifact: see $art/log)"
    ncrash=1
  fi
  [ "$ncrash" -eq 0 ] || status=1
  rows+=("| $t | $took | ${execs:-?} | ${rate:-?} | $(find "$scratch/$t/corpus" -type f | wc -l) | $ncrash | $(echo $found) |")
done
echo "| target | seconds | executions | exec/s | corpus | crashes | artifacts |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${rows[@]}"
exit $status
