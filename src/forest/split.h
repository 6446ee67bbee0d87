/*
** split.h — switch removal by edge splitting (paper 001 §4.3, Algorithm 4) and the path
** pools that map logical edges back to physical paths. Internal.
**
** Input: D = G({U·b_e}) as a tci_capgraph on g's node ids (Eulerian; min over compute v of
** F(s, v; D_k) ≥ W·k, where D_k joins a source s to every compute node c by k·w_c — weighted
** roots, forest.h; w = 1 and W = N unweighted), k, the weights w (per node of g) and g itself
** for the physical arcs. tci_split_switches removes every
** switch w: for each egress arc f = (w, t) it walks the ingress arcs e = (u, w) and splits off
** γ units — γ of Theorem 8, formula (2): the least of c(u,w), c(w,t) and the slack of the two
** cut families it would shrink, each measured by one max-flow per compute node v on the
** auxiliary networks D̂_{(u,w),v} and D̂_{(w,t),v}. Splitting moves γ units of (u,w) and of
** (w,t) onto (u,t); a self-loop (u = t) is dropped. Theorem 8 guarantees each f is exhausted in
** one pass and each switch ends isolated; both are checked (TC_EFAIL if not).
**
** Path pools: every arc (x, y) of D holds a FIFO of pieces (a path of physical arcs of g from x
** to y, and how many units of capacity follow it). Initially the pieces are g's own arcs.
** A split takes γ units from the front of pool(u,w) and of pool(w,t), pairs them greedily
** and appends the concatenated paths to pool(u,t) — so when the switches are gone, every
** unit of every logical arc of D* owns one physical path, and no two units share a unit of
** physical capacity. tci_pools_take consumes units of a logical arc for one tree batch.
**
** Switch order: fewest distinct neighbours first (NICs before NVSwitches before IB switches),
** then id. Ingress order for each f: u ≠ t first, then the u farthest from t in the fabric
** without w (so that, as in the paper's Fig. 13, cross-cluster pairs use the global switch and
** intra-cluster pairs keep their own switch), then the first u after t in cyclic id order
** (so that equally far neighbours pair up as a rotation, not as 2-cycles). Orders change
** routing, never the optimum.
*/
#ifndef TC_FOREST_SPLIT_H
#define TC_FOREST_SPLIT_H

#include <stdint.h>

#include "forest/capgraph.h"
#include "topocoll/forest.h"

typedef struct tci_piece {
  int64_t path;  /* index into the path arena */
  int64_t units;
} tci_piece;

typedef struct tci_pool {
  tci_piece *piece;
  int64_t head, len, room; /* live pieces are piece[head .. len-1] */
} tci_pool;

typedef struct tci_pools {
  int64_t npools; /* one per arc slot of the capgraph (grown on demand) */
  tci_pool *pool;
  int64_t npaths, path_room;
  int64_t *path_off; /* npaths + 1 offsets into hop */
  int64_t nhops, hop_room;
  int64_t *hop;      /* physical arc ids of g */
} tci_pools;

/* Pools holding g's arcs: the pool of D's arc (x, y) gets one piece per arc x -> y of g,
   with units = that arc's share of D's capacity (arc_units[a] for g's arc a). */
int tci_pools_init(tci_pools *p, const tci_capgraph *d, const tc_graph *g, const int64_t *arc_units, tc_error *err);
void tci_pools_destroy(tci_pools *p);

/* Take `units` from the front of pool(x, y) of D: the pieces taken (with the amounts) are
   appended to out / out_units (grown as needed; *count updated). */
int tci_pools_take(tci_pools *p, const tci_capgraph *d, int32_t x, int32_t y, int64_t units, tci_piece **out,
                   int64_t *count, int64_t *room, tc_error *err);

typedef struct tci_split_stats {
  int64_t maxflows;
  int64_t splits;
} tci_split_stats;

/* Deep copy (a greedy attempt works on copies, so that a failed one leaves the originals). */
int tci_pools_copy(tci_pools *out, const tci_pools *p, tc_error *err);

/* Algorithm 4 on d (modified in place: on success only compute-to-compute arcs remain).
   With `greedy`, the switches with three or more neighbours are split completely in the
   ingress order above without computing γ — fast, but nothing then guarantees that D*
   keeps min_v F(s, v; D*_k) ≥ W·k: the caller must certify D* (tci_pack_feasible) and redo
   the removal without `greedy` if it fails. Switches with at most two neighbours never need
   γ (proof at the loop). */
int tci_split_switches(tci_capgraph *d, const tc_graph *g, int64_t k, const int64_t *w, int greedy, tci_pools *pools,
                       tci_split_stats *stats, tc_progress_fn progress, void *progress_ctx, tc_error *err);

#endif
