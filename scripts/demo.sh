#!/usr/bin/env bash
# demo.sh — the main job: install dependencies, build, and print the topology report of a
# default cluster topology (the finder's `topocoll plan` replaces this once it exists).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh normal
./build/topocoll topo "${1:-line(circulant(16,3,4),3)}"
