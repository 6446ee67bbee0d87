#!/usr/bin/env bash
# cli_topo.sh — drives the `topocoll` binary: exit codes (0 ok, 1 failure, 2 bad usage or
# input), one-line errors, the keys and values of `topo --json`, --list, help/version,
# and the file writers (including that a failed write leaves no file behind).
# Expected numbers: torus(3,3,2) has 18 nodes, degree 5, diameter 3 (paper 000 §8.5.2's
# torus; §6.2: diameter Σ floor(d_i/2) = 1+1+1);
# its distance histogram is 90/144/72 (product of two 3-rings and K_2: per node 5 at
# distance 1, 8 at 2, 4 at 3 — counted by hand from the coordinate-wise distance sum).
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" --version
grep -q '^topocoll [0-9]' "$tmp/out" || fail "--version output: $(cat "$tmp/out")"
expect 0 "$bin" --help
grep -q 'topo' "$tmp/out" || fail "--help does not list topo"
expect 0 "$bin" help topo
grep -q -- '--wiring' "$tmp/out" || fail "help topo lacks --wiring"
expect 2 "$bin"
expect_err 2 "no command 'frobnicate'" "$bin" frobnicate
expect_err 2 "no command 'nope'" "$bin" help nope

expect 0 "$bin" topo --list
for fam in kautz genkautz torus circulant drg dbjmod diamond hyperx dragonfly line degree product power bidir file; do
  grep -q "^$fam " "$tmp/out" || fail "--list lacks $fam"
done
grep -q 'drg names: .*odd4' "$tmp/out" || fail "--list lacks the drg names"

expect 0 "$bin" topo 'torus(3,3,2)' --json
python3 - "$tmp/out" <<'PY' || fail "torus(3,3,2) --json values"
import json, sys
j = json.load(open(sys.argv[1]))
want = {"spec": "torus(3,3,2)", "nodes": 18, "arcs": 90, "out_degree": 5, "in_degree": 5, "regular": True,
        "diameter": 3, "moore_diameter": 2, "moore_optimal": False, "reverse_symmetric": True,
        "bidirectional": True, "self_loops": 0, "multi_arcs": 0, "distance_histogram": [0, 90, 144, 72]}
for k, v in want.items():
    assert j[k] == v, (k, j[k], v)
assert abs(j["avg_distance"] - 33 / 17) < 1e-12 and j["avg_distance_exact"] == "33/17"
PY

# genkautz(4,64): 4 self-loops (paper 000 Def. 16: 5x ≡ -a mod 64, a = 1..4), not
# regular-free of loops, directed
expect 0 "$bin" topo 'genkautz(4,64)' --json
python3 - "$tmp/out" <<'PY' || fail "genkautz(4,64) --json values"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["nodes"] == 64 and j["self_loops"] == 4 and j["bidirectional"] is False, j
assert j["moore_diameter"] == 3 and j["out_degree"] == 4, j
PY

# a non-regular graph reports null degrees
printf 'nodes 3\n0 1\n1 2\n2 0\n0 2\n' >"$tmp/irr.edges"
expect 0 "$bin" topo "file($tmp/irr.edges)" --json
python3 -c "import json,sys; j=json.load(open('$tmp/out')); assert j['out_degree'] is None and j['regular'] is False" ||
  fail "irregular degrees not null"
# a disconnected graph: diameter null, unreachable pairs counted
printf 'nodes 3\n0 1\n1 0\n' >"$tmp/disc.edges"
expect 0 "$bin" topo "file($tmp/disc.edges)" --json
python3 -c "import json,sys; j=json.load(open('$tmp/out')); assert j['diameter'] is None and j['unreachable_pairs']==4" ||
  fail "disconnected graph report"

expect 0 "$bin" topo 'kautz(2,2)'
grep -q '^diameter  *3$' "$tmp/out" || fail "kautz(2,2) text report diameter"

# writers
expect 0 "$bin" topo 'kautz(2,1)' --dot "$tmp/g.dot" --edges "$tmp/g.edges" --wiring "$tmp/g.csv" --graph-json "$tmp/g.json"
for f in g.dot g.edges g.csv g.json; do [ -s "$tmp/$f" ] || fail "$f not written"; done
[ "$(tail -n +2 "$tmp/g.csv" | wc -l)" -eq 12 ] || fail "kautz(2,1) wiring should list 12 simplex fibres"
expect 0 "$bin" topo "file($tmp/g.json)" --json
python3 -c "import json; j=json.load(open('$tmp/out')); assert j['nodes']==6 and j['arcs']==12" || fail "graph JSON round trip"
expect 0 "$bin" topo "file($tmp/g.edges)" --json
python3 -c "import json; j=json.load(open('$tmp/out')); assert j['nodes']==6 and j['arcs']==12" || fail "edge list round trip"

# errors: one line, exit 2 for bad input, 1 for an unwritable output, nothing half-written
expect_err 2 'column 9: expected an argument' "$bin" topo 'kautz(4,)'
expect_err 2 "did you mean 'kautz'" "$bin" topo 'kauts(4,2)'
expect_err 2 'kautz: d must be' "$bin" topo 'kautz(0,2)'
expect_err 2 'missing SPEC' "$bin" topo
expect_err 2 "unknown option '--frob'" "$bin" topo 'kautz(2,1)' --frob
expect_err 2 '--dot needs a file name' "$bin" topo 'kautz(2,1)' --dot
expect_err 2 'more than one SPEC' "$bin" topo 'kautz(2,1)' 'kautz(2,2)'
expect_err 2 'more than' "$bin" topo 'kautz(4,40)'
expect_err 2 "file: cannot read $tmp/missing.json: No such file or directory" "$bin" topo "file($tmp/missing.json)"
printf '{"format":"topocoll-graph","version":1,"nodes":2,"arcs":[[0,5]]}' >"$tmp/bad.json"
expect_err 2 'arcs[0][1]' "$bin" topo "file($tmp/bad.json)"
expect_err 1 "$tmp/nodir/x.dot" "$bin" topo 'kautz(2,1)' --dot "$tmp/nodir/x.dot"
[ ! -e "$tmp/nodir" ] || fail "failed write created something"

finish cli_topo
