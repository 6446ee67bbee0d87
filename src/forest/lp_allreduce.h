/*
** lp_allreduce.h — LP (6) of paper 001 (App. E): the best allreduce any tree schedule can
** reach, used as a certificate for the reduce-scatter + allgather schedule. Internal.
**
** The LP chooses how much data each compute node v reduces and broadcasts (x_v >= 0, any
** split, Blink's single root included) and how each link's bandwidth b splits between the
** reduce in-trees (c^RE) and the broadcast out-trees (c^BC), c^RE + c^BC <= b, and maximizes
** Σ_v x_v subject to, for every compute node t,
**   F(s, t) >= Σ x  with arcs s -> v of capacity x_v and the links at c^BC   (broadcast)
**   F(t, s) >= Σ x  with arcs v -> s of capacity x_v and the links at c^RE   (reduce)
** each max-flow written as the paper's flow gadget (one set of flow variables per t and
** stage; conservation as ">=", which suffices for a lower bound on the flow; the source
** arcs s -> v substituted, lp_allreduce.c). An allreduce of
** M bytes then takes T = M / Σ x_v: the optimum is the allreduce algbw in capacity units,
** and reduce-scatter + allgather (x_v = x* / 2 for all v) is one feasible point, N·x* / 2.
**
** Two formulations (tci_lp_form):
**   - direct, for switch-free graphs: the links of g themselves carry c^RE and c^BC;
**   - routed, needed with switches (a switch neither multicasts nor aggregates, and the
**     split c^RE / c^BC of a switch's links need not be Eulerian, so edge splitting cannot
**     come after the LP): the gadgets run on the logical complete digraph of the compute
**     nodes, and the capacity c^RE + c^BC of each logical arc (α, β) — the paper's b'(α, β),
**     substituted — is routed from α to β through g under the link capacities by a
**     multi-commodity flow (commodities with the same source merged into one single-source
**     flow, which loses nothing: a single-source flow decomposes into paths to each sink).
**     On a switch-free graph both give the same optimum (a logical arc routed over several
**     links is a relay by compute nodes that are in every tree anyway, and a link is a
**     logical arc routed over itself).
** Parallel links are summed and self-loops dropped (they cross no cut). Capacities are
** divided by their gcd before solving and the optimum multiplied back (LP (6) is
** homogeneous in b), which keeps the solver's numbers small.
**
** Exactness (lp_exact.h): GLPK's simplex, then its rational simplex on that basis, then the
** optimum recovered as p/q, and a primal and a dual solution checked exactly. `upper` says
** the dual passed (no allreduce beats p/q: what certifies an RS+AG schedule reaching p/q),
** `lower` that the primal did (an allreduce reaches p/q); `certified` is both. Nothing
** unchecked is called exact.
**
** Limits: LP (6) is a certificate for small fabrics. A graph whose LP would have more than
** TCI_LP_MAX_COLS columns is refused (TC_ERANGE) before the LP is allocated; the count is
** N + 2L + 2N·L with L the arcs of the network the gadgets run on (the merged links, or
** N(N-1) logical arcs), plus N·(links) routing columns in the routed formulation. GLPK's
** simplex takes seconds to a minute at 10 000 columns and minutes at 30 000.
*/
#ifndef TC_FOREST_LP_ALLREDUCE_H
#define TC_FOREST_LP_ALLREDUCE_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/rational.h"

/* The largest LP (6) accepted, in columns (variables). The graphs measured near it take
   minutes (docs/forestcoll.md); twice the size did not finish in a quarter of an hour. */
#define TCI_LP_MAX_COLS 40000

typedef enum {
  TCI_LP_AUTO = 0,   /* direct without switches, routed with */
  TCI_LP_DIRECT = 1, /* switch-free graphs only */
  TCI_LP_ROUTED = 2  /* any graph */
} tci_lp_form;

typedef struct tci_lp_result {
  tci_lp_form form;        /* the formulation solved: TCI_LP_DIRECT or TCI_LP_ROUTED */
  int64_t rows, cols, nnz; /* LP size */
  double value_float;      /* GLPK's optimum Σ x_v (capacity units) */
  tc_rat value;            /* Σ x_v as a fraction p/q */
  int lower;               /* 1: a primal solution was checked exactly: an allreduce reaches p/q */
  int upper;               /* 1: a dual solution was checked exactly: no allreduce beats p/q */
  int certified;           /* lower && upper: p/q is exactly the optimum */
  int resolved;            /* 1: x is the least-flow optimum, not the first vertex */
  char why_lower[160];     /* when lower is 0: the check that failed */
  char why_upper[160];     /* when upper is 0: the check that failed */
  int32_t n;               /* g->n */
  double *x_float;         /* n: GLPK's x_v of the optimal solution reported (0 for switches) */
  tc_rat *x;               /* when lower, n: the same x_v exactly; else NULL */
} tci_lp_result;

typedef struct tci_lp_opts {
  tci_lp_form form; /* TCI_LP_AUTO: the one g needs */
  int least_flow;   /* 1: report the optimum that puts the least total into flows, link splits
                       and routing (solving once more); 0: the first optimal vertex, re-solving
                       for the least-flow one only when it cannot be certified */
} tci_lp_opts;

/* LP (6) on g (opts NULL: the defaults, all zero). Refuses, with one line: fewer than 2
   compute nodes or a compute node that cannot reach another (TC_EINPUT: no allreduce
   exists), TCI_LP_DIRECT on a graph with switches (TC_EINPUT), an LP beyond TCI_LP_MAX_COLS
   (TC_ERANGE). A solver failure is TC_EFAIL. On failure *out is empty. */
int tci_forest_lp_allreduce_opts(const tc_graph *g, const tci_lp_opts *opts, tci_lp_result *out, tc_error *err);
/* The same with the defaults. */
int tci_forest_lp_allreduce(const tc_graph *g, tci_lp_result *out, tc_error *err);
void tci_lp_result_destroy(tci_lp_result *r);

#endif
