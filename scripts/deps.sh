#!/usr/bin/env bash
# deps.sh — install every system dependency of topocoll from Debian. Idempotent: when all
# packages are present it prints nothing and touches nothing.
set -euo pipefail
PACKAGES=(build-essential cmake pkg-config libcmocka-dev libigraph-dev libglpk-dev
          libjansson-dev libxml2-dev libxml2-utils graphviz python3
          libopenmpi-dev openmpi-bin openssh-client libsimgrid-dev)
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
