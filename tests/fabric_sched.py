#!/usr/bin/env python3
"""fabric_sched.py — step schedules on fabrics (compute nodes behind switches) for the CLI,
MPI and SimGrid tests, written as schedule JSON (docs/formats.md), one IR step per hop.
No generator of topocoll builds schedules on graphs with switches yet; these are the
schedules tests/tc_fabric.h builds in C, for the shell tests.

  fabric_sched.py ring GRAPH.json ORDER UNITS OUT.json
      allgather around the ring of ranks ORDER (comma list; rank r is the r-th compute node
      of GRAPH.json, a graph JSON document as `topocoll topo SPEC --graph-json` writes it):
      round r (0..R-2) takes steps r*D+1 .. r*D+D, D the longest ring hop; position p sends
      the shard of position p - r to position p + 1 along a shortest path whose inner nodes
      are switches (breadth-first, arcs in id order), hop i at step r*D + 1 + i.
  fabric_sched.py islands M COLL OUT.json
      two islands of M compute nodes, complete inside, and one switch linked to all (node
      2M), capacity 1; the hierarchical allgather, reduce-scatter or allreduce of
      tests/tc_fabric.h (every shard crosses the switch once per half).
  fabric_sched.py replicate GRAPH.json OUT.json
      an allgather the verifier accepts but the executors refuse: every rank sends its shard
      into its first switch once, and that switch sends it on to every other rank's path.
      For a graph where one switch reaches every compute node (a star, fig2toy).
"""
import collections
import json
import sys


def compute_nodes(kinds):
    return [u for u, k in enumerate(kinds) if k == "compute"]


def path(n, arcs, kinds, u, v):
    """Arc ids of a shortest u -> v path whose inner nodes are switches."""
    out = collections.defaultdict(list)
    for a, (s, d, *_) in enumerate(arcs):
        out[s].append(a)
    via = {u: None}
    queue = collections.deque([u])
    while queue and v not in via:
        x = queue.popleft()
        if x != u and kinds[x] != "switch":
            continue
        for a in out[x]:
            d = arcs[a][1]
            if d not in via:
                via[d] = a
                queue.append(d)
    if v not in via:
        sys.exit(f"fabric_sched.py: no path {u} -> {v} through switches")
    hops = []
    while v != u:
        hops.append(via[v])
        v = arcs[via[v]][0]
    return hops[::-1]


def document(graph, coll, ranks, units, transfers, rs_steps=0, algorithm="fabric"):
    transfers.sort(key=lambda x: (x[1], x[0], x[2], x[3], x[4]))
    return {
        "format": "topocoll-schedule",
        "version": 1,
        "graph": graph,
        "schedule": {
            "collective": coll,
            "algorithm": algorithm,
            "nodes": graph["nodes"],
            "nshards": len(ranks),
            "owners": ranks,
            "units": units,
            "steps": max(x[1] for x in transfers),
            "rs_steps": rs_steps,
            "transfers": transfers,
        },
    }


def read_graph(file):
    g = json.load(open(file))
    kinds = g.get("kinds", ["compute"] * g["nodes"])
    graph = {"spec": g.get("spec"), "nodes": g["nodes"], "arcs": g["arcs"], "kinds": kinds}
    return graph, kinds


def ring(file, order, units):
    graph, kinds = read_graph(file)
    ranks = compute_nodes(kinds)
    order = [int(r) for r in order.split(",")]
    if sorted(order) != list(range(len(ranks))):
        sys.exit("fabric_sched.py: ORDER must list every rank once")
    R = len(order)
    hop = [path(graph["nodes"], graph["arcs"], kinds, ranks[order[p]], ranks[order[(p + 1) % R]]) for p in range(R)]
    D = max(len(h) for h in hop)
    transfers = []
    for r in range(R - 1):
        for p in range(R):
            for i, a in enumerate(hop[p]):
                transfers.append([order[(p - r) % R], r * D + 1 + i, a, 0, units])
    return document(graph, "allgather", ranks, units, transfers, algorithm="fabric-ring")


def islands(m, coll):
    n = 2 * m + 1
    arcs = []
    for u in range(2 * m):
        arcs += [[u, 2 * m], [2 * m, u]]
        arcs += [[u, v] for v in range(2 * m) if v != u and u // m == v // m]
    arcs.sort()
    graph = {"spec": f"islands({m})", "nodes": n, "arcs": arcs, "kinds": ["compute"] * (2 * m) + ["switch"]}
    arc = {(s, d): a for a, (s, d) in enumerate(arcs)}
    sw, transfers, t = 2 * m, [], 0
    if coll != "allgather":  # reduce-scatter: steps 1-3
        for k in range(2 * m):
            partner = (k + m) % (2 * m)
            for j in range(2 * m):
                to = k if j // m == k // m else partner
                if j != to:
                    transfers.append([k, 1, arc[j, to], 0, 1])
            transfers += [[k, 2, arc[partner, sw], 0, 1], [k, 3, arc[sw, k], 0, 1]]
        t = 3
    if coll != "reduce-scatter":  # allgather: steps t+1 .. t+3
        for k in range(2 * m):
            partner = (k + m) % (2 * m)
            for j in range(2 * m):
                if j in (k, partner):
                    continue
                src = k if j // m == k // m else partner
                transfers.append([k, t + 1 if src == k else t + 3, arc[src, j], 0, 1])
            transfers += [[k, t + 1, arc[k, sw], 0, 1], [k, t + 2, arc[sw, partner], 0, 1]]
    return document(graph, coll, list(range(2 * m)), 1, transfers, 3 if coll == "allreduce" else 0,
                    algorithm="fabric-islands")


def replicate(file):
    graph, kinds = read_graph(file)
    ranks = compute_nodes(kinds)
    transfers = []
    for k, u in enumerate(ranks):
        first = None
        for j, v in enumerate(ranks):
            if j == k:
                continue
            p = path(graph["nodes"], graph["arcs"], kinds, u, v)
            if first is None:
                first = p[0]
                transfers.append([k, 1, first, 0, 1])
            if p[0] != first or len(p) != 2:
                sys.exit("fabric_sched.py: replicate needs one switch next to every compute node")
            transfers.append([k, 2, p[1], 0, 1])
    return document(graph, "allgather", ranks, 1, transfers, algorithm="fabric-replicate")


def main():
    a = sys.argv[1:]
    if len(a) == 5 and a[0] == "ring":
        doc, out = ring(a[1], a[2], int(a[3])), a[4]
    elif len(a) == 4 and a[0] == "islands":
        doc, out = islands(int(a[1]), a[2]), a[3]
    elif len(a) == 3 and a[0] == "replicate":
        doc, out = replicate(a[1]), a[2]
    else:
        sys.exit(__doc__)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


main()
