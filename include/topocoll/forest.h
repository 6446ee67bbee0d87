/*
** forest.h — ForestColl (paper 001): throughput-optimal spanning-tree schedules for
** allgather, reduce-scatter and allreduce on any fabric — compute nodes behind switches,
** links of unequal bandwidth.
**
** The model (paper 001 §3.2): a schedule is N·k spanning out-trees over the compute nodes, k
** rooted at each; each tree carries 1/k of its root's shard at the same bandwidth y on every
** edge. A tree edge is a logical compute-to-compute send that physically follows a path
** through switches. Time = max over links e of (data crossing e) / b_e; latency is ignored.
** The optimum (eq. (1), Theorem 1) is T = (M/N)·(1/x*) with
**     1/x* = max over cuts S ⊉ V_c of |S ∩ V_c| / B⁺(S),
** and the maximising S is the bottleneck cut — reported with its ratio, so anyone can re-add
** the capacities of the arcs leaving it and check the bound.
**
** Weighted roots (paper 001 §3.5, App. E: "any root subset with unequal amounts"): compute
** node v may own w_v >= 0 shares of the buffer instead of one (W = Σ w > 0). Everything above
** holds with counts replaced by weights — k·w_v trees rooted at v, each carrying M/(W·k), and
**     1/x* = max over cuts S ⊉ V_c of w(S ∩ V_c) / B⁺(S),   T = (M/W)·(1/x*)
** (Edmonds' branching theorem holds for any root multiplicities). A node with w_v = 0 owns
** nothing and roots no tree, but still receives everything. All weights 1 is the unweighted
** forest, bit for bit.
**
** tc_forest_build runs the whole pipeline of paper 001 §4: the optimality search (Algorithm 1,
** or Algorithm 3 for a fixed k), k and y by Proposition 3, switch removal by edge splitting
** (Algorithm 4, γ of Theorem 8), tree packing (Algorithm 5, μ of Theorem 12) and the map-back
** of logical edges to physical paths; reduce-scatter builds out-trees on the transpose and
** reverses them (§4.6); allreduce is reduce-scatter then allgather. Everything is exact
** (integers and rationals). Nothing leaves tc_forest_build unverified: it ends with
** tc_forest_verify, an independent checker of the trees against the graph, and the
** algorithmic bandwidth it reports is measured on the trees (max link load), not taken from
** the search.
**
** Capacities are the graph's integer arc capacities (GB/s for the fabric families); algbw is
** in the same units (data size / time).
*/
#ifndef TOPOCOLL_FOREST_H
#define TOPOCOLL_FOREST_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/progress.h"
#include "topocoll/rational.h"
#include "topocoll/sched.h"

/* How the optimum is found. Both are exact and give the same answer; NEWTON (the default)
   jumps to the ratio of each violated cut (Dinkelbach) and needs 1-3 rounds of max-flows,
   BISECT is the paper's binary search (Algorithm 1 / Algorithm 3) verbatim, then certified
   the same way. */
typedef enum { TC_FOREST_NEWTON = 0, TC_FOREST_BISECT = 1 } tc_forest_search;

typedef struct tc_forest_options {
  tc_collective coll;       /* TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER or TC_COLL_ALLREDUCE */
  int64_t k;                /* 0: the optimum (Algorithm 1 + Prop. 3); > 0: Algorithm 3 with this k */
  tc_forest_search search;
  int exact_split;          /* 1: always Algorithm 4 with γ; 0: first a greedy removal, kept
                               only if the max-flow certificate on D* passes */
  tc_progress_fn progress;  /* NULL, or reports (topocoll/progress.h) of the phases "forest:
                               optimality search", "forest: removing switches" (switches),
                               "forest: packing trees, roots done" (roots), "forest: mapping
                               trees to paths" and "forest: verifying the trees" */
  void *progress_ctx;
  const int64_t *weights;   /* per node of g: the shares compute node v owns (w_v >= 0, not all 0;
                               a switch's entry must be 0); NULL: 1 each, the paper's layout */
} tc_forest_options;

/* The result of the optimality search on one graph (G for allgather, G^T for reduce-scatter). */
typedef struct tc_forest_optimum {
  int optimal;        /* 1: Algorithm 1 (k from Prop. 3); 0: Algorithm 3 at a fixed k */
  tc_rat inv_x;       /* optimal: 1/x*; fixed k: U* / k — in both, T = (M/W)·inv_x (W = N unweighted) */
  tc_rat U;           /* capacity scale: the tree counts are U·b_e (optimal) or floor(U·b_e) */
  tc_rat y;           /* bandwidth per tree, 1/U */
  int64_t k;          /* trees per compute node (weighted: per share, k·w_v rooted at v) */
  int32_t *cut;       /* bottleneck cut S* (node ids, ascending; optimal only, else NULL) */
  int32_t cut_len;
  int64_t cut_compute; /* w(S* ∩ V_c): |S* ∩ V_c| when unweighted */
  int64_t cut_exit;    /* B⁺(S*): capacity of the arcs leaving S* */
  int64_t iterations;  /* feasibility tests run */
  int64_t maxflows;    /* max-flows they ran */
} tc_forest_optimum;

/* m identical trees rooted at `root`. Edges are logical sends in the direction data moves:
   parent -> child for allgather out-trees, child -> parent for reduce-scatter in-trees.
   Edge i travels over routes route_off[i] .. route_off[i+1]-1; route r carries route_units[r]
   of the m trees (they sum to m per edge) along the graph arcs hop_arc[hop_off[r] ..
   hop_off[r+1]-1], a path whose inner nodes are switches. */
typedef struct tc_forest_batch {
  int32_t root;
  int64_t mult;
  int32_t nedges;
  int32_t *from, *to;
  int64_t *route_off;
  int64_t nroutes;
  int64_t *route_units;
  int64_t *hop_off;
  int64_t *hop_arc;
} tc_forest_batch;

/* One direction of a collective: allgather out-trees or reduce-scatter in-trees. */
typedef struct tc_forest_part {
  int in_trees;            /* 1: reduce-scatter (data flows towards the roots) */
  tc_forest_optimum opt;   /* search result on the graph the trees were built on */
  int64_t nbatches;
  tc_forest_batch *batch;
  tc_rat algbw;            /* measured on the trees: W·k / max_e (load_e / b_e) */
  int64_t logical_arcs;    /* arcs of the switch-free logical graph D* */
  int split_greedy;        /* 1: switches split greedily, D* certified by N max-flows;
                              0: Algorithm 4 with γ of Theorem 8 (or no switches) */
  int64_t split_maxflows;  /* max-flows of switch removal (γ) */
  int64_t pack_maxflows;   /* max-flows of tree packing (μ) */
} tc_forest_part;

typedef struct tc_forest {
  tc_collective coll;
  int32_t ncompute, nswitch;
  int nparts;              /* 1, or 2 for allreduce (part[0] reduce-scatter, part[1] allgather) */
  tc_forest_part part[2];
  tc_rat algbw;            /* of the collective: M / T (allreduce: 1/(1/a_RS + 1/a_AG)) */
  int verified;            /* 1 once tc_forest_verify passed */
  int64_t *weights;        /* per node of g (owned): the shares of each compute node, or NULL
                              when every compute node owns one (the unweighted forest) */
  int64_t weight_total;    /* W: Σ weights (N when NULL), set by tc_forest_verify */
} tc_forest;

/* The most compute nodes accepted: the search, the removal and the packing grow about as N³
   (1024 GPUs of dgx_a100(128) take about 35 s on two cores, bench/bench_forest.py), so four
   times that would take the better part of an hour. Beyond it: TC_ERANGE, one line. */
#define TC_FOREST_MAX_COMPUTE 4096

/* Refuse, with one line, a fabric ForestColl cannot handle: more than TC_FOREST_MAX_COMPUTE
   compute nodes (TC_ERANGE); no compute node (or one only), a compute node that cannot reach
   or be reached from another, a node whose ingress and egress capacities differ when
   switches must be removed (`need_eulerian`) (TC_EINPUT). */
TC_API int tc_forest_check_fabric(const tc_graph *g, int need_eulerian, tc_error *err);

/* The optimality search alone (no trees): Algorithm 1 when k == 0, else Algorithm 3. */
TC_API int tc_forest_search_optimum(const tc_graph *g, int64_t k, tc_forest_search search, tc_forest_optimum *out,
                                    tc_error *err);
/* The same with weighted roots (weights per node of g as in tc_forest_options; NULL: 1 each,
   exactly tc_forest_search_optimum). A negative weight, a weight on a switch or all weights
   0 is TC_EINPUT with one line. */
TC_API int tc_forest_search_optimum_weighted(const tc_graph *g, const int64_t *weights, int64_t k,
                                             tc_forest_search search, tc_forest_optimum *out, tc_error *err);
TC_API void tc_forest_optimum_destroy(tc_forest_optimum *o);

/* The whole pipeline; verified on success. */
TC_API int tc_forest_build(const tc_graph *g, const tc_forest_options *opt, tc_forest *out, tc_error *err);
TC_API void tc_forest_destroy(tc_forest *f);

/* Independent check of a forest against g: every batch a spanning arborescence of the
   compute nodes in the right direction, every route a path of g between the edge's ends with
   only switches inside, route units summing to the batch's multiplicity, multiplicities
   summing to k·w_v per root v (k when unweighted; no tree at a node of weight 0), and every
   arc's load within its capacity: load_e <= U·b_e (floor for a fixed k). Sets each part's
   algbw and f->algbw from the loads, and f->verified. TC_EFAIL with the first violation
   otherwise. */
TC_API int tc_forest_verify(const tc_graph *g, tc_forest *f, tc_error *err);

/* The forest document (docs/formats.md): the collective, k, y, U, 1/x*, algbw ("p/q" and a
   float), the bottleneck cut, the work counters, the weights of a weighted forest and, with
   with_trees, every batch with its routes. Only a verified forest is written; path "-" is
   standard output. */
TC_API int tc_forest_write_json(const tc_graph *g, const char *spec, const tc_forest *f, int with_trees,
                                const char *path, tc_error *err);

/* The forest as a step schedule (sched.h) with P >= 1 pipeline chunks per tree, verified
   (tc_schedule_verify) and in canonical order; docs/forestcoll.md, "Step schedules".
   Shards are g's compute nodes in id order (owner NULL without switches), each cut into K·P
   units, K = k (allreduce: the lcm of both parts' k). A weighted forest has W shards instead,
   w_v consecutive ones owned by each compute node v in id order (none for w_v = 0); v's
   w_v·K·P units are taken as one run, a transfer that crosses from one of v's shards into
   the next being cut in two. Batch (r, m) owns the next m/k of r's
   shard, in P chunks of K/k·m units; each route of an edge carries its route units' share
   of every chunk, one transfer per hop (switch hops are steps: the IR's switches store and
   forward). With L(e) an edge's longest route in hops, out-trees put chunk j (1..P) on hop i
   of a route of u -> v at step d(u) + j + i, d(root) = 0, d(v) = d(u) + L(u -> v); in-trees
   by height, h(leaf) = 0, h(v) = max over children c of h(c) + L(c -> v), hop i of c -> v
   at step h(c) + j + i. A part takes D + P − 1 steps (D: its deepest tree, d or h of the
   root in hops); allreduce runs the reduce-scatter part in steps 1..rs_steps, then the
   allgather part. Each step's per-link load is at most the fluid forest's over k·P, so
   T_B(P) <= (D + P − 1)/P · T_opt (per part), tending to the forest's optimum as P grows.
   TC_EINPUT for P < 1, an unverified forest or one that does not fit g; TC_ERANGE when
   units, steps or transfers would overflow or exceed the memory limit (budget.h), or the
   weights add up to more than TC_FOREST_MAX_SHARDS; TC_EFAIL
   if the schedule fails verification (our bug). On failure *out is empty. */
#define TC_FOREST_MAX_SHARDS 1048576
TC_API int tc_forest_lower(const tc_graph *g, const tc_forest *f, int64_t P, tc_schedule *out, tc_error *err);

/* LP (6) of paper 001 (App. E): the best allreduce of any shape — unequal shards, any split
   of each link between reduce and broadcast — as an exact certificate for small fabrics
   (docs/forestcoll.md). *value = Σ x_v, the allreduce algbw; *upper = 1 when no allreduce
   can beat it (dual checked exactly), *lower = 1 when one reaches it (primal checked). Too
   large an LP is TC_ERANGE with one line. */
TC_API int tc_forest_lp_allreduce(const tc_graph *g, tc_rat *value, int *upper, int *lower, tc_error *err);

/* The shares an allreduce should give each compute node when links are unequal (w_out: one
   entry per node of g, 0 on switches): water-filling, s_t = max(0, M − c(t)·T) with T such
   that Σ s_t = M, c(t) = 1/(1/c_in(t) + 1/c_out(t)) the harmonic combination of t's link
   capacities to other nodes (loops carry nothing). A node whose links are thin must hold
   more of the result itself, so it receives and sends less; on genkautz(4,64) the four
   nodes with a self-loop (3 links each way) get M/4 each and the others nothing. The
   rational shares are scaled by the lcm of their denominators and divided by their gcd, so
   every compute node with the same capacities gets 1 (*uniform = 1: the forest is the
   unweighted one). TC_ERANGE if the integers overflow; the fabric checks of
   tc_forest_check_fabric. */
TC_API int tc_forest_allreduce_weights(const tc_graph *g, int64_t *w_out, int *uniform, tc_error *err);

/* The best algbw any ring allgather (any number of rings in parallel) can reach on g:
   N·λ/(N−1), λ the least capacity leaving a set that splits the compute nodes (*min_cut);
   see paper 001 §5.1. The comparison topocoll forest prints. */
TC_API int tc_forest_ring_bound(const tc_graph *g, tc_rat *algbw, int64_t *min_cut, tc_error *err);

#endif
