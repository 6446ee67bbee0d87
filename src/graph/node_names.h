/*
** node_names.h — internal: node names -> node ids for the networkx readers
** (io_nx_edgelist.c, io_node_link.c) and the names their writers give nodes.
**
** networkx names nodes by any value; topocoll numbers them 0..n-1. A reader adds every
** name it meets (tci_node_names_add) and learns its index, the order of first appearance
** (networkx's own node order for a graph read from the file). tci_node_names_ids then
** fixes the ids once, by one rule kept here:
**   - names that are all integers (`is_int`, canonical decimals) and are exactly
**     0..n-1 are the ids themselves (what networkx writes for a graph of nodes 0..n-1,
**     e.g. nx.random_regular_graph; rank r is then node r), and no labels are kept;
**   - otherwise ids follow first appearance and each node keeps its name as its label.
** An integer name and a string name with the same text (7 and "7" in node-link JSON) are
** different nodes, as in networkx.
** Writers use tci_node_names_usable: a graph whose labels are all present, distinct and
** accepted by the format is written with its labels as names, any other with its ids.
*/
#ifndef TC_GRAPH_NODE_NAMES_H
#define TC_GRAPH_NODE_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/graph.h"

typedef struct tci_node_names {
  char *text;        /* every name, NUL-terminated, back to back */
  size_t text_len, text_room;
  size_t *off;       /* n offsets into text */
  uint8_t *is_int;   /* n flags: the name is an integer */
  int32_t n, room;
  int32_t *slot;     /* open-addressing hash: index + 1, 0 = empty */
  size_t slots;      /* a power of two, at least 2 * n */
} tci_node_names;

/* `s` is a canonical non-negative decimal ("0", "17", not "017", "+1", "-0"). */
int tci_node_names_canonical_int(const char *s, size_t len);

/* The index of name (is_int, s[0..len)), added if new (then *added = 1). More than
   TC_MAX_NODES names is TC_EINPUT "more than N nodes"; out of memory TC_ENOMEM. */
int tci_node_names_add(tci_node_names *t, int is_int, const char *s, size_t len, int32_t *index, int *added,
                       tc_error *err);

/* The index of name (is_int, s[0..len)), or -1 if it was never added. */
int32_t tci_node_names_find(const tci_node_names *t, int is_int, const char *s, size_t len);

/* The name of index i, NUL-terminated (valid until the next add). */
const char *tci_node_names_text(const tci_node_names *t, int32_t i);

/* The ids, by the rule above: *id (malloc'd, n entries, caller frees) maps index -> id;
   *named = 1 when the nodes keep their names as labels. */
int tci_node_names_ids(const tci_node_names *t, int32_t **id, int *named, tc_error *err);

void tci_node_names_destroy(tci_node_names *t);

/* Writers: 1 when every node of g has a label, no two are equal, and accept(label) holds
   for each (a format's rule: a token without blanks, valid UTF-8...); 0 otherwise, or -1
   out of memory. */
int tci_node_names_usable(const tc_graph *g, int (*accept)(const char *label));

#endif
