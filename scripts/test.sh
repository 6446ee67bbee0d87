#!/usr/bin/env bash
# test.sh — install dependencies, then build and test five ways, warnings as errors
# (scripts/build.sh --werror): the normal build and the ASan+UBSan build run every test;
# the clang Release build (-D_FORTIFY_SOURCE=2, Debian multiarch libdir) runs the fast
# tests (ctest -L fast, which include the install check); the minimal build (library and
# CLI only) must build without looking up MPI, SimGrid, cmocka or libxml2; the fuzz build
# runs each libFuzzer harness for 10 s (bench/fuzz.sh: about a minute and a half; the
# inputs of fixed bugs in fuzz/regressions/ are replayed first). Exits non-zero if
# anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh --test
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() { # KIND DIR [CTEST ARGS...]
  local kind=$1 dir=$2
  shift 2
  echo "== $kind build" >&2
  bash scripts/build.sh --werror "$kind"
  ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" "$@"
}
run normal build
run asan build-asan
run clang build-clang -L fast
echo "== minimal build (library and CLI only)" >&2
bash scripts/build.sh --werror minimal
# It must not even look for what it does not build (a packager may not have it installed).
if grep -E '^(MPI_C_[A-Z_]*|CMOCKA_FOUND|LIBXML2_FOUND|TC_SMPICC|TC_MPIRUN)[:=]' build-minimal/CMakeCache.txt; then
  echo "test.sh: the minimal build looked up MPI, SimGrid or test-only packages (above)" >&2
  exit 1
fi
echo "== fuzz build: 10 s of each harness" >&2
bash bench/fuzz.sh --werror 10
