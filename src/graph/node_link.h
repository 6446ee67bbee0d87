/*
** node_link.h — internal: recognising networkx node-link JSON (io_node_link.c), so that the
** topocoll graph reader (io_json.c) can say what a node-link file is instead of refusing
** its first unknown key.
*/
#ifndef TC_GRAPH_NODE_LINK_H
#define TC_GRAPH_NODE_LINK_H

#include <jansson.h>

/* 1 when `root` has no "format" key, a "nodes" array and a "links" or "edges" array: the
   shape of nx.node_link_data. */
int tci_node_link_recognise(const json_t *root);

#endif
