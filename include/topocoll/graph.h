/*
** graph.h — the directed multigraph every topocoll module works on.
**
** A tc_graph is immutable once built. It holds n nodes (ids 0..n-1) and m arcs (ids
** 0..m-1). Self-loops and parallel arcs are allowed; every arc carries a positive integer
** capacity (bandwidth units, default 1). A parallel arc is a separate arc: a node with
** two arcs to the same neighbour has two ports wired to it, and degree counts both.
**
** Guarantees after tc_graph_builder_finish():
**   - arcs are sorted by (src, dst, cap), so the out-arcs of u are the contiguous ids
**     out_off[u] .. out_off[u+1]-1, ordered by destination;
**   - in_arc[in_off[v] .. in_off[v+1]-1] lists the arc ids entering v, ordered by source;
**   - `bidirectional` is 1 exactly when the arcs can be paired into opposite pairs with
**     equal capacities (u->v with v->u; a self-loop is its own pair). Then rev[a] is the
**     partner of arc a (rev[rev[a]] == a); otherwise rev is NULL. Undirected topologies
**     are stored this way and so "know" they are undirected.
**   - kind[u] is TC_NODE_COMPUTE or TC_NODE_SWITCH; label is NULL or n strings (any may be
**     NULL), owned by the graph.
**
** Node ids are int32_t and arc ids int64_t; builders refuse sizes beyond those ranges.
*/
#ifndef TOPOCOLL_GRAPH_H
#define TOPOCOLL_GRAPH_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"

typedef enum { TC_NODE_COMPUTE = 0, TC_NODE_SWITCH = 1 } tc_node_kind;

/* Direction selector for neighbourhood and BFS queries. */
typedef enum { TC_OUT = 0, TC_IN = 1 } tc_dir;

/* Largest node count any builder accepts (keeps n*d arc counts and n^2 pair counts sane). */
/* Only the fuzz build (CMake TC_BUILD_FUZZ) defines smaller limits, so that its harnesses
   never build a graph that costs seconds; nothing else may: the library and its clients
   must agree on them. */
#ifndef TC_MAX_NODES
#define TC_MAX_NODES 16777216
#endif
/* Largest arc count any builder accepts. */
#ifndef TC_MAX_ARCS
#define TC_MAX_ARCS 134217728LL
#endif

typedef struct tc_graph {
  int32_t n;
  int64_t m;
  int32_t *src, *dst; /* m endpoints, sorted by (src, dst, cap) */
  int64_t *cap;       /* m capacities, each >= 1 */
  int64_t *out_off;   /* n+1 */
  int64_t *in_off;    /* n+1 */
  int64_t *in_arc;    /* m arc ids grouped by destination */
  int64_t *rev;       /* m partner arcs when bidirectional, else NULL */
  uint8_t *kind;      /* n node kinds */
  char **label;       /* NULL or n owned strings */
  int bidirectional;
} tc_graph;

/* Collects arcs, then turns them into a tc_graph. */
typedef struct tc_graph_builder {
  int32_t n;
  int64_t m, room;
  int32_t *src, *dst;
  int64_t *cap;
  uint8_t *kind;
  char **label;
} tc_graph_builder;

TC_API int tc_graph_builder_init(tc_graph_builder *b, int64_t n, tc_error *err);
/* Reserve room for `m` arcs in total (optional; avoids regrowth). */
TC_API int tc_graph_builder_reserve(tc_graph_builder *b, int64_t m, tc_error *err);
/* Add arc u->v with capacity cap (>= 1). */
TC_API int tc_graph_builder_add_arc(tc_graph_builder *b, int64_t u, int64_t v, int64_t cap, tc_error *err);
/* Add an undirected link: arcs u->v and v->u, both with capacity cap (u == v adds one loop). */
TC_API int tc_graph_builder_add_edge(tc_graph_builder *b, int64_t u, int64_t v, int64_t cap, tc_error *err);
TC_API int tc_graph_builder_set_kind(tc_graph_builder *b, int64_t u, tc_node_kind kind, tc_error *err);
/* Copy `label` as node u's label. */
TC_API int tc_graph_builder_set_label(tc_graph_builder *b, int64_t u, const char *label, tc_error *err);
/* Build the graph and release the builder (also on failure). */
TC_API int tc_graph_builder_finish(tc_graph_builder *b, tc_graph **out, tc_error *err);
/* Release a builder that will not be finished. */
TC_API void tc_graph_builder_destroy(tc_graph_builder *b);

TC_API void tc_graph_destroy(tc_graph *g);

static inline int64_t tc_graph_out_degree(const tc_graph *g, int32_t u) {
  return g->out_off[u + 1] - g->out_off[u];
}
static inline int64_t tc_graph_in_degree(const tc_graph *g, int32_t u) {
  return g->in_off[u + 1] - g->in_off[u];
}

/* Common out-degree (with multiplicity, loops included) if all nodes agree, else -1.
 */
TC_API int64_t tc_graph_out_regular(const tc_graph *g);
TC_API int64_t tc_graph_in_regular(const tc_graph *g);
TC_API int64_t tc_graph_max_out_degree(const tc_graph *g);

TC_API int64_t tc_graph_count_self_loops(const tc_graph *g);
/* Number of arcs that repeat an earlier arc's (src, dst) pair. */
TC_API int64_t tc_graph_count_multi_arcs(const tc_graph *g);
/* 1 if every capacity is 1. */
TC_API int tc_graph_unit_capacity(const tc_graph *g);
TC_API int32_t tc_graph_count_kind(const tc_graph *g, tc_node_kind kind);

/* Number of arcs u->v (0 if none); O(log deg). */
TC_API int64_t tc_graph_arc_multiplicity(const tc_graph *g, int32_t u, int32_t v);

/* Transpose G^T: every arc reversed, capacities, kinds and labels kept. */
TC_API int tc_graph_transpose(const tc_graph *g, tc_graph **out, tc_error *err);
/* Deep copy. */
TC_API int tc_graph_copy(const tc_graph *g, tc_graph **out, tc_error *err);

/* 1 if every node reaches every other along arcs (n <= 1 counts as connected). */
TC_API int tc_graph_is_strongly_connected(const tc_graph *g);

/* Label of u, or NULL. */
static inline const char *tc_graph_label(const tc_graph *g, int32_t u) {
  return g->label ? g->label[u] : 0;
}

#endif
