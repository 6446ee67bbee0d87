/*
** simgrid.h — a graph as a SimGrid platform (XML v4.1) for SMPI simulations.
**
** tc_simgrid_write_platform(g, bw, alpha, dir) writes dir/platform.xml and dir/hostfile
** (dir and missing parents are created; both files are written or neither, each replaced
** atomically or written in place as output.h says; dir "-" is refused):
**   - one host per compute node, named "n<id>", and one <router> per switch node, named
**     "n<id>" too, in a single zone with routing="DijkstraCache" (a graph without switches
**     has hosts only);
**   - one link per ordered node pair (u, w), u != w, joined by arcs, named "l<u>_<w>", with
**     bandwidth = (sum of the capacities of the u -> w arcs) * bw bytes/s (parallel arcs are
**     one link of their total capacity: SimGrid routes cannot pick among parallel links)
**     and latency alpha seconds, sharing policy SHARED (each direction is its own link);
**   - one route per link, u -> w over l<u>_<w> alone, symmetrical="NO" — and no other:
**     SimGrid computes the route between any other pair on demand, a path with the fewest
**     links (one Dijkstra per source, cached), choosing among equally short ones by its
**     own rule, the same for the same file. A transfer between neighbours therefore uses
**     exactly its own link (the only one-link path), which is all the schedule executor
**     sends over on a graph without switches; the longer routes serve SMPI's built-in
**     algorithms. On a fabric routes run through the routers, and a message between hosts
**     (a switch relay collapsed into one send, program.h) takes SimGrid's shortest path,
**     which may differ from the path the schedule's hops took;
**   - the hostfile lists the hosts of the ranks, rank r's (rank_map.h: the r-th compute
**     node) on line r, so MPI rank r runs on the node it plays: n0 .. n<N-1> without
**     switches.
** The platform file has N + 2 * (distinct arcs) lines besides its frame (N hosts and routers): its size grows
** with the links, not with the node pairs, so no size limit applies (SimGrid's route cache
** is at most N^2 node ids, held by the simulation, not written).
** Self-loops get no link (SMPI delivers a message to oneself without the network).
** Hosts get speed 1 Gflop/s, which does not matter: simulations run with the computation
** not simulated. Numbers are written with enough digits to round-trip (%.17g with units
** "Bps" and "s"); the file is the same on every run.
** Errors (nothing is written): TC_EINPUT when g has no nodes or no compute node, is not
** strongly connected (some route would not exist), bw <= 0 or alpha < 0 (or not finite),
** dir "-", dir or one of its parents an existing non-directory, platform.xml or hostfile a
** directory (or another refused target, output.h); TC_ERANGE when the capacities of one node pair sum past
** 2^63 - 1 or a link's bandwidth (summed capacity times bw) is not a finite positive double,
** naming the pair "arcs n<u> -> n<w>"; TC_EIO naming the directory or file when it cannot
** be created or written.
*/
#ifndef TOPOCOLL_SIMGRID_H
#define TOPOCOLL_SIMGRID_H

#include "topocoll/export.h"

#include "topocoll/error.h"
#include "topocoll/graph.h"

TC_API int tc_simgrid_write_platform(const tc_graph *g, double link_bw, double alpha_s, const char *dir,
                                     tc_error *err);

#endif
