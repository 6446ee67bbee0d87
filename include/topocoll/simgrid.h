/*
** simgrid.h — a graph as a SimGrid platform (XML v4.1) for SMPI simulations.
**
** tc_simgrid_write_platform(g, bw, alpha, dir) writes dir/platform.xml and dir/hostfile
** (dir and missing parents are created; both files are written or neither, each replaced
** atomically or written in place as output.h says; dir "-" is refused):
**   - one host per node, named "n<id>", in a single zone with routing="Full";
**   - one link per ordered node pair (u, w), u != w, joined by arcs, named "l<u>_<w>", with
**     bandwidth = (sum of the capacities of the u -> w arcs) * bw bytes/s (parallel arcs are
**     one link of their total capacity: SimGrid routes cannot pick among parallel links)
**     and latency alpha seconds, sharing policy SHARED (each direction is its own link);
**   - a route for every ordered pair (u, v), u != v, symmetrical="NO": neighbours over
**     their own link, others along a shortest directed path (fewest hops; each node's
**     predecessor on it is the lowest-id node one hop nearer the source, so the file is
**     deterministic), which the schedule executor never uses but SMPI's built-in
**     algorithms need;
**   - the hostfile lists n0 .. n<N-1>, one per line, so MPI rank r runs on node r.
** Self-loops get no link (SMPI delivers a message to oneself without the network).
** Hosts get speed 1 Gflop/s, which does not matter: simulations run with the computation
** not simulated. Numbers are written with enough digits to round-trip (%.17g with units
** "Bps" and "s").
** Errors: TC_EINPUT when g is not strongly connected (some route would not exist),
** bw <= 0 or alpha < 0 (or not finite), dir "-", dir or one of its parents an existing
** non-directory, platform.xml or hostfile a directory (or another refused target, output.h);
** TC_ERANGE when N*(N-1) routes exceed 2^26; TC_EIO naming the directory or file when it
** cannot be created or written.
*/
#ifndef TOPOCOLL_SIMGRID_H
#define TOPOCOLL_SIMGRID_H

#include "topocoll/export.h"

#include "topocoll/error.h"
#include "topocoll/graph.h"

TC_API int tc_simgrid_write_platform(const tc_graph *g, double link_bw, double alpha_s, const char *dir,
                                     tc_error *err);

#endif
