/*
** bfb.h — Breadth-First-Broadcast allgather schedules (paper 000 §6, App. E).
**
** A BFB schedule delivers every source v's shard to the nodes at distance t from v in comm
** step t, over shortest paths only (Def. 15), so it takes exactly D(G) steps (Thm 15). For
** each receiving node u and step t, LP (1) splits the shards of the sources
** N_t^-(u) = {v : d(v,u) = t} over u's in-arcs (w,u) with d(v,w) = t-1 so that the largest
** load per unit of arc capacity, U_{u,t}, is as small as possible; by Thm 16 the resulting
** schedule has the least T_B of all BFB schedules, and T_B = (M/B)(d/N) Σ_t max_u U_{u,t}.
**
** Contract of the exact generator (tc_bfb_allgather, tc_bfb_optima):
**   - every U*_{u,t} is the exact optimum of LP (1), found with integer max-flows only (no
**     floating point): parallel arcs are separate in-arcs with capacity cap[a], self-loops
**     carry nothing (no shortest path ends with a loop);
**   - the schedule is an allgather on g with algorithm "bfb", steps == D(G), and every
**     source's shard reaches every receiver exactly once per byte: the chunks that u
**     receives of v's shard are consecutive sub-intervals of [0, units) (any split covering the
**     shard works, paper 000 §6.1, since every sender holds all of it), so
**     the schedule is exact, with `units` the LCM of the optimal denominators;
**   - the output does not depend on the number of threads (OpenMP across receivers);
**   - a graph that is not strongly connected, or that has switch nodes, is TC_EINPUT;
**     a common denominator or capacity product beyond int64 is TC_ERANGE.
** The result should still go through tc_schedule_verify (verify.h) before it is used.
**
** The per-(u,t) problems, their exact and GLPK solvers (the cross-check) and the
** heterogeneous LP (14) of App. E.3 per receiver are internal (src/synth/bfb_internal.h).
*/
#ifndef TOPOCOLL_BFB_H
#define TOPOCOLL_BFB_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/graph.h"
#include "topocoll/rational.h"
#include "topocoll/sched.h"

/* Counters from one exact BFB run. */
typedef struct tc_bfb_stats {
  int32_t diameter;   /* D(G) = number of steps */
  int64_t problems;   /* (u,t) problems with at least one source */
  int64_t solved;     /* problems solved by max-flow; the rest were repeats found in a
                         thread's memo (so this count depends on the thread count) */
  int64_t maxflows;   /* max-flow runs over all solved problems */
  int64_t units;      /* common denominator of all chunk endpoints */
} tc_bfb_stats;

/* The optimal BFB allgather of g (initialises *out; stats may be NULL). */
TC_API int tc_bfb_allgather(const tc_graph *g, tc_schedule *out, tc_bfb_stats *stats, tc_error *err);

/* Exact U*_{u,t} for every node u and step t = 1..D: (*U)[u * D + t - 1], in shards per unit
   of arc capacity; 0 where u has no source at distance t. The caller frees *U (NULL when
   D == 0). */
TC_API int tc_bfb_optima(const tc_graph *g, tc_rat **U, int32_t *diameter, tc_error *err);

/* A heterogeneous BFB allgather schedule: LP (14) per (u,t), each job's amounts rounded to
   P units per shard (largest remainder, App. E.2). Its time (tc_schedule_time_hetero) is
   within the rounding of tc_bfb_hetero_time's. */
TC_API int tc_bfb_allgather_hetero(const tc_graph *g, const double *alpha, const double *bw, double shard_bytes,
                                   int64_t P,
                                   tc_schedule *out, tc_error *err);

/* Predicted heterogeneous BFB allgather time Σ_t max_u U_{u,t} (seconds). */
TC_API int tc_bfb_hetero_time(const tc_graph *g, const double *alpha, const double *bw, double shard_bytes,
                              double *time_s, tc_error *err);

#endif
