#!/usr/bin/env bash
# deps.sh [--test] — install every system dependency of topocoll from Debian; --test adds
# what only scripts/test.sh needs (clang and its OpenMP runtime, for the clang build; the
# libFuzzer and sanitizer runtimes, for the fuzz build), so the demo does not pull in a
# second compiler. procps is in the base list: tests/cli_run.sh needs its pgrep. The
# runtimes clang links for -fsanitize=fuzzer,address,undefined (libclang_rt.*) are in
# libclang-rt-dev (Debian 12: libclang-rt-14-dev), which clang only recommends and
# --no-install-recommends skips; libfuzzer-14-dev holds nothing but a standalone
# libFuzzer.a, which that flag never uses. chromium-headless-shell: tests/cli_report_browser.sh
# opens the plan's HTML report in it (graphviz, in the base list, draws the report's topology).
# Idempotent: when all packages are present it prints nothing and touches nothing.
set -euo pipefail
PACKAGES=(build-essential cmake pkg-config libcmocka-dev libigraph-dev libglpk-dev
          libjansson-dev coinor-libclp-dev coinor-libcbc-dev libxml2-dev libxml2-utils graphviz python3
          libopenmpi-dev openmpi-bin openssh-client libsimgrid-dev procps)
case "${1:-}" in
  "") ;;
  --test) PACKAGES+=(clang libomp-dev libclang-rt-dev chromium-headless-shell) ;;
  *) echo "deps.sh: unknown argument '$1' (usage: deps.sh [--test])" >&2; exit 2 ;;
esac
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
