#!/usr/bin/env python3
"""layers_check.py SOURCE_DIR BUILD_DIR — fail when the layering of docs/architecture.md breaks.

The layer table is the fenced ```layers block of docs/architecture.md: one line per layer,
in order, with its folder and the public headers it implements. Three checks:

  1. includes: no file of src/<layer>/ or include/topocoll/ includes a header of a later
     layer (quoted includes of "topocoll/x.h" and "<layer>/x.h");
  2. symbols: no object file of the library (built from src/<layer>/*.c) references a
     symbol defined in an object of a later layer (nm on the built objects);
  3. cycles: the objects of the library do not reference each other in a cycle (a
     strongly connected set of two or more object files);
  4. the API boundary: libtopocoll.so exports exactly the functions the public headers
     declare TC_API (run_mpi.h's are libtopocoll_mpi.so's, when built), nothing internal.

Every violation is printed on one line; the exit status is the number found (capped).
"""
import collections
import os
import re
import subprocess
import sys


def read_layers(source):
    text = open(os.path.join(source, "docs", "architecture.md"), encoding="utf-8").read()
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    if not block:
        sys.exit("layers_check: docs/architecture.md has no ```layers block")
    order, folder_of, header_layer = [], {}, {}
    for line in block.group(1).strip().splitlines():
        name, folder, *headers = line.split()
        order.append(name)
        folder_of[name] = folder
        for h in headers:
            header_layer["topocoll/" + h] = name
    return order, folder_of, header_layer


def layer_of_path(rel, folder_of):
    for name, folder in folder_of.items():
        if rel.startswith(folder + "/"):
            return name
    return None


def check_includes(source, order, folder_of, header_layer, problems):
    rank = {n: i for i, n in enumerate(order)}
    files = []
    for name, folder in folder_of.items():
        d = os.path.join(source, folder)
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.endswith((".c", ".h", ".inc")):
                files.append((f"{folder}/{f}", name))
    inc = os.path.join(source, "include", "topocoll")
    for f in sorted(os.listdir(inc)):
        h = "topocoll/" + f
        if h not in header_layer:
            problems.append(f"include/topocoll/{f}: public header missing from the layers table")
        else:
            files.append((f"include/{h}", header_layer[h]))
    for rel, layer in files:
        for n, line in enumerate(open(os.path.join(source, rel), encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = m.group(1)
            tl = header_layer.get(target)
            if tl is None and "/" in target:
                tl = layer_of_path("src/" + target, folder_of)
            if tl is not None and rank[tl] > rank[layer]:
                problems.append(f"{rel}:{n}: layer {layer} includes {target} of the later layer {tl}")


def object_files(source, build, folder_of):
    """{source path relative to the tree: object path} for the library's objects."""
    objs = {}
    for root, _, names in os.walk(os.path.join(build, "CMakeFiles")):
        for f in names:
            if not f.endswith(".c.o"):
                continue
            path = os.path.join(root, f)
            m = re.search(r"/(src/[^/]+/[^/]+\.c)\.o$", path.replace(os.sep, "/"))
            # objects of deleted sources linger in an old build tree: skip them
            if m and layer_of_path(m.group(1), folder_of) and m.group(1) not in objs and \
                    os.path.exists(os.path.join(source, m.group(1))):
                objs[m.group(1)] = path
    return objs


def symbols(path):
    out = subprocess.run(["nm", "-P", path], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        sym, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(sym)
        elif kind in "TDBRVWCi":  # global definitions only: statics cannot be called across files
            defined.add(sym)
    return defined, undefined


def check_objects(source, build, order, folder_of, problems):
    rank = {n: i for i, n in enumerate(order)}
    objs = object_files(source, build, folder_of)
    if not objs:
        problems.append(f"{build}: no library objects found (build first)")
        return
    definer, uses = {}, {}
    for src, path in objs.items():
        d, u = symbols(path)
        uses[src] = u
        for s in d:
            definer.setdefault(s, src)
    edges = collections.defaultdict(set)
    for src, u in uses.items():
        layer = layer_of_path(src, folder_of)
        for s in sorted(u):
            if re.match(r"P?MPI_", s):  # the interposer defines MPI's own API: not ours
                continue
            tgt = definer.get(s)
            if tgt is None or tgt == src:
                continue
            edges[src].add(tgt)
            tl = layer_of_path(tgt, folder_of)
            if rank[tl] > rank[layer]:
                problems.append(f"{src}: layer {layer} calls {s} of {tgt} (the later layer {tl})")
    for comp in strongly_connected(sorted(objs), edges):
        if len(comp) > 1:
            problems.append("object cycle: " + " <-> ".join(sorted(comp)))


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def tc_api_functions(source):
    """{header: set of function names declared TC_API in it}."""
    out = {}
    inc = os.path.join(source, "include", "topocoll")
    for f in sorted(os.listdir(inc)):
        text = open(os.path.join(inc, f), encoding="utf-8").read()
        out[f] = set(re.findall(r"^TC_API\b[^(;]*?\b(tc_\w+)\s*\(", text, re.M))
    return out


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
    return {p[2] for p in (l.split() for l in out.splitlines()) if len(p) == 3 and p[1] in "TDBRVW"}


def check_exports(source, build, problems):
    api = tc_api_functions(source)
    for lib, headers in (("libtopocoll.so", [h for h in api if h != "run_mpi.h"]), ("libtopocoll_mpi.so", ["run_mpi.h"])):
        path = os.path.join(build, lib)
        if not os.path.exists(path):
            if lib == "libtopocoll.so":
                problems.append(f"{path}: not built")
            continue
        want = set().union(*(api[h] for h in headers))
        # C names only: compilers export their own runtime objects too (clang's OpenMP
        # critical sections: ".gomp_critical_user_.var"), and "_init"-style symbols
        have = {s for s in exported(path) if re.fullmatch(r"[A-Za-z]\w*", s)}
        for s in sorted(have - want):
            problems.append(f"{lib} exports {s}, which no public header declares TC_API (internal: prefix tci_, declare in src/)")
        for s in sorted(want - have):
            problems.append(f"{lib} does not export {s}, declared TC_API in a public header")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: layers_check.py SOURCE_DIR BUILD_DIR")
    source, build = sys.argv[1], sys.argv[2]
    order, folder_of, header_layer = read_layers(source)
    problems = []
    check_includes(source, order, folder_of, header_layer, problems)
    check_objects(source, build, order, folder_of, problems)
    check_exports(source, build, problems)
    for p in problems:
        print("layers_check: " + p, file=sys.stderr)
    if not problems:
        print(f"layers_check: ok ({len(order)} layers)")
    sys.exit(min(len(problems), 100))


if __name__ == "__main__":
    main()
