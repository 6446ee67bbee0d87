/*
** capgraph.h — a mutable capacitated digraph for ForestColl's constructions. Internal.
**
** Switch removal (paper 001 Alg. 4) and tree packing (Alg. 5) keep changing capacities:
** they lower arcs, delete exhausted ones and create new logical arcs (u,t). A tci_capgraph
** stores at most one arc per ordered pair (u,v), so "c(u,v)" is one number; parallel
** physical arcs are summed when a tc_graph is loaded. Capacities are int64 >= 0 and an arc
** whose capacity reaches 0 is dead: lookups return 0 and iteration skips it (its slot is
** reused if the pair comes back). Self-loops are never stored: they cross no cut, so the
** constructions drop them (paper 001 §4.3, see split.c).
**
** Lookups are O(1) expected (open addressing on the pair); iteration over the live out- or
** in-arcs of u is linear in the arcs u ever had. Not thread-safe for writers; readers may
** share a graph that nobody modifies.
*/
#ifndef TC_FOREST_CAPGRAPH_H
#define TC_FOREST_CAPGRAPH_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"

typedef struct tci_adjlist {
  int64_t *arc; /* arc ids (live or dead) */
  int32_t len, room;
} tci_adjlist;

typedef struct tci_capgraph {
  int32_t n;
  int64_t narcs, room; /* arc slots used / allocated */
  int32_t *src, *dst;  /* endpoints of arc a */
  int64_t *cap;        /* capacity of arc a; 0 = dead */
  int64_t *slot;       /* hash table: arc id + 1, 0 = empty */
  uint64_t mask;       /* slots - 1 (a power of two) */
  tci_adjlist *out, *in;
} tci_capgraph;

/* An empty graph on n nodes. */
int tci_capgraph_init(tci_capgraph *g, int32_t n, tc_error *err);
void tci_capgraph_destroy(tci_capgraph *g);
/* Every arc of g (parallel arcs summed, loops dropped), capacities multiplied by `scale`
   (overflow is TC_ERANGE). */
int tci_capgraph_from_graph(tci_capgraph *out, const tc_graph *g, int64_t scale, tc_error *err);
/* An exact copy: the same arcs under the same ids, dead ones included (path pools and other
   per-arc tables index arcs by id). */
int tci_capgraph_copy(tci_capgraph *out, const tci_capgraph *g, tc_error *err);
/* Arc id of (u,v), live or dead, or -1. */
int64_t tci_capgraph_find(const tci_capgraph *g, int32_t u, int32_t v);
/* c(u,v): 0 when there is no live arc. */
int64_t tci_capgraph_cap(const tci_capgraph *g, int32_t u, int32_t v);
/* c(u,v) += delta (delta may be negative; the result must stay >= 0, else TC_EINPUT —
   a caller bug). u == v is ignored (loops are not stored). Creates the arc when needed. */
int tci_capgraph_add(tci_capgraph *g, int32_t u, int32_t v, int64_t delta, tc_error *err);
/* Sum of live capacities leaving / entering u. */
int64_t tci_capgraph_out_cap(const tci_capgraph *g, int32_t u);
int64_t tci_capgraph_in_cap(const tci_capgraph *g, int32_t u);
/* Number of live arcs. */
int64_t tci_capgraph_live_arcs(const tci_capgraph *g);

#endif
