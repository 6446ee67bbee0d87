/*
** find.h — the topology finder (paper 000 §5.4, App. A.3): for N nodes of degree d, the
** Pareto frontier of (T_L, T_B) over base topologies, generative families and chains of
** expansions, predicted from the theorems without building anything, then (optionally)
** built and verified; and the choice of one member for a workload.
**
** Costs are those of the allgather (reduce-scatter costs the same, allreduce twice):
** steps = T_L / α and tau = T_B / (M/B). A member is Pareto-efficient when no other member
** has steps <= and tau <= with one strict. Every member carries a spec string (docs/spec.md)
** that rebuilds exactly its topology.
**
** All-to-all (paper 000 App. A.5, Tables 4 and 7; paper 003): tc_frontier_a2a certifies
** every member's maximum concurrent multi-commodity flow value f (a2a.h) — a lower bound
** from checked flows and an upper bound from dual lengths, exact p/q when they meet — and
** the frontier carries paper 000's bound f <= d / S_min(N,d) (paper 003 Theorem 1). An
** all-to-all where every node sends M bytes takes T = (M/N) / (f·b) at link bandwidth b, i.e.
** d/(N·f) in units of M/B. Times are always taken at the certified lower bound of f, so
** they are achievable, never optimistic.
*/
#ifndef TOPOCOLL_FIND_H
#define TOPOCOLL_FIND_H

#include "topocoll/export.h"

#include "topocoll/a2a.h"
#include "topocoll/graph.h"
#include "topocoll/rational.h"
#include "topocoll/sched.h"

typedef struct tc_candidate {
  char spec[256];          /* rebuilds the topology, e.g. "line(circulant(16,3,4),3)" */
  char label[32];          /* construction class as in Fig. 15: "GenKautz", "Circulant",
                              "DistReg", "Torus", "L", "P", "C", "LC", "bidir(...)", ... */
  int32_t nodes, degree;
  int32_t steps;           /* predicted T_L / α */
  tc_rat tau;              /* predicted T_B / (M/B) */
  int tau_is_bound;        /* 1: tau is an upper bound (Thm 7 without Thm 10), else exact */
  int32_t diameter;        /* D(G), -1 if not known without building */
  int bidirectional;       /* arcs come in opposite pairs */
  int reverse_symmetric;   /* 1, 0, or -1 unknown */
  uint32_t flags;          /* TC_CAND_* below: what the theorems need to know of the member */
  char source[96];         /* how (steps, tau) are known, innermost first, e.g.
                              "Thm 22 + BFB; Cor 10.1 x3" or "stored schedule; Thm 12" */
  /* filled by tc_find when options.build is set: */
  int built;               /* graph and schedule built */
  int verified;            /* the allgather passed tc_schedule_verify */
  int32_t measured_steps;
  tc_rat measured_tau;
  double avg_distance;     /* mean hop distance over ordered pairs; -1 until built */
  tc_rat forest_allreduce_tau; /* built, at most TC_FIND_FOREST_MAX_NODES nodes, allgather not
                              BW-optimal: ForestColl's exact allreduce optimum (RS + AG trees,
                              paper 001; T_B / (M/B) as the pipeline deepens) when it beats
                              2·measured_tau, else 0 — `plan` builds and measures it */
  int forest_weighted;     /* forest_allreduce_tau needs the water-filling root weights */
  /* filled by tc_frontier_a2a / tc_candidate_a2a: */
  int a2a;                 /* the all-to-all MCF below was certified */
  int a2a_exact;           /* a2a_lower == a2a_upper: f is exactly that fraction */
  tc_rat a2a_lower;        /* certified f >= a2a_lower (checked flows) */
  tc_rat a2a_upper;        /* certified f <= a2a_upper (dual lengths) */
  double a2a_gap;          /* a2a_upper / a2a_lower - 1 (0 when exact) */
  int a2a_stopped;         /* the solve hit its time limit: the bounds are those reached */
} tc_candidate;

/* tc_candidate.flags */
#define TC_CAND_BFB 0x01u        /* (steps, tau) are those of the graph's optimal BFB schedule
                                    (LP (1)), so steps == D(G); Thm 10 needs this of a base */
#define TC_CAND_BW_OPTIMAL 0x02u /* tau == (N-1)/N (Thm 4) */
#define TC_CAND_SELF_LOOPS 0x04u /* some node has a self-loop (degree expansion needs none) */
#define TC_CAND_SIMPLE 0x08u     /* no self-loops and no parallel arcs (Thm 13 needs this) */
#define TC_CAND_DISTINCT2 0x10u  /* every node has >= 2 distinct out-neighbours besides itself
                                    (Thm 10's |N^+(u)| > 1) */
#define TC_CAND_CONJECTURE 0x20u /* tau rests on paper 000 Conjecture 1 (a circulant with more
                                    than two offsets); building checks it with BFB */

/* Sizes the finder accepts: N in 2..TC_FIND_MAX_NODES, d in 1..TC_FIND_MAX_DEGREE. Families
   whose values come from BFB (genkautz, debruijn) are scored from the stored table (d in
   {2,4,8,16}, N <= 2000) or by running BFB on graphs of at most TC_FIND_BFB_MAX_NODES nodes;
   beyond that they are left out. */
#define TC_FIND_MAX_NODES 1048576
#define TC_FIND_MAX_DEGREE 64
#define TC_FIND_BFB_MAX_NODES 4096
/* Built members this small also get ForestColl's allreduce optimum (forest_allreduce_tau). */
#define TC_FIND_FOREST_MAX_NODES 64

typedef struct tc_find_options {
  int32_t nodes, degree;
  int bidirectional;       /* only topologies whose links come in opposite pairs */
  int build;               /* build and verify every frontier member (else prediction only) */
} tc_find_options;

typedef struct tc_frontier {
  int32_t nodes, degree;
  int32_t count;
  tc_candidate *member;    /* Pareto-efficient members, steps ascending (tau descending) */
  int32_t bound_steps;     /* T_L*(N,d) (Def. 10); with `bidirectional`, the undirected
                              Moore bound T_L**(N,d) (Table 8), which every bidirectional
                              topology obeys */
  tc_rat bound_tau;        /* (N-1)/N (Thm 4) */
  tc_rat bound_mcf;        /* d / S_min(N,d) (paper 003 Theorem 1, paper 000 Table 7's MCF
                              bound; tc_moore_depth_sum): no member's f is larger. For
                              --bidirectional it stays the directed bound (valid, not tight) */
} tc_frontier;

/* The frontier for o->nodes, o->degree. Bad sizes are TC_EINPUT with one line; so is an
   (N, d) no construction reaches (e.g. a bidirectional topology of odd degree on an odd
   number of nodes). On failure *out is left empty (safe to tc_frontier_destroy). */
TC_API int tc_find(const tc_find_options *o, tc_frontier *out, tc_error *err);
TC_API void tc_frontier_destroy(tc_frontier *f);

/* Build the member's graph and its allgather schedule (expansion schedules, BFB, or the
   stored schedules of Diamond / DBJMod), verified; *g and *ag are the caller's to free. */
TC_API int tc_candidate_build(const tc_candidate *c, tc_graph **g, tc_schedule *ag, tc_error *err);

/* Verify and measure a built member (g, ag as tc_candidate_build returns them) and hold it
   to its prediction: tc_schedule_verify must pass, tc_schedule_cost must give exactly
   c->steps, and tau == c->tau (or <= when c->tau_is_bound); the diameter must match when
   it was predicted. Fills built, verified, measured_steps, measured_tau, avg_distance and
   (if it was unknown) diameter. A mismatch is a bug in a theorem's use, reported as
   TC_EFAIL naming the member. */
TC_API int tc_candidate_measure(tc_candidate *c, const tc_graph *g, const tc_schedule *ag, tc_error *err);

/* A workload: allreduce sizes M_i (bytes) with weights w_i, per-step latency α (s), and the
   bandwidth of one link (bytes/s); B = degree * link_bw. With a2a_bytes > 0 it also runs
   all-to-alls in which every node sends a2a_bytes, a2a_weight of them per allreduce (zero
   both: none; zero-initialise what you do not set); a2a_time_limit bounds the certification
   of each member's MCF when a plan weighs them (seconds; 0: TC_FIND_A2A_TIME_LIMIT). */
typedef struct tc_workload {
  int32_t count;
  double bytes[64], weight[64];
  double alpha_s, link_bw;
  double a2a_bytes, a2a_weight, a2a_time_limit;
} tc_workload;

/* Parse an allreduce size list into w->count, w->bytes, w->weight: "1MB" (one size),
   "1MB,64MB" (equal weights) or "1MB:3,64MB:1" (size:weight, weights > 0, decimals
   allowed). Sizes as tc_units_parse_size; at most 64 entries. alpha_s and link_bw are
   left untouched. A bad list is TC_EINPUT naming the item. */
TC_API int tc_workload_parse_sizes(const char *text, tc_workload *w, tc_error *err);

/* Σ_i w_i · 2(T_L + tau·M_i/B) / Σ w_i: expected allreduce time of a member (s). */
TC_API double tc_candidate_allreduce_time(const tc_candidate *c, const tc_workload *w);
/* (M/N) / (f·link_bw) at M = w->a2a_bytes and f = c->a2a_lower: the all-to-all time the
   certified flow achieves (s), no latency term (paper 000 App. A.5); -1 when c->a2a is 0. */
TC_API double tc_candidate_alltoall_time(const tc_candidate *c, const tc_workload *w);
/* The expected time the choice minimises: the allreduce mean plus, when w->a2a_bytes > 0,
   w->a2a_weight all-to-alls (tc_candidate_alltoall_time; a member without a certified f
   then counts as infinitely slow). */
TC_API double tc_candidate_workload_time(const tc_candidate *c, const tc_workload *w);
/* Index of the member with the least tc_candidate_workload_time (ties: fewer steps). */
TC_API int32_t tc_frontier_choose(const tc_frontier *f, const tc_workload *w);

/* ---- all-to-all (paper 000 App. A.5) ---- */

typedef struct tc_find_a2a_options {
  double gap;         /* stop a member at this certified gap upper/lower - 1 (default 1e-6) */
  double time_limit;  /* seconds per member's solve, then the bounds reached are reported
                         (default TC_FIND_A2A_TIME_LIMIT; 0: none) */
  tc_progress_fn progress; /* NULL, or reports (topocoll/progress.h) of tc_frontier_a2a: the
                              members certified, a counted phase — "all-to-all MCF: certifying
                              SPEC (N nodes)" as member i begins (done i), "all-to-all MCF:
                              SPEC: f = F, gap G" (f >= F when not exact) as it ends (done
                              i + 1) — and, between them, the rounds of a member's solve:
                              "all-to-all MCF of SPEC: " + a2a.h's round report */
  void *ctx;
} tc_find_a2a_options;

#define TC_FIND_A2A_TIME_LIMIT 60.0

/* gap 1e-6, TC_FIND_A2A_TIME_LIMIT, no progress. */
TC_API void tc_find_a2a_options_default(tc_find_a2a_options *o);
/* Certify the all-to-all MCF of member c on g (c's topology; NULL: built from c->spec) with
   the finder's method (docs/alltoall.md, "In find and plan": column generation, the fastest
   certified method at every size measured), filling c->a2a*. Refusals of tc_a2a_solve pass
   through (TC_ERANGE: too large for the memory). A gap left by the time limit is reported,
   not an error. */
TC_API int tc_candidate_a2a(tc_candidate *c, const tc_graph *g, const tc_find_a2a_options *o, tc_error *err);
/* tc_candidate_a2a on every member, in frontier order. On failure members keep what they
   had (a2a set only on those done). */
TC_API int tc_frontier_a2a(tc_frontier *f, const tc_find_a2a_options *o, tc_error *err);

#endif
