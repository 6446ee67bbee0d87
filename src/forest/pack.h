/*
** pack.h — spanning out-tree packing in batches (paper 001 App. C.3, Algorithm 5). Internal.
**
** Input: a compute-only digraph D* (a tci_capgraph whose n nodes are all compute nodes, no
** loops), k >= 1 and weights w (w_v >= 0, not all 0; NULL: 1 each) such that
** min_v F(s, v; D*_k) >= k·Σw, where D*_k adds a source s with an arc s -> c of capacity
** k·w_c to every node (the condition of Theorems 5 and 10, for any root multiplicities —
** switch removal guarantees it). Output: batches (R, E(R), m(R)): m identical spanning
** out-trees rooted at R's root with edge set E(R), such that
**   - every batch spans all n nodes with exactly n-1 edges, each edge (from, to) added when
**     `from` was already in the tree and `to` was not (so the list is in BFS-like, parent-
**     before-child order);
**   - for every root u, the multiplicities of u's batches sum to k·w_u (no batch when
**     w_u = 0);
**   - for every arc e of D*, the multiplicities of the batches using e sum to <= c(e).
** μ for each growth step is formula (5) of Theorem 12: one max-flow on the auxiliary network
** D-bar (batches that already contain the new vertex y are omitted from both the network and
** the sum, which changes nothing: each contributes exactly m(R_i) through x -> s_i -> y), or
** an exact shortcut that gives the same value without it (pack.c; docs/forest_pack.md).
*/
#ifndef TC_FOREST_PACK_H
#define TC_FOREST_PACK_H

#include <stdint.h>

#include "forest/capgraph.h"
#include "topocoll/error.h"
#include "topocoll/progress.h"

typedef struct tci_batch {
  int32_t root;       /* node of D* */
  int64_t mult;       /* m(R): number of identical trees */
  int32_t nedges;     /* n-1 once spanning */
  int32_t *from, *to; /* the edges, in the order they were added */
} tci_batch;

typedef struct tci_packing {
  int64_t count, room;
  tci_batch *batch;
  int64_t maxflows; /* μ evaluations that ran a max-flow (for the bench and --json) */
} tci_packing;

/* Algorithm 5 on D* with k·w_v trees rooted at each v (k when w is NULL). On failure *out is
   empty. A D* that violates the precondition is reported as TC_EFAIL ("no edge can grow
   batch ..."): it means the caller's switch removal is wrong, never the user's input.
   k < 1, a negative weight or all weights 0 is TC_EINPUT. The result depends only on D*, k
   and w (never on timing or the number of threads). */
int tci_pack_trees(const tci_capgraph *dstar, int64_t k, const int64_t *w, tci_packing *out, tc_error *err);
void tci_packing_destroy(tci_packing *p);

/* The test hook: what the packer knows at one μ evaluation. Arcs are D*'s live arcs at the
   start, sorted by (src, dst); g is their remaining capacity now. Batches 0..count-1 of
   `packing` are the current R_i (vertex set = root + `to` of the edges so far, m = mult);
   batch `grown` is R_1, the one being grown. Valid only during the call. */
typedef struct tci_pack_view {
  int32_t n;
  int64_t narcs;
  const int32_t *src, *dst;
  const int64_t *g;
  const tci_packing *packing;
  int64_t grown;
} tci_pack_view;

/* Called once for every edge (x, y) the packer evaluates, with the μ it found, before the
   step is applied (μ = 0: the edge is passed over). */
typedef void (*tci_pack_probe)(void *ctx, const tci_pack_view *view, int32_t x, int32_t y, int64_t mu);

/* tci_pack_trees, calling probe(ctx, ...) at every evaluation (probe may be NULL). */
int tci_pack_trees_probed(const tci_capgraph *dstar, int64_t k, const int64_t *w, tci_pack_probe probe, void *ctx,
                          tci_packing *out, tc_error *err);
/* tci_pack_trees, reporting "forest: packing trees, roots done" (done of the roots with trees)
   through progress (topocoll/progress.h; may be NULL). */
int tci_pack_trees_reported(const tci_capgraph *dstar, int64_t k, const int64_t *w, tc_progress_fn progress,
                            void *progress_ctx, tci_packing *out, tc_error *err);

/* The precondition itself: *ok = 1 iff min_v F(s, v; D*_k) >= k·Σw (n max-flows, each
   stopped there; w NULL: 1 each, k·n). */
int tci_pack_feasible(const tci_capgraph *dstar, int64_t k, const int64_t *w, int *ok, tc_error *err);
/* The largest k >= 0 that tci_pack_feasible accepts unweighted (binary search below the smallest
   in-capacity / (n-1); the condition is monotone in k: c(S) >= |S|·k implies
   c(S) >= |S|·(k-1)). One node: TC_EINPUT (every k packs). */
int tci_pack_max_k(const tci_capgraph *dstar, int64_t *k, tc_error *err);

#endif
