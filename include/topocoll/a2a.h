/*
** a2a.h — all-to-all as a maximum concurrent multi-commodity flow (paper 003 §3.1), solved
** by LP and certified independently of the solver.
**
** The problem: every ordered pair (s,t) of distinct nodes is a commodity of demand 1 (one
** shard); arcs carry their graph capacities (parallel arcs add). F, the MCF value, is the
** largest rate every commodity can be routed at concurrently; the all-to-all then takes
** 1/F in units of shard/(link capacity), i.e. each commodity of M/N bytes at rate F·b. With
** a host cap C (paper 003 §3.2.2) each node also sends at most C and receives at most C in
** total (in link-capacity units: forwarding passes through the host).
**
** The certificate (docs/alltoall.md): whatever the solver returned,
**   - lower bound: the per-source flows are checked (capacity, host caps, conservation as
**     "nothing leaves a node that did not enter it"); the amount each commodity receives is
**     its sink's net inflow (a flow decomposition), and the flow is scaled down until
**     exactly feasible: F >= lower_bound;
**   - upper bound: for the LP's capacity duals as lengths l >= 0,
**     F <= Σ_e c_e l_e / Σ_{s≠t} dist_l(s,t)   (valid for ANY l >= 0; host caps add node terms).
** Both are evaluated in exact integer arithmetic on rationalized flows and lengths. When
** they are equal, F is exact: `exact` is 1 and f_exact = p/q. Otherwise the floats and the
** gap upper/lower − 1 are all there is, and nothing is claimed exact.
**
** Refused with TC_EINPUT and one line: a graph with switch nodes, fewer than 2 nodes, a
** node that cannot reach another, a non-positive host cap; with TC_ERANGE: sizes beyond the
** chosen method's limit (docs/limits.md).
*/
#ifndef TOPOCOLL_A2A_H
#define TOPOCOLL_A2A_H

#include "topocoll/progress.h"
#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/rational.h"

/* How F is computed. New methods are appended here (the column-generation "dw" method
   and its bounds have their own place below). */
typedef enum {
  TC_A2A_LP = 0,   /* master LP (6)-(9) + child LPs (10)-(14) through the LP engine */
  TC_A2A_FULL = 1, /* the full link MCF (1)-(5): small graphs only (docs/limits.md) */
  TC_A2A_DW = 2,   /* column generation over per-source trees, to N = 1000 and beyond: stops
                      at `gap` or `time_limit` (docs/alltoall.md, "Scaling"); no host cap, no
                      per-commodity flows */
  TC_A2A_METHODS
} tc_a2a_method;

typedef enum { TC_A2A_CLP = 0, TC_A2A_GLPK = 1 } tc_a2a_engine;

typedef struct tc_a2a_options {
  tc_a2a_method method;
  tc_a2a_engine engine;
  tc_rat host_cap;    /* per-node aggregate cap (link-capacity units); num 0: none */
  double gap;         /* acceptable relative gap upper/lower − 1 (default 1e-6): the CLI fails
                         (exit 1) above it; the "dw" method stops at it */
  int threads;        /* child LPs (dw: its trees): 0 = in parallel when the work is large,
                         1 = serial, more = that many threads */
  int children;       /* 1 (default): solve the child LPs for per-commodity flows */
  double time_limit;  /* seconds per LP solve (lp, full); of the whole solve (dw); 0 = none */
  int symmetry;       /* dw: 1 (default) solves on the orbits of a free automorphism group
                         (found by BLISS; the certificate is checked on the whole graph) */
  tc_progress_fn progress; /* NULL, or a report (topocoll/progress.h) after every round of dw:
                              "dw: round R, f in [lower, upper], gap G, C columns", done R,
                              total 0 — F lies in [lower, upper] (floats of the solver's
                              bounds; the certificate recomputes them exactly), G = upper/lower
                              - 1, C the trees in the master */
  void *progress_ctx;
} tc_a2a_options;

/* method lp, engine clp, no host cap, gap 1e-6, threads 0, children 1, no time limit,
   symmetry 1, no progress */
TC_API void tc_a2a_options_default(tc_a2a_options *o);
/* "lp" ... ; NULL for an unknown method */
TC_API const char *tc_a2a_method_name(tc_a2a_method m);
/* Parse a method or engine name; TC_EINPUT with one line listing the choices. */
TC_API int tc_a2a_method_parse(const char *name, tc_a2a_method *out, tc_error *err);
TC_API int tc_a2a_engine_parse(const char *name, tc_a2a_engine *out, tc_error *err);
TC_API const char *tc_a2a_engine_name(tc_a2a_engine e);

/* The certified answer. Flows are exact integers in units of 1/den (per source) or
   1/commodity_den (per commodity) of a shard; arrays are indexed by the graph's arc ids
   (m = g->m), loops included (they carry nothing). */
typedef struct tc_a2a_result {
  int32_t n;                /* nodes (all compute) */
  int64_t m;                /* arcs */
  double f;                 /* the solver's F (a float) */
  double lower_bound;       /* certified: F >= lower_bound */
  double upper_bound;       /* certified: F <= upper_bound */
  double gap;               /* upper/lower − 1 (0 when exact) */
  int exact;                /* 1: lower == upper exactly == f_exact */
  tc_rat f_exact;           /* when exact: F = p/q */
  tc_rat lower_exact;       /* the lower bound as the exact rational checked */
  tc_rat upper_exact;       /* the upper bound as the exact rational checked */
  int64_t den;              /* the per-source flows' common denominator */
  int64_t *source_flow;     /* n·m: source s's flow on arc a at [s·m + a] (× 1/den); they
                               certify lower_exact */
  int64_t commodity_den;    /* the per-commodity flows' common denominator */
  int64_t *commodity_flow;  /* NULL (no children) or n·n·m: commodity (s,t) on arc a at
                               [(s·n + t)·m + a] (× 1/commodity_den), exactly conserved (s-to-t
                               paths only); zero when s == t */
  tc_rat commodity_lower;   /* with commodity_flow: what those flows certify on their own
                               (checked like the per-source flows; equal to lower_exact when
                               the children reproduced the master exactly) */
  double *length;           /* m: the dual lengths that gave upper_bound (loops 0) */
  double *host_length;      /* NULL (no host cap) or 2n: out-cap then in-cap node lengths */
  int64_t lp_rows, lp_cols; /* size of the master LP (dw: its last one) */
  int64_t rounds;           /* dw: column-generation rounds; 0 otherwise */
  int stopped;              /* dw: 0 gap reached or optimal, 1 stopped by time_limit */
  int32_t group;            /* dw: order of the automorphism group it solved with (1: none) */
} tc_a2a_result;

/* Solve and certify. On failure *out is left empty (tc_a2a_result_destroy is still safe). */
TC_API int tc_a2a_solve(const tc_graph *g, const tc_a2a_options *o, tc_a2a_result *out, tc_error *err);
TC_API void tc_a2a_result_destroy(tc_a2a_result *r);

/* Analytic upper bounds on F, each an exact rational computed from the graph alone (no LP),
   for comparing topologies and checking solvers (docs/alltoall.md). C = Σ c_e over arcs
   that are not loops (a loop carries nothing).
     distance   C / Σ_{s≠t} dist(s,t) (hop distances): every unit crosses at least that;
     moore      C / (N·S_min(N,Δ)) with Δ the most distinct out- (or in-, the smaller)
                neighbours of a node: paper 003 Theorem 1 (Eq. (25)), d/S_min(N,d) on a
                d-regular graph of unit links; never better than the distance bound;
     bisection  min(c(S→S̄), c(S̄→S)) / (|S|·|S̄|) for the balanced cut S (⌊N/2⌋ or ⌈N/2⌉
                nodes) the search found, 4χ/N² for even N (paper 003 §2.3). Valid for any
                cut: the search (Fiduccia–Mattheyses from seeded starts) decides only how
                good it is; the cut is reported.
   Refused like tc_a2a_solve: switches, N < 2, a node that cannot reach another (TC_EINPUT);
   TC_ERANGE when a bound overflows 64-bit rationals. */
typedef struct tc_a2a_bounds {
  int32_t n;
  int64_t capacity;     /* C */
  int64_t distance_sum; /* Σ_{s≠t} dist(s,t) */
  tc_rat distance;
  int64_t moore_degree; /* Δ */
  int64_t s_min;        /* S_min(N, Δ) (tc_moore_depth_sum) */
  tc_rat moore;
  tc_rat bisection;
  int32_t cut_size;     /* |S| */
  int64_t cut_out;      /* c(S→S̄) */
  int64_t cut_in;       /* c(S̄→S) */
  uint8_t *cut_side;    /* n: 1 for the nodes of S */
  tc_rat best;          /* the least of the three (the Moore bound never is) */
} tc_a2a_bounds;
/* The three bounds; `seed` drives the cut search's random starts. */
TC_API int tc_a2a_bounds_compute(const tc_graph *g, uint64_t seed, tc_a2a_bounds *out, tc_error *err);
TC_API void tc_a2a_bounds_destroy(tc_a2a_bounds *b);
/* (N-1)·f·b, paper 003 §5.2: the all-to-all throughput (bytes/s each node sends to the
   others) that a rate f allows at link bandwidth b (bytes/s of capacity 1). */
TC_API double tc_a2a_throughput_bound(int32_t n, double f, double link_bandwidth);

#endif
