#!/usr/bin/env bash
# build.sh [--werror] [KIND] — configure and build one kind of build (default: normal):
#   normal   build/          RelWithDebInfo, the default compiler, everything
#   asan     build-asan/     Debug with ASan+UBSan (no SMPI: it cannot run sanitized code)
#   clang    build-clang/    clang, Release, -D_FORTIFY_SOURCE=2, installed as a Debian package
#                            would be (prefix /usr: multiarch libdir lib/<triplet>)
#   minimal  build-minimal/  the synthesis library and the CLI alone: no tests, MPI,
#                            SimGrid or benchmarks (what a packager of just the library builds)
#   fuzz     build-fuzz/     clang, the libFuzzer harnesses of fuzz/ over the library compiled
#                            with ASan+UBSan and the fuzzer's coverage (-O1, asserts on; smaller
#                            size limits: docs/fuzzing.md); no tests, MPI, SimGrid or benchmarks
# Progress lines on stderr when it is a terminal (or TOPOCOLL_PROGRESS=1), nothing else.
# --werror turns warnings into errors (TC_WERROR); scripts/test.sh and CI use it, the demo
# does not (a user's newer compiler may warn about something new). Every configure states
# TC_WERROR, so a build directory never keeps the other script's setting.
set -euo pipefail
cd "$(dirname "$0")/.."
werror=OFF
if [ "${1:-}" = --werror ]; then
  werror=ON
  shift
fi
kind=${1:-normal}
case "$kind" in
  normal) dir=build; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DTC_SANITIZE=ON) ;;
  clang) dir=build-clang
    flags=(-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-D_FORTIFY_SOURCE=2
           -DCMAKE_INSTALL_PREFIX=/usr) ;;
  minimal) dir=build-minimal
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF -DTC_WITH_MPI=OFF -DTC_WITH_SIMGRID=OFF
           -DTC_BUILD_BENCH=OFF) ;;
  fuzz) dir=build-fuzz
    flags=(-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DTC_SANITIZE=ON
           -DTC_BUILD_FUZZ=ON -DBUILD_TESTING=OFF -DTC_WITH_MPI=OFF -DTC_WITH_SIMGRID=OFF -DTC_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown build kind '$kind' (normal|asan|clang|minimal|fuzz)" >&2; exit 2 ;;
esac
# Progress on stderr (a build takes minutes on 2 cores): when stderr is a terminal, or
# TOPOCOLL_PROGRESS=1 (=0: never), one line per tenth of the build, from cmake's [NN%].
if [ "${TOPOCOLL_PROGRESS:-}" = 1 ] || { [ "${TOPOCOLL_PROGRESS:-}" != 0 ] && [ -t 2 ]; }; then
  echo "build.sh: configuring $dir/" >&2
  cmake -S . -B "$dir" -DTC_WERROR="$werror" "${flags[@]}" >/dev/null
  cmake --build "$dir" -j"$(nproc)" |
    awk -v dir="$dir" 'match($0, /^\[ *[0-9]+%\]/) { p = substr($0, 2, RLENGTH - 3) + 0
      if (int(p / 10) > shown) { shown = int(p / 10); printf "build.sh: %s/ %d%% built\n", dir, p > "/dev/stderr" } }'
  echo "build.sh: $dir/ built in $SECONDS s" >&2
else
  cmake -S . -B "$dir" -DTC_WERROR="$werror" "${flags[@]}" >/dev/null
  cmake --build "$dir" -j"$(nproc)" >/dev/null
fi
