/*
** io_node_link.c — networkx node-link JSON (nx.node_link_data, nx.node_link_graph; format in
** docs/formats.md, "networkx node-link JSON"):
**
**   {"directed": false, "multigraph": false, "graph": {},
**    "nodes": [{"id": 0}, {"id": "sw", "kind": "switch"}, ...],
**    "links": [{"source": 0, "target": "sw", "capacity": 2}, ...]}
**
** Reader guarantees: parsed by jansson through core/json_read.h (syntax errors as
** "path:line:column: problem", everything else as "path: jpath: problem", TC_EINPUT).
** "directed" and "multigraph" default as in nx.node_link_graph (false and true); the links
** are under "links" (networkx before 3.6) or "edges" (its later default), never both.
** Node ids are integers or strings, named by node_names.h's rule; a node-link file lists
** every node, so isolated nodes are kept. Stricter than networkx where networkx would
** silently change the graph: a repeated node id, a link naming a node not in "nodes", and
** a repeated link when "multigraph" is false are errors. An undirected link u-v gives
** the arcs u->v and v->u (a self-loop one arc). The capacity is the link's "capacity",
** else its "weight", else 1, a whole number >= 1. A node whose "kind" is "switch" is a
** switch (what the writer writes); other attributes are ignored, as are unknown keys at
** the top level (node-link files often carry more).
** Writer guarantees: the keys in networkx's order; a bidirectional graph as an undirected
** one (each link once), any other as directed; "multigraph" exactly when there are
** parallel arcs; every node, with the labels as ids when they are all present and
** distinct, else the integer ids; "kind": "switch" on switches; "capacity" on every link
** (networkx's flow algorithms read a missing one as infinite). Reading the file back,
** here or with nx.node_link_graph, gives the same arcs. Replaced atomically.
*/
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/io_atomic.h"
#include "core/io_text.h"
#include "core/json_read.h"
#include "node_link.h"
#include "node_names.h"
#include "topocoll/graph_io.h"

int tci_node_link_recognise(const json_t *root) {
  return !json_object_get(root, "format") && json_is_array(json_object_get(root, "nodes")) &&
         (json_is_array(json_object_get(root, "links")) || json_is_array(json_object_get(root, "edges")));
}

typedef struct nl_link {
  int32_t u, v; /* name indices */
  int64_t cap;
  size_t at; /* index in the links array, for messages */
} nl_link;

typedef struct nl_reader {
  tc_json_reader r;
  tci_node_names names;
  uint8_t *is_switch; /* per name index */
  nl_link *links;
  size_t nlinks;
  const char *links_key; /* "links" or "edges" */
  int directed, multigraph;
} nl_reader;

/* A node id, integer or string, as a name: its text in buf or in the string itself. */
static int id_text(nl_reader *nl, const char *jpath, const json_t *j, char buf[24], const char **s, size_t *len,
                   int *is_int) {
  if (json_is_integer(j)) {
    *len = (size_t)snprintf(buf, 24, "%lld", (long long)json_integer_value(j));
    *s = buf;
    *is_int = 1;
    return TC_OK;
  }
  int rc = tci_json_expect_type(&nl->r, jpath, j, JSON_STRING, "an integer or a string");
  if (rc) return rc;
  *s = json_string_value(j);
  *len = json_string_length(j);
  *is_int = 0;
  return TC_OK;
}

/* An id in a message: an integer as it is, a string quoted (and made safe). */
static tc_io_quoted echo_id(const char *s, size_t len, int is_int) {
  tc_io_quoted q;
  if (is_int) snprintf(q.text, sizeof q.text, "%s", s);
  else q = tci_io_quote(s, len);
  return q;
}

static int optional_bool(nl_reader *nl, json_t *root, const char *key, int fallback, int *out) {
  json_t *j = json_object_get(root, key);
  *out = fallback;
  if (!j) return TC_OK;
  int rc = tci_json_expect_type(&nl->r, key, j, JSON_TRUE, "a boolean");
  if (!rc) *out = json_is_true(j);
  return rc;
}

static int read_node(nl_reader *nl, size_t i, json_t *node) {
  char jpath[TC_JSON_PATH_MAX], buf[24];
  snprintf(jpath, sizeof jpath, "nodes[%zu]", i);
  int rc = tci_json_expect_type(&nl->r, jpath, node, JSON_OBJECT, "an object {\"id\": ...}");
  json_t *id = rc ? NULL : tci_json_require(&nl->r, node, jpath, "id", &rc);
  if (rc) return rc;
  snprintf(jpath, sizeof jpath, "nodes[%zu].id", i);
  const char *s;
  size_t len;
  int is_int, added;
  int32_t index;
  if ((rc = id_text(nl, jpath, id, buf, &s, &len, &is_int))) return rc;
  if ((rc = tci_node_names_add(&nl->names, is_int, s, len, &index, &added, nl->r.err)))
    return rc == TC_EINPUT ? tci_json_fail(&nl->r, "nodes", "%s", nl->r.err->msg) : rc;
  if (!added) return tci_json_fail(&nl->r, jpath, "%s repeats the id of nodes[%d]", echo_id(s, len, is_int).text, index);
  json_t *kind = json_object_get(node, "kind");
  nl->is_switch[index] = json_is_string(kind) && !strcmp(json_string_value(kind), "switch");
  return TC_OK;
}

static int read_nodes(nl_reader *nl, json_t *root) {
  int rc = TC_OK;
  json_t *nodes = tci_json_require(&nl->r, root, "", "nodes", &rc);
  if (rc || (rc = tci_json_expect_type(&nl->r, "nodes", nodes, JSON_ARRAY, "an array"))) return rc;
  size_t n = json_array_size(nodes);
  if (n > (size_t)TC_MAX_NODES) return tci_json_fail(&nl->r, "nodes", "%zu nodes exceed the limit %d", n, TC_MAX_NODES);
  nl->is_switch = calloc(n ? n : 1, 1);
  if (!nl->is_switch) return tc_error_set(nl->r.err, TC_ENOMEM, "out of memory");
  for (size_t i = 0; i < n && !rc; i++) rc = read_node(nl, i, json_array_get(nodes, i));
  return rc;
}

/* links[i].source or .target: the name index of a node listed in "nodes". */
static int read_end(nl_reader *nl, size_t i, json_t *link, const char *key, int32_t *index) {
  char jpath[TC_JSON_PATH_MAX], buf[24];
  snprintf(jpath, sizeof jpath, "%s[%zu]", nl->links_key, i);
  int rc = TC_OK;
  json_t *j = tci_json_require(&nl->r, link, jpath, key, &rc);
  if (rc) return rc;
  snprintf(jpath, sizeof jpath, "%s[%zu].%s", nl->links_key, i, key);
  const char *s;
  size_t len;
  int is_int;
  if ((rc = id_text(nl, jpath, j, buf, &s, &len, &is_int))) return rc;
  *index = tci_node_names_find(&nl->names, is_int, s, len);
  if (*index >= 0) return TC_OK;
  return tci_json_fail(&nl->r, jpath, "%s is not the id of a node in \"nodes\"", echo_id(s, len, is_int).text);
}

/* The link's "capacity", else "weight", else 1: a whole number >= 1 (networkx may write
   3.0 for a float weight). */
static int read_capacity(nl_reader *nl, size_t i, json_t *link, int64_t *cap) {
  const char *key = json_object_get(link, "capacity") ? "capacity" : "weight";
  json_t *j = json_object_get(link, key);
  *cap = 1;
  if (!j) return TC_OK;
  char jpath[TC_JSON_PATH_MAX];
  snprintf(jpath, sizeof jpath, "%s[%zu].%s", nl->links_key, i, key);
  if (json_is_integer(j) && json_integer_value(j) >= 1) {
    *cap = json_integer_value(j);
    return TC_OK;
  }
  double x = json_is_real(j) ? json_real_value(j) : 0;
  if (json_is_real(j) && x >= 1 && x <= 9007199254740992.0 && x == floor(x)) {
    *cap = (int64_t)x;
    return TC_OK;
  }
  if (json_is_number(j)) return tci_json_fail(&nl->r, jpath, "%g is not a whole number >= 1", json_number_value(j));
  return tci_json_expect_type(&nl->r, jpath, j, JSON_INTEGER, "a whole number >= 1");
}

static int read_links(nl_reader *nl, json_t *root) {
  json_t *links = json_object_get(root, "links"), *edges = json_object_get(root, "edges");
  if (links && edges)
    return tc_error_set(nl->r.err, TC_EINPUT, "%s: both \"links\" and \"edges\" (networkx reads one of them)", nl->r.path);
  if (!links && !edges)
    return tc_error_set(nl->r.err, TC_EINPUT, "%s: links: missing (networkx writes the links as \"links\" or \"edges\")",
                        nl->r.path);
  nl->links_key = links ? "links" : "edges";
  json_t *a = links ? links : edges;
  int rc = tci_json_expect_type(&nl->r, nl->links_key, a, JSON_ARRAY, "an array");
  if (rc) return rc;
  size_t m = json_array_size(a);
  if (m > (size_t)TC_MAX_ARCS)
    return tci_json_fail(&nl->r, nl->links_key, "%zu links exceed the limit %lld", m, TC_MAX_ARCS);
  nl->links = malloc((m ? m : 1) * sizeof *nl->links);
  if (!nl->links) return tc_error_set(nl->r.err, TC_ENOMEM, "out of memory");
  for (size_t i = 0; i < m && !rc; i++) {
    json_t *link = json_array_get(a, i);
    char jpath[TC_JSON_PATH_MAX];
    snprintf(jpath, sizeof jpath, "%s[%zu]", nl->links_key, i);
    nl_link *l = &nl->links[i];
    l->at = i;
    rc = tci_json_expect_type(&nl->r, jpath, link, JSON_OBJECT, "an object {\"source\": ..., \"target\": ...}");
    if (!rc) rc = read_end(nl, i, link, "source", &l->u);
    if (!rc) rc = read_end(nl, i, link, "target", &l->v);
    if (!rc) rc = read_capacity(nl, i, link, &l->cap);
    nl->nlinks = i + 1;
  }
  return rc;
}

static int cmp_link(const void *pa, const void *pb) {
  const nl_link *a = pa, *b = pb;
  if (a->u != b->u) return a->u < b->u ? -1 : 1;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  return a->at < b->at ? -1 : a->at > b->at;
}

/* "multigraph": false promises one link per pair (unordered when undirected); networkx
   would merge a repeated one into one edge, keeping the last attributes, which would
   change the graph unseen. The first repeat in file order is reported. */
static int check_repeats(nl_reader *nl) {
  if (nl->multigraph || nl->nlinks < 2) return TC_OK;
  nl_link *key = malloc(nl->nlinks * sizeof *key);
  if (!key) return tc_error_set(nl->r.err, TC_ENOMEM, "out of memory");
  for (size_t k = 0; k < nl->nlinks; k++) {
    key[k] = nl->links[k];
    if (!nl->directed && key[k].u > key[k].v) key[k].u = nl->links[k].v, key[k].v = nl->links[k].u;
  }
  qsort(key, nl->nlinks, sizeof *key, cmp_link);
  size_t first = 0, repeat = 0;
  for (size_t k = 1; k < nl->nlinks; k++)
    if (key[k].u == key[k - 1].u && key[k].v == key[k - 1].v && (!repeat || key[k].at < repeat))
      first = key[k - 1].at, repeat = key[k].at;
  free(key);
  if (!repeat) return TC_OK;
  char jpath[TC_JSON_PATH_MAX];
  snprintf(jpath, sizeof jpath, "%s[%zu]", nl->links_key, repeat);
  return tci_json_fail(&nl->r, jpath, "repeats the link of %s[%zu], but \"multigraph\" is false", nl->links_key, first);
}

static int build_graph(nl_reader *nl, tc_graph **out) {
  int32_t *id = NULL;
  int named = 0;
  tc_graph_builder b;
  int rc = tci_node_names_ids(&nl->names, &id, &named, nl->r.err);
  if (rc) return rc;
  rc = tc_graph_builder_init(&b, nl->names.n, nl->r.err);
  int64_t arcs = (int64_t)nl->nlinks * (nl->directed ? 1 : 2);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs < TC_MAX_ARCS ? arcs : TC_MAX_ARCS, nl->r.err);
  for (size_t k = 0; !rc && k < nl->nlinks; k++) {
    const nl_link *l = &nl->links[k];
    rc = tc_graph_builder_add_arc(&b, id[l->u], id[l->v], l->cap, nl->r.err);
    if (!rc && !nl->directed && l->u != l->v) rc = tc_graph_builder_add_arc(&b, id[l->v], id[l->u], l->cap, nl->r.err);
  }
  for (int32_t k = 0; !rc && k < nl->names.n; k++) {
    if (named) rc = tc_graph_builder_set_label(&b, id[k], tci_node_names_text(&nl->names, k), nl->r.err);
    if (nl->is_switch[k]) b.kind[id[k]] = TC_NODE_SWITCH;
  }
  free(id);
  if (!rc) rc = tc_graph_builder_finish(&b, out, nl->r.err);
  else tc_graph_builder_destroy(&b);
  if (rc) tc_error_prefix(nl->r.err, "%s", nl->r.path);
  return rc;
}

/* Another document given to this reader says what it is. */
static int check_not_ours(nl_reader *nl, json_t *root) {
  const char *format = json_string_value(json_object_get(root, "format"));
  if (format && !strcmp(format, "topocoll-graph"))
    return tc_error_set(nl->r.err, TC_EINPUT,
                        "%s is a topocoll graph JSON (nodes/arcs), not a networkx node-link graph; read it with file(%s)",
                        nl->r.path, nl->r.path);
  return tci_json_check_kind(&nl->r, root);
}

int tc_graph_read_node_link(const char *path, tc_graph **out, tc_error *err) {
  *out = NULL;
  /* r.format names the graph document only for tci_json_check_kind's "is a schedule" */
  nl_reader nl = {.r = {path, err, "topocoll-graph", 1, "the graph has no nodes"}};
  int rc = TC_OK;
  json_t *root = tci_json_load_object(&nl.r, &rc);
  if (!root) return rc;
  rc = check_not_ours(&nl, root);
  if (!rc) rc = optional_bool(&nl, root, "directed", 0, &nl.directed);
  if (!rc) rc = optional_bool(&nl, root, "multigraph", 1, &nl.multigraph);
  json_t *graph = json_object_get(root, "graph");
  if (!rc && graph) rc = tci_json_expect_type(&nl.r, "graph", graph, JSON_OBJECT, "an object");
  if (!rc) rc = read_nodes(&nl, root);
  if (!rc) rc = read_links(&nl, root);
  if (!rc) rc = check_repeats(&nl);
  if (!rc) rc = build_graph(&nl, out);
  json_decref(root);
  tci_node_names_destroy(&nl.names);
  free(nl.is_switch);
  free(nl.links);
  return rc;
}

/* ---- writer ---- */

static int utf8_label(const char *label) {
  json_t *j = json_string(label);
  json_decref(j);
  return j != NULL;
}

static void put_string(FILE *fp, const char *s) {
  json_t *j = json_string(s);
  char *text = json_dumps(j, JSON_ENCODE_ANY);
  fputs(text ? text : "null", fp);
  free(text);
  json_decref(j);
}

static void put_id(FILE *fp, const tc_graph *g, int named, int32_t u) {
  if (named) put_string(fp, g->label[u]);
  else fprintf(fp, "%d", u);
}

int tc_graph_write_node_link(const tc_graph *g, const char *path, tc_error *err) {
  int named = tci_node_names_usable(g, utf8_label);
  if (named < 0) return tc_error_set(err, TC_ENOMEM, "out of memory");
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  int undirected = g->bidirectional;
  fprintf(fp, "{\n  \"directed\": %s,\n  \"multigraph\": %s,\n  \"graph\": {},\n  \"nodes\": [",
          undirected ? "false" : "true", tc_graph_count_multi_arcs(g) ? "true" : "false");
  for (int32_t u = 0; u < g->n; u++) {
    fputs(u ? ",\n    {\"id\": " : "\n    {\"id\": ", fp);
    put_id(fp, g, named, u);
    fputs(g->kind[u] == TC_NODE_SWITCH ? ", \"kind\": \"switch\"}" : "}", fp);
  }
  fputs(g->n ? "\n  ],\n  \"links\": [" : "],\n  \"links\": [", fp);
  int first = 1;
  for (int64_t a = 0; a < g->m; a++) {
    if (undirected && g->src[a] > g->dst[a]) continue; /* its partner v->u is this link */
    fputs(first ? "\n    {\"source\": " : ",\n    {\"source\": ", fp);
    put_id(fp, g, named, g->src[a]);
    fputs(", \"target\": ", fp);
    put_id(fp, g, named, g->dst[a]);
    fprintf(fp, ", \"capacity\": %lld}", (long long)g->cap[a]);
    first = 0;
  }
  fputs(first ? "]\n}\n" : "\n  ]\n}\n", fp);
  return tci_atomic_commit(&af, err);
}
