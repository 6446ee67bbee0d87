#!/usr/bin/env bash
# cli_progress.sh — progress on stderr of the long commands (tools/progress.h): forest, plan,
# find (--sweep and --a2a), a2a, sched and export, each on a small instance.
#   - with --progress every stderr line is "topocoll <cmd>: [<s> s] <text>" and the lines that
#     are always shown are there, exactly: the first report, every phase's start (done 0) and
#     end (done == total), and the last report;
#   - with --quiet, and by default into a pipe (TOPOCOLL_PROGRESS unset), stderr is empty;
#     TOPOCOLL_PROGRESS=1 prints them, --quiet wins over it;
#   - stdout (and plan's files) are byte-identical with and without progress;
#   - --progress with --quiet is one usage error (exit 2).
# (The rate limit and the terminal's "\r" lines are test_cli_progress.c's, with a fake clock.)
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"
unset TOPOCOLL_PROGRESS

# run_three NAME SUBCOMMAND CMD... : CMD with --progress, with --quiet and plainly; stdout of
# the three compared; stderr of the --progress run left in $tmp/NAME.err, its stdout in
# $tmp/NAME.out, its lines stripped of the prefix in $tmp/NAME.lines.
run_three() {
  local name=$1 cmd=$2; shift 2
  expect 0 "$@" --progress
  cp "$tmp/out" "$tmp/$name.out"
  cp "$tmp/err" "$tmp/$name.err"
  grep -vqE "^topocoll $cmd: \[[0-9]+\.[0-9] s\] [^ ]" "$tmp/$name.err" &&
    fail "$name: a progress line without the prefix: $(grep -vE "^topocoll $cmd: \[[0-9]+\.[0-9] s\] " "$tmp/$name.err" | head -3)"
  sed -E "s/^topocoll $cmd: \[[0-9]+\.[0-9] s\] //" "$tmp/$name.err" >"$tmp/$name.lines"
  expect 0 "$@" --quiet
  [ ! -s "$tmp/err" ] || fail "$name --quiet: stderr $(head -3 "$tmp/err")"
  cmp -s "$tmp/out" "$tmp/$name.out" || fail "$name: stdout differs with --quiet and --progress"
  expect 0 "$@"
  [ ! -s "$tmp/err" ] || fail "$name into a pipe: stderr $(head -3 "$tmp/err")"
  cmp -s "$tmp/out" "$tmp/$name.out" || fail "$name: stdout differs by default and with --progress"
}

# has NAME LINE... : each LINE is a line of NAME's progress (times stripped)
has() {
  local name=$1; shift
  for line in "$@"; do
    grep -qxF -- "$line" "$tmp/$name.lines" || fail "$name: no progress line '$line' in: $(cat "$tmp/$name.lines")"
  done
}

# last NAME LINE : the last progress line
last() {
  [ "$(tail -n 1 "$tmp/$1.lines")" = "$2" ] || fail "$1: last progress line '$(tail -n 1 "$tmp/$1.lines")', expected '$2'"
}

# ---- forest: the optimality search, switch removal, tree packing (20 switches, 16 GPUs);
#      --json, as the report says how long the verification took ----
run_three forest forest "$bin" forest 'dgx_a100(2)' --json
has forest 'forest: optimality search' 'forest: removing switches (0/20)' 'forest: removing switches (20/20)' \
  'forest: packing trees, roots done (0/16)' 'forest: packing trees, roots done (16/16)' \
  'forest: mapping trees to paths'
last forest 'forest: verifying the trees'
[ "$(head -n 1 "$tmp/forest.lines")" = 'forest: optimality search' ] || fail "forest: first line $(head -n 1 "$tmp/forest.lines")"

# ---- plan: each step, counted where it has parts, ForestColl's phases inside ----
run_plan() { "$bin" plan --nodes 8 --degree 2 --alpha 10us --link-bw 25Gbps --size 1MB --a2a-size 1MB --out "$tmp/p" --force "$@"; }
run_three plan plan run_plan
cp "$tmp/p/summary.md" "$tmp/summary.plain"
expect 0 run_plan --progress
cmp -s "$tmp/p/summary.md" "$tmp/summary.plain" || fail "plan: summary.md differs with --progress"
has plan 'finding the Pareto frontier for N = 8, d = 2' \
  'all-to-all MCF: certifying biring(2,8) (8 nodes) (0/1)' 'all-to-all MCF: biring(2,8): f = 0.125, gap 0 (1/1)' \
  'building biring(2,8) and its allgather, reduce-scatter and allreduce' \
  'all-to-all schedules: building and verifying mcf on biring(2,8) (0/3)' \
  'all-to-all schedules: built and verified on biring(2,8) (3/3)' \
  'resilience: failing link 0-1, one per symmetry class (0/1)' 'resilience: single link failures tried (1/1)' \
  "building and pipelining ForestColl's allreduce trees on biring(2,8)" \
  'forest: optimality search' 'forest: packing trees, roots done (8/8)' \
  'baselines: bfb on its own topology (0/32)' 'baselines: built and verified (32/32)'
has plan "writing $tmp/p: topology.json (0/9)"
last plan "wrote $tmp/p (9/9)"

# ---- find --sweep: the sizes of N done ----
run_three sweep find "$bin" find --sweep 16..24 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB
has sweep 'sweep: the frontiers for N = 16..24 (0/9)'
last sweep 'sweep: the frontier for N = 24 (9/9)'

# ---- find --a2a: the members certified, each one's f ----
run_three finda2a find "$bin" find --nodes 16 --degree 4 --a2a
has finda2a 'all-to-all MCF: certifying debruijn(4,2) (16 nodes) (0/2)'
last finda2a 'all-to-all MCF: circulant(16,3,4): f = 0.125, gap 0 (2/2)'

# ---- a2a --method dw: the rounds; the last is the round the report says it stopped at ----
run_three a2a a2a "$bin" a2a 'genkautz(4,32)' --method dw
grep -qE '^dw: round 1, f in \[0\.0470588235, 0\.[0-9]+\], gap [0-9.e-]+, 96 columns$' "$tmp/a2a.lines" ||
  fail "a2a: round 1 line: $(head -n 1 "$tmp/a2a.lines")"
rounds=$(sed -n 's/^  solved by .* \([0-9]*\) rounds, .*/\1/p' "$tmp/a2a.out")
tail -n 1 "$tmp/a2a.lines" | grep -qE "^dw: round $rounds, f in \[0\.0470588235, 0\.0470588235\], gap " ||
  fail "a2a: last line is not round $rounds: $(tail -n 1 "$tmp/a2a.lines")"

# ---- sched: the topology, then the pipeline's steps ----
run_three sched sched "$bin" sched 'hypercube(3)' --coll allreduce --algo bfb --json
has sched 'building the topology' 'bfb: generating the allgather' 'bfb: deriving the reduce-scatter (Theorem 2)' \
  'bfb: composing the allreduce' 'bfb allreduce: verifying'
last sched 'bfb allreduce: costing'

# ---- export --format msccl: reading, then the export's steps; the file the same either way ----
expect 0 "$bin" sched 'hypercube(3)' --coll allreduce --algo bfb --out "$tmp/ar.json"
run_three export export "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/ar.xml"
has export 'reading the schedule' 'msccl: verifying the schedule' 'msccl: lowering to per-GPU programs' \
  'msccl: choosing channels and threadblocks'
last export "msccl: writing $tmp/ar.xml"
cp "$tmp/ar.xml" "$tmp/ar.plain.xml"
expect 0 "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/ar.xml" --progress
cmp -s "$tmp/ar.xml" "$tmp/ar.plain.xml" || fail "export: the XML differs with --progress"

# ---- TOPOCOLL_PROGRESS=1 asks for them, --quiet wins over it ----
TOPOCOLL_PROGRESS=1 expect 0 "$bin" forest 'dgx_a100(2)' --json
cmp -s "$tmp/out" "$tmp/forest.out" || fail "TOPOCOLL_PROGRESS=1: forest stdout differs"
[ "$(wc -l <"$tmp/err")" -eq "$(wc -l <"$tmp/forest.err")" ] || fail "TOPOCOLL_PROGRESS=1: forest stderr $(cat "$tmp/err")"
TOPOCOLL_PROGRESS=1 expect 0 "$bin" forest 'dgx_a100(2)' --json --quiet
[ ! -s "$tmp/err" ] || fail "TOPOCOLL_PROGRESS=1 --quiet: stderr $(cat "$tmp/err")"

# ---- both: one usage error ----
for cmd in "forest dgx_a100(2)" "a2a hypercube(3)" "find --nodes 16 --degree 4" \
  "sched hypercube(3) --coll allgather --algo bfb" "export hypercube(3) --format simgrid --out $tmp/sg" \
  "plan --nodes 8 --degree 2 --alpha 10us --link-bw 25Gbps --size 1MB --out $tmp/q"; do
  # shellcheck disable=SC2086
  expect_err 2 "topocoll ${cmd%% *}: --progress and --quiet exclude each other (see 'topocoll help ${cmd%% *}')" \
    "$bin" $cmd --progress --quiet
done
[ ! -e "$tmp/q" ] || fail "plan --progress --quiet wrote $tmp/q"

# ---- every command that takes them says so in its help ----
for cmd in forest plan find a2a sched export run simulate; do
  expect 0 "$bin" help $cmd
  grep -q -- '--progress|--quiet' "$tmp/out" || fail "help $cmd: no [--progress|--quiet] in the usage"
  grep -qE -- '^  --quiet +no progress lines$' "$tmp/out" || fail "help $cmd: no --quiet line"
done

finish cli_progress
