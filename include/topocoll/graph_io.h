/*
** graph_io.h — reading and writing graphs: edge list, JSON (schema in docs/formats.md),
** Graphviz DOT, and a wiring plan CSV (node, port -> node, port) for cabling.
**
** Readers reject malformed input with one line naming the file, line (or JSON path) and
** problem. Writers write to a temporary file beside the target and rename it into place,
** so a failed write never leaves a partial file where the good one should be.
*/
#ifndef TOPOCOLL_GRAPH_IO_H
#define TOPOCOLL_GRAPH_IO_H

#include "topocoll/export.h"

#include <stdio.h>

#include "topocoll/graph.h"

/* Edge list: '#' comments; optional header "nodes N"; then one arc per line "u v [cap]". */
TC_API int tc_graph_read_edgelist(const char *path, tc_graph **out, tc_error *err);
TC_API int tc_graph_write_edgelist(const tc_graph *g, const char *path, tc_error *err);

/* JSON document {"format":"topocoll-graph","version":1,...}. `spec` may be NULL. */
TC_API int tc_graph_read_json(const char *path, tc_graph **out, tc_error *err);
TC_API int tc_graph_write_json(const tc_graph *g, const char *spec, const char *path, tc_error *err);

/* Graphviz DOT: a digraph, or a graph with one edge per opposite arc pair when bidirectional. */
TC_API int tc_graph_write_dot(const tc_graph *g, const char *name, const char *path, tc_error *err);

/* Wiring plan CSV: one cable per row. Bidirectional links are duplex cables between
   port p of u and port q of v; arcs of unidirectional graphs are simplex fibres from the
   transmit side of u's port p to the receive side of v's port q. */
TC_API int tc_graph_write_wiring(const tc_graph *g, const char *path, tc_error *err);
/* How a wiring plan cables the links: TC_WIRING_AUTO as tc_graph_write_wiring (duplex
   cables for a bidirectional graph, else simplex fibres); TC_WIRING_DUPLEX one duplex cable
   per opposite arc pair (a graph that is not bidirectional is TC_EINPUT); TC_WIRING_SIMPLEX
   one simplex fibre per arc, even when the arcs pair up (patch-panel optics). */
typedef enum { TC_WIRING_AUTO, TC_WIRING_DUPLEX, TC_WIRING_SIMPLEX } tc_wiring_links;
TC_API int tc_graph_write_wiring_as(const tc_graph *g, tc_wiring_links links, const char *path, tc_error *err);
/* The cables of that wiring plan, in row order (the one home of its port numbering, which
   the plan's ranks.csv shares, rank_map.h): *out is malloc'ed (*count entries). */
typedef struct tc_cable {
  int64_t cable;      /* row number */
  const char *kind;   /* "duplex", "loopback" or "simplex" */
  int32_t u;          /* from node ... */
  int64_t u_port;     /* ... and port (the transmit side for simplex) */
  int32_t v;          /* to node ... */
  int64_t v_port;     /* ... and port (the receive side for simplex) */
  int64_t capacity;
} tc_cable;
TC_API int tc_graph_wiring_cables(const tc_graph *g, tc_wiring_links links, tc_cable **out, int64_t *count,
                                  tc_error *err);

/* Read by extension: .json -> JSON, anything else -> edge list. */
TC_API int tc_graph_read_file(const char *path, tc_graph **out, tc_error *err);

/* networkx's formats (docs/formats.md). Node names become ids 0..n-1: names that are
   exactly the integers 0..n-1 keep their values, any others are numbered in order of first
   appearance and kept as labels. Writers use the labels as names when every node has a
   distinct one the format can hold, else the ids, and always write the capacity. */
/* Edge list as nx.write_edgelist writes it: "u v", "u v {'capacity': 3}" (or 'weight'), or
   "u v 3"; each line one arc (an undirected Graph's links once each: bidir(...) pairs them).
   The writer writes every arc, "u v {'capacity': c}". */
TC_API int tc_graph_read_nx_edgelist(const char *path, tc_graph **out, tc_error *err);
TC_API int tc_graph_write_nx_edgelist(const tc_graph *g, const char *path, tc_error *err);
/* Node-link JSON as nx.node_link_data writes it ("nodes" and "links" or "edges"); an
   undirected graph's links give both arcs. A bidirectional graph is written undirected. */
TC_API int tc_graph_read_node_link(const char *path, tc_graph **out, tc_error *err);
TC_API int tc_graph_write_node_link(const tc_graph *g, const char *path, tc_error *err);
/* Read by extension: .json -> node-link, anything else -> networkx edge list. */
TC_API int tc_graph_read_nx_file(const char *path, tc_graph **out, tc_error *err);

#endif
