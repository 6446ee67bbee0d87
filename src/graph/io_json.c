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
** string is validated but not returned (tc_graph has no place for it).
** Writer guarantees: the same schema, keys in the order above, one arc per line (streamed,
** so no document tree is built for large graphs), "kinds" only when some node is a
** switch, "labels" only when some node has one; strings are escaped by jansson, and a
** label that is not valid UTF-8 is refused (TC_EINPUT) rather than written unreadable.
** The file is replaced atomically.
*/
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graph/io_atomic.h"
#include "graph/io_text.h"
#include "topocoll/graph_io.h"

#define JPATH_MAX 64

static const char *const known_keys[] = {"format", "version", "spec", "nodes", "bidirectional",
                                         "arcs", "kinds", "labels"};

typedef struct js_reader {
  const char *path;
  tc_error *err;
} js_reader;

/* Record "file: jpath: <problem>" as TC_EINPUT. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail_at(js_reader *r, const char *jpath, const char *fmt, ...) {
  char problem[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  return tc_error_set(r->err, TC_EINPUT, "%s: %s: %s", r->path, jpath, problem);
}

static const char *type_name(const json_t *j) {
  switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
  }
}

static int expect_type(js_reader *r, const char *jpath, const json_t *j, json_type t, const char *want) {
  if (json_typeof(j) == t || (t == JSON_TRUE && json_is_boolean(j))) return TC_OK;
  return fail_at(r, jpath, "expected %s, found %s", want, type_name(j));
}

/* Integer at jpath within lo..hi; `what` ("node ", "capacity " or "") prefixes range errors. */
static int get_int(js_reader *r, const char *jpath, const json_t *j, const char *what, long long lo,
                   long long hi, long long *out) {
  int rc = expect_type(r, jpath, j, JSON_INTEGER, "an integer");
  if (rc) return rc;
  long long x = (long long)json_integer_value(j);
  if (x < lo || x > hi) {
    if (hi < lo) return fail_at(r, jpath, "%s%lld, but the graph has no nodes", what, x);
    if (hi == INT64_MAX) return fail_at(r, jpath, "%s%lld must be >= %lld", what, x, lo);
    return fail_at(r, jpath, "%s%lld outside %lld..%lld", what, x, lo, hi);
  }
  *out = x;
  return TC_OK;
}

/* Reject keys this version does not define. */
static int check_keys(js_reader *r, json_t *root) {
  const char *key;
  json_t *value;
  json_object_foreach(root, key, value) {
    size_t i = 0, nk = sizeof known_keys / sizeof *known_keys;
    while (i < nk && strcmp(key, known_keys[i]) != 0) i++;
    if (i == nk) {
      tc_io_quoted q = tc_io_quote(key, strlen(key));
      return tc_error_set(r->err, TC_EINPUT, "%s: unknown key %s (version 1 defines format, version, spec, "
                          "nodes, bidirectional, arcs, kinds, labels)", r->path, q.text);
    }
  }
  return TC_OK;
}

static json_t *require(js_reader *r, json_t *root, const char *key, int *rc) {
  json_t *j = json_object_get(root, key);
  if (!j) *rc = tc_error_set(r->err, TC_EINPUT, "%s: %s: missing", r->path, key);
  return j;
}

static int check_header(js_reader *r, json_t *root) {
  int rc = TC_OK;
  json_t *format = require(r, root, "format", &rc);
  if (rc || (rc = expect_type(r, "format", format, JSON_STRING, "a string"))) return rc;
  if (strcmp(json_string_value(format), "topocoll-graph") != 0) {
    tc_io_quoted q = tc_io_quote(json_string_value(format), json_string_length(format));
    return fail_at(r, "format", "expected \"topocoll-graph\", found %s", q.text);
  }
  json_t *version = require(r, root, "version", &rc);
  if (rc || (rc = expect_type(r, "version", version, JSON_INTEGER, "an integer"))) return rc;
  if (json_integer_value(version) != 1)
    return fail_at(r, "version", "unsupported version %lld (this reader knows version 1)",
                   (long long)json_integer_value(version));
  json_t *spec = json_object_get(root, "spec");
  if (spec && (rc = expect_type(r, "spec", spec, JSON_STRING, "a string"))) return rc;
  json_t *bidir = json_object_get(root, "bidirectional");
  if (bidir && (rc = expect_type(r, "bidirectional", bidir, JSON_TRUE, "a boolean"))) return rc;
  return TC_OK;
}

/* arcs[i] = [u, v] or [u, v, cap] */
static int read_arc(js_reader *r, tc_graph_builder *b, size_t i, json_t *arc) {
  char jpath[JPATH_MAX];
  snprintf(jpath, sizeof jpath, "arcs[%zu]", i);
  int rc = expect_type(r, jpath, arc, JSON_ARRAY, "an array [u, v] or [u, v, cap]");
  if (rc) return rc;
  size_t len = json_array_size(arc);
  if (len < 2 || len > 3)
    return fail_at(r, jpath, "expected [u, v] or [u, v, cap], found %zu element%s", len, len == 1 ? "" : "s");
  long long x[3] = {0, 0, 1};
  for (size_t k = 0; k < len; k++) {
    snprintf(jpath, sizeof jpath, "arcs[%zu][%zu]", i, k);
    if (k < 2) rc = get_int(r, jpath, json_array_get(arc, k), "node ", 0, (long long)b->n - 1, &x[k]);
    else rc = get_int(r, jpath, json_array_get(arc, k), "capacity ", 1, INT64_MAX, &x[k]);
    if (rc) return rc;
  }
  return tc_graph_builder_add_arc(b, x[0], x[1], x[2], r->err);
}

static int read_arcs(js_reader *r, tc_graph_builder *b, json_t *root) {
  int rc = TC_OK;
  json_t *arcs = require(r, root, "arcs", &rc);
  if (rc || (rc = expect_type(r, "arcs", arcs, JSON_ARRAY, "an array"))) return rc;
  size_t m = json_array_size(arcs);
  if (m > (size_t)TC_MAX_ARCS) return fail_at(r, "arcs", "%zu arcs exceed the limit %lld", m, TC_MAX_ARCS);
  if ((rc = tc_graph_builder_reserve(b, (int64_t)m, r->err))) return rc;
  for (size_t i = 0; i < m && !rc; i++) rc = read_arc(r, b, i, json_array_get(arcs, i));
  return rc;
}

/* Optional per-node array: present means exactly n entries. */
static json_t *per_node_array(js_reader *r, json_t *root, const char *key, int32_t n, int *rc) {
  json_t *a = json_object_get(root, key);
  if (!a || (*rc = expect_type(r, key, a, JSON_ARRAY, "an array"))) return NULL;
  if (json_array_size(a) != (size_t)n) {
    *rc = fail_at(r, key, "expected %d entries (one per node), found %zu", n, json_array_size(a));
    return NULL;
  }
  return a;
}

static int read_kinds(js_reader *r, tc_graph_builder *b, json_t *root) {
  int rc = TC_OK;
  json_t *kinds = per_node_array(r, root, "kinds", b->n, &rc);
  for (int32_t u = 0; kinds && !rc && u < b->n; u++) {
    char jpath[JPATH_MAX];
    snprintf(jpath, sizeof jpath, "kinds[%d]", u);
    json_t *k = json_array_get(kinds, (size_t)u);
    if ((rc = expect_type(r, jpath, k, JSON_STRING, "\"compute\" or \"switch\""))) break;
    const char *s = json_string_value(k);
    if (strcmp(s, "compute") == 0) b->kind[u] = TC_NODE_COMPUTE;
    else if (strcmp(s, "switch") == 0) b->kind[u] = TC_NODE_SWITCH;
    else {
      tc_io_quoted q = tc_io_quote(s, json_string_length(k));
      rc = fail_at(r, jpath, "expected \"compute\" or \"switch\", found %s", q.text);
    }
  }
  return rc;
}

static int read_labels(js_reader *r, tc_graph_builder *b, json_t *root) {
  int rc = TC_OK;
  json_t *labels = per_node_array(r, root, "labels", b->n, &rc);
  for (int32_t u = 0; labels && !rc && u < b->n; u++) {
    char jpath[JPATH_MAX];
    snprintf(jpath, sizeof jpath, "labels[%d]", u);
    json_t *l = json_array_get(labels, (size_t)u);
    if (json_is_null(l)) continue;
    if (!(rc = expect_type(r, jpath, l, JSON_STRING, "a string or null")))
      rc = tc_graph_builder_set_label(b, u, json_string_value(l), r->err);
  }
  return rc;
}

static int build_graph(js_reader *r, json_t *root, tc_graph **out) {
  int rc = TC_OK;
  long long n = 0;
  json_t *nodes = require(r, root, "nodes", &rc);
  if (rc || (rc = get_int(r, "nodes", nodes, "", 0, TC_MAX_NODES, &n))) return rc;
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

/* jansson's message, made safe for one line and free of its API flag names. */
static int syntax_error(js_reader *r, const json_error_t *je) {
  static const char flag_hint[] = " without JSON_ALLOW_NUL";
  char text[sizeof je->text];
  size_t i = 0, k = 0;
  while (je->text[i] && k + 1 < sizeof text) {
    if (strncmp(je->text + i, flag_hint, sizeof flag_hint - 1) == 0) {
      i += sizeof flag_hint - 1;
      continue;
    }
    unsigned char c = (unsigned char)je->text[i++];
    text[k++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
  }
  text[k] = '\0';
  return tc_error_set(r->err, TC_EINPUT, "%s:%d:%d: %s", r->path, je->line, je->column, text);
}

static json_t *load(js_reader *r, int *rc) {
  FILE *fp = fopen(r->path, "r");
  if (!fp) {
    *rc = tc_error_set(r->err, TC_EIO, "cannot read %s: %s", r->path, strerror(errno));
    return NULL;
  }
  json_error_t je;
  errno = 0;
  json_t *root = json_loadf(fp, JSON_REJECT_DUPLICATES, &je);
  int e = errno;
  if (!root && ferror(fp)) *rc = tc_error_set(r->err, TC_EIO, "cannot read %s: %s", r->path, strerror(e ? e : EIO));
  else if (!root) *rc = syntax_error(r, &je);
  fclose(fp);
  return root;
}

int tc_graph_read_json(const char *path, tc_graph **out, tc_error *err) {
  *out = NULL;
  js_reader r = {path, err};
  int rc = TC_OK;
  json_t *root = load(&r, &rc);
  if (!root) return rc;
  if (!json_is_object(root))
    rc = tc_error_set(err, TC_EINPUT, "%s: expected an object at the top level, found %s", path, type_name(root));
  if (!rc) rc = check_keys(&r, root);
  if (!rc) rc = check_header(&r, root);
  if (!rc) rc = build_graph(&r, root, out);
  if (!rc && json_is_true(json_object_get(root, "bidirectional")) && !(*out)->bidirectional) {
    rc = fail_at(&r, "bidirectional", "true, but the arcs do not pair into opposite arcs of equal capacity");
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
  int rc = tc_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  fputs("{\n  \"format\": \"topocoll-graph\",\n  \"version\": 1,\n", fp);
  if (spec) {
    fputs("  \"spec\": ", fp);
    if (put_string(fp, spec) != 0) {
      tc_atomic_abort(&af);
      return tc_error_set(err, TC_EINPUT, "cannot write %s: the spec string is not valid UTF-8", path);
    }
    fputs(",\n", fp);
  }
  fprintf(fp, "  \"nodes\": %d,\n  \"bidirectional\": %s,\n", g->n, g->bidirectional ? "true" : "false");
  put_arcs(g, fp);
  put_kinds(g, fp);
  int32_t bad = -1;
  if (put_labels(g, fp, &bad) != 0) {
    tc_atomic_abort(&af);
    return tc_error_set(err, TC_EINPUT, "cannot write %s: the label of node %d is not valid UTF-8", path, bad);
  }
  fputs("\n}\n", fp);
  return tc_atomic_commit(&af, err);
}
