/*
** dw_internal.h — what the column-generation solver (dw.c) shares with its first-order
** phase (dw_fw.c); the shared functions live in dw_state.c. Internal to the `a2a` layer.
**
** The state of one solve: the column pool (every tree ever kept, with its weight), one
** round's priced trees, the arc lengths and the best dual bound. Both phases work on the
** same pool: dw_fw.c fills it with weighted trees without any LP, dw.c's restricted master
** then takes the pool over as its columns (pool column j is LP column j + 1, column 0 is z)
** or, when the master would be too large, answers from the pool as dw_fw.c left it.
*/
#ifndef TC_A2A_DW_INTERNAL_H
#define TC_A2A_DW_INTERNAL_H

#include <stdint.h>

#include "a2a/a2a_internal.h"
#include "a2a/sym.h"
#include "lp/lp.h"

typedef struct tci_dw_pool {
  int64_t count, room;  /* columns */
  int32_t *src;         /* representative index of each column */
  int64_t *start;       /* count + 1 offsets into arc/load */
  int32_t *arc, *load;  /* entries (arcs of the graph, not classes) */
  int64_t entries, entry_room;
  int32_t *idle;        /* rounds since the column was last positive */
  uint64_t *hash;       /* of its entries, to skip duplicates */
  double *lam;          /* its weight: in the last optimal master, or dw_fw.c's routing */
} tci_dw_pool;

typedef struct tci_dw {
  const tc_graph *g;
  const tci_a2a_sym *sym;
  int32_t n, nreps, rows; /* rows: class rows, then one per representative */
  int64_t m;
  tci_lp_model *lp;       /* the restricted master (NULL while dw_fw.c runs) */
  tci_dw_pool cols;
  /* one round's trees, a slot of n-1 entries per representative, filled in parallel */
  int32_t *t_arc, *t_load, *t_len;
  double *t_cost, *t_rc;
  uint64_t *t_hash;
  double *l_master, *l_best, *l_price, *mu; /* arc lengths (m), convexity duals (nreps) */
  int threads;            /* pricing threads (0: OpenMP's default) */
  double best_bound;      /* best lower bound on z* */
  double z;               /* the congestion of the pool's current routing */
  /* progress: rounds so far (both phases count theirs), and the options with the callback */
  int64_t rounds;
  const tc_a2a_options *o;
} tci_dw;

/* Price every representative at d->l_price: its shortest-path tree, the tree's cost there
   and its reduced cost at the master's duals (l_master, mu). */
int tci_dw_price(tci_dw *d, tc_error *err);
/* The bound of the last pricing, kept (with its lengths in l_best) when it is the best. */
void tci_dw_keep_bound(tci_dw *d);
/* Append the round's trees with take[i] to the pool with weight 0 (a tree equal to a pooled
   column of its representative is not added again); col[i] is then the pool index of rep
   i's tree, added or found (col may be NULL; entries of reps without take are left as
   they were). */
int tci_dw_pool_append(tci_dw *d, const uint8_t *take, int64_t *col, tc_error *err);
void tci_dw_pool_free(tci_dw_pool *p);
/* A deep copy of `from` into `to` (whatever `to` held is freed). */
int tci_dw_pool_copy(const tci_dw_pool *from, tci_dw_pool *to, tc_error *err);
/* Keep the columns with keep[j] (order kept, as the LP's deletion keeps it). */
void tci_dw_pool_compact(tci_dw_pool *p, const uint8_t *keep);
/* Report a round through the options' progress callback (when there is one). */
void tci_dw_progress(const tci_dw *d);

/* The first-order phase (dw_fw.c): from an empty pool, route every representative and
   improve the routing until its certified gap z/best_bound − 1 is at most stop_gap, the
   deadline (0: none) passes (*timed_out = 1) or, with give_up, it stops improving
   (*stalled = 1: the master must take over; without give_up it goes on). On return every representative's pool weights sum to 1, d->z is
   the routing's congestion and the pool holds no column of weight 0. */
int tci_dw_fw_run(tci_dw *d, double stop_gap, double deadline, int give_up, int *timed_out, int *stalled,
                  tc_error *err);

#endif
