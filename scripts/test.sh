#!/usr/bin/env bash
# test.sh — install dependencies, build, and run the whole test suite twice: a normal
# build and an ASan+UBSan build. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
for kind in normal asan; do
  echo "== $kind build" >&2
  bash scripts/build.sh "$kind"
  dir=build; [ "$kind" = asan ] && dir=build-asan
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
done
