/*
** plan.h — the main job (paper 000 §5.4, its last step): for a cluster of N nodes with d
** ports, a per-step latency α, a link bandwidth and the allreduce sizes it will run, pick
** the topology with the least expected allreduce time from the finder's Pareto frontier
** (find.h), build it, build its allgather, reduce-scatter and allreduce schedules
** (tc_collective_build_set with the `expand` algorithm: the construction the prediction
** rests on), verify every one, measure them and the baselines of the algorithm registry
** (collective.h) on the same N and d, and write it all into a directory:
**
**   topology.json        the graph (graph JSON, readable back with file(...))
**   topology.dot         a Graphviz drawing
**   wiring.csv           the cabling plan (node, port -> node, port)
**   allgather.json       the chosen member's allgather (schedule JSON, sched_io.h)
**   reduce-scatter.json  Theorem 2 on the allgather when G ≅ G^T, else Corollary 1.1 (the
**                        reverse of the BFB allgather on G^T), paper 000 App. B
**   allreduce.json       reduce-scatter then allgather (paper 000 §3.2, Table 4)
**   summary.md           the frontier table, the choice and why (time per size of every
**                        member), and the predicted allreduce time per size of the chosen
**                        schedule against the ring and the double binary tree on the same N, d
**   .topocoll-plan       the marker (TC_PLAN_MARKER): this directory is a plan, which
**                        `force` may replace
**
** Guarantees:
**   - nothing unverified is written: every schedule passes tc_schedule_verify first (the
**     chosen allgather is also held to its prediction by tc_candidate_measure); the
**     measured costs in summary.md (the choice, the baselines) are tc_schedule_cost of
**     verified schedules, and the frontier and "why" tables, which are the finder's
**     predictions, say so;
**   - the directory appears whole or not at all: the files are written into a fresh
**     staging directory DIR.tmp-PID-i beside DIR, which is renamed into place last; on any
**     failure (an interrupting signal too, once tc_output_catch_signals is installed,
**     output.h) the staging directory is removed and DIR is left as it was;
**   - an existing non-empty DIR is refused (TC_EINPUT) unless `force` and DIR holds the
**     marker, i.e. was written by a plan: then it is replaced (the old directory is moved
**     aside, the new one renamed in, then the old one removed). A non-empty DIR without the
**     marker is never replaced, force or not. DIR "-" is refused; a symbolic link to a
**     directory names the directory (the link stays);
**   - nothing prints: progress goes through the caller's callback, one call per phase.
*/
#ifndef TOPOCOLL_PLAN_H
#define TOPOCOLL_PLAN_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/cost.h"
#include "topocoll/find.h"
#include "topocoll/graph.h"
#include "topocoll/sched.h"

/* One baseline measured on the same N and d: its allreduce schedule was built by
   baselines.h, verified and costed (tc_schedule_cost). */
#define TC_PLAN_MAX_BASELINES 16
typedef struct tc_plan_baseline {
  char name[32];        /* "ring", "bfbring", "dbt" */
  char topology[64];    /* its topology: a spec ("uniring(4,64)") or a description */
  int32_t chunks;       /* pipelining depth P of the double binary tree; 1 otherwise */
  int available;        /* 0: not applicable here, `note` says why; the costs are unset */
  char note[TC_ERRMSG_MAX]; /* why not, when not available */
  int32_t steps;        /* measured allreduce T_L / α */
  tc_rat tau;           /* measured allreduce T_B / (M/B) */
  int64_t degree;       /* node bandwidth the schedule uses, in links (B = degree * link_bw) */
} tc_plan_baseline;

typedef struct tc_plan {
  tc_find_options find;     /* what was asked (build is ignored: only the choice is built) */
  tc_workload workload;
  tc_frontier frontier;     /* the finder's Pareto frontier (predicted costs); the chosen
                               member is also built and measured (tc_candidate_measure:
                               built, verified, measured_*, diameter, avg_distance) */
  int32_t chosen;           /* index into frontier.member */
  tc_graph *graph;          /* the chosen topology */
  tc_schedule allgather, reduce_scatter, allreduce; /* all verified */
  tc_cost allgather_cost, reduce_scatter_cost, allreduce_cost;
  int reverse_symmetric;    /* 1: reduce-scatter by Theorem 2, 0: by Corollary 1.1 */
  int32_t nbaselines;
  tc_plan_baseline baseline[TC_PLAN_MAX_BASELINES];
} tc_plan;

/* Progress: one call per phase with a short line ("building genkautz(4,64)"). */
typedef void (*tc_plan_progress)(void *ctx, const char *phase);

/* Find, choose, build and verify everything for the cluster `find` (find->build is
   ignored) and workload w (count >= 1, alpha_s >= 0, link_bw > 0). progress may be NULL.
   On failure *out is left empty (safe to tc_plan_destroy). */
TC_API int tc_plan_make(const tc_find_options *find, const tc_workload *w, tc_plan_progress progress, void *ctx,
                        tc_plan *out, tc_error *err);
TC_API void tc_plan_destroy(tc_plan *p);

/* The marker file of a plan directory (plan.h: `force` replaces only a directory holding it). */
#define TC_PLAN_MARKER ".topocoll-plan"

/* Whether `dir` may receive a plan: it does not exist, or is an empty directory, or
   `force` is set and it is a plan directory (holds TC_PLAN_MARKER). Anything else is
   TC_EINPUT with one line. */
TC_API int tc_plan_check_dir(const char *dir, int force, tc_error *err);

/* Write the plan's files into dir, whole or not at all (see the header). */
TC_API int tc_plan_write(const tc_plan *p, const char *dir, int force, tc_plan_progress progress, void *ctx,
                         tc_error *err);

/* Write summary.md alone to path (replaced atomically). */
TC_API int tc_plan_write_summary(const tc_plan *p, const char *path, tc_error *err);

/* Predicted allreduce time (s) at one size M (bytes): steps*α + tau*M/(degree*link_bw)
   with steps, tau and degree measured (tc_schedule_cost) on the chosen member's verified
   allreduce schedule, or on a baseline's. */
TC_API double tc_plan_time(const tc_plan *p, double bytes);
TC_API double tc_plan_baseline_time(const tc_plan *p, const tc_plan_baseline *b, double bytes);

#endif
