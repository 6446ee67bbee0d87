#!/usr/bin/env bash
# cli_help.sh — the glossary: `topocoll --help` defines every term the reports use (N, d,
# M, alpha, B, T_L, T_B, tau, the predicted time, Moore bound, Thm 22 and what "paper 000"
# is), and the commands whose reports use them point there.
# $1 = topocoll binary
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" --help
[ ! -s "$tmp/err" ] || fail "--help printed on stderr: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/help"
for line in \
  'terms (paper 000 = Zhao et al., "Efficient Direct-Connect Topologies for Collective' \
  '  alpha      latency of one communication step (one hop), e.g. 10us' \
  '  T_L        latency part of a schedule'"'"'s time: steps x alpha (what a tiny message' \
  '             in the step, divided by the link bandwidth; written tau x M/B' \
  '  tau        the T_B factor, an exact fraction: T_B = tau x M/B. An allgather or' \
  '             reduce-scatter needs tau >= (N-1)/N (BW-optimal when equal, Thm 4)' \
  '  Moore bound  the most nodes a degree-d digraph of diameter k can have,' \
  '             1 + d + d^2 + ... + d^k (Def. 9). N nodes of degree d thus have a' \
  '  Thm 22     paper 000 Theorem 22 (Boesch and Wang): for N > 6 and' \
  '             m = ceil((sqrt(2N-1) - 1)/2) the circulant C(N,{m,m+1}) (spec'; do
  grep -qxF -- "$line" "$tmp/help" || fail "--help lacks the line '$line'"
done
# every term in its own entry, in this order
terms=$(sed -n '/^terms /,$p' "$tmp/help" | sed -n 's/^  \([^ ]\([^ ]\| [^ ]\)*\)  .*/\1/p' | tr '\n' '|')
[ "$terms" = "N, d|M|alpha|B|T_L|T_B|tau|time|Moore bound|Thm 22|" ] || fail "--help's terms are: $terms"
# the help is plain ASCII (terminals and the man pages made from it)
! LC_ALL=C grep -q '[^ -~]' "$tmp/help" || fail "--help is not plain ASCII: $(LC_ALL=C grep -n '[^ -~]' "$tmp/help" | head -2)"
# `help` without a command is the same text
expect 0 "$bin" help
cmp -s "$tmp/out" "$tmp/help" || fail "'topocoll help' differs from --help"

pointer="The terms (T_L, T_B, tau, Moore bound, \"paper 000 Thm 22\"): see 'topocoll --help'."
for cmd in plan find sched verify; do
  expect 0 "$bin" help $cmd
  grep -qxF -- "$pointer" "$tmp/out" || fail "help $cmd does not point to the terms"
done
finish cli_help
