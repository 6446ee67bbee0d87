/*
** graph_hint.h — a note for a graph that was probably meant otherwise: an edge list that
** names every link once (as networkx's write_edgelist writes an undirected Graph) is read
** as a directed graph, one arc per line (docs/formats.md); the user who meant links gets
** pointed to bidir(...).
*/
#ifndef TOPOCOLL_TOOLS_GRAPH_HINT_H
#define TOPOCOLL_TOOLS_GRAPH_HINT_H

#include "topocoll/graph.h"

/* 1 when g has an arc between two distinct nodes and no such arc u->v has an arc v->u
   beside it: every link in one direction only. */
int tc_cli_graph_one_way(const tc_graph *g);

/* When spec is exactly file(PATH) or nx(PATH) of an edge list (not .json) and g is one
   way, print on stderr "topocoll CMD: note: PATH lists every link in one direction only
   ...; if its links are undirected ..., use 'bidir(SPEC)'". Nothing otherwise. */
void tc_cli_graph_hint(const char *cmd, const char *spec, const tc_graph *g);

#endif
