/*
** test_sched_io.c — the JSON schedule file (sched_io.h, docs/formats.md "Schedule JSON")
** and the command-line unit parser (units.h):
**   - round trips of hand-made schedules, each verified by tc_schedule_verify before it is
**     written and again after it is read: the K_{2,2} allgather of paper 000 Figure 1
**     (cost T_L = 2, tau = 3/4 recomputed by tc_schedule_cost from the file), an allreduce
**     with rs_steps, a broadcast and a reduce with explicit owners, and a schedule through
**     a switch on arcs with capacity 2 (node kinds must survive: the verifier needs them);
**   - the writer's exact text for a 2-node schedule;
**   - every reader error path, each with its code and message (bad version, wrong types,
**     transfer arrays of the wrong length, out-of-range values, unsorted arcs, graph
**     mismatch against an expected graph, truncated file, numbers beyond 64 bits);
**   - writer refusals leave no file (and no temporary) behind;
**   - a file that reads fine but whose schedule is wrong is left to the verifier;
**   - the unit parser's exact values (10us == 1e-5 s, 25Gbps == 3.125e9 B/s, 1MiB ==
**     1048576 B, ...) and its errors.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_files.h"
#include "tc_test.h"
#include "topocoll/cost.h"
#include "topocoll/sched_io.h"
#include "topocoll/units.h"
#include "topocoll/verify.h"

/* ---- fixture: one temporary directory per test (tc_files.h) ---- */

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-sched-io"); }

/* Text files: the whole string, without its NUL. */
static void spill(const char *path, const char *text) { tc_files_spill(path, text, strlen(text)); }

/* ---- graphs and hand-made schedules ---- */

/* Id of the first arc u -> v (arcs are sorted, so parallel arcs follow it). */
static int64_t arc(const tc_graph *g, int32_t u, int32_t v) {
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v) return a;
  fail_msg("no arc %d -> %d", u, v);
  return -1;
}

/* K_{2,2}: sides {0, 1} and {2, 3}. */
static tc_graph *k22(void) {
  static const int arcs[][2] = {{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 0}, {2, 1}, {3, 0}, {3, 1}};
  return tc_test_from_arcs(4, arcs, 8);
}

static void add(tc_schedule *s, int32_t shard, int64_t a, int32_t step, int64_t lo, int64_t hi) {
  tc_error err;
  assert_int_equal(tc_schedule_add(s, shard, a, step, lo, hi, &err), TC_OK);
}

/* The other node on v's side of K_{2,2}, and v's two neighbours. */
static int32_t twin(int32_t v) { return v ^ 1; }
static int32_t nbr(int32_t v, int i) { return (v < 2 ? 2 : 0) + i; }

/* Paper 000 Figure 1: step 1 every node sends its whole shard to both neighbours; step 2
   each neighbour forwards one half of it to the node's twin (units = 2 halves). Shards are
   added to `s` at step offset `t0`. */
static void add_fig1_allgather(const tc_graph *g, tc_schedule *s, int32_t t0) {
  for (int32_t v = 0; v < 4; v++)
    for (int i = 0; i < 2; i++) {
      add(s, v, arc(g, v, nbr(v, i)), t0 + 1, 0, 2);
      add(s, v, arc(g, nbr(v, i), twin(v)), t0 + 2, i, i + 1);
    }
}

/* The reverse of Figure 1 (paper 000 Def. 5): a reduce-scatter on K_{2,2} = K_{2,2}^T. */
static void add_fig1_reduce_scatter(const tc_graph *g, tc_schedule *s) {
  for (int32_t v = 0; v < 4; v++)
    for (int i = 0; i < 2; i++) {
      add(s, v, arc(g, twin(v), nbr(v, i)), 1, i, i + 1);
      add(s, v, arc(g, nbr(v, i), v), 2, 0, 2);
    }
}

static void assert_valid(const tc_graph *g, const tc_schedule *s) {
  tc_error err;
  int rc = tc_schedule_verify(g, s, &err);
  if (rc) fail_msg("schedule rejected: %s", err.msg);
}

static void assert_same_schedule(const tc_schedule *a, const tc_schedule *b) {
  assert_int_equal(a->coll, b->coll);
  assert_int_equal(a->nodes, b->nodes);
  assert_int_equal(a->nshards, b->nshards);
  assert_int_equal(a->units, b->units);
  assert_int_equal(a->steps, b->steps);
  assert_int_equal(a->rs_steps, b->rs_steps);
  assert_string_equal(a->algorithm, b->algorithm);
  assert_int_equal(a->owner == NULL, b->owner == NULL);
  for (int32_t k = 0; a->owner && k < a->nshards; k++) assert_int_equal(a->owner[k], b->owner[k]);
  assert_int_equal(a->count, b->count);
  for (int64_t i = 0; i < a->count; i++) assert_memory_equal(&a->xfer[i], &b->xfer[i], sizeof a->xfer[i]);
}

static void assert_same_graph(const tc_graph *g, const tc_graph *h) {
  assert_int_equal(g->n, h->n);
  assert_int_equal(g->m, h->m);
  for (int64_t a = 0; a < g->m; a++) {
    assert_int_equal(g->src[a], h->src[a]);
    assert_int_equal(g->dst[a], h->dst[a]);
    assert_int_equal(g->cap[a], h->cap[a]);
  }
  for (int32_t u = 0; u < g->n; u++) assert_int_equal(g->kind[u], h->kind[u]);
}

/* Verify s on g, write it, read it back (with and without the expected graph), check
   every field, and verify the copy again. Returns the copy for further checks. */
static void round_trip(const tc_tmpdir *f, const tc_graph *g, const char *spec, const tc_schedule *s,
                       tc_schedule_doc *doc) {
  char path[PATH_MAX];
  tc_error err;
  tc_tmpdir_path(f, "s.json", path, sizeof path);
  assert_valid(g, s);
  assert_int_equal(tc_schedule_write_json(g, spec, s, path, &err), TC_OK);
  assert_int_equal(tc_files_count(f->dir), 1); /* no temporary left behind */
  for (int pass = 0; pass < 2; pass++) {
    int rc = tc_schedule_read_json(path, pass ? g : NULL, doc, &err);
    if (rc) fail_msg("read back: %s", err.msg);
    assert_same_graph(g, doc->graph);
    if (spec) assert_string_equal(doc->spec, spec);
    else assert_null(doc->spec);
    assert_same_schedule(s, &doc->sched);
    assert_valid(doc->graph, &doc->sched);
    if (!pass) tc_schedule_doc_destroy(doc);
  }
}

/* ---- round trips ---- */

static void fig1_allgather_round_trip(void **state) {
  tc_graph *g = k22();
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 4, 2, "fig1", &err), TC_OK);
  add_fig1_allgather(g, &s, 0);
  tc_schedule_doc doc;
  round_trip(*state, g, "bipartite(2)", &s, &doc);
  /* The cost model on the schedule read from the file reproduces Figure 1: T_L = 2 steps,
     T_B = 3/4 M/B, BW-optimal ((N-1)/N with N = 4). */
  tc_cost c;
  assert_int_equal(tc_schedule_cost(doc.graph, &doc.sched, &c, &err), TC_OK);
  assert_int_equal(c.steps, 2);
  assert_int_equal(c.tau.num, 3);
  assert_int_equal(c.tau.den, 4);
  assert_true(c.bw_optimal);
  tc_cost_destroy(&c);
  tc_schedule_doc_destroy(&doc);
  assert_null(doc.graph); /* destroy leaves the record empty */
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void allreduce_round_trip(void **state) {
  tc_graph *g = k22();
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLREDUCE, 4, 2, "fig1-allreduce", &err), TC_OK);
  add_fig1_reduce_scatter(g, &s);
  add_fig1_allgather(g, &s, 2);
  s.rs_steps = 2;
  tc_schedule_doc doc;
  round_trip(*state, g, NULL, &s, &doc);
  assert_int_equal(doc.sched.rs_steps, 2);
  assert_int_equal(doc.sched.steps, 4);
  tc_schedule_doc_destroy(&doc);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Broadcast of two shards from root 0 over K_{2,2}, and its reverse, a reduce to 0. */
static void rooted_round_trips(void **state) {
  tc_graph *g = k22();
  const int32_t owner[2] = {0, 0};
  /* (shard, from, to, step) */
  static const int bcast[][4] = {{0, 0, 2, 1}, {1, 0, 3, 1}, {1, 0, 2, 2}, {0, 0, 3, 2}, {0, 2, 1, 2}, {1, 3, 1, 2}};
  tc_error err;
  for (int reduce = 0; reduce < 2; reduce++) {
    tc_schedule s;
    assert_int_equal(tc_schedule_init_owned(&s, reduce ? TC_COLL_REDUCE : TC_COLL_BROADCAST, 4, 2, owner, 1,
                                            reduce ? "hand-reduce" : "hand-bcast", &err),
                     TC_OK);
    for (int i = 0; i < 6; i++) {
      const int *x = bcast[i];
      if (reduce) add(&s, x[0], arc(g, x[2], x[1]), 3 - x[3], 0, 1);
      else add(&s, x[0], arc(g, x[1], x[2]), x[3], 0, 1);
    }
    tc_schedule_doc doc;
    round_trip(*state, g, "bipartite(2)", &s, &doc);
    assert_non_null(doc.sched.owner);
    tc_schedule_doc_destroy(&doc);
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
}

/* Three compute nodes around a switch (node 3); switch -> node links have capacity 2.
   Allgather of three shards: up to the switch in step 1, out to the others in step 2. */
static void switch_round_trip(void **state) {
  tc_graph_builder b;
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, 4, &err), TC_OK);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(tc_graph_builder_add_arc(&b, i, 3, 1, &err), TC_OK);
    assert_int_equal(tc_graph_builder_add_arc(&b, 3, i, 2, &err), TC_OK);
  }
  assert_int_equal(tc_graph_builder_set_kind(&b, 3, TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  const int32_t owner[3] = {0, 1, 2};
  tc_schedule s;
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLGATHER, 4, 3, owner, 1, "star", &err), TC_OK);
  for (int k = 0; k < 3; k++) {
    add(&s, k, arc(g, k, 3), 1, 0, 1);
    for (int j = 0; j < 3; j++)
      if (j != k) add(&s, k, arc(g, 3, j), 2, 0, 1);
  }
  tc_schedule_doc doc;
  round_trip(*state, g, "star", &s, &doc);
  assert_int_equal(doc.graph->kind[3], TC_NODE_SWITCH);
  assert_int_equal(doc.graph->cap[arc(doc.graph, 3, 0)], 2);
  tc_schedule_doc_destroy(&doc);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Two nodes 0 <-> 1, each sending its shard across: the whole file, byte for byte. */
static tc_graph *pair(void) {
  static const int arcs[][2] = {{0, 1}, {1, 0}};
  return tc_test_from_arcs(2, arcs, 2);
}

static void writer_exact_text(void **state) {
  tc_tmpdir *f = *state;
  tc_graph *g = pair();
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 1, "swap", &err), TC_OK);
  add(&s, 0, 0, 1, 0, 1);
  add(&s, 1, 1, 1, 0, 1);
  assert_valid(g, &s);
  char path[PATH_MAX];
  tc_tmpdir_path(f, "pair.json", path, sizeof path);
  assert_int_equal(tc_schedule_write_json(g, "uniring(1,2)", &s, path, &err), TC_OK);
  char *text = tc_files_slurp(path);
  assert_non_null(text);
  assert_string_equal(text,
                      "{\n"
                      "  \"format\": \"topocoll-schedule\",\n"
                      "  \"version\": 1,\n"
                      "  \"graph\": {\n"
                      "    \"spec\": \"uniring(1,2)\",\n"
                      "    \"nodes\": 2,\n"
                      "    \"arcs\": [\n"
                      "      [0, 1],\n"
                      "      [1, 0]\n"
                      "    ]\n"
                      "  },\n"
                      "  \"schedule\": {\n"
                      "    \"collective\": \"allgather\",\n"
                      "    \"algorithm\": \"swap\",\n"
                      "    \"nodes\": 2,\n"
                      "    \"nshards\": 2,\n"
                      "    \"units\": 1,\n"
                      "    \"steps\": 1,\n"
                      "    \"rs_steps\": 0,\n"
                      "    \"transfers\": [\n"
                      "      [0, 1, 0, 0, 1],\n"
                      "      [1, 1, 1, 0, 1]\n"
                      "    ]\n"
                      "  }\n"
                      "}\n");
  free(text);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- reader errors ---- */

/* The valid 2-node document the error cases mutate. */
static const char base_doc[] =
    "{\"format\": \"topocoll-schedule\", \"version\": 1,"
    " \"graph\": {\"spec\": \"uniring(1,2)\", \"nodes\": 2, \"arcs\": [[0, 1], [1, 0]]},"
    " \"schedule\": {\"collective\": \"allgather\", \"algorithm\": \"swap\", \"nodes\": 2, \"nshards\": 2,"
    " \"units\": 1, \"steps\": 1, \"rs_steps\": 0, \"transfers\": [[0, 1, 0, 0, 1], [1, 1, 1, 0, 1]]}}";

/* base_doc with the first occurrence of `from` replaced by `to` (caller frees). */
static char *mutate(const char *from, const char *to) {
  const char *at = strstr(base_doc, from);
  if (!at) fail_msg("'%s' not in the base document", from);
  size_t head = (size_t)(at - base_doc), len = strlen(base_doc) - strlen(from) + strlen(to);
  char *s = malloc(len + 1);
  assert_non_null(s);
  memcpy(s, base_doc, head);
  strcpy(s + head, to);
  strcat(s, at + strlen(from));
  return s;
}

/* Reading `text` fails with `code` and a one-line message containing `frag`; nothing is
   left in the document record. */
static void expect_read_error(const tc_tmpdir *f, const char *text, const tc_graph *expect, int code,
                              const char *frag) {
  char path[PATH_MAX];
  tc_tmpdir_path(f, "bad.json", path, sizeof path);
  spill(path, text);
  tc_schedule_doc doc;
  tc_error err;
  int rc = tc_schedule_read_json(path, expect, &doc, &err);
  if (rc != code) fail_msg("expected code %d, got %d (%s) for: %s", code, rc, rc ? err.msg : "ok", text);
  if (!strstr(err.msg, frag)) fail_msg("message '%s' lacks '%s'", err.msg, frag);
  assert_null(strchr(err.msg, '\n'));
  assert_non_null(strstr(err.msg, path)); /* names the file */
  assert_null(doc.graph);
  assert_null(doc.spec);
  assert_null(doc.sched.xfer);
  assert_null(doc.sched.owner);
}

typedef struct bad_case {
  const char *from, *to, *frag;
} bad_case;

static void base_document_is_valid(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "base.json", path, sizeof path);
  spill(path, base_doc);
  tc_schedule_doc doc;
  tc_error err;
  assert_int_equal(tc_schedule_read_json(path, NULL, &doc, &err), TC_OK);
  assert_valid(doc.graph, &doc.sched);
  tc_schedule_doc_destroy(&doc);
}

static void reader_rejects_bad_fields(void **state) {
  static const bad_case cases[] = {
      /* header */
      {"\"version\": 1", "\"version\": 2", "version: unsupported version 2 (this reader knows version 1)"},
      {"\"version\": 1", "\"version\": \"1\"", "version: expected an integer, found a string"},
      {"\"format\": \"topocoll-schedule\"", "\"format\": \"topocoll-plan\"",
       "format: expected \"topocoll-schedule\", found \"topocoll-plan\""},
      {"\"format\": \"topocoll-schedule\"", "\"format\": \"topocoll-graph\"",
       "is a graph JSON (nodes/arcs), not a schedule; schedules are written by 'topocoll sched --out' and "
       "'topocoll plan'"},
      {"\"format\": \"topocoll-schedule\", ", "", "format: missing"},
      {"\"version\": 1,", "\"version\": 1, \"cost\": 3,", "unknown key \"cost\" (version 1 defines format, version"},
      {"\"graph\": {\"spec\": \"uniring(1,2)\", \"nodes\": 2, \"arcs\": [[0, 1], [1, 0]]}", "\"graph\": []",
       "graph: expected an object, found an array"},
      /* graph */
      {"\"spec\": \"uniring(1,2)\"", "\"spec\": 5", "graph.spec: expected a string or null, found an integer"},
      {"\"spec\": \"uniring(1,2)\"", "\"edges\": 5", "graph: unknown key \"edges\""},
      {"\"nodes\": 2, \"arcs\"", "\"nodes\": 0, \"arcs\"", "graph.nodes: 0 outside 1..16777216"},
      {"\"nodes\": 2, \"arcs\"", "\"arcs\"", "graph.nodes: missing"},
      {"[[0, 1], [1, 0]]", "{}", "graph.arcs: expected an array, found an object"},
      {"[[0, 1], [1, 0]]", "[[0, 1], [1, 5]]", "graph.arcs[1][1]: node 5 outside 0..1"},
      {"[[0, 1], [1, 0]]", "[[0, 1], [1]]", "graph.arcs[1]: expected [u, v] or [u, v, cap], found 1 element"},
      {"[[0, 1], [1, 0]]", "[[0, 1, 0], [1, 0]]", "graph.arcs[0][2]: capacity 0 of arc 0->1 must be >= 1"},
      {"[[0, 1], [1, 0]]", "[[0, 1], [1, 0.5]]", "graph.arcs[1][1]: expected an integer, found a real number"},
      {"[[0, 1], [1, 0]]", "[[1, 0], [0, 1]]", "graph.arcs[1]: [0, 1] listed after [1, 0]; arcs must be in arc-id order"},
      {"[[0, 1], [1, 0]]", "[[0, 1], [1, 0]], \"kinds\": [\"compute\"]",
       "graph.kinds: expected 2 entries (one per node), found 1"},
      {"[[0, 1], [1, 0]]", "[[0, 1], [1, 0]], \"kinds\": [\"compute\", \"router\"]",
       "graph.kinds[1]: expected \"compute\" or \"switch\", found \"router\""},
      /* schedule scalars */
      {"\"allgather\"", "\"gathr\"", "schedule.collective: unknown collective \"gathr\""},
      {"\"allgather\"", "null", "schedule.collective: expected a string, found null"},
      {"\"algorithm\": \"swap\"", "\"algorithm\": \"0123456789012345678901234567890123\"",
       "schedule.algorithm: longer than 31 bytes"},
      {"\"algorithm\": \"swap\", ", "", "schedule.algorithm: missing"},
      {"\"nodes\": 2, \"nshards\"", "\"nodes\": 3, \"nshards\"", "schedule.nodes: 3, but the graph has 2 nodes"},
      {"\"nshards\": 2", "\"nshards\": \"2\"", "schedule.nshards: expected an integer, found a string"},
      {"\"nshards\": 2", "\"nshards\": 4294967296", "schedule.nshards: 4294967296 outside 1..2147483647"},
      {"\"nshards\": 2", "\"nshards\": 3", "schedule: 3 shards on 2 nodes need explicit owners"},
      {"\"units\": 1", "\"units\": 0", "schedule.units: 0 must be >= 1"},
      {"\"units\": 1", "\"units\": 1.0", "schedule.units: expected an integer, found a real number"},
      {"\"steps\": 1", "\"steps\": 3", "schedule.steps: 3 steps but only 2 transfers"},
      {"\"steps\": 1", "\"steps\": -1", "schedule.steps: -1 outside 0..2147483647"},
      {"\"rs_steps\": 0", "\"rs_steps\": 1", "schedule.rs_steps: 1, but only allreduce has a reduce-scatter half"},
      {"\"rs_steps\": 0", "\"rs_steps\": 0, \"shards\": 1", "schedule: unknown key \"shards\""},
      {"\"units\": 1", "\"units\": 1, \"owners\": [0]", "schedule.owners: expected 2 entries (one per shard), found 1"},
      {"\"units\": 1", "\"units\": 1, \"owners\": [0, 7]", "schedule.owners[1]: node 7 outside 0..1"},
      {"\"units\": 1", "\"units\": 1, \"owners\": 0", "schedule.owners: expected an array, found an integer"},
      {"\"allgather\"", "\"broadcast\"", "schedule: broadcast needs a root"},
      {"\"allgather\", \"algorithm\": \"swap\", \"nodes\": 2, \"nshards\": 2, \"units\": 1",
       "\"broadcast\", \"algorithm\": \"swap\", \"nodes\": 2, \"nshards\": 2, \"units\": 1, \"owners\": [0, 1]",
       "schedule.owners: broadcast shards must all belong to the root"},
      /* transfers */
      {"[[0, 1, 0, 0, 1], [1, 1, 1, 0, 1]]", "7", "schedule.transfers: expected an array, found an integer"},
      {"[0, 1, 0, 0, 1], [1", "\"t\", [1", "schedule.transfers[0]: expected an array [shard, step, arc, lo, hi], found a string"},
      {"[1, 1, 1, 0, 1]", "[1, 1, 1, 0]", "schedule.transfers[1]: expected [shard, step, arc, lo, hi], found 4 elements"},
      {"[1, 1, 1, 0, 1]", "[1, 1, 1, 0, 1, 1]", "schedule.transfers[1]: expected [shard, step, arc, lo, hi], found 6 elements"},
      {"[1, 1, 1, 0, 1]", "[2, 1, 1, 0, 1]", "schedule.transfers[1][0]: shard 2 outside 0..1"},
      {"[1, 1, 1, 0, 1]", "[1, 0, 1, 0, 1]", "schedule.transfers[1][1]: step 0 outside 1..1"},
      {"[1, 1, 1, 0, 1]", "[1, 1, 2, 0, 1]", "schedule.transfers[1][2]: arc 2 outside 0..1"},
      {"[1, 1, 1, 0, 1]", "[1, 1, 1, -1, 1]", "schedule.transfers[1][3]: lo -1 outside 0..0"},
      {"[1, 1, 1, 0, 1]", "[1, 1, 1, 0, 2]", "schedule.transfers[1][4]: hi 2 outside 1..1"},
      {"[1, 1, 1, 0, 1]", "[1, 1, 1, 0, true]", "schedule.transfers[1][4]: expected an integer, found a boolean"},
      {"\"units\": 1", "\"units\": 2", "schedule.transfers[1]: empty chunk [1, 1)"}, /* with the next edit */
      /* numbers at and beyond 64 bits */
      {"[1, 1, 1, 0, 1]", "[1, 1, 1, 9223372036854775807, 1]", "schedule.transfers[1][3]: lo 9223372036854775807 outside 0..0"},
      {"\"units\": 1", "\"units\": 99999999999999999999", "too big integer"},
      {"[1, 1, 1, 0, 1]", "[1, 1, -99999999999999999999, 0, 1]", "too big negative integer"},
      {"\"steps\": 1", "\"steps\": 1e3", "schedule.steps: expected an integer, found a real number"},
  };
  tc_tmpdir *f = *state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *text = mutate(cases[i].from, cases[i].to);
    if (strstr(cases[i].frag, "empty chunk")) { /* units 2 and a transfer [1, 1) */
      char *t2 = strstr(text, "[1, 1, 1, 0, 1]");
      assert_non_null(t2);
      memcpy(t2, "[1, 1, 1, 1, 1]", 15);
    }
    expect_read_error(f, text, NULL, TC_EINPUT, cases[i].frag);
    free(text);
  }
}

static void reader_rejects_bad_documents(void **state) {
  tc_tmpdir *f = *state;
  /* Truncated in the middle of the transfers: jansson's line:column message. */
  char *cut = strdup(base_doc);
  assert_non_null(cut);
  cut[strlen(cut) - 30] = '\0';
  expect_read_error(f, cut, NULL, TC_EINPUT, "bad.json:1:");
  free(cut);
  expect_read_error(f, "", NULL, TC_EINPUT, "bad.json:1:0:");
  expect_read_error(f, "[1, 2]", NULL, TC_EINPUT, "expected an object at the top level, found an array");
  char *dup = mutate("\"version\": 1,", "\"version\": 1, \"version\": 1,");
  expect_read_error(f, dup, NULL, TC_EINPUT, "duplicate object key");
  free(dup);
  char *trailing = malloc(sizeof base_doc + 8);
  assert_non_null(trailing);
  strcpy(trailing, base_doc);
  strcat(trailing, " {}");
  expect_read_error(f, trailing, NULL, TC_EINPUT, "end of file expected");
  free(trailing);
  /* A missing file is an I/O error, not bad input. */
  char path[PATH_MAX];
  tc_tmpdir_path(f, "missing.json", path, sizeof path);
  tc_schedule_doc doc;
  tc_error err;
  assert_int_equal(tc_schedule_read_json(path, NULL, &doc, &err), TC_EIO);
  assert_non_null(strstr(err.msg, "cannot read"));
  assert_null(doc.graph);
}

/* With an expected graph, the embedded one must match it exactly. */
static void reader_rejects_graph_mismatch(void **state) {
  tc_tmpdir *f = *state;
  static const int one_arc[][2] = {{0, 1}};
  static const int three[][2] = {{0, 1}, {1, 2}, {2, 0}};
  static const int other[][2] = {{0, 0}, {1, 0}};
  tc_graph *g1 = tc_test_from_arcs(2, one_arc, 1), *g3 = tc_test_from_arcs(3, three, 3);
  tc_graph *go = tc_test_from_arcs(2, other, 2), *same = pair();
  expect_read_error(f, base_doc, g3, TC_EINPUT, "graph.nodes: 2, but the given graph has 3 nodes");
  expect_read_error(f, base_doc, g1, TC_EINPUT, "graph.arcs: 2 arcs, but the given graph has 1");
  expect_read_error(f, base_doc, go, TC_EINPUT, "graph.arcs[0]: [0, 1, 1] differs from the given graph's arc 0 [0, 0, 1]");
  char *cap = mutate("[[0, 1], [1, 0]]", "[[0, 1, 3], [1, 0]]");
  expect_read_error(f, cap, same, TC_EINPUT, "graph.arcs[0]: [0, 1, 3] differs from the given graph's arc 0 [0, 1, 1]");
  free(cap);
  char *kinds = mutate("[[0, 1], [1, 0]]", "[[0, 1], [1, 0]], \"kinds\": [\"compute\", \"switch\"]");
  expect_read_error(f, kinds, same, TC_EINPUT, "graph.kinds[1]: node 1 is a switch, but in the given graph a compute node");
  free(kinds);
  /* ... and the same file matches the graph it was made for. */
  char path[PATH_MAX];
  tc_tmpdir_path(f, "ok.json", path, sizeof path);
  spill(path, base_doc);
  tc_schedule_doc doc;
  tc_error err;
  assert_int_equal(tc_schedule_read_json(path, same, &doc, &err), TC_OK);
  tc_schedule_doc_destroy(&doc);
  tc_graph_destroy(g1);
  tc_graph_destroy(g3);
  tc_graph_destroy(go);
  tc_graph_destroy(same);
}

/* The reader checks structure only: a wrong schedule reads fine and the verifier rejects it
   naming the transfer (here shard 1 is sent in step 1 by node 0, which does not hold it). */
static void wrong_schedule_is_left_to_the_verifier(void **state) {
  tc_tmpdir *f = *state;
  char *text = mutate("[1, 1, 1, 0, 1]", "[1, 1, 0, 0, 1]");
  char path[PATH_MAX];
  tc_tmpdir_path(f, "wrong.json", path, sizeof path);
  spill(path, text);
  free(text);
  tc_schedule_doc doc;
  tc_error err;
  assert_int_equal(tc_schedule_read_json(path, NULL, &doc, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(doc.graph, &doc.sched, &err), TC_EFAIL);
  assert_non_null(strstr(err.msg, "transfer #1"));
  tc_schedule_doc_destroy(&doc);
}

/* ---- writer refusals ---- */

static void writer_refusals_leave_nothing(void **state) {
  tc_tmpdir *f = *state;
  tc_graph *g = pair(), *g3 = NULL;
  static const int three[][2] = {{0, 1}, {1, 2}, {2, 0}};
  g3 = tc_test_from_arcs(3, three, 3);
  tc_schedule s;
  tc_error err;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "out.json", path, sizeof path);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 1, "swap", &err), TC_OK);
  add(&s, 0, 0, 1, 0, 1);
  add(&s, 1, 1, 1, 0, 1);
  assert_valid(g, &s);

  /* wrong graph for the schedule */
  assert_int_equal(tc_schedule_write_json(g3, NULL, &s, path, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "schedule for 2 nodes on a graph with 3 nodes"));
  assert_int_equal(tc_files_count(f->dir), 0);
  /* a transfer naming a missing arc */
  s.xfer[1].arc = 5;
  assert_int_equal(tc_schedule_write_json(g, NULL, &s, path, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "transfer 1 [1, 1, 5, 0, 1] is out of range"));
  assert_int_equal(tc_files_count(f->dir), 0);
  s.xfer[1].arc = 1;
  /* invalid UTF-8 in the algorithm name or the spec: the temporary is removed */
  strcpy(s.algorithm, "bad\xff");
  assert_int_equal(tc_schedule_write_json(g, NULL, &s, path, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "the algorithm name is not valid UTF-8"));
  assert_int_equal(tc_files_count(f->dir), 0);
  strcpy(s.algorithm, "swap");
  assert_int_equal(tc_schedule_write_json(g, "bad\xfe", &s, path, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "the spec string is not valid UTF-8"));
  assert_int_equal(tc_files_count(f->dir), 0);
  /* rs_steps outside an allreduce */
  s.rs_steps = 1;
  assert_int_equal(tc_schedule_write_json(g, NULL, &s, path, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "rs_steps 1 must be 0"));
  s.rs_steps = 0;
  /* a missing directory is an I/O error */
  char nodir[PATH_MAX];
  tc_tmpdir_path(f, "nodir/out.json", nodir, sizeof nodir);
  assert_int_equal(tc_schedule_write_json(g, NULL, &s, nodir, &err), TC_EIO);
  assert_non_null(strstr(err.msg, "cannot write"));
  /* a good write replaces an existing file; a refused one leaves it as it was */
  spill(path, "old");
  assert_int_equal(tc_schedule_write_json(g3, NULL, &s, path, &err), TC_EINPUT);
  char *old = tc_files_slurp(path);
  assert_string_equal(old, "old");
  free(old);
  assert_int_equal(tc_schedule_write_json(g, NULL, &s, path, &err), TC_OK);
  assert_int_equal(tc_files_count(f->dir), 1);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  tc_graph_destroy(g3);
}

/* ---- units ---- */

static void time_units_exact(void **state) {
  (void)state;
  static const struct { const char *text; double want; } cases[] = {
      {"10us", 1e-5}, {"1ms", 1e-3}, {"2s", 2.0}, {"100ns", 1e-7}, {"0.5ms", 5e-4},
      {"13.33us", 13.33e-6}, {"0us", 0.0}, {"007s", 7.0}, {"1.000us", 1e-6},
  };
  tc_error err;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double v = -1;
    assert_int_equal(tc_units_parse_time(cases[i].text, &v, &err), TC_OK);
    if (v != cases[i].want) fail_msg("%s -> %.17g, want %.17g", cases[i].text, v, cases[i].want);
  }
}

static void bandwidth_units_exact(void **state) {
  (void)state;
  /* bits/s divided by 8: 25 Gbit/s = 3.125e9 B/s; 79 Gbps is paper 000's fitted testbed B. */
  static const struct { const char *text; double want; } cases[] = {
      {"25Gbps", 3.125e9}, {"100GBps", 1e11}, {"12.5Gbps", 1.5625e9}, {"800Mbps", 1e8},
      {"1.5MBps", 1.5e6}, {"79Gbps", 9.875e9}, {"0.001Gbps", 125000.0},
  };
  tc_error err;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double v = -1;
    assert_int_equal(tc_units_parse_bandwidth(cases[i].text, &v, &err), TC_OK);
    if (v != cases[i].want) fail_msg("%s -> %.17g, want %.17g", cases[i].text, v, cases[i].want);
  }
}

static void size_units_exact(void **state) {
  (void)state;
  static const struct { const char *text; int64_t want; } cases[] = {
      {"1MB", 1000000},
      {"1KB", 1000},
      {"1GB", 1000000000},
      {"1KiB", 1024},
      {"1MiB", 1048576},
      {"1GiB", 1073741824},
      {"1048576", 1048576},
      {"512B", 512},
      {"1.5KB", 1500},
      {"1.5KiB", 1536},
      {"0.5MiB", 524288},
      {"0.0009765625MiB", 1024},              /* 2^-10 MiB */
      {"0.000000001GB", 1},
      {"0.000000000931322574615478515625GiB", 1}, /* 2^-30 GiB: 30 fraction digits */
      {"2.50000KB", 2500},                     /* trailing zeros are not precision */
      {"9223372036854775807", INT64_MAX},
      {"8589934591GiB", INT64_C(8589934591) * 1073741824},
  };
  tc_error err;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int64_t v = -1;
    int rc = tc_units_parse_size(cases[i].text, &v, &err);
    if (rc) fail_msg("%s: %s", cases[i].text, err.msg);
    if (v != cases[i].want) fail_msg("%s -> %lld, want %lld", cases[i].text, (long long)v, (long long)cases[i].want);
  }
}

typedef int (*double_parser)(const char *, double *, tc_error *);

static void expect_unit_error(int rc, const tc_error *err, const char *text, const char *frag) {
  if (rc != TC_EINPUT) fail_msg("'%s' accepted (rc %d)", text, rc);
  if (!strstr(err->msg, frag)) fail_msg("'%s': message '%s' lacks '%s'", text, err->msg, frag);
  assert_null(strchr(err->msg, '\n'));
}

static void unit_errors(void **state) {
  (void)state;
  static const struct { int kind; const char *text, *frag; } cases[] = {
      /* kind 0 time, 1 bandwidth, 2 size */
      {0, "", "empty time (expected e.g. 10us)"},
      {0, "10", "time \"10\": missing unit (ns, us, ms or s)"},
      {0, "10xs", "time \"10xs\": unknown unit \"xs\""},
      {0, "10 us", "unknown unit \" us\""},
      {0, "-5us", "time \"-5us\" must not be negative"},
      {0, "+5us", "expected a number followed by a unit"},
      {0, ".5us", "expected a number followed by a unit"},
      {0, "1.us", "expected digits after the decimal point"},
      {0, "1e3us", "unknown unit \"e3us\""},
      {0, "10US", "unknown unit \"US\""},
      {0, "1234567890123456789012345678901234567890123456789012345678901234567890s", "is too long"},
      {1, "25gBps", "unknown unit \"gBps\" (expected Mbps, Gbps (bits/s), MBps or GBps (bytes/s))"},
      {1, "25Gb", "unknown unit \"Gb\""},
      {1, "25", "missing unit"},
      {1, "0Gbps", "bandwidth \"0Gbps\" must be positive"},
      {1, "0.000Gbps", "must be positive"},
      {1, "-1Gbps", "must not be negative"},
      {2, "0MB", "size \"0MB\" must be positive"},
      {2, "0", "must be positive"},
      {2, "0.3B", "size \"0.3B\" is not a whole number of bytes"},
      {2, "1.0001KB", "is not a whole number of bytes"},
      {2, "0.0000000000000000000000000000001GiB", "is not a whole number of bytes"},
      {2, "1mb", "unknown unit \"mb\" (expected B, KB, MB, GB, K, M, G, KiB, MiB or GiB)"},
      {2, "1Mb", "unknown unit \"Mb\""},
      {2, "9223372036854775808", "is too large (at most 2^63-1 bytes)"},
      {2, "8589934592GiB", "is too large"},
      {2, "9223372036854775807.5KB", "is too large"},
      {2, "-1MB", "must not be negative"},
      {2, "1,5MB", "unknown unit \",5MB\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_error err;
    double d;
    int64_t b;
    int rc = cases[i].kind == 0   ? tc_units_parse_time(cases[i].text, &d, &err)
             : cases[i].kind == 1 ? tc_units_parse_bandwidth(cases[i].text, &d, &err)
                                  : tc_units_parse_size(cases[i].text, &b, &err);
    expect_unit_error(rc, &err, cases[i].text, cases[i].frag);
  }
  /* Control bytes in the echoed text never break the one-line message. */
  tc_error err;
  double d;
  expect_unit_error(tc_units_parse_time("1\nus", &d, &err), &err, "1\\nus", "time \"1?us\"");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, make_tmpdir, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(fig1_allgather_round_trip),
      T(allreduce_round_trip),
      T(rooted_round_trips),
      T(switch_round_trip),
      T(writer_exact_text),
      T(base_document_is_valid),
      T(reader_rejects_bad_fields),
      T(reader_rejects_bad_documents),
      T(reader_rejects_graph_mismatch),
      T(wrong_schedule_is_left_to_the_verifier),
      T(writer_refusals_leave_nothing),
      cmocka_unit_test(time_units_exact),
      cmocka_unit_test(bandwidth_units_exact),
      cmocka_unit_test(size_units_exact),
      cmocka_unit_test(unit_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
