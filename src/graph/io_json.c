/*
** io_json.c — the JSON graph document (schema in docs/formats.md):
**
**   {"format": "topocoll-graph", "version": 1, "spec": "...", "nodes": 4,
**    "bidirectional": true, "arcs": [[0, 1], [1, 0, 3], ...],
**    "kinds": ["compute", "switch", ...], "labels": ["a", null, ...]}
**
** Reader guarantees: the document is parsed by jansson (duplicate keys, trailing garbage
** and integers beyond 64 bits are rejected as "path:line:column: problem"), then every
** field is checked for presence, type and range, and a problem is reported with its JSON
** path: "path: arcs[12][1]: node 40 outside 0..31". Unknown keys are errors (a misspelled
** "labels" must not silently drop labels). "bidirectional": true is checked against the
** arcs; false is accepted whatever the arcs are (the graph core decides pairing). The spec
** string is validated but not returned (tc_graph has no place for it). The generic checks
** (parsing, types, ranges, keys, the format/version header) are core/json_read.h's.
** Writer guarantees: the same schema, keys in the order above, one arc per line (streamed,
** so no document tree is built for large graphs), "kinds" only when some node is a
** switch, "labels" only when some node has one; strings are escaped by jansson, and a
** label that is not valid UTF-8 is refused (TC_EINPUT) rather than written unreadable.
** The file is replaced atomically.
*/
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "core/io_atomic.h"
#include "core/io_text.h"
#include "node_link.h"
#include "topocoll/graph_io.h"

static const char *const known_keys[] = {"format", "version", "spec", "nodes", "bidirectional",
                                         "arcs", "kinds", "labels", NULL};

/* After the shared "format"/"version" checks: the optional scalars' types. */
static int check_header(tc_json_reader *r, json_t *root) {
  int rc = tci_json_check_header(r, root);
  if (rc) return rc;
  json_t *spec = json_object_get(root, "spec");
  if (spec && (rc = tci_json_expect_type(r, "spec", spec, JSON_STRING, "a string"))) return rc;
  json_t *bidir = json_object_get(root, "bidirectional");
  if (bidir && (rc = tci_json_expect_type(r, "bidirectional", bidir, JSON_TRUE, "a boolean"))) return rc;
  return TC_OK;
}

/* arcs[i] = [u, v] or [u, v, cap] */
static int read_arc(tc_json_reader *r, tc_graph_builder *b, size_t i, json_t *arc) {
  long long x[3];
  int rc = tci_json_read_arc(r, "arcs", i, arc, b->n, x);
  return rc ? rc : tc_graph_builder_add_arc(b, x[0], x[1], x[2], r->err);
}

static int read_arcs(tc_json_reader *r, tc_graph_builder *b, json_t *root) {
  int rc = TC_OK;
  json_t *arcs = tci_json_require(r, root, "", "arcs", &rc);
  if (rc || (rc = tci_json_expect_type(r, "arcs", arcs, JSON_ARRAY, "an array"))) return rc;
  size_t m = json_array_size(arcs);
  if (m > (size_t)TC_MAX_ARCS) return tci_json_fail(r, "arcs", "%zu arcs exceed the limit %lld", m, TC_MAX_ARCS);
  if ((rc = tc_graph_builder_reserve(b, (int64_t)m, r->err))) return rc;
  for (size_t i = 0; i < m && !rc; i++) rc = read_arc(r, b, i, json_array_get(arcs, i));
  return rc;
}

static int read_kinds(tc_json_reader *r, tc_graph_builder *b, json_t *root) {
  int rc = TC_OK;
  json_t *kinds = tci_json_optional_array(r, root, "", "kinds", b->n, "node", &rc);
  for (int32_t u = 0; kinds && !rc && u < b->n; u++) {
    char jpath[TC_JSON_PATH_MAX];
    snprintf(jpath, sizeof jpath, "kinds[%d]", u);
    json_t *k = json_array_get(kinds, (size_t)u);
    if ((rc = tci_json_expect_type(r, jpath, k, JSON_STRING, "\"compute\" or \"switch\""))) break;
    const char *s = json_string_value(k);
    if (strcmp(s, "compute") == 0) b->kind[u] = TC_NODE_COMPUTE;
    else if (strcmp(s, "switch") == 0) b->kind[u] = TC_NODE_SWITCH;
    else {
      tc_io_quoted q = tci_io_quote(s, json_string_length(k));
      rc = tci_json_fail(r, jpath, "expected \"compute\" or \"switch\", found %s", q.text);
    }
  }
  return rc;
}

static int read_labels(tc_json_reader *r, tc_graph_builder *b, json_t *root) {
  int rc = TC_OK;
  json_t *labels = tci_json_optional_array(r, root, "", "labels", b->n, "node", &rc);
  for (int32_t u = 0; labels && !rc && u < b->n; u++) {
    char jpath[TC_JSON_PATH_MAX];
    snprintf(jpath, sizeof jpath, "labels[%d]", u);
    json_t *l = json_array_get(labels, (size_t)u);
    if (json_is_null(l)) continue;
    if (!(rc = tci_json_expect_type(r, jpath, l, JSON_STRING, "a string or null")))
      rc = tc_graph_builder_set_label(b, u, json_string_value(l), r->err);
  }
  return rc;
}

static int build_graph(tc_json_reader *r, json_t *root, tc_graph **out) {
  long long n = 0;
  int rc = tci_json_member_int(r, root, "", "nodes", 0, TC_MAX_NODES, &n);
  if (rc) return rc;
  tc_graph_builder b;
  if ((rc = tc_graph_builder_init(&b, n, r->err))) return rc;
  if (!rc) rc = read_arcs(r, &b, root);
  if (!rc) rc = read_kinds(r, &b, root);
  if (!rc) rc = read_labels(r, &b, root);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, r->err);
}

int tc_graph_read_json(const char *path, tc_graph **out, tc_error *err) {
  *out = NULL;
  /* The only lo..hi that can be empty here is a node id in a graph of 0 nodes. */
  tc_json_reader r = {path, err, "topocoll-graph", 1, "the graph has no nodes"};
  int rc = TC_OK;
  json_t *root = tci_json_load_object(&r, &rc);
  if (!root) return rc;
  if (tci_node_link_recognise(root))
    rc = tc_error_set(err, TC_EINPUT, "%s is a networkx node-link graph (nodes/links), not a topocoll graph JSON; read it with nx(%s)",
                      path, path);
  if (!rc) rc = tci_json_check_kind(&r, root);
  if (!rc) rc = tci_json_check_keys(&r, root, "", known_keys);
  if (!rc) rc = check_header(&r, root);
  if (!rc) rc = build_graph(&r, root, out);
  if (!rc && json_is_true(json_object_get(root, "bidirectional")) && !(*out)->bidirectional) {
    rc = tci_json_fail(&r, "bidirectional", "true, but the arcs do not pair into opposite arcs of equal capacity");
    tc_graph_destroy(*out);
    *out = NULL;
  }
  json_decref(root);
  return rc;
}

/* ---- writer ---- */

/* Write `s` as a JSON string; -1 if it is not valid UTF-8. */
static int put_string(FILE *fp, const char *s) {
  json_t *j = json_string(s);
  char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
  json_decref(j);
  if (!text) return -1;
  fputs(text, fp);
  free(text);
  return 0;
}

static void put_arcs(const tc_graph *g, FILE *fp) {
  fputs("  \"arcs\": [", fp);
  for (int64_t a = 0; a < g->m; a++) {
    fputs(a ? ",\n    " : "\n    ", fp);
    if (g->cap[a] == 1) fprintf(fp, "[%d, %d]", g->src[a], g->dst[a]);
    else fprintf(fp, "[%d, %d, %lld]", g->src[a], g->dst[a], (long long)g->cap[a]);
  }
  fputs(g->m ? "\n  ]" : "]", fp);
}

static void put_kinds(const tc_graph *g, FILE *fp) {
  if (tc_graph_count_kind(g, TC_NODE_SWITCH) == 0) return;
  fputs(",\n  \"kinds\": [", fp);
  for (int32_t u = 0; u < g->n; u++)
    fprintf(fp, "%s\"%s\"", u ? ",\n    " : "\n    ", g->kind[u] == TC_NODE_SWITCH ? "switch" : "compute");
  fputs("\n  ]", fp);
}

/* -1 with the offending node in *bad when a label is not valid UTF-8. */
static int put_labels(const tc_graph *g, FILE *fp, int32_t *bad) {
  int32_t u = 0;
  while (g->label && u < g->n && !g->label[u]) u++;
  if (!g->label || u == g->n) return 0;
  fputs(",\n  \"labels\": [", fp);
  for (u = 0; u < g->n; u++) {
    fputs(u ? ",\n    " : "\n    ", fp);
    if (!g->label[u]) fputs("null", fp);
    else if (put_string(fp, g->label[u]) != 0) {
      *bad = u;
      return -1;
    }
  }
  fputs("\n  ]", fp);
  return 0;
}

int tc_graph_write_json(const tc_graph *g, const char *spec, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  fputs("{\n  \"format\": \"topocoll-graph\",\n  \"version\": 1,\n", fp);
  if (spec) {
    fputs("  \"spec\": ", fp);
    if (put_string(fp, spec) != 0) {
      tci_atomic_abort(&af);
      return tc_error_set(err, TC_EINPUT, "cannot write %s: the spec string is not valid UTF-8", path);
    }
    fputs(",\n", fp);
  }
  fprintf(fp, "  \"nodes\": %d,\n  \"bidirectional\": %s,\n", g->n, g->bidirectional ? "true" : "false");
  put_arcs(g, fp);
  put_kinds(g, fp);
  int32_t bad = -1;
  if (put_labels(g, fp, &bad) != 0) {
    tci_atomic_abort(&af);
    return tc_error_set(err, TC_EINPUT, "cannot write %s: the label of node %d is not valid UTF-8", path, bad);
  }
  fputs("\n}\n", fp);
  return tci_atomic_commit(&af, err);
}
