/*
** a2a_flows.h — the all-to-all schedule generators of paper 003 built on flows: the
** time-stepped MCF (tsMCF, §3.1.3) lowered to a step schedule, the path-based MCF (pMCF,
** §3.1.4) over a chosen path set, widest-path extraction from the link MCF (MCF-extP,
** §3.2.1), and the single-path ILP baselines (ILP-disjoint, ILP-shortest, §5.2).
**
** tsMCF: a step schedule of l_max steps (default: the diameter) minimizing Σ_t U_t, U_t the
** largest load / capacity of any arc in step t. The LP is (15)-(20) with the corrections
** the text needs (docs/alltoall.md): causality (17) for every step t >= 1 — what a relay
** sends up to step t it received before step t, so nothing is forwarded in the step it
** arrives — and conservation (18) at every u other than the pair's ends. It is solved
** source-aggregated (one flow per source on the time-expanded graph, like the master LP
** (6)-(9)); the split into commodities is a path decomposition of each source's flow in
** exact integers, which always exists because a flow on the time-expanded DAG decomposes
** into time-respecting paths. Among the optima the LP then prefers load in earlier steps
** (least Σ_t t·U_t at the optimal Σ_t U_t). The flows are rationalized to one
** denominator D, the shard is cut into D units (the LCM of all denominators), and the
** schedule moves every unit along a simple path, hop by hop in strictly increasing steps.
** Its per-step loads are at most the LP's U_t, so its cost's Σ_t step_load is Σ_t U_t.
** Refused: TC_ERANGE when the flows have no exact common denominator below 2^31 (no exact
** chunking) or the LP exceeds TC_A2A_TSMCF_MAX_COLS; TC_EINPUT for l_max below the
** diameter and for what tc_a2a_solve refuses (switches, N < 2, unreachable pairs).
**
** pMCF: maximize F with a variable per candidate path, (21)-(24); each commodity then
** routes exactly F over its paths, so the routing's weights are the path flows / F. Path
** sets: TC_A2A_PATHS_DISJOINT (a maximal set of arc-disjoint paths per pair: a unit-capacity
** max-flow, decomposed), TC_A2A_PATHS_SHORTEST (every shortest path), TC_A2A_PATHS_LMAX
** (every simple path of at most l_max hops). Weights are exact when the LP's vertex is
** recovered exactly; otherwise they are rounded on a 2^-20 grid (still summing to 1), and
** the routing's fluid load (a2a_route.h) is what it achieves either way.
**
** MCF-extP: from the certified per-commodity flows of tc_a2a_solve, for every pair (s,t)
** repeatedly the widest s -> t path (the largest bottleneck of remaining flow) is taken
** and its bottleneck subtracted, until nothing is left: rates come out non-increasing and
** sum to what the commodity receives (F when exact). Weights are rate / that sum.
**
** ILP-disjoint / ILP-shortest: one path per commodity chosen from the disjoint or
** shortest candidate set, minimizing the largest load / capacity (COIN-OR Cbc). Small
** graphs only: TC_ERANGE above TC_A2A_ILP_MAX_NODES nodes or TC_A2A_ILP_MAX_PATHS
** candidates. *optimal says whether Cbc proved the choice optimal before its time limit.
**
** Every routing returned is finished (tc_a2a_routing_finish); outputs are empty on failure.
*/
#ifndef TOPOCOLL_A2A_FLOWS_H
#define TOPOCOLL_A2A_FLOWS_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/a2a.h"
#include "topocoll/a2a_route.h"
#include "topocoll/sched.h"

typedef enum {
  TC_A2A_PATHS_DISJOINT = 0, /* a maximal set of arc-disjoint paths per pair */
  TC_A2A_PATHS_SHORTEST = 1, /* every shortest path */
  TC_A2A_PATHS_LMAX = 2      /* every simple path of at most l_max hops */
} tc_a2a_path_set;

typedef struct tc_a2a_flow_options {
  tc_a2a_engine engine;  /* the LP engine of tsMCF, pMCF and MCF-extP's MCF (default clp) */
  int32_t lmax;          /* tsMCF: steps; TC_A2A_PATHS_LMAX: longest path; 0: the diameter */
  tc_a2a_path_set paths; /* pMCF's candidate paths (default disjoint) */
  double time_limit;     /* seconds per LP or MIP solve; 0: none (ILP: 60 s) */
} tc_a2a_flow_options;

/* The most LP columns tsMCF builds. */
#define TC_A2A_TSMCF_MAX_COLS 2000000
/* The ILP baselines' limits. */
#define TC_A2A_ILP_MAX_NODES 64
#define TC_A2A_ILP_MAX_PATHS 20000
/* The most candidate paths pMCF's LP takes. */
#define TC_A2A_PMCF_MAX_PATHS 4000000

/* engine clp, lmax 0, paths disjoint, no time limit */
TC_API void tc_a2a_flow_options_default(tc_a2a_flow_options *o);
/* "disjoint", "shortest", "lmax"; NULL for anything else */
TC_API const char *tc_a2a_path_set_name(tc_a2a_path_set p);
/* TC_EINPUT with one line listing the three names otherwise. */
TC_API int tc_a2a_path_set_parse(const char *name, tc_a2a_path_set *out, tc_error *err);

/* What the tsMCF LP found (its exact optimum when the flows were recovered exactly). */
typedef struct tc_a2a_tsmcf {
  int32_t steps;      /* l_max */
  tc_rat *step_load;  /* steps entries: U_t, shards per unit capacity */
  tc_rat total;       /* Σ_t U_t */
  int64_t units;      /* D: units per shard of the schedule */
  int64_t lp_rows, lp_cols;
} tc_a2a_tsmcf;

/* The tsMCF step schedule of g (TC_COLL_ALLTOALL, NOT verified) and, when info is not
   NULL, the LP's per-step loads (release with tc_a2a_tsmcf_destroy). */
TC_API int tc_a2a_tsmcf_schedule(const tc_graph *g, const tc_a2a_flow_options *o, tc_schedule *out,
                                 tc_a2a_tsmcf *info, tc_error *err);
TC_API void tc_a2a_tsmcf_destroy(tc_a2a_tsmcf *t);

/* pMCF over o->paths (and o->lmax for TC_A2A_PATHS_LMAX). */
TC_API int tc_a2a_route_pmcf(const tc_graph *g, const tc_a2a_flow_options *o, tc_a2a_routing *out, tc_error *err);

/* MCF-extP from a result with per-commodity flows (tc_a2a_solve with children). */
TC_API int tc_a2a_route_extract(const tc_graph *g, const tc_a2a_result *mcf, tc_a2a_routing *out, tc_error *err);
/* tc_a2a_solve (method lp, o->engine, children) and then tc_a2a_route_extract. */
TC_API int tc_a2a_route_mcf_extp(const tc_graph *g, const tc_a2a_flow_options *o, tc_a2a_routing *out,
                                 tc_error *err);

/* ILP-disjoint (set TC_A2A_PATHS_DISJOINT) or ILP-shortest (TC_A2A_PATHS_SHORTEST).
   optimal may be NULL. */
TC_API int tc_a2a_route_ilp(const tc_graph *g, tc_a2a_path_set set, double time_limit, tc_a2a_routing *out,
                            int *optimal, tc_error *err);

#endif
