/*
** drg_internal.h — private plumbing shared by the distance-regular graph constructions
** (drg.c, drg_edges.c, drg_geom.c); not part of the public API.
**
** Every construction first produces a drg_edges: a simple undirected graph as a list of
** edges {u,v} (u != v) with optional node labels. Undirected line graphs and distance-h
** graphs are computed on that form, and tci_drg_edges_to_graph turns the final one into a
** bidirectional tc_graph (one opposite arc pair per edge, unit capacity). The graphs of
** paper 000 Table 8 have at most 728 nodes, so quadratic helpers are fine here.
*/
#ifndef TOPOCOLL_DRG_INTERNAL_H
#define TOPOCOLL_DRG_INTERNAL_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"

typedef struct drg_edges {
  int32_t n;       /* nodes 0..n-1 */
  int32_t m, room; /* edges stored / allocated */
  int32_t *eu, *ev; /* edge i is {eu[i], ev[i]} */
  char **label;    /* NULL or n owned strings (any may be NULL) */
} drg_edges;

/* Empty edge list on n nodes (1 <= n <= 1<<20). */
int tci_drg_edges_init(drg_edges *es, int32_t n, tc_error *err);
/* Add edge {u,v}; u != v, both in range (the constructions never add a pair twice). */
int tci_drg_edges_add(drg_edges *es, int32_t u, int32_t v, tc_error *err);
/* Set node u's label from a printf format. */
int tci_drg_edges_set_label(drg_edges *es, int32_t u, tc_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void tci_drg_edges_free(drg_edges *es);

/* Undirected line graph: node i = edge i of `base`; two nodes adjacent iff their edges
   share an endpoint. Labels "A~B" from the endpoint labels when `base` has them. */
int tci_drg_edges_line_graph(const drg_edges *base, drg_edges *out, tc_error *err);
/* Distance-h graph: same nodes and labels, x ~ y iff dist_base(x,y) == h (h >= 1). */
int tci_drg_edges_distance_graph(const drg_edges *base, int32_t h, drg_edges *out, tc_error *err);
/* Bidirectional tc_graph with one unit-capacity link per edge and the labels. */
int tci_drg_edges_to_graph(const drg_edges *es, tc_graph **out, tc_error *err);

/* Constructions over finite fields (drg_geom.c). Incidence graphs number the points
   0..P-1 and the lines P..P+L-1. */
/* Points and lines of AG(2,4) minus the parallel class of vertical lines (N = 32). */
int tci_drg_build_ag24_minus(drg_edges *es, tc_error *err);
/* Incidence graph of the symplectic generalized quadrangle W(q), q prime (q = 3: N = 80). */
int tci_drg_build_symplectic_gq(int q, drg_edges *es, tc_error *err);
/* Incidence graph of the split Cayley hexagon H(q) on Q(6,q), q prime
   (q = 2: the Tutte 12-cage, N = 126; q = 3: N = 728). */
int tci_drg_build_split_cayley(int q, drg_edges *es, tc_error *err);

#endif
