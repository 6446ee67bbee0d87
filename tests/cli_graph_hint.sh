#!/usr/bin/env bash
# cli_graph_hint.sh — an edge list that names every link once (networkx's write_edgelist
# of an undirected Graph) is read as a directed graph, one arc per line; `topo` says so in
# one note on stderr and points to bidir(file(...)), and still reports (exit 0). No note
# when some arc has its reverse, when there is no link between distinct nodes, for JSON, or
# when the file is inside a larger spec (bidir(...) already).
# $1 = topocoll binary
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

printf '# networkx: nx.write_edgelist(nx.cycle_graph(4), path, data=False)\n0 1\n0 3\n1 2\n2 3\n' >"$tmp/c4.edges"
expect 0 "$bin" topo "file($tmp/c4.edges)"
note="topocoll topo: note: $tmp/c4.edges lists every link in one direction only (no arc has its reverse), so it is read as a directed graph; if its links are undirected (as networkx writes a Graph), use 'bidir(file($tmp/c4.edges))'"
[ "$(cat "$tmp/err")" = "$note" ] || fail "one-way edge list: stderr was: $(cat "$tmp/err")"
grep -qx 'arcs                4' "$tmp/out" || fail "one-way edge list: no report of 4 arcs: $(cat "$tmp/out")"

# read the way the note says: 8 arcs, bidirectional, no note
expect 0 "$bin" topo "bidir(file($tmp/c4.edges))"
[ ! -s "$tmp/err" ] || fail "bidir(file(...)) printed: $(cat "$tmp/err")"
grep -qx 'arcs                8' "$tmp/out" || fail "bidir(file(...)): $(cat "$tmp/out")"

# one arc with its reverse: the file knows about directions, no note
printf '0 1\n1 0\n1 2\n' >"$tmp/mixed.edges"
expect 0 "$bin" topo "file($tmp/mixed.edges)"
[ ! -s "$tmp/err" ] || fail "an edge list with a reverse pair printed: $(cat "$tmp/err")"
# only self-loops: no link between two nodes, no note
printf 'nodes 2\n0 0\n1 1\n' >"$tmp/loops.edges"
expect 0 "$bin" topo "file($tmp/loops.edges)"
[ ! -s "$tmp/err" ] || fail "an edge list of loops printed: $(cat "$tmp/err")"
# a directed graph written as JSON says what it is: no note
expect 0 "$bin" topo 'uniring(1,4)' --graph-json "$tmp/u4.json"
expect 0 "$bin" topo "file($tmp/u4.json)"
[ ! -s "$tmp/err" ] || fail "a JSON graph printed: $(cat "$tmp/err")"
# inside a larger spec: no note
expect 0 "$bin" topo "line(file($tmp/c4.edges))"
[ ! -s "$tmp/err" ] || fail "line(file(...)) printed: $(cat "$tmp/err")"
finish cli_graph_hint
