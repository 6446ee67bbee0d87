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
**   wiring.csv           the cabling plan (node, port -> node, port): duplex cables when
**                        find.bidirectional, else simplex fibres (graph_io.h, tc_wiring_links);
**                        summary.md also gives the other cabling's predicted choice
**   ranks.csv            (written by the caller through tc_plan_write_extra: the CLI)
**                        rank -> node -> port: per end of every cable, the rank playing
**                        the node and the peer (rank_map.h, tc_rank_ports_write, a later
**                        layer), in wiring.csv's numbering; export --rank-map checks it
**   plan.json, report.html, topology.svg  (also written by the CLI through
**                        tc_plan_write_extra) the plan's numbers and its HTML report with the
**                        topology's full drawing (docs/report.md)
**   allgather.json       the chosen member's allgather (schedule JSON, sched_io.h)
**   reduce-scatter.json  Theorem 2 on the allgather when G ≅ G^T, else Corollary 1.1 (the
**                        reverse of the BFB allgather on G^T), paper 000 App. B
**   allreduce.json       reduce-scatter then allgather (paper 000 §3.2, Table 4)
**   summary.md           the frontier table, the choice and why (time per size of every
**                        member), and the predicted allreduce time per size of the chosen
**                        schedule against the ring and the double binary tree on the same N, d
**   allreduce-forestcoll.json  only when ForestColl's allreduce on the chosen topology
**                        (tried for N <= TC_PLAN_FOREST_MAX_NODES, pipelined at P = 1, 2, ...,
**                        64) is faster than allreduce.json at the workload's largest size;
**                        summary.md says per size which of the two runs (tc_plan_allreduce_at)
**   alltoall.json        only when the workload has all-to-alls (w->a2a_bytes > 0): the
**                        chosen member's all-to-all schedule, the fastest at a2a_bytes of
**                        those tried (tc_plan.a2a: tsMCF "mcf" up to TC_PLAN_TSMCF_MAX_NODES
**                        nodes, the routings "ewsp" and "sssp"), verified
**   alltoall.routes      with it, when that schedule is a routing's lowering: the routing as
**                        a route file (a2a_route.h)
**   .topocoll-plan       the marker (TC_PLAN_MARKER): this directory is a plan, which
**                        `force` may replace
**
** All-to-all (w->a2a_bytes > 0): every frontier member's MCF is certified first
** (tc_frontier_a2a, w->a2a_time_limit per member) and the choice minimises the allreduce
** mean plus a2a_weight all-to-all times at the certified f (tc_frontier_choose); summary.md
** gets the members' f and all-to-all times and the written schedule against the fluid
** optimum.
**
** A fabric plan (tc_plan_fabric_make: a cluster the user already has, no search) writes
** topology.json, topology.dot, wiring.csv, forest.json (the verified allreduce forest,
** tc_forest_write_json with its trees), allgather-forestcoll.json,
** reduce-scatter-forestcoll.json, allreduce-forestcoll.json (ForestColl pipelined at the P
** fastest at the largest size), allgather-bfb.json, reduce-scatter-bfb.json,
** allreduce-bfb.json (switch-free graphs only), summary.md and the marker.
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
**   - nothing prints: progress goes through the caller's callback (topocoll/progress.h): a
**     phase per step ("finding the Pareto frontier for N = 64, d = 4", "building
**     genkautz(4,64) and its allgather, reduce-scatter and allreduce", "resilience: ...",
**     "baselines: ...", "writing DIR: FILE"), counted where the step has parts (failures
**     tried, baselines built, members certified, files written), ForestColl's own phases ("forest: ...") inside.
*/
#ifndef TOPOCOLL_PLAN_H
#define TOPOCOLL_PLAN_H

#include "topocoll/progress.h"
#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/a2a_route.h"
#include "topocoll/cost.h"
#include "topocoll/find.h"
#include "topocoll/forest.h"
#include "topocoll/graph.h"
#include "topocoll/graph_io.h"
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

/* ForestColl on the plan's graph (forest.h): the optimal forest of each collective built,
   lowered to step schedules (tc_forest_lower) at P = 1, 2, 4, ..., TC_PIPELINE_MAX, each
   verified and costed. depth[i][j] is collective coll[i] at P = 2^j (name "forestcoll");
   sched[i] is the one fastest at the workload's largest size (ties: the smaller P).
   The allreduce is also built with the water-filling weights (tc_forest_allreduce_weights)
   when they are not equal shares, and the weighting whose fastest schedule at the largest
   size is faster is kept (ties: equal shares): its forest, depths and schedule. */
#define TC_PLAN_DEPTHS 7
typedef struct tc_plan_forestcoll {
  int built;                 /* 0: not built, `note` says why (refused fabric, too large) */
  char note[TC_ERRMSG_MAX];
  tc_forest forest;          /* the allreduce forest, verified: its parts' optima and bottleneck
                                cuts are the certificate */
  int ncoll;                 /* 3 (allgather, reduce-scatter, allreduce) or 1 (allreduce) */
  tc_collective coll[3];
  tc_plan_baseline depth[3][TC_PLAN_DEPTHS];
  tc_schedule sched[3];      /* verified */
  tc_cost cost[3];
  int64_t chunks[3];         /* P of sched[i] */
  tc_rat ring_algbw;         /* tc_forest_ring_bound: the best any ring allgather reaches */
  int64_t ring_min_cut;
  int weights_tried;         /* 1: the auto weights differ from equal shares and were measured */
  int weighted;              /* 1: the allreduce kept (forest, depth row, sched) has the auto weights */
  int32_t weight_owners;     /* weights_tried: compute nodes with a share under the auto weights */
  tc_plan_baseline other;    /* weights_tried: the weighting not kept, at its P fastest at the largest
                                size (other.available 0: it failed, other.note says why) */
} tc_plan_forestcoll;

/* Plans of more nodes than this do not try ForestColl (its search and packing take seconds
   at N = 64 and 14 s at N = 256 on the chosen members of d = 4, against under one second for
   the rest of those plans; docs/forestcoll.md, "Planning a fabric") — unless the member's
   allreduce misses the cost model's bound (tc_cost.bw_optimal == 0: a graph with self-loops
   or thin nodes, where weighted roots can do better), up to TC_PLAN_FOREST_MAX_NODES_UNMET. */
#define TC_PLAN_FOREST_MAX_NODES 32
#define TC_PLAN_FOREST_MAX_NODES_UNMET 64

/* Plans of more nodes than this do not try the tsMCF all-to-all schedule (its time-expanded
   LP took 0.09 s at N = 16, 11 s at N = 32 and over 2 minutes at N = 64 on the members of
   d = 4; docs/alltoall.md, "In find and plan"); the routings are tried at every size. */
#define TC_PLAN_TSMCF_MAX_NODES 16
/* The all-to-all schedules a plan tries, at most. */
#define TC_PLAN_MAX_A2A 3

/* Resilience (issue #14 §8): the chosen topology after any single link failure — a duplex
   pair when the graph is bidirectional, else an arc (tc_graph_without_links). Failures the
   automorphism group maps onto each other cost the same, so one link per class is failed,
   its allreduce re-synthesized by BFB on the degraded graph, verified and costed
   (tc_collective_build); at most TC_PLAN_RESILIENCE_MAX_CLASSES classes are built (a
   spread sample, said so, beyond that: each takes 0.2 s at 256 nodes). Worst and typical
   (the median over links, each class weighing its links) are by expected workload time. */
#define TC_PLAN_RESILIENCE_MAX_CLASSES 16
typedef struct tc_plan_failure {
  int32_t u, v;          /* the failed link u-v (a representative of its class) */
  int64_t links;         /* links in its class */
  int disconnects;       /* 1: the cluster falls apart (no allreduce; the costs are unset) */
  int32_t steps;         /* the degraded allreduce's T_L / α */
  tc_rat tau;            /* its T_B / (M/B) */
  int64_t degree;        /* node bandwidth it uses, in links */
  double expected_s;     /* its expected allreduce time over the workload */
} tc_plan_failure;

typedef struct tc_plan_resilience {
  int done;              /* 0: not evaluated, note says why */
  char note[TC_ERRMSG_MAX];
  int64_t links;         /* links of the chosen topology */
  int32_t classes;       /* link classes under the automorphisms found */
  int32_t evaluated;     /* classes built: all, or TC_PLAN_RESILIENCE_MAX_CLASSES of them */
  int64_t disconnecting; /* links (of the evaluated classes) whose failure disconnects */
  tc_plan_failure worst, typical;
} tc_plan_resilience;

typedef struct tc_plan {
  char spec[256];           /* the graph's spec: the chosen member's, or the fabric's */
  int fabric;               /* 1: tc_plan_fabric_make: no frontier (count 0, chosen -1), no
                               baselines; allgather, reduce_scatter, allreduce are BFB's when
                               has_member, forestcoll holds the ForestColl schedules */
  int has_member;           /* 1: allgather, reduce_scatter, allreduce and their costs are set */
  char member_note[TC_ERRMSG_MAX]; /* why not, when not */
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
  tc_plan_forestcoll forestcoll;
  /* all-to-all, when workload.a2a_bytes > 0 (has_a2a 1): the schedules tried on the chosen
     topology (name "mcf", "ewsp", "sssp"; one that cannot be built here has available 0
     and the reason), the fastest at a2a_bytes kept, verified and costed */
  int has_a2a;
  int32_t na2a;
  tc_plan_baseline a2a[TC_PLAN_MAX_A2A];
  int32_t a2a_chosen;       /* index into a2a */
  tc_schedule alltoall;     /* verified */
  tc_cost alltoall_cost;
  int has_a2a_routing;      /* 1: alltoall is the lowering of alltoall_routing */
  tc_a2a_routing alltoall_routing;
  /* Cabling: find.bidirectional 1 is duplex cables (links in opposite pairs, one cable and
     two ports per pair), 0 simplex fibres (one per arc; wiring.csv has simplex rows even
     where arcs pair up). The other cabling's choice for the same allreduce sizes, predicted
     by the finder (nothing built), so the summary can say what it would gain: */
  int other_links_found;    /* 0: no topology has the other cabling here, other_links_note says why */
  char other_links_note[TC_ERRMSG_MAX];
  tc_candidate other_links; /* its choice (least tc_candidate_allreduce_time) */
  tc_plan_resilience resilience;
  /* The user's alternatives (tc_plan_compare), set by the caller after tc_plan_make and shown
     beside the choice in summary.md; owned by the plan (tc_plan_destroy frees them). */
  int32_t ncompare;
  struct tc_plan_alternative *compare;
} tc_plan;

/* An alternative the user is deciding between (plan --compare, find --compare; issue #14
   §4), measured at the workload's sizes on its own topology with its own best algorithm:
   `item` is a topology spec ("torus(8,8)": every registry algorithm that builds an allreduce
   on it is tried — pipelined ones at P = 1, 2, ..., TC_PIPELINE_MAX, ForestColl only up to
   TC_PLAN_FOREST_MAX_NODES nodes — each verified and costed, and per size the fastest
   kept) or an algorithm name with a topology of its own for the cluster ("ring": that
   algorithm on its home, tc_algorithm_home). A spec must have the cluster's N nodes and
   at most d ports per node. */
typedef struct tc_plan_alternative {
  char item[256];            /* as given */
  char topology[256];        /* the spec or home topology it runs on */
  int32_t count;             /* the workload's sizes */
  double time_s[64];         /* per size: the fastest verified allreduce, steps·α + tau·M/(deg·b) */
  char algorithm[64][32];    /* per size: which algorithm ... */
  int64_t chunks[64];        /* ... at which P */
  double expected_s;         /* the weighted mean of time_s */
} tc_plan_alternative;

/* Measure one alternative for the cluster (nodes, degree, duplex links when bidirectional)
   and workload w (tci_plan_check_workload's rules). Bad items — an unknown name, a spec that
   does not parse or has another size, an algorithm with no home here, a topology no
   algorithm builds an allreduce on — are TC_EINPUT naming the item. */
TC_API int tc_plan_compare(const char *item, int32_t nodes, int32_t degree, int bidirectional, const tc_workload *w,
                           tc_plan_alternative *out, tc_error *err);

/* Find, choose, build and verify everything for the cluster `find` (find->build is
   ignored) and workload w (count >= 1, alpha_s >= 0, link_bw > 0). progress may be NULL.
   On failure *out is left empty (safe to tc_plan_destroy). */
TC_API int tc_plan_make(const tc_find_options *find, const tc_workload *w, tc_progress_fn progress, void *ctx,
                        tc_plan *out, tc_error *err);
TC_API void tc_plan_destroy(tc_plan *p);

/* A plan for a fabric the user already has (a spec: 'dgx_a100(4)', 'mi250(2)',
   'file(x.json)', or any topology): no topology search. ForestColl's allgather,
   reduce-scatter and allreduce (tc_plan_forestcoll), and BFB's three when g has no switch
   (else has_member = 0 with the reason), all verified and costed; the ring bound. A fabric
   ForestColl refuses (tc_forest_check_fabric) is TC_EINPUT naming the problem. Costs use
   w->link_bw as the bandwidth of a capacity-1 arc. On failure *out is left empty. */
TC_API int tc_plan_fabric_make(const char *spec, const tc_workload *w, tc_progress_fn progress, void *ctx,
                               tc_plan *out, tc_error *err);

/* What the plan runs for an allreduce of `bytes`: the fastest of the member's allreduce
   (has_member) and forestcoll at each P; *name is "forestcoll" or the member's algorithm
   ("expand", "bfb"), *chunks its P (1 for the member). Returns the predicted time (s), or
   -1 when the plan has no allreduce at all. */
TC_API double tc_plan_allreduce_at(const tc_plan *p, double bytes, const char **name, int64_t *chunks);

/* The marker file of a plan directory (plan.h: `force` replaces only a directory holding it). */
#define TC_PLAN_MARKER ".topocoll-plan"

/* Whether `dir` may receive a plan: it does not exist, or is an empty directory, or
   `force` is set and it is a plan directory (holds TC_PLAN_MARKER). Anything else is
   TC_EINPUT with one line. */
TC_API int tc_plan_check_dir(const char *dir, int force, tc_error *err);

/* Write the plan's files into dir, whole or not at all (see the header). */
TC_API int tc_plan_write(const tc_plan *p, const char *dir, int force, tc_progress_fn progress, void *ctx,
                         tc_error *err);

/* The same, with files of later layers the caller adds (the CLI: ranks.csv, rank_map.h):
   `extra` (may be NULL) is called once with the staging directory before summary.md and the
   marker, so its files appear with the rest, whole or not at all. */
typedef int (*tc_plan_extra_files)(const tc_plan *p, const char *dir, void *ctx, tc_error *err);
TC_API int tc_plan_write_extra(const tc_plan *p, const char *dir, int force, tc_progress_fn progress, void *ctx,
                               tc_plan_extra_files extra, void *extra_ctx, tc_error *err);

/* How the plan's wiring.csv cables the topology: duplex, simplex (plan --links), or as the
   graph says for a fabric. */
TC_API tc_wiring_links tc_plan_wiring_links(const tc_plan *p);

/* Write summary.md alone to path (replaced atomically). */
TC_API int tc_plan_write_summary(const tc_plan *p, const char *path, tc_error *err);

/* Predicted allreduce time (s) at one size M (bytes): steps*α + tau*M/(degree*link_bw)
   with steps, tau and degree measured (tc_schedule_cost) on the chosen member's verified
   allreduce schedule (a fabric plan without a member: -1), or on a baseline's. */
TC_API double tc_plan_time(const tc_plan *p, double bytes);
/* The same for the written all-to-all schedule (has_a2a), at M = bytes each node sends; -1
   without one. */
TC_API double tc_plan_alltoall_time(const tc_plan *p, double bytes);
TC_API double tc_plan_baseline_time(const tc_plan *p, const tc_plan_baseline *b, double bytes);

#endif
