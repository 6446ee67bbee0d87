#!/usr/bin/env bash
# cli_demo.sh — scripts/demo.sh's options: with none it plans the default cluster; an
# option given replaces its own default and keeps the others (`--nodes 64` is still degree
# 4, 10 us, 25 Gbps, 1 MB and 64 MB); --fabric adds no --nodes or --degree; --out is kept.
# `demo.sh --print` shows the command without installing or building anything.
# $1 = topocoll binary (unused: the demo runs build/topocoll)
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"
demo=$(dirname "$0")/../scripts/demo.sh

# demo_cmd EXPECTED ARGS...: the plan command demo.sh ARGS would run
demo_cmd() {
  local want=$1
  shift
  expect 0 bash "$demo" --print "$@"
  [ "$(cat "$tmp/out")" = "./build/topocoll plan $want" ] || fail "demo.sh $*: $(cat "$tmp/out")"
  [ ! -s "$tmp/err" ] || fail "demo.sh $* printed on stderr: $(cat "$tmp/err")"
}
demo_cmd "--nodes 256 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1 --out out/plan-256-4 --force"
demo_cmd "--nodes 64 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1 --out out/plan-64-4 --force" --nodes 64
demo_cmd "--degree 3 --size 1MB --nodes 256 --alpha 10us --link-bw 25Gbps --out out/plan-256-3 --force" \
  --degree 3 --size 1MB
demo_cmd "--nodes 16 --out p16 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB:1" --nodes 16 --out p16
demo_cmd "--fabric dgx_a100(2) --alpha 1us --link-bw 25Gbps --size 1MB,64MB:1 --out out/plan-N-D --force" \
  --fabric 'dgx_a100(2)' --alpha 1us
finish cli_demo
