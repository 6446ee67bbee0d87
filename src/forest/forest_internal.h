/*
** forest_internal.h — what the files of src/forest share. Internal.
**
**   fabric.c        what ForestColl needs of a fabric (tc_forest_check_fabric) and of weights
**   search.c        the optimality search (Algorithms 1 and 3, Prop. 3, the bottleneck cut)
**   feasible.c      its feasibility oracle: N max-flows, the worst failing cut
**   capgraph.c      the mutable capacitated digraph of the constructions
**   split.c         switch removal by edge splitting (Algorithm 4) and the path pools
**   pack.c          tree packing (Algorithm 5, pack.h)
**   forest.c        the pipeline: search, Prop. 3, removal, packing, map-back, verification
**   verify.c        the independent tree verifier
**   forest_json.c   the forest document
**   ring_bound.c    the best a ring can do (the comparison of §5.1)
**   lp_allreduce.c  LP (6), the allreduce certificate, over lp_exact.c (GLPK + exact check)
**   weights.c       weighted roots: the water-filling shares of an allreduce
*/
#ifndef TC_FOREST_INTERNAL_H
#define TC_FOREST_INTERNAL_H

#include <stdint.h>

#include "forest/capgraph.h"
#include "topocoll/forest.h"

/* The compute nodes of g in id order (*count of them). */
int tci_forest_compute_nodes(const tc_graph *g, int32_t **out, int32_t *count, tc_error *err);

/* "v" or "v (label)" into buf: how refusals name a node. */
void tci_forest_name_node(const tc_graph *g, int32_t v, char *buf, int size);

/* A caller's weights (forest.h: per node of g, NULL = 1 on every compute node) checked and
   copied: *node_w gets one entry per node (0 on switches; the caller frees it), *total = W.
   TC_EINPUT with one line for a negative weight, a weight on a switch or all weights 0. */
int tci_forest_weights(const tc_graph *g, const int64_t *weights, int64_t **node_w, int64_t *total, tc_error *err);
/* 1 when `weights` is NULL or gives exactly 1 to every compute node (the unweighted forest). */
int tci_forest_weights_unit(const tc_graph *g, const int64_t *weights);

/* A cut S (a set of nodes of g, never all compute nodes) as a membership array. */
typedef struct tci_cut {
  uint8_t *in_s;        /* n flags */
  int64_t compute;      /* w(S ∩ V_c): |S ∩ V_c| unweighted */
  int64_t exit;         /* B⁺(S) in g's capacities */
} tci_cut;

/* The feasibility test of Theorem 1 / Theorem 5 / Algorithm 3 on g with arc capacities
   arc_cap[a] (one per arc of g) and a source with src_scale·node_w[c] to every compute node c
   (node_w: per node of g, the weights): *pass = 1 iff min over compute c of F(s, c) >= need.
   On failure *worst is the minimum cut of a failing sink with the largest ratio
   w(S ∩ V_c)/B⁺(S) in g's own capacities (ties: the set holding the smallest node where two
   differ), so a Newton step can jump to it. Max-flows run in parallel over the sinks
   (OpenMP); the result does not depend on the thread count. */
int tci_forest_feasible(const tc_graph *g, const int32_t *compute, int32_t ncompute, const int64_t *node_w,
                        const int64_t *arc_cap, int64_t src_scale, int64_t need, int *pass, tci_cut *worst,
                        int64_t *maxflows, tc_error *err);

/* The simplest fraction (smallest denominator, then numerator) in [lo, hi], 0 <= lo <= hi. */
tc_rat tci_simplest_between(tc_rat lo, tc_rat hi);

#endif
