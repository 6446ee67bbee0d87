/*
** a2a_internal.h — the pieces of tc_a2a_solve (a2a.h), internal to the `a2a` layer:
**   check.c       the refusals (switches, N < 2, unreachable pairs, host cap);
**   master.c      the master LP (6)-(9) with the host caps of §3.2.2;
**   full.c        the full link MCF (1)-(5), the small-N oracle;
**   child.c       the child LPs (10)-(14), one per source, in parallel;
**   rationalize.c floats from a solver to integers over one denominator;
**   certify.c     the solver-independent certificate (exact lower and upper bounds);
**   decompose.c   exact conservation of a commodity's flow by path decomposition;
**   dw.c          column generation over per-source trees (method dw, sptree.h prices);
**   dw_fw.c       its first-order phase for large masters (dw_internal.h);
**   dw_state.c    the pool, pricing and bounds both phases share;
**   bounds.c      the analytic bounds (tc_a2a_bounds);
**   solve.c       tc_a2a_solve: the pipeline.
** Paper sections are paper 003's. Arc flows are indexed by the graph's arc ids; loops and
** arcs into a flow's source carry nothing (no LP variable exists for them).
*/
#ifndef TC_A2A_INTERNAL_H
#define TC_A2A_INTERNAL_H

#include <stdint.h>

#include "lp/lp.h"
#include "topocoll/a2a.h"

/* Refuse what no method handles (TC_EINPUT, one line): switch nodes, n < 2, a node that
   cannot reach another, a non-positive host cap. */
int tci_a2a_check(const tc_graph *g, const tc_a2a_options *o, tc_error *err);

/* An LP's answer in floats: F, the arc flows, and the dual lengths of the capacity rows
   (and of the host-cap rows: out-caps then in-caps, 2n, when there is a host cap). */
typedef struct tci_a2a_lp_answer {
  double f;
  double *flow;        /* per source: n·m; per commodity (full MCF): n·n·m */
  double *length;      /* m */
  double *host_length; /* 2n or NULL */
  int64_t rows, cols;
} tci_a2a_lp_answer;
void tci_a2a_lp_answer_destroy(tci_a2a_lp_answer *a);
/* Read an optimal LP's answer into *out: column 0 is F, column j > 0 is flow slot col_slot[j]
   of `slots`; lengths from the capacity rows cap_row[a] (-1: a loop, length 0) and, with a
   host cap, the 2n host rows from host0. Negative float noise is clipped to 0. */
int tci_a2a_lp_answer_read(tci_lp_model *lp, const tc_graph *g, int64_t slots, const int64_t *col_slot,
                           int64_t cols, const int64_t *cap_row, int host, int64_t host0, int64_t rows,
                           tci_a2a_lp_answer *out, tc_error *err);

/* The master LP (6)-(9): per-source flows flow[s·m + a]. TC_EFAIL naming the solver's
   status when it does not reach an optimum. With fix_f (NULL: maximize F): F pinned to
   *fix_f and the least total flow instead (lengths then are not duals of (6)-(9): ignore). */
int tci_a2a_master_solve(const tc_graph *g, tci_lp_engine engine, tc_rat host_cap, const tc_rat *fix_f,
                         double time_limit, tci_a2a_lp_answer *out, tc_error *err);

/* Largest N(N-1)·(arcs) the full link MCF takes (the oracle is for small graphs). */
#define TCI_A2A_FULL_MAX_VARS 400000
/* The full link MCF (1)-(5): per-commodity flows flow[(s·n + t)·m + a]. TC_ERANGE above
   TCI_A2A_FULL_MAX_VARS variables. */
int tci_a2a_full_solve(const tc_graph *g, tci_lp_engine engine, tc_rat host_cap, double time_limit,
                       tci_a2a_lp_answer *out, tc_error *err);

/* The child LP (10)-(14) of `source`: split its master flow src_units (m arc flows in units
   of 1/den) into the n-1 commodities (source, t), each delivering f_units/den, with the
   least total flow. out (n·m doubles, commodity t at [t·m + a]) receives the solver's split;
   row t == source stays zero. The demand is exact when the master's flows are (they then
   hold F for every t); if the solver still reports the LP infeasible (its tolerances), it is
   solved once more with the demand lowered by 1e-7 relative, as paper 003's numerics need
   (the certificate then reports what the flows really deliver). TC_EFAIL when neither is
   solved. Independent of every other source: an MPI driver may run sources on other ranks
   and hand the gathered doubles to tci_a2a_children_finish. */
int tci_a2a_child_solve(const tc_graph *g, int32_t source, tci_lp_engine engine, const int64_t *src_units,
                        int64_t den, int64_t f_units, double time_limit, double *out, tc_error *err);
/* All children, then tci_a2a_children_finish. threads 0: in parallel (OpenMP's default team)
   when the work is large enough; 1: serial; more: a team of that many. */
int tci_a2a_children_solve(const tc_graph *g, tci_lp_engine engine, const int64_t *source_units, int64_t den,
                           int64_t f_units, double time_limit, int threads, int64_t *out_units, int64_t *out_den,
                           tc_error *err);
/* The children's doubles (n·n·m, commodity (s,t) at [(s·n + t)·m + a]) as integers over one
   denominator (tci_a2a_rationalize), each commodity then made exactly conserving
   (tci_a2a_decompose). */
int tci_a2a_children_finish(const tc_graph *g, const double *flows, int64_t *out_units, int64_t *out_den,
                            tc_error *err);

/* Column generation (method dw, dw.c). Per-source flows come out as integers over one
   denominator, each a convex combination of trees with weights summing exactly to 1: they
   conserve exactly and deliver one shard to every sink. length: the dual lengths of the best
   bound (the master's own when it was optimal over every tree). Stops when the float gap is
   at most o->gap, when no tree improves the master (optimal), or at o->time_limit (the
   answer so far). TC_EINPUT for a host cap; TC_ERANGE when the budget refuses. */
typedef struct tci_a2a_dw_answer {
  double f;       /* 1 / the master's congestion */
  int64_t *units; /* n·m */
  int64_t den;
  double *length; /* m */
  int64_t rows, cols, rounds;
  int32_t group;  /* order of the free automorphism group used (1: none) */
  int optimal, timed_out;
} tci_a2a_dw_answer;
int tci_a2a_dw_solve(const tc_graph *g, const tc_a2a_options *o, tci_a2a_dw_answer *out, tc_error *err);
void tci_a2a_dw_answer_destroy(tci_a2a_dw_answer *a);

/* Floats to integers over one denominator: each value is recovered as a fraction of
   denominator <= maxden (continued fractions); when all are within tol of their fraction and
   the common denominator stays <= 2^31, units[i] = value·den exactly (returns 1: exact).
   Otherwise den = 2^30 / max(1, max |value|) rounded to a power of two and units are the
   values rounded down (returns 0). Negative values and |value| < 1e-12 become 0. */
int tci_a2a_rationalize(const double *x, int64_t count, int64_t *units, int64_t *den);

/* The certificate's lower half. Flows k = 0..nflows-1 of src[k] to dst[k] (dst -1: every
   other node is a sink, a per-source flow), units[k·m + a] in units of 1/den, all >= 0. */
typedef struct tci_a2a_lower {
  tc_rat value;          /* F >= value, exactly (0 when nothing is delivered) */
  tc_rat delivered;      /* the least amount any commodity receives (before scaling) */
  tc_rat load;           /* the largest load / capacity over arcs and host caps */
  int64_t worst_arc;     /* the arc of that load, or -1 (a host cap, or no overload) */
  int32_t worst_node;    /* the node of a host-cap overload, or -1 */
  int32_t short_src, short_dst; /* the commodity that receives `delivered` */
  int64_t deficit;       /* units some node emits beyond what it receives (0: conserved) */
  int32_t deficit_node, deficit_flow; /* the first such node and flow, or -1 */
} tci_a2a_lower;
/* Check and bound: capacity (and host caps, when host_cap.num > 0), conservation as "no
   node but the source sends more than it receives" — a node that does is counted as an
   extra source and its surplus is subtracted from what every sink of that flow receives,
   so the bound stays valid — and delivery = the sink's net inflow (a flow that conserves
   decomposes into source-to-sink paths and cycles: the paths into t carry exactly t's net
   inflow). value = max(0, delivered) / max(1, load). TC_ERANGE when an exact sum overflows. */
int tci_a2a_certify_lower(const tc_graph *g, tc_rat host_cap, int32_t nflows, const int32_t *src,
                          const int32_t *dst, const int64_t *units, int64_t den, tci_a2a_lower *out,
                          tc_error *err);

/* The certificate's upper half: for integer lengths len[a] >= 0 (and host lengths hlen: n
   out-cap then n in-cap, or NULL), an arc's length is len[a] + hout[tail] + hin[head] and
     F <= (Σ_a c_a len_a + C·Σ_u (hout_u + hin_u)) / Σ_{s≠t} dist(s,t).
   Valid for any lengths (weak duality). *out = that bound; TC_EFAIL when every distance is
   0 (no bound), TC_ERANGE on overflow. */
int tci_a2a_certify_upper(const tc_graph *g, tc_rat host_cap, const int64_t *len, const int64_t *hlen,
                          tc_rat *out, tc_error *err);

/* Exact conservation for one commodity (s, t): keep only the flow of s-to-t paths (cycles
   and flow that ends elsewhere are dropped), in place. Returns the units delivered to t, or
   -1 when out of memory (units then unchanged). */
int64_t tci_a2a_decompose(const tc_graph *g, int32_t s, int32_t t, int64_t *units);

#endif
