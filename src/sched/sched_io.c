/*
** sched_io.c — the JSON schedule file (contract in sched_io.h, schema in docs/formats.md).
**
** The writer first checks the schedule against the same structural rules the reader
** enforces (node count, shard, step, arc and chunk ranges, owners, rs_steps), so every
** file it writes reads back to an identical schedule; only then does it open the
** temporary file and stream the document, one arc and one transfer per line.
** The reader parses with jansson (duplicate keys, trailing garbage, integers beyond 64
** bits and truncated files are rejected as "file:line:column: problem"), then walks the
** tree checking every field; a problem is reported with its JSON path. Unknown keys are
** errors at every level, so a misspelled optional key cannot be silently ignored. The
** generic checks (parsing, types, ranges, keys, the header) are core/json_read.h's.
** Memory: reading holds the whole jansson tree, a few hundred bytes per transfer; the
** writer needs nothing beyond the schedule.
*/
#include "topocoll/sched_io.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "core/io_atomic.h"
#include "core/io_text.h"

#define FORMAT_NAME "topocoll-schedule"
#define FORMAT_VERSION 1

static const char *const top_keys[] = {"format", "version", "graph", "schedule", NULL};
static const char *const graph_keys[] = {"spec", "nodes", "arcs", "kinds", NULL};
static const char *const sched_keys[] = {"collective", "algorithm", "nodes", "nshards", "owners", "root",
                                         "source", "destination", "units", "steps", "rs_steps", "transfers", NULL};
static const char *const transfer_fields[] = {"shard", "step", "arc", "lo", "hi"};

/* ---- structural rules shared by writer and reader ---- */

static int rooted(tc_collective c) { return c == TC_COLL_BROADCAST || c == TC_COLL_REDUCE; }
/* Fixed layouts named by their root (scatter, gather) or source and destination (p2p):
   the file holds those, not owners. */
static int fixed_rooted(tc_collective c) { return c == TC_COLL_SCATTER || c == TC_COLL_GATHER || c == TC_COLL_P2P; }

/* rs_steps must be 0 except in allreduce, where it lies in 0..steps. NULL if fine, else why. */
static const char *rs_steps_problem(const tc_schedule *s) {
  if (s->coll == TC_COLL_ALLREDUCE) return s->rs_steps < 0 || s->rs_steps > s->steps ? "outside 0..steps" : NULL;
  return s->rs_steps != 0 ? "must be 0 (only allreduce has a reduce-scatter half)" : NULL;
}

/* Check what the reader will check, so a written file always reads back. */
static int check_writable(const tc_graph *g, const tc_schedule *s, tc_error *err) {
  if (s->nodes != g->n)
    return tc_error_set(err, TC_EINPUT, "schedule for %d nodes on a graph with %d nodes", s->nodes, g->n);
  if ((unsigned)s->coll > TC_COLL_LAST) return tc_error_set(err, TC_EINPUT, "unknown collective %d", (int)s->coll);
  if (s->nshards < 1 || s->units < 1)
    return tc_error_set(err, TC_EINPUT, "schedule needs nshards >= 1 and units >= 1 (has %d, %lld)", s->nshards,
                        (long long)s->units);
  if (fixed_rooted(s->coll)) { /* the keys the reader rebuilds the layout from */
    int32_t root = tc_schedule_root(s), dest = s->coll == TC_COLL_P2P ? s->dest : root;
    if (s->nshards != (s->coll == TC_COLL_P2P ? 1 : s->nodes) || root < 0 || root >= s->nodes || dest < 0 ||
        dest >= s->nodes)
      return tc_error_set(err, TC_EINPUT, "%s schedule is not in its fixed layout (%d shards, root %d)",
                          tc_collective_name(s->coll), s->nshards, root);
  } else if (s->coll == TC_COLL_ALLTOALL ? s->owner || (int64_t)s->nshards != (int64_t)s->nodes * s->nodes
                                   : !s->owner && (s->nshards != s->nodes || rooted(s->coll)))
    return tc_error_set(err, TC_EINPUT, "schedule has %d shards on %d nodes %s", s->nshards, s->nodes,
                        s->coll == TC_COLL_ALLTOALL ? "(alltoall has N*N shards and no owners)" : "but no owners");
  for (int32_t k = 0; s->owner && k < s->nshards; k++)
    if (s->owner[k] < 0 || s->owner[k] >= s->nodes)
      return tc_error_set(err, TC_EINPUT, "owner %d of shard %d outside 0..%d", s->owner[k], k, s->nodes - 1);
  if (s->steps < 0 || s->steps > s->count)
    return tc_error_set(err, TC_EINPUT, "schedule has %d steps but %lld transfers", s->steps, (long long)s->count);
  const char *why = rs_steps_problem(s);
  if (why) return tc_error_set(err, TC_EINPUT, "rs_steps %d %s", s->rs_steps, why);
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    if (x->shard < 0 || x->shard >= s->nshards || x->step < 1 || x->step > s->steps || x->arc < 0 ||
        x->arc >= g->m || x->lo < 0 || x->hi <= x->lo || x->hi > s->units)
      return tc_error_set(err, TC_EINPUT, "transfer %lld [%d, %d, %lld, %lld, %lld] is out of range", (long long)i,
                          x->shard, x->step, (long long)x->arc, (long long)x->lo, (long long)x->hi);
  }
  return TC_OK;
}

/* ---- writer ---- */

/* `s` as a JSON string; -1 if it is not valid UTF-8. */
static int put_string(FILE *fp, const char *s, size_t len) {
  json_t *j = json_stringn(s, len);
  char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
  json_decref(j);
  if (!text) return -1;
  fputs(text, fp);
  free(text);
  return 0;
}

/* Node kinds matter to the verifier (switches forward but own no data), so they are kept
   when some node is a switch; labels are not (they never change a verdict). */
static void put_kinds(FILE *fp, const tc_graph *g) {
  if (tc_graph_count_kind(g, TC_NODE_SWITCH) == 0) return;
  fputs(",\n    \"kinds\": [", fp);
  for (int32_t u = 0; u < g->n; u++)
    fprintf(fp, "%s\"%s\"", u ? ", " : "", g->kind[u] == TC_NODE_SWITCH ? "switch" : "compute");
  fputs("]", fp);
}

/* The decimal digits of v, as printf's %lld prints them, at p; returns their end. The arc
   and transfer lists are nearly all of a file (6.26 M transfer lines for BFB on
   torus(50,50)), and fprintf spent 0.7 us on each line: formatting by hand and writing a
   line at a time gives the same bytes in a fraction of the time. */
static char *put_int(char *p, long long v) {
  char digits[24];
  int n = 0;
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) *p++ = '-';
  while (n) *p++ = digits[--n];
  return p;
}

/* Writes `head` then "[v0, v1, ...]" for k values (k <= 5). */
static void put_row(FILE *fp, const char *head, size_t head_len, const long long *v, int k) {
  char line[32 + 5 * 22], *p = line;
  memcpy(p, head, head_len);
  p += head_len;
  *p++ = '[';
  for (int i = 0; i < k; i++) {
    if (i) {
      *p++ = ',';
      *p++ = ' ';
    }
    p = put_int(p, v[i]);
  }
  *p++ = ']';
  fwrite(line, 1, (size_t)(p - line), fp);
}

#define FIRST_ROW "\n      "
#define NEXT_ROW ",\n      "

static void put_graph(FILE *fp, const tc_graph *g) {
  fprintf(fp, "    \"nodes\": %d,\n    \"arcs\": [", g->n);
  for (int64_t a = 0; a < g->m; a++) {
    long long v[3] = {g->src[a], g->dst[a], (long long)g->cap[a]};
    if (a) put_row(fp, NEXT_ROW, sizeof NEXT_ROW - 1, v, g->cap[a] == 1 ? 2 : 3);
    else put_row(fp, FIRST_ROW, sizeof FIRST_ROW - 1, v, g->cap[a] == 1 ? 2 : 3);
  }
  fputs(g->m ? "\n    ]" : "]", fp);
  put_kinds(fp, g);
  fputs("\n  },\n", fp);
}

static void put_schedule_body(FILE *fp, const tc_schedule *s) {
  fprintf(fp, ",\n    \"nodes\": %d,\n    \"nshards\": %d,\n", s->nodes, s->nshards);
  if (s->coll == TC_COLL_P2P)
    fprintf(fp, "    \"source\": %d,\n    \"destination\": %d,\n", tc_schedule_root(s), s->dest);
  else if (fixed_rooted(s->coll))
    fprintf(fp, "    \"root\": %d,\n", tc_schedule_root(s));
  else if (s->owner) {
    fputs("    \"owners\": [", fp);
    for (int32_t k = 0; k < s->nshards; k++) fprintf(fp, "%s%d", k ? ", " : "", s->owner[k]);
    fputs("],\n", fp);
  }
  fprintf(fp, "    \"units\": %lld,\n    \"steps\": %d,\n    \"rs_steps\": %d,\n    \"transfers\": [",
          (long long)s->units, s->steps, s->rs_steps);
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    long long v[5] = {x->shard, x->step, (long long)x->arc, (long long)x->lo, (long long)x->hi};
    if (i) put_row(fp, NEXT_ROW, sizeof NEXT_ROW - 1, v, 5);
    else put_row(fp, FIRST_ROW, sizeof FIRST_ROW - 1, v, 5);
  }
  fputs(s->count ? "\n    ]\n  }\n}\n" : "]\n  }\n}\n", fp);
}

int tc_schedule_write_json(const tc_graph *g, const char *spec, const tc_schedule *s, const char *path,
                           tc_error *err) {
  int rc = check_writable(g, s, err);
  if (rc) {
    tc_error_prefix(err, "cannot write %s", path);
    return rc;
  }
  tc_atomic_file af;
  if ((rc = tci_atomic_open(&af, path, err))) return rc;
  FILE *fp = af.fp;
  fprintf(fp, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"graph\": {\n", FORMAT_NAME, FORMAT_VERSION);
  const char *bad = NULL;
  if (spec) {
    fputs("    \"spec\": ", fp);
    if (put_string(fp, spec, strlen(spec)) != 0) bad = "the spec string";
    fputs(",\n", fp);
  }
  put_graph(fp, g);
  fprintf(fp, "  \"schedule\": {\n    \"collective\": \"%s\",\n    \"algorithm\": ", tc_collective_name(s->coll));
  if (!bad && put_string(fp, s->algorithm, strnlen(s->algorithm, sizeof s->algorithm)) != 0)
    bad = "the algorithm name";
  if (bad) {
    tci_atomic_abort(&af);
    return tc_error_set(err, TC_EINPUT, "cannot write %s: %s is not valid UTF-8", path, bad);
  }
  put_schedule_body(fp, s);
  return tci_atomic_commit(&af, err);
}

/* ---- reader: the graph (generic checks in core/json_read.h) ---- */

/* graph.arcs[i] = [u, v] or [u, v, cap], not before arc i-1 in (u, v, cap) order. */
static int read_arc(tc_json_reader *r, tc_graph_builder *b, size_t i, json_t *arc, long long prev[3]) {
  char jpath[TC_JSON_PATH_MAX];
  long long x[3];
  int rc = tci_json_read_arc(r, "graph.arcs", i, arc, b->n, x);
  if (rc) return rc;
  if (i > 0 && (x[0] < prev[0] || (x[0] == prev[0] && (x[1] < prev[1] || (x[1] == prev[1] && x[2] < prev[2]))))) {
    snprintf(jpath, sizeof jpath, "graph.arcs[%zu]", i);
    return tci_json_fail(r, jpath, "[%lld, %lld] listed after [%lld, %lld]; arcs must be in arc-id order "
                   "(sorted by source, destination, capacity)", x[0], x[1], prev[0], prev[1]);
  }
  memcpy(prev, x, sizeof x);
  return tc_graph_builder_add_arc(b, x[0], x[1], x[2], r->err);
}

static int read_spec(tc_json_reader *r, json_t *graph, char **spec) {
  json_t *j = json_object_get(graph, "spec");
  if (!j || json_is_null(j)) return TC_OK;
  int rc = tci_json_expect_type(r, "graph.spec", j, JSON_STRING, "a string or null");
  if (rc) return rc;
  if (!(*spec = strdup(json_string_value(j)))) return tc_error_set(r->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

/* graph.kinds: absent (all compute) or one "compute" / "switch" per node. */
static int read_kinds(tc_json_reader *r, tc_graph_builder *b, json_t *graph) {
  int rc = TC_OK;
  json_t *kinds = tci_json_optional_array(r, graph, "graph", "kinds", b->n, "node", &rc);
  for (int32_t u = 0; kinds && u < b->n && !rc; u++) {
    char jpath[TC_JSON_PATH_MAX];
    snprintf(jpath, sizeof jpath, "graph.kinds[%d]", u);
    json_t *k = json_array_get(kinds, (size_t)u);
    if ((rc = tci_json_expect_type(r, jpath, k, JSON_STRING, "\"compute\" or \"switch\""))) break;
    const char *name = json_string_value(k);
    if (strcmp(name, "compute") == 0 || strcmp(name, "switch") == 0)
      rc = tc_graph_builder_set_kind(b, u, name[0] == 's' ? TC_NODE_SWITCH : TC_NODE_COMPUTE, r->err);
    else {
      tc_io_quoted q = tci_io_quote(name, json_string_length(k));
      rc = tci_json_fail(r, jpath, "expected \"compute\" or \"switch\", found %s", q.text);
    }
  }
  return rc;
}

static int read_graph(tc_json_reader *r, json_t *graph, tc_graph **out) {
  long long n = 0;
  int rc = tci_json_member_int(r, graph, "graph", "nodes", 1, TC_MAX_NODES, &n);
  json_t *arcs = rc ? NULL : tci_json_require(r, graph, "graph", "arcs", &rc);
  if (rc || (rc = tci_json_expect_type(r, "graph.arcs", arcs, JSON_ARRAY, "an array"))) return rc;
  size_t m = json_array_size(arcs);
  if (m > (size_t)TC_MAX_ARCS) return tci_json_fail(r, "graph.arcs", "%zu arcs exceed the limit %lld", m, TC_MAX_ARCS);
  tc_graph_builder b;
  if ((rc = tc_graph_builder_init(&b, n, r->err))) {
    tc_error_prefix(r->err, "%s: graph.nodes", r->path);
    return rc;
  }
  rc = tc_graph_builder_reserve(&b, (int64_t)m, r->err);
  long long prev[3] = {0, 0, 0};
  for (size_t i = 0; i < m && !rc; i++) rc = read_arc(r, &b, i, json_array_get(arcs, i), prev);
  if (!rc) rc = read_kinds(r, &b, graph);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, r->err);
}

/* The embedded graph must be `expect` exactly, arc ids included. */
static int match_graph(tc_json_reader *r, const tc_graph *g, const tc_graph *expect) {
  if (g->n != expect->n)
    return tci_json_fail(r, "graph.nodes", "%d, but the given graph has %d nodes", g->n, expect->n);
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] != expect->kind[u]) {
      char jpath[TC_JSON_PATH_MAX];
      snprintf(jpath, sizeof jpath, "graph.kinds[%d]", u);
      return tci_json_fail(r, jpath, "node %d is a %s, but in the given graph a %s", u,
                     g->kind[u] == TC_NODE_SWITCH ? "switch" : "compute node",
                     expect->kind[u] == TC_NODE_SWITCH ? "switch" : "compute node");
    }
  if (g->m != expect->m)
    return tci_json_fail(r, "graph.arcs", "%lld arcs, but the given graph has %lld", (long long)g->m,
                        (long long)expect->m);
  for (int64_t a = 0; a < g->m; a++) {
    if (g->src[a] == expect->src[a] && g->dst[a] == expect->dst[a] && g->cap[a] == expect->cap[a]) continue;
    char jpath[TC_JSON_PATH_MAX];
    snprintf(jpath, sizeof jpath, "graph.arcs[%lld]", (long long)a);
    return tci_json_fail(r, jpath, "[%d, %d, %lld] differs from the given graph's arc %lld [%d, %d, %lld]", g->src[a],
                   g->dst[a], (long long)g->cap[a], (long long)a, expect->src[a], expect->dst[a],
                   (long long)expect->cap[a]);
  }
  return TC_OK;
}

/* ---- reader: the schedule ---- */

static int read_collective(tc_json_reader *r, json_t *sched, tc_collective *out) {
  int rc = TC_OK;
  json_t *j = tci_json_require(r, sched, "schedule", "collective", &rc);
  if (rc || (rc = tci_json_expect_type(r, "schedule.collective", j, JSON_STRING, "a string"))) return rc;
  int c = tc_collective_parse(json_string_value(j));
  if (c < 0) {
    tc_io_quoted q = tci_io_quote(json_string_value(j), json_string_length(j));
    return tci_json_fail(r, "schedule.collective", "unknown collective %s (expected allgather, reduce-scatter, "
                   "allreduce, broadcast, reduce, alltoall, scatter, gather or p2p)", q.text);
  }
  *out = (tc_collective)c;
  return TC_OK;
}

static int read_algorithm(tc_json_reader *r, json_t *sched, char *out, size_t size) {
  int rc = TC_OK;
  json_t *j = tci_json_require(r, sched, "schedule", "algorithm", &rc);
  if (rc || (rc = tci_json_expect_type(r, "schedule.algorithm", j, JSON_STRING, "a string"))) return rc;
  if (json_string_length(j) >= size) return tci_json_fail(r, "schedule.algorithm", "longer than %zu bytes", size - 1);
  memcpy(out, json_string_value(j), json_string_length(j) + 1);
  return TC_OK;
}

/* owners: absent (identity) or exactly nshards node ids; *owner is malloc'd or NULL. */
static int read_owners(tc_json_reader *r, json_t *sched, int32_t nodes, int32_t nshards, int32_t **owner) {
  *owner = NULL;
  int rc = TC_OK;
  json_t *a = tci_json_optional_array(r, sched, "schedule", "owners", nshards, "shard", &rc);
  if (!a) return rc;
  if (!(*owner = malloc((size_t)nshards * sizeof **owner))) return tc_error_set(r->err, TC_ENOMEM, "out of memory");
  for (int32_t k = 0; k < nshards && !rc; k++) {
    char jpath[TC_JSON_PATH_MAX];
    long long v = 0;
    snprintf(jpath, sizeof jpath, "schedule.owners[%d]", k);
    rc = tci_json_get_int(r, jpath, json_array_get(a, (size_t)k), "node ", 0, nodes - 1, &v);
    (*owner)[k] = (int32_t)v;
  }
  if (rc) {
    free(*owner);
    *owner = NULL;
  }
  return rc;
}

/* One transfer [shard, step, arc, lo, hi], every field in range for s on g. */
static int read_transfer(tc_json_reader *r, const tc_graph *g, tc_schedule *s, size_t i, json_t *t) {
  long long hi_bound[5] = {s->nshards - 1, s->steps, (long long)g->m - 1, s->units - 1, s->units};
  long long lo_bound[5] = {0, 1, 0, 0, 1}, v[5];
  /* Fast path for a well-formed transfer: the checks below, without building the JSON
     paths their messages need (formatting them for every transfer dominated reading). */
  if (json_is_array(t) && json_array_size(t) == 5) {
    size_t k = 0;
    for (; k < 5; k++) {
      json_t *x = json_array_get(t, k);
      if (!json_is_integer(x)) break;
      v[k] = (long long)json_integer_value(x);
      if (v[k] < lo_bound[k] || v[k] > hi_bound[k]) break;
    }
    if (k == 5 && v[3] < v[4]) {
      s->xfer[s->count++] = (tc_transfer){(int32_t)v[0], (int32_t)v[1], (int64_t)v[2], (int64_t)v[3], (int64_t)v[4]};
      return TC_OK;
    }
  }
  char jpath[TC_JSON_PATH_MAX];
  snprintf(jpath, sizeof jpath, "schedule.transfers[%zu]", i);
  int rc = tci_json_expect_type(r, jpath, t, JSON_ARRAY, "an array [shard, step, arc, lo, hi]");
  if (rc) return rc;
  if (json_array_size(t) != 5)
    return tci_json_fail(r, jpath, "expected [shard, step, arc, lo, hi], found %zu element%s", json_array_size(t),
                   json_array_size(t) == 1 ? "" : "s");
  for (size_t k = 0; k < 5 && !rc; k++) {
    char field[16];
    snprintf(jpath, sizeof jpath, "schedule.transfers[%zu][%zu]", i, k);
    snprintf(field, sizeof field, "%s ", transfer_fields[k]);
    rc = tci_json_get_int(r, jpath, json_array_get(t, k), field, lo_bound[k], hi_bound[k], &v[k]);
  }
  if (rc) return rc;
  if (v[4] <= v[3]) {
    snprintf(jpath, sizeof jpath, "schedule.transfers[%zu]", i);
    return tci_json_fail(r, jpath, "empty chunk [%lld, %lld) (needs lo < hi)", v[3], v[4]);
  }
  s->xfer[s->count++] = (tc_transfer){(int32_t)v[0], (int32_t)v[1], (int64_t)v[2], (int64_t)v[3], (int64_t)v[4]};
  return TC_OK;
}

static int read_transfers(tc_json_reader *r, const tc_graph *g, json_t *transfers, tc_schedule *s) {
  size_t count = json_array_size(transfers);
  int rc = tc_schedule_reserve(s, count ? (int64_t)count : 1, r->err);
  for (size_t i = 0; i < count && !rc; i++) rc = read_transfer(r, g, s, i, json_array_get(transfers, i));
  return rc;
}

/* The scalar fields of "schedule" that shape the rest. */
typedef struct sched_header {
  tc_collective coll;
  long long nodes, nshards, units, steps, rs_steps;
} sched_header;

static int read_sched_header(tc_json_reader *r, json_t *sched, const tc_graph *g, json_t *transfers, sched_header *h) {
  int rc = read_collective(r, sched, &h->coll);
  if (!rc) rc = tci_json_member_int(r, sched, "schedule", "nodes", 1, TC_MAX_NODES, &h->nodes);
  if (!rc && h->nodes != g->n)
    return tci_json_fail(r, "schedule.nodes", "%lld, but the graph has %d nodes", h->nodes, g->n);
  if (!rc) rc = tci_json_member_int(r, sched, "schedule", "nshards", 1, INT32_MAX, &h->nshards);
  if (!rc) rc = tci_json_member_int(r, sched, "schedule", "units", 1, INT64_MAX, &h->units);
  if (!rc) rc = tci_json_member_int(r, sched, "schedule", "steps", 0, INT32_MAX, &h->steps);
  /* A step without a transfer would only add latency; bounding steps by the transfer
     count also keeps per-step arrays of later passes proportional to the file. */
  if (!rc && h->steps > (long long)json_array_size(transfers))
    return tci_json_fail(r, "schedule.steps", "%lld steps but only %zu transfers", h->steps, json_array_size(transfers));
  if (!rc) rc = tci_json_member_int(r, sched, "schedule", "rs_steps", 0, h->steps, &h->rs_steps);
  if (!rc && h->rs_steps != 0 && h->coll != TC_COLL_ALLREDUCE)
    return tci_json_fail(r, "schedule.rs_steps", "%lld, but only allreduce has a reduce-scatter half (expected 0)",
                   h->rs_steps);
  return rc;
}

/* Scatter and gather name their root, p2p its source and destination; no owners, and the
   shard count of the layout (sched.h). */
static int read_fixed_rooted(tc_json_reader *r, json_t *sched, const sched_header *h, const char *algorithm,
                             tc_schedule *s) {
  int p2p = h->coll == TC_COLL_P2P;
  const char *name = tc_collective_name(h->coll);
  if (json_object_get(sched, "owners"))
    return tci_json_fail(r, "schedule.owners", "%s takes no owners (its layout is fixed by %s)", name,
                         p2p ? "schedule.source and schedule.destination" : "schedule.root");
  const char *stray = p2p ? "root" : json_object_get(sched, "source") ? "source" : "destination";
  if (json_object_get(sched, stray)) {
    char jpath[32];
    snprintf(jpath, sizeof jpath, "schedule.%s", stray);
    return tci_json_fail(r, jpath, "%s has no %s (%s)", name, stray,
                         p2p ? "it has source and destination" : "it has a root");
  }
  long long need = p2p ? 1 : h->nodes;
  if (h->nshards != need)
    return tci_json_fail(r, "schedule.nshards", "%lld, but %s on %lld nodes has %lld", h->nshards, name, h->nodes,
                         need);
  long long root = 0, dst = -1;
  int rc = tci_json_member_int(r, sched, "schedule", p2p ? "source" : "root", 0, h->nodes - 1, &root);
  if (!rc && p2p) rc = tci_json_member_int(r, sched, "schedule", "destination", 0, h->nodes - 1, &dst);
  if (!rc && p2p && dst == root)
    return tci_json_fail(r, "schedule.destination", "%lld, the source too (p2p needs two nodes)", dst);
  if (!rc)
    rc = tc_schedule_init_rooted(s, h->coll, (int32_t)h->nodes, (int32_t)root, (int32_t)dst, h->units, algorithm,
                                 r->err);
  return rc;
}

static int read_schedule(tc_json_reader *r, json_t *sched, const tc_graph *g, tc_schedule *s) {
  int rc = TC_OK;
  json_t *transfers = tci_json_require(r, sched, "schedule", "transfers", &rc);
  if (rc || (rc = tci_json_expect_type(r, "schedule.transfers", transfers, JSON_ARRAY, "an array"))) return rc;
  sched_header h;
  char algorithm[sizeof s->algorithm];
  if ((rc = read_sched_header(r, sched, g, transfers, &h))) return rc;
  if ((rc = read_algorithm(r, sched, algorithm, sizeof algorithm))) return rc;
  if (fixed_rooted(h.coll)) { /* its failures name their JSON path already */
    if ((rc = read_fixed_rooted(r, sched, &h, algorithm, s))) return rc;
  } else {
    static const char *const rooted_keys[] = {"root", "source", "destination"};
    for (int i = 0; i < 3; i++)
      if (json_object_get(sched, rooted_keys[i])) {
        char jpath[32];
        snprintf(jpath, sizeof jpath, "schedule.%s", rooted_keys[i]);
        return tci_json_fail(r, jpath, "only %s (%s has owners)", i ? "p2p has one" : "scatter and gather have one",
                             tc_collective_name(h.coll));
      }
    int32_t *owner = NULL;
    if ((rc = read_owners(r, sched, (int32_t)h.nodes, (int32_t)h.nshards, &owner))) return rc;
    rc = tc_schedule_init_owned(s, h.coll, (int32_t)h.nodes, (int32_t)h.nshards, owner, h.units, algorithm, r->err);
    free(owner);
  }
  if (rc) {
    tc_error_prefix(r->err, "%s: schedule%s", r->path, json_object_get(sched, "owners") ? ".owners" : "");
    return rc;
  }
  s->steps = (int32_t)h.steps;
  s->rs_steps = (int32_t)h.rs_steps;
  if ((rc = read_transfers(r, g, transfers, s))) tc_schedule_destroy(s);
  return rc;
}

/* ---- reader: the document ---- */

static int read_document(tc_json_reader *r, json_t *root, const tc_graph *expect, tc_schedule_doc *out) {
  int rc = tci_json_check_kind(r, root);
  if (!rc) rc = tci_json_check_keys(r, root, "", top_keys);
  if (!rc) rc = tci_json_check_header(r, root);
  json_t *graph = rc ? NULL : tci_json_member_object(r, root, "graph", graph_keys, &rc);
  json_t *sched = rc ? NULL : tci_json_member_object(r, root, "schedule", sched_keys, &rc);
  if (!rc) rc = read_spec(r, graph, &out->spec);
  if (!rc) rc = read_graph(r, graph, &out->graph);
  if (!rc && expect) rc = match_graph(r, out->graph, expect);
  if (!rc) rc = read_schedule(r, sched, out->graph, &out->sched);
  return rc;
}

int tc_schedule_read_json(const char *path, const tc_graph *expect, tc_schedule_doc *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_json_reader r = {path, err, FORMAT_NAME, FORMAT_VERSION, "nothing is allowed here"};
  int rc = TC_OK;
  json_t *root = tci_json_load_object(&r, &rc);
  if (!root) return rc;
  rc = read_document(&r, root, expect, out);
  json_decref(root);
  if (rc) tc_schedule_doc_destroy(out);
  return rc;
}

void tc_schedule_doc_destroy(tc_schedule_doc *doc) {
  free(doc->spec);
  if (doc->graph) tc_graph_destroy(doc->graph);
  tc_schedule_destroy(&doc->sched);
  memset(doc, 0, sizeof *doc);
}
