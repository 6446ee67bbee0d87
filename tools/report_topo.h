/*
** report_topo.h — the report's drawing of the topology, by Graphviz: positions computed
** here (a ring of groups: consecutive nodes in groups around one circle, so the drawing
** keeps its shape from 8 to 1024 nodes), rendered by `neato -n2 -Tsvg` (which only draws,
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

/* Groups of the ring of groups for n nodes: ceil(sqrt(n)) groups of ceil(n / groups)
   consecutive nodes (the last may be smaller). Returns the group count, *size the size. */
int tc_report_groups(int32_t n, int32_t *size);

/* Write the DOT of g with fixed positions (points): grouped 0 every node, 1 the groups. */
void tc_report_topology_dot(FILE *fp, const tc_graph *g, int grouped);

/* TC_OK when neato is on PATH, else TC_EINPUT with the line above. */
int tc_report_check_graphviz(tc_error *err);

/* Render g (grouped as above) by neato into *svg (malloc'd, NUL-terminated, starting at
   "<svg": no XML prolog, so it can be embedded). TC_EFAIL naming neato's failure. */
int tc_report_render(const tc_graph *g, int grouped, char **svg, tc_error *err);

#endif
