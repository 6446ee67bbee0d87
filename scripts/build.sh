#!/usr/bin/env bash
# build.sh [normal|asan] — configure and build into build/ (normal) or build-asan/ (ASan+UBSan).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-normal}
case "$kind" in
  normal) dir=build; flags=() ;;
  asan) dir=build-asan; flags=(-DTC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug) ;;
  *) echo "build.sh: unknown build kind '$kind' (normal|asan)" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)" >/dev/null
