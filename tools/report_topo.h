/*
** report_topo.h — the report's drawing of the topology, by Graphviz: positions computed
** here (nodes around one circle sized from N so that they never touch, in index order by
** groups or in breadth-first layers: tc_report_ring_order says which and why), rendered by `neato -n2 -Tsvg` (which only draws,
** lays nothing out, and so takes milliseconds even at 1024 nodes). Switches of a fabric are
** grey boxes, compute nodes blue.
**
** Two drawings: the full one (every node and link; topology.svg beside the page) and the
** one the page embeds — the full one up to TC_REPORT_FULL_MAX nodes, else the group
** drawing: one node per group, one line per pair of groups joined by links, labelled with
** how many. A missing neato is TC_EINPUT "Graphviz's neato is not installed ...", checked
** before anything is written.
*/
#ifndef TC_TOOLS_REPORT_TOPO_H
#define TC_TOOLS_REPORT_TOPO_H

#include <stdio.h>

#include "topocoll/graph.h"

#define TC_REPORT_FULL_MAX 64
/* Up to this many nodes the full drawing writes each node's index in its circle; beyond,
   a node is a dot with its index in the hover title (at 1200 px, three-digit labels in
   circles spaced for 256 nodes are unreadable, and the page embeds the groups anyway). */
#define TC_REPORT_LABEL_MAX 64

/* Groups of the ring of groups for n nodes: ceil(sqrt(n)) groups of ceil(n / groups)
   consecutive nodes (the last may be smaller). Returns the group count, *size the size. */
int tc_report_groups(int32_t n, int32_t *size);

/* The full drawing's order around the ring. Index order when the links it draws are
   visible: their median span (index distance the shorter way round) is at least 1/16 of
   the ring, so a chord bows well inside the circle — circulant(64,6,7), the nodes in the
   order of the wiring table. Else a link in index order is a chord of a sliver of the circle
   that lies on the ring itself (circulant(256,11,12): the drawing was a thick circle), and
   the order is breadth-first from node 0 along out-arcs (successors in arc order; a node
   node 0 does not reach starts a new search, and a new layer, from the smallest unplaced
   index): every link then joins one layer to itself or the next, and the chords fan out.
   order[n] gets the nodes in ring order, layer[n] each node's layer (breadth-first: the hop
   distance from node 0 when reached from it; index order: 0). Returns the number of layers
   (1 for index order); the drawing leaves one empty slot after each layer, or after each
   group (tc_report_groups) in index order. */
int32_t tc_report_ring_order(const tc_graph *g, int32_t *order, int32_t *layer);

/* Write the DOT of g with fixed positions (points): grouped 0 every node, 1 the groups. */
void tc_report_topology_dot(FILE *fp, const tc_graph *g, int grouped);

/* TC_OK when neato is on PATH, else TC_EINPUT with the line above. */
int tc_report_check_graphviz(tc_error *err);

/* Render g (grouped as above) by neato into *svg (malloc'd, NUL-terminated, starting at
   "<svg": no XML prolog, so it can be embedded). TC_EFAIL naming neato's failure. */
int tc_report_render(const tc_graph *g, int grouped, char **svg, tc_error *err);

#endif
