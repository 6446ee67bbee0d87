/*
** sptree.h — shortest-path trees under real arc lengths and the loads of routing one
** source's all-to-all shards along them. Internal header.
**
** The all-to-all solvers price with these: under arc lengths l >= 0, the cheapest way to
** send one unit from s to every other compute node is along a shortest-path tree of s, and
** the tree's load vector (arc -> the number of compute sinks below it) is the column the
** column-generation master adds. The sum of the tree's distances is Σ_t dist_l(s,t), the
** quantity every dual (upper) bound on the concurrent rate divides by.
**
** Contract of tci_sptree_build (Dijkstra with a binary heap keyed by (distance, node)):
**   - dist[v] is the least l-length of a path root -> v (INFINITY when none), parent[v] the
**     tree arc into v (-1 at the root and at unreached nodes), order[0..reached-1] the
**     reached nodes, root first, in nondecreasing distance; parents come before children;
**   - deterministic: the same graph and lengths give the same tree (ties go to the node of
**     smaller id first, and a parent is replaced only by a strictly shorter path);
**   - exact on integers: when every length is an integer and every distance stays below
**     2^53, each sum and comparison is exact in double arithmetic, so dist is the exact
**     integer distance (the certificates rely on this).
** Lengths must be finite and >= 0 (zero is allowed: dual lengths are zero on slack arcs).
** One tci_sptree per thread; nothing is shared.
*/
#ifndef TC_A2A_SPTREE_H
#define TC_A2A_SPTREE_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"

typedef struct tci_sptree {
  int32_t n;
  double *dist;    /* n */
  int64_t *parent; /* n: tree arc into v, -1 at the root and unreached nodes */
  int32_t *order;  /* n: the reached nodes, settle order */
  int32_t reached;
  int32_t root;
  int32_t *heap;   /* n: Dijkstra's heap of nodes */
  int32_t *slot;   /* n: a node's index in heap, -1 when not in it */
  int32_t *below;  /* n: compute sinks in v's subtree (tci_sptree_loads) */
} tci_sptree;

/* Room for graphs of n nodes. */
int tci_sptree_init(tci_sptree *t, int32_t n, tc_error *err);
void tci_sptree_destroy(tci_sptree *t);

/* The shortest-path tree of `root` in g under len (g->m entries); g->n <= t->n. */
void tci_sptree_build(tci_sptree *t, const tc_graph *g, const double *len, int32_t root);

/* The column of the last tree: routing one unit from the root to every reached compute
   node other than the root, arc[k] carries load[k] >= 1 units (k < return value; arcs
   that carry nothing, above switches only, are left out). Listed in settle order of the
   arc's head. Capacity: reached - 1 entries. */
int32_t tci_sptree_loads(tci_sptree *t, const tc_graph *g, int32_t *arc, int32_t *load);

/* Σ dist[v] over compute nodes v != root (INFINITY when one is unreached): the length of
   the tree's column. */
double tci_sptree_cost(const tci_sptree *t, const tc_graph *g);

/* 1 when nsrc trees over g are worth OpenMP threads (one home for the threshold: a
   parallel region costs milliseconds of spinning here, so small rounds stay serial). */
int tci_sptree_parallel(const tc_graph *g, int64_t nsrc);

#endif
