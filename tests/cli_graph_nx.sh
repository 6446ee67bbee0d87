#!/usr/bin/env bash
# cli_graph_nx.sh — networkx's formats from the command line: `topo --nx-edges FILE` and
# `--node-link FILE` write files that nx(FILE) reads back with the same arcs (compared as
# topocoll edge lists); node-link JSON has networkx's keys and counts (checked with
# python3's json: no networkx here); an edge list networkx wrote for an undirected Graph
# gets the bidir(nx(...)) note; file() and nx() point at each other's formats; bad files
# and bad targets are one error line, exit 2, and nothing is written.
# $1 = topocoll binary
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

# round trips: same arcs, capacities, and (node-link) kinds and labels
for spec in 'torus(3,2)' 'kautz(2,2)' 'uniring(2,4)' 'fig2toy(2)'; do
  expect 0 "$bin" topo "$spec" --nx-edges "$tmp/g.edges" --node-link "$tmp/g.json" --edges "$tmp/want.el" \
    --graph-json "$tmp/want.json"
  expect 0 "$bin" topo "nx($tmp/g.edges)" --edges "$tmp/got.el"
  # the edge list keeps no labels or kinds: the two files differ by that comment at most
  diff <(grep -v '^#' "$tmp/want.el") <(grep -v '^#' "$tmp/got.el") >/dev/null ||
    fail "$spec: nx edge list read back differs: $(diff "$tmp/want.el" "$tmp/got.el")"
  expect 0 "$bin" topo "nx($tmp/g.json)" --graph-json "$tmp/got.json"
  diff <(grep -v '"spec"' "$tmp/want.json") <(grep -v '"spec"' "$tmp/got.json") >/dev/null ||
    fail "$spec: node-link read back differs: $(diff "$tmp/want.json" "$tmp/got.json")"
done

# node-link as networkx's node_link_graph reads it: torus(3,2) is undirected, 6 nodes, 9 links
expect 0 "$bin" topo 'torus(3,2)' --node-link "$tmp/t.json"
python3 - "$tmp/t.json" <<'EOF' || fail "node-link JSON of torus(3,2) is not what networkx reads"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["directed", "multigraph", "graph", "nodes", "links"], list(d)
assert d["directed"] is False and d["multigraph"] is False and d["graph"] == {}
assert [n["id"] for n in d["nodes"]] == ["(0,0)", "(0,1)", "(1,0)", "(1,1)", "(2,0)", "(2,1)"]
assert len(d["links"]) == 9 and all(l["capacity"] == 1 for l in d["links"])
assert {(l["source"], l["target"]) for l in d["links"]} >= {("(0,0)", "(0,1)"), ("(0,0)", "(2,0)")}
EOF
# a directed multigraph: directed, multigraph, one link per arc
expect 0 "$bin" topo 'uniring(2,4)' --node-link "$tmp/u.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["directed"] and d["multigraph"] and len(d["links"]) == 8' \
  "$tmp/u.json" || fail "node-link JSON of uniring(2,4)"
# the edge list: "u v {'capacity': c}", every arc
expect 0 "$bin" topo 'biring(2,3)' --nx-edges "$tmp/b.edges"
[ "$(grep -v '^#' "$tmp/b.edges" | tr '\n' ';')" = "0 1 {'capacity': 1};0 2 {'capacity': 1};1 0 {'capacity': 1};1 2 {'capacity': 1};2 0 {'capacity': 1};2 1 {'capacity': 1};" ] ||
  fail "nx edge list of biring(2,3): $(cat "$tmp/b.edges")"

# what networkx writes for an undirected Graph: names, data dicts, each link once
printf "spine leaf1 {'weight': 2}\nspine leaf2 {}\n" >"$tmp/nx.edges"
expect 0 "$bin" topo "nx($tmp/nx.edges)"
note="topocoll topo: note: $tmp/nx.edges lists every link in one direction only (no arc has its reverse), so it is read as a directed graph; if its links are undirected (as networkx writes a Graph), use 'bidir(nx($tmp/nx.edges))'"
[ "$(cat "$tmp/err")" = "$note" ] || fail "nx edge list of one-way links: stderr was: $(cat "$tmp/err")"
expect 0 "$bin" topo "bidir(nx($tmp/nx.edges))" --json
[ ! -s "$tmp/err" ] || fail "bidir(nx(...)) printed: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["nodes"], d["arcs"], d["capacity_max"]) == (3, 4, 2), d' \
  "$tmp/out" || fail "bidir(nx(...)): $(cat "$tmp/out")"

# each reader points at the other
expect_err 2 "is a networkx node-link graph (nodes/links), not a topocoll graph JSON; read it with nx($tmp/t.json)" \
  "$bin" topo "file($tmp/t.json)"
expect_err 2 "is a topocoll graph JSON (nodes/arcs), not a networkx node-link graph; read it with file($tmp/want.json)" \
  "$bin" topo "nx($tmp/want.json)"
expect_err 2 "$tmp/nx.edges:1: a data dict after \"u v\" is networkx's edge list, not this one; read it with nx($tmp/nx.edges)" \
  "$bin" topo "file($tmp/nx.edges)"
# bad files: one line, exit 2
printf 'a b {"weight": 0.5}\n' >"$tmp/bad.edges"
expect_err 2 "nx: $tmp/bad.edges:1: weight \"0.5\" is not a whole number" "$bin" topo "nx($tmp/bad.edges)"
printf '{"nodes": [{"id": 0}], "links": [{"source": 0, "target": 1}]}' >"$tmp/bad.json"
expect_err 2 "nx: $tmp/bad.json: links[0].target: 1 is not the id of a node in \"nodes\"" "$bin" topo "nx($tmp/bad.json)"
expect_err 2 "nx: cannot read $tmp/none.json: No such file or directory" "$bin" topo "nx($tmp/none.json)"
# bad targets are refused before anything is built or written
expect_err 2 "--nx-edges needs a file name, not an empty string" "$bin" topo 'torus(3,3)' --nx-edges ''
expect_err 2 "cannot write $tmp: it is a directory" "$bin" topo 'torus(3,3)' --edges "$tmp/x.el" --node-link "$tmp"
[ ! -e "$tmp/x.el" ] || fail "a refused --node-link target still let --edges write"
# standard output
expect 0 "$bin" topo 'complete(2)' --node-link - --json
[ "$(grep -n -m1 '"directed": false' "$tmp/out" | cut -d: -f1)" = 2 ] && grep -q '"spec": "complete(2)"' "$tmp/out" ||
  fail "--node-link - did not come first on stdout, before the report: $(cat "$tmp/out")"
finish cli_graph_nx
