/*
** multitree_internal.h — a set of timed spanning trees, one per root, and the one way they
** become a schedule (multitree.c), shared by the greedy MULTITREE and the 2dfc parity
** construction (twodfc_multitree.c). Internal header.
**
** Root r's tree: arc[r*n + v] is the arc into v (-1 at v == r), step[r*n + v] >= 1 the
** step it is crossed in (0 at the root). A valid set has step[parent] < step[child] within
** a tree; contention-freedom (one tree per arc and step) is the builder's promise, and the
** cost model sees any breach as a load above one block per tree.
*/
#ifndef TC_SYNTH_MULTITREE_INTERNAL_H
#define TC_SYNTH_MULTITREE_INTERNAL_H

#include <stdint.h>

#include "topocoll/sched.h"

typedef struct tci_trees {
  int32_t n;
  int64_t *arc;  /* n*n */
  int32_t *step; /* n*n */
} tci_trees;

/* Allocate n*n entries (arc -1, step 0), or TC_ENOMEM. */
int tci_trees_init(tci_trees *t, int32_t n, tc_error *err);
void tci_trees_destroy(tci_trees *t);

/* The allgather (one block per tree edge) or alltoall (a tree edge carries its subtree's
   blocks) of the trees, named algo; TC_EINPUT for any other collective. */
int tci_trees_lower(const tc_graph *g, const tci_trees *t, tc_collective coll, const char *algo, tc_schedule *out,
                    tc_error *err);

#endif
