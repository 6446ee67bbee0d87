/*
** a2a_route.h — all-to-all routings (paper 003 §3.1.4, §5.2–§5.3): for every commodity
** (s,t) of two distinct compute nodes, a list of simple paths with exact weights; their
** fluid evaluation, their lowering to a verified step schedule, route files, virtual-channel
** layers, and the routing baselines of paper 003 (direct, SSSP, EwSP, DOR).
**
** A routing sends one shard per commodity (unit demand): path p of commodity (s,t) carries
** the fraction weight[p] of it, and the weights of a commodity sum to exactly 1. A path is a
** sequence of arc ids from s to t that visits no node twice; on a multigraph two parallel
** arcs make two different paths, and a hop's capacity is its arc's. Diagonal commodities
** (s == t) and commodities with a switch end have no paths.
**
** Fluid evaluation (paper 003 §2.2, §5.3): the load of arc a is Σ_{p ∋ a} weight[p] /
** cap(a), exact; L = max_a load is the all-to-all time in units of shard / link capacity,
** and F = 1/L the concurrent rate the routing achieves (F <= the MCF value of a2a.h).
** Everything is computed in integer units of 1/D, D the LCM of the weight denominators.
**
** Lowering (store-and-forward): a commodity's shard is cut into D units, its paths take
** consecutive unit ranges (weight[p] * D each, in path order), and hop h of every path runs
** in step h. The result is a TC_COLL_ALLTOALL schedule (sched.h); callers verify it like any
** generator's output. Its steps are the longest path's hops, and per step the load of an
** arc is what the paths put on it at that hop, so its T_B (tc_schedule_cost) is at least
** the fluid L's d / (C F) and equals it when every arc's hops fall in one step.
**
** Ownership: tc_a2a_routing_init, then tc_a2a_routing_add for each path in any order, then
** tc_a2a_routing_finish (sorts into commodity order and checks everything above against
** the graph); tc_a2a_routing_destroy accepts an empty (zeroed) routing. Every generator
** returns a finished routing; on failure outputs are empty.
*/
#ifndef TOPOCOLL_A2A_ROUTE_H
#define TOPOCOLL_A2A_ROUTE_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/graph.h"
#include "topocoll/rational.h"
#include "topocoll/sched.h"

/* The most paths a routing may hold (every generator refuses more, TC_ERANGE, before
   building them): 2^24, a few hundred MB of paths and transfers. */
#define TC_A2A_MAX_PATHS (1LL << 24)

typedef struct tc_a2a_routing {
  int32_t nodes;      /* N of the graph */
  int64_t npaths;
  int32_t *commodity; /* per path: s * N + t */
  tc_rat *weight;     /* per path: its fraction of the shard, 0 < weight <= 1 */
  int64_t *hop_off;   /* npaths + 1: path p's arcs are arc[hop_off[p] .. hop_off[p+1]-1] */
  int64_t *arc;       /* arc ids, from s to t */
  int64_t *first;     /* after finish, N*N + 1 entries: commodity k's paths are
                         first[k] .. first[k+1]-1 (NULL before) */
  int64_t path_room, arc_room;
  char algorithm[32]; /* generator name: "ewsp", "file", ... */
} tc_a2a_routing;

TC_API int tc_a2a_routing_init(tc_a2a_routing *r, int32_t nodes, const char *algorithm, tc_error *err);
/* Append a path of commodity (s,t): len arc ids (copied) and its weight. Only the ranges of
   s and t and the weight's sign are checked here; finish checks the rest. */
TC_API int tc_a2a_routing_add(tc_a2a_routing *r, int32_t s, int32_t t, const int64_t *arcs, int32_t len,
                              tc_rat weight, tc_error *err);
/* Sort the paths into commodity order (stable) and check them against g: every path a
   simple path s -> t over arcs of g, the weights of each commodity summing to 1, every
   commodity of two distinct compute nodes routed, no other commodity. TC_EINPUT naming
   the first problem: "path 3 of commodity (0,2) visits node 1 twice". */
TC_API int tc_a2a_routing_finish(const tc_graph *g, tc_a2a_routing *r, tc_error *err);
TC_API void tc_a2a_routing_destroy(tc_a2a_routing *r);

/* ---- fluid evaluation ---- */

typedef struct tc_a2a_load {
  int64_t denom;    /* D: LCM of the weight denominators */
  int64_t *units;   /* per arc: Σ_{p ∋ a} weight[p] * D (an integer) */
  tc_rat max_load;  /* L = max_a units[a] / (D * cap(a)), in shards per unit capacity */
  int64_t max_arc;  /* the lowest arc id attaining L (-1 if no arc carries anything) */
  tc_rat rate;      /* F = 1 / L (0/1 when nothing moves) */
} tc_a2a_load;

/* TC_ERANGE when D or a load overflows int64 ("the weights' common denominator ...
   exceeds 2^62"). */
TC_API int tc_a2a_routing_load(const tc_graph *g, const tc_a2a_routing *r, tc_a2a_load *out, tc_error *err);
TC_API void tc_a2a_load_destroy(tc_a2a_load *l);

/* ---- lowering ---- */

/* The store-and-forward step schedule of r (units = D), NOT verified. TC_ERANGE when D
   overflows, as tc_a2a_routing_load. */
TC_API int tc_a2a_routing_lower(const tc_graph *g, const tc_a2a_routing *r, tc_schedule *out, tc_error *err);

/* ---- route files (docs/formats.md, "Route files") ---- */

/* Write r as a route file (core/io_atomic: replaced atomically; "-" is standard output).
   `spec` (may be NULL) is recorded in a comment. */
TC_API int tc_a2a_routing_write(const tc_graph *g, const char *spec, const tc_a2a_routing *r, const char *path,
                                tc_error *err);
/* Read a route file for g into a finished routing. TC_EINPUT "file:line: problem" for
   anything malformed or not a routing of g; TC_EIO if it cannot be read. */
TC_API int tc_a2a_routing_read(const char *path, const tc_graph *g, tc_a2a_routing *out, tc_error *err);

/* ---- virtual-channel layers (paper 003 §5.5) ---- */

/* LASH-sequential: the paths in routing order, each put in the first layer whose channel
   dependency graph (an edge a -> b for consecutive arcs a, b of a path) stays acyclic
   with it, a new layer when none does. layer[p] (npaths entries, caller's) gets path p's
   layer, *nlayers the number of layers (0 when there are no paths). */
TC_API int tc_a2a_routing_layers(const tc_graph *g, const tc_a2a_routing *r, int32_t *layer, int32_t *nlayers,
                                 tc_error *err);

/* ---- baselines (paper 003 §5.2–§5.3; rules in docs/alltoall_routes.md) ---- */

/* One shortest path per commodity: from s, always the lowest-id arc that gets one hop
   closer to t. */
TC_API int tc_a2a_route_direct(const tc_graph *g, tc_a2a_routing *out, tc_error *err);
/* SSSP (paper 003 ref. [19]): one path per commodity, destinations in order 0..N-1, each
   routed along a least-weight tree; arc weights start at 1 and grow by the number of
   routes each destination put on the arc. */
TC_API int tc_a2a_route_sssp(const tc_graph *g, tc_a2a_routing *out, tc_error *err);
/* EwSP: every shortest path of a commodity (as arc sequences) with the same weight. */
TC_API int tc_a2a_route_ewsp(const tc_graph *g, tc_a2a_routing *out, tc_error *err);
/* Dimension-order routing on torus(dims[0], ..., dims[k-1]) as tc_topo_torus numbers it
   (node = Σ x_i * stride_i, dimension 0 slowest): dimensions in order 0..k-1, each the
   shorter way round (ties: the + direction). TC_EINPUT when g is not that torus. */
TC_API int tc_a2a_route_dor(const tc_graph *g, const int64_t *dims, int k, tc_a2a_routing *out, tc_error *err);

#endif
