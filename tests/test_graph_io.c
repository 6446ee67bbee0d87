/*
** test_graph_io.c — graph readers and writers (graph_io.h, docs/formats.md):
**   - edge-list and JSON round trips are exact, arc for arc (multi-arcs, loops,
**     capacities, switch kinds, labels, isolated nodes, the empty graph);
**   - the writers' exact text for small graphs;
**   - every reader error path, each with its own bad file in $TC_TEST_DATA/graph_io (or
**     generated), checked for code and message; messages are one line;
**   - wiring plans computed by hand, and the port-use property on regular graphs;
**   - DOT text;
**   - failing writes (missing directory, invalid label, file-size limit, target is a
**     directory) leave the existing target untouched and no temporary behind;
**   - random mutations of valid files never crash a reader.
** Outputs go to a fresh mkdtemp directory per test, removed afterwards.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc_files.h"
#include "topocoll/graph_io.h"

/* ---- fixture: one temporary directory per test (tc_files.h) ---- */

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-graph-io"); }

static void data_path(const char *name, char *out, size_t size) {
  const char *dir = getenv("TC_TEST_DATA");
  assert_non_null(dir);
  int k = snprintf(out, size, "%s/graph_io/%s", dir, name);
  assert_true(k > 0 && (size_t)k < size);
}

static void assert_file_text(const char *path, const char *want) {
  char *got = tc_files_slurp(path);
  assert_non_null(got);
  assert_string_equal(got, want);
  free(got);
}

/* ---- graphs ---- */

typedef struct arc_spec {
  int u, v;
  int64_t cap;
} arc_spec;

/* Arcs (directed=1) or links via add_edge (directed=0). */
static tc_graph *build(int n, const arc_spec *arcs, int m, int directed) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++) {
    int rc = directed ? tc_graph_builder_add_arc(&b, arcs[i].u, arcs[i].v, arcs[i].cap, &err)
                      : tc_graph_builder_add_edge(&b, arcs[i].u, arcs[i].v, arcs[i].cap, &err);
    assert_int_equal(rc, TC_OK);
  }
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

static tc_graph *with_extras(tc_graph *g, const int *switches, int ns, const char *const *labels) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *h = NULL;
  assert_int_equal(tc_graph_builder_init(&b, g->n, &err), TC_OK);
  for (int64_t a = 0; a < g->m; a++)
    assert_int_equal(tc_graph_builder_add_arc(&b, g->src[a], g->dst[a], g->cap[a], &err), TC_OK);
  for (int i = 0; i < ns; i++) assert_int_equal(tc_graph_builder_set_kind(&b, switches[i], TC_NODE_SWITCH, &err), TC_OK);
  for (int u = 0; labels && u < g->n; u++)
    if (labels[u]) assert_int_equal(tc_graph_builder_set_label(&b, u, labels[u], &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &h, &err), TC_OK);
  tc_graph_destroy(g);
  return h;
}

static void assert_same_graph(const tc_graph *g, const tc_graph *h) {
  assert_int_equal(g->n, h->n);
  assert_int_equal(g->m, h->m);
  assert_int_equal(g->bidirectional, h->bidirectional);
  for (int64_t a = 0; a < g->m; a++) {
    assert_int_equal(g->src[a], h->src[a]);
    assert_int_equal(g->dst[a], h->dst[a]);
    assert_int_equal(g->cap[a], h->cap[a]);
    if (g->bidirectional) assert_int_equal(g->rev[a], h->rev[a]);
  }
  for (int32_t u = 0; u < g->n; u++) {
    assert_int_equal(g->kind[u], h->kind[u]);
    const char *lg = tc_graph_label(g, u), *lh = tc_graph_label(h, u);
    if (lg || lh) {
      assert_non_null(lg);
      assert_non_null(lh);
      assert_string_equal(lg, lh);
    }
  }
}

/* ---- round trips ---- */

static void edgelist_round_trip_exact(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "g.txt", path, sizeof path);
  /* Multi-arc 0->1 twice, capacities 3 and 7, a loop at 3, node 4 isolated. */
  const arc_spec arcs[] = {{2, 3, 7}, {0, 1, 1}, {3, 3, 1}, {1, 2, 3}, {2, 0, 1}, {0, 1, 1}};
  tc_graph *g = build(5, arcs, 6, 1), *h = NULL;
  tc_error err;
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_OK);
  assert_file_text(path, "# topocoll edge list\nnodes 5\n0 1\n0 1\n1 2 3\n2 0\n2 3 7\n3 3\n");
  assert_int_equal(tc_graph_read_edgelist(path, &h, &err), TC_OK);
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  assert_int_equal(tc_graph_read_file(path, &h, &err), TC_OK); /* not .json: edge list */
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  tc_graph_destroy(g);
  assert_int_equal(tc_files_count(f->dir), 1); /* no temporary left behind */
}

static void edgelist_round_trip_bidirectional(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "b.edges", path, sizeof path);
  const arc_spec links[] = {{0, 1, 1}, {0, 1, 1}, {1, 2, 4}, {2, 2, 1}, {0, 3, 2}};
  tc_graph *g = build(4, links, 5, 0), *h = NULL;
  assert_true(g->bidirectional);
  tc_error err;
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_OK);
  assert_int_equal(tc_graph_read_edgelist(path, &h, &err), TC_OK);
  assert_true(h->bidirectional);
  assert_same_graph(g, h);
  tc_graph_destroy(g);
  tc_graph_destroy(h);
}

static void edgelist_reader_accepts_comments_crlf_tabs(void **state) {
  (void)state;
  char path[PATH_MAX];
  tc_error err;
  tc_graph *g = NULL;
  data_path("el_good.txt", path, sizeof path);
  assert_int_equal(tc_graph_read_edgelist(path, &g, &err), TC_OK);
  assert_int_equal(g->n, 5); /* no header: 1 + largest id */
  assert_int_equal(g->m, 5);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 1), 2);
  assert_int_equal(tc_graph_arc_multiplicity(g, 4, 4), 1);
  assert_int_equal(g->cap[g->out_off[1]], 3);
  tc_graph_destroy(g);
  data_path("el_good_header.txt", path, sizeof path);
  assert_int_equal(tc_graph_read_edgelist(path, &g, &err), TC_OK);
  assert_int_equal(g->n, 6);
  assert_int_equal(g->m, 1);
  tc_graph_destroy(g);
}

static const char *const demo_labels[] = {"a \"quoted\" \\ label", NULL, "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb8" "de, comma",
                                          "switch-3"};

static void json_round_trip_kinds_labels(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "g.json", path, sizeof path);
  const arc_spec links[] = {{0, 3, 2}, {1, 3, 1}, {2, 3, 1}, {3, 3, 1}, {0, 1, 1}, {0, 1, 1}};
  const int sw[] = {3};
  tc_graph *g = with_extras(build(4, links, 6, 0), sw, 1, demo_labels), *h = NULL;
  tc_error err;
  assert_int_equal(tc_graph_write_json(g, "test:spec", path, &err), TC_OK);
  char *text = tc_files_slurp(path);
  assert_non_null(strstr(text, "\"spec\": \"test:spec\",\n"));
  assert_non_null(strstr(text, "\"bidirectional\": true,\n"));
  assert_non_null(strstr(text, "\"kinds\": [\n    \"compute\",\n    \"compute\",\n    \"compute\",\n    \"switch\"\n  ]"));
  assert_non_null(strstr(text, "\"a \\\"quoted\\\" \\\\ label\",\n    null,\n"));
  free(text);
  assert_int_equal(tc_graph_read_json(path, &h, &err), TC_OK);
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  assert_int_equal(tc_graph_read_file(path, &h, &err), TC_OK);
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  tc_graph_destroy(g);
}

static void json_writer_exact_minimal(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "m.JSON", path, sizeof path); /* extension match ignores case */
  const arc_spec arcs[] = {{0, 1, 4}, {0, 1, 1}};
  tc_graph *g = build(2, arcs, 2, 1), *h = NULL;
  tc_error err;
  assert_int_equal(tc_graph_write_json(g, NULL, path, &err), TC_OK);
  /* No spec, all compute, no labels: those keys are left out. */
  assert_file_text(path,
                   "{\n  \"format\": \"topocoll-graph\",\n  \"version\": 1,\n  \"nodes\": 2,\n"
                   "  \"bidirectional\": false,\n  \"arcs\": [\n    [0, 1],\n    [0, 1, 4]\n  ]\n}\n");
  assert_int_equal(tc_graph_read_file(path, &h, &err), TC_OK);
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  tc_graph_destroy(g);
  /* The empty graph survives both formats. */
  g = build(0, NULL, 0, 1);
  assert_int_equal(tc_graph_write_json(g, "empty", path, &err), TC_OK);
  assert_int_equal(tc_graph_read_json(path, &h, &err), TC_OK);
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  tc_tmpdir_path(f, "e.txt", path, sizeof path);
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_OK);
  assert_int_equal(tc_graph_read_edgelist(path, &h, &err), TC_OK);
  assert_same_graph(g, h);
  tc_graph_destroy(h);
  tc_graph_destroy(g);
}

static void json_reader_hand_written(void **state) {
  (void)state;
  char path[PATH_MAX];
  tc_error err;
  tc_graph *g = NULL;
  data_path("js_good.json", path, sizeof path);
  assert_int_equal(tc_graph_read_json(path, &g, &err), TC_OK);
  assert_int_equal(g->n, 3);
  assert_int_equal(g->m, 4);
  assert_int_equal(g->cap[1], 5); /* arc 1->2 */
  assert_int_equal(g->kind[1], TC_NODE_SWITCH);
  assert_string_equal(tc_graph_label(g, 0), "h0");
  assert_null(tc_graph_label(g, 1));
  tc_graph_destroy(g);
  data_path("js_minimal.json", path, sizeof path); /* spec, bidirectional, kinds, labels absent */
  assert_int_equal(tc_graph_read_json(path, &g, &err), TC_OK);
  assert_true(g->bidirectional);
  assert_null(g->label);
  tc_graph_destroy(g);
}

/* ---- reader errors ---- */

typedef struct bad_case {
  const char *file;
  int code;
  const char *want; /* the message after "<path>" */
  int exact;        /* 1: message == path + want; 0: message starts with path, contains want */
} bad_case;

typedef int (*reader_fn)(const char *, tc_graph **, tc_error *);

static void assert_one_line(const tc_error *err) {
  assert_true(err->msg[0] != '\0');
  assert_null(strchr(err->msg, '\n'));
  assert_null(strchr(err->msg, '\r'));
}

static void check_bad(reader_fn read, const char *path, const bad_case *c) {
  tc_graph *g = (tc_graph *)&g; /* must be reset to NULL */
  tc_error err;
  tc_error_clear(&err);
  int rc = read(path, &g, &err);
  if (rc != c->code || !strstr(err.msg, c->want)) print_error("%s: got %d \"%s\"\n", c->file, rc, err.msg);
  assert_int_equal(rc, c->code);
  assert_null(g);
  assert_one_line(&err);
  size_t plen = strlen(path);
  assert_memory_equal(err.msg, path, plen);
  if (c->exact) assert_string_equal(err.msg + plen, c->want);
  else assert_non_null(strstr(err.msg + plen, c->want));
}

static void check_bad_files(reader_fn read, const bad_case *cases, size_t k) {
  char path[PATH_MAX];
  for (size_t i = 0; i < k; i++) {
    data_path(cases[i].file, path, sizeof path);
    check_bad(read, path, &cases[i]);
  }
}

/* A case whose message states the node limit (graph.h), which is not this file's to fix. */
static void check_limit(reader_fn read, const char *file, const char *fmt, int limit) {
  char path[PATH_MAX], want[256];
  data_path(file, path, sizeof path);
  snprintf(want, sizeof want, fmt, limit);
  check_bad(read, path, &(bad_case){file, TC_EINPUT, want, 1});
}

static void edgelist_reader_errors(void **state) {
  (void)state;
  static const bad_case cases[] = {
      {"el_bad_fields.txt", TC_EINPUT, ":3: expected \"u v [cap]\", found 4 or more fields", 1},
      {"el_many_fields.txt", TC_EINPUT, ":3: expected \"u v [cap]\", found 4 or more fields", 1},
      {"el_one_field.txt", TC_EINPUT, ":1: expected \"u v [cap]\", found 1 field", 1},
      {"el_bad_id.txt", TC_EINPUT, ":2: node id \"x\" is not an integer", 1},
      {"el_trailing.txt", TC_EINPUT, ":1: node id \"1abc\" is not an integer", 1},
      {"el_bad_cap.txt", TC_EINPUT, ":1: capacity \"2x\" is not an integer", 1},
      {"el_negative_id.txt", TC_EINPUT, ":1: node id -1 is negative", 1},
      {"el_out_of_range.txt", TC_EINPUT, ":2: node 40 outside 0..31 (header says nodes 32)", 1},
      {"el_zero_cap.txt", TC_EINPUT, ":1: capacity 0 must be >= 1", 1},
      {"el_negative_cap.txt", TC_EINPUT, ":1: capacity -5 must be >= 1", 1},
      {"el_cap_overflow.txt", TC_EINPUT, ":1: capacity \"99999999999999999999\" is too large", 1},
      {"el_id_overflow.txt", TC_EINPUT, ":1: node id \"99999999999999999999\" is too large", 1},
      {"el_negative_nodes.txt", TC_EINPUT, ":1: nodes -3 is negative", 1},
      {"el_nodes_not_int.txt", TC_EINPUT, ":1: nodes \"four\" is not an integer", 1},
      {"el_nodes_bare.txt", TC_EINPUT, ":1: expected \"nodes N\"", 1},
      {"el_nodes_extra.txt", TC_EINPUT, ":1: expected \"nodes N\"", 1},
      {"el_nodes_late.txt", TC_EINPUT, ":2: \"nodes\" header must come before the first arc", 1},
      {"el_nodes_twice.txt", TC_EINPUT, ":2: second \"nodes\" header (the first is on line 1)", 1},
      {"el_nodes_zero.txt", TC_EINPUT, ":2: node 0 outside the empty graph (header says nodes 0)", 1},
      {"el_empty.txt", TC_EINPUT, ": no arcs and no \"nodes N\" header", 1},
  };
  check_bad_files(tc_graph_read_edgelist, cases, sizeof cases / sizeof *cases);
  check_limit(tc_graph_read_edgelist, "el_id_limit.txt", ":1: node 3000000000 outside 0..%d (the node limit)",
              TC_MAX_NODES - 1);
  check_limit(tc_graph_read_edgelist, "el_huge_nodes.txt", ":2: nodes 3000000000 exceeds the limit %d", TC_MAX_NODES);
}

static void edgelist_reader_errors_generated(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "nul.txt", path, sizeof path);
  tc_files_spill(path, "0 1\n1 \0 2\n", 10);
  check_bad(tc_graph_read_edgelist, path, &(bad_case){"nul", TC_EINPUT, ":2: NUL byte in line (not a text file?)", 1});
  /* Control bytes are masked and long tokens cut, so the message stays one short line. */
  tc_tmpdir_path(f, "ctl.txt", path, sizeof path);
  tc_files_spill(path, "0 1\x1b[2J\n", 9);
  check_bad(tc_graph_read_edgelist, path, &(bad_case){"ctl", TC_EINPUT, ":1: node id \"1?[2J\" is not an integer", 1});
  tc_tmpdir_path(f, "long.txt", path, sizeof path);
  char line[300];
  memset(line, 'z', sizeof line);
  memcpy(line, "0 ", 2);
  line[sizeof line - 1] = '\n';
  tc_files_spill(path, line, sizeof line);
  check_bad(tc_graph_read_edgelist, path,
            &(bad_case){"long", TC_EINPUT, ":1: node id \"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"... is not an integer", 1});
  /* A comment may be long; anything else that long is not an edge list. */
  tc_tmpdir_path(f, "longcomment.txt", path, sizeof path);
  char big[6001];
  memset(big, ' ', sizeof big);
  memcpy(big, "0 1 # ", 6);
  big[sizeof big - 1] = '\n';
  tc_files_spill(path, big, sizeof big);
  tc_graph *ok = NULL;
  tc_error ok_err;
  assert_int_equal(tc_graph_read_edgelist(path, &ok, &ok_err), TC_OK);
  assert_int_equal(ok->m, 1);
  tc_graph_destroy(ok);
  big[4] = 'x';
  tc_files_spill(path, big, sizeof big);
  check_bad(tc_graph_read_edgelist, path, &(bad_case){"longline", TC_EINPUT, ":1: line longer than 4096 bytes (not an edge list?)", 1});
  /* An endless stream of zero bytes stops at once. */
  if (access("/dev/zero", R_OK) == 0)
    check_bad(tc_graph_read_edgelist, "/dev/zero", &(bad_case){"zero", TC_EINPUT, ":1: line longer than 4096 bytes (not an edge list?)", 1});
  /* Unreadable: a missing file, a directory. */
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_read_edgelist("/nonexistent-dir/x.txt", &g, &err), TC_EIO);
  assert_null(g);
  assert_string_equal(err.msg, "cannot read /nonexistent-dir/x.txt: No such file or directory");
  assert_int_equal(tc_graph_read_edgelist(f->dir, &g, &err), TC_EIO);
  assert_null(g);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof want, "cannot read %s: Is a directory", f->dir);
  assert_string_equal(err.msg, want);
}

static void json_reader_errors(void **state) {
  (void)state;
  static const bad_case cases[] = {
      /* Syntax, from jansson, with line:column. */
      {"js_syntax.json", TC_EINPUT, ":4:", 0},
      {"js_trailing.json", TC_EINPUT, "end of file expected", 0},
      {"js_big_int.json", TC_EINPUT, ":2:", 0},
      {"js_big_int.json", TC_EINPUT, "too big", 0},
      {"js_dup_key.json", TC_EINPUT, "duplicate object key", 0},
      {"js_labels_nul.json", TC_EINPUT, ":1:79: \\u0000 is not allowed near '\"a\\u0000b\"'", 1},
      {"js_bad_utf8.json", TC_EINPUT, "unable to decode byte 0xff", 0},
      {"js_empty.json", TC_EINPUT, "expected near end of file", 0},
      /* Schema, with JSON paths. */
      {"js_not_object.json", TC_EINPUT, ": expected an object at the top level, found an array", 1},
      {"js_bad_format.json", TC_EINPUT, ": format: expected \"topocoll-graph\", found \"networkx\"", 1},
      {"js_no_format.json", TC_EINPUT, ": format: missing", 1},
      {"js_format_type.json", TC_EINPUT, ": format: expected a string, found an integer", 1},
      {"js_version.json", TC_EINPUT, ": version: unsupported version 2 (this reader knows version 1)", 1},
      {"js_version_type.json", TC_EINPUT, ": version: expected an integer, found a string", 1},
      {"js_no_version.json", TC_EINPUT, ": version: missing", 1},
      {"js_unknown_key.json", TC_EINPUT, ": unknown key \"lables\" (version 1 defines format, version, spec, nodes, "
                                         "bidirectional, arcs, kinds, labels)", 1},
      {"js_no_nodes.json", TC_EINPUT, ": nodes: missing", 1},
      {"js_nodes_real.json", TC_EINPUT, ": nodes: expected an integer, found a real number", 1},
      {"js_no_arcs.json", TC_EINPUT, ": arcs: missing", 1},
      {"js_arcs_object.json", TC_EINPUT, ": arcs: expected an array, found an object", 1},
      {"js_arc_not_array.json", TC_EINPUT, ": arcs[0]: expected an array [u, v] or [u, v, cap], found an integer", 1},
      {"js_arc_len.json", TC_EINPUT, ": arcs[1]: expected [u, v] or [u, v, cap], found 4 elements", 1},
      {"js_arc_short.json", TC_EINPUT, ": arcs[0]: expected [u, v] or [u, v, cap], found 1 element", 1},
      {"js_arc_type.json", TC_EINPUT, ": arcs[0][0]: expected an integer, found a string", 1},
      {"js_arc_negative.json", TC_EINPUT, ": arcs[0][1]: node -1 outside 0..1", 1},
      {"js_arc_range.json", TC_EINPUT, ": arcs[12][1]: node 40 outside 0..31", 1},
      {"js_cap_zero.json", TC_EINPUT, ": arcs[0][2]: capacity 0 of arc 0->1 must be >= 1", 1},
      {"js_cap_negative.json", TC_EINPUT, ": arcs[3][2]: capacity -25 of arc 2->1 must be >= 1", 1},
      {"js_cap_real.json", TC_EINPUT, ": arcs[0][2]: expected an integer, found a real number", 1},
      {"js_no_nodes_arc.json", TC_EINPUT, ": arcs[0][0]: node 0, but the graph has no nodes", 1},
      {"js_kinds_len.json", TC_EINPUT, ": kinds: expected 3 entries (one per node), found 2", 1},
      {"js_kinds_value.json", TC_EINPUT, ": kinds[1]: expected \"compute\" or \"switch\", found \"router\"", 1},
      {"js_kinds_type.json", TC_EINPUT, ": kinds[0]: expected \"compute\" or \"switch\", found an integer", 1},
      {"js_kinds_object.json", TC_EINPUT, ": kinds: expected an array, found a string", 1},
      {"js_labels_type.json", TC_EINPUT, ": labels[2]: expected a string or null, found an integer", 1},
      {"js_labels_len.json", TC_EINPUT, ": labels: expected 3 entries (one per node), found 0", 1},
      {"js_spec_type.json", TC_EINPUT, ": spec: expected a string, found an integer", 1},
      {"js_bidir_type.json", TC_EINPUT, ": bidirectional: expected a boolean, found a string", 1},
      {"js_bidir_claim.json", TC_EINPUT,
       ": bidirectional: true, but the arcs do not pair into opposite arcs of equal capacity", 1},
      {"js_bidir_caps.json", TC_EINPUT,
       ": bidirectional: true, but the arcs do not pair into opposite arcs of equal capacity", 1},
  };
  check_bad_files(tc_graph_read_json, cases, sizeof cases / sizeof *cases);
  check_bad_files(tc_graph_read_file, cases, sizeof cases / sizeof *cases);
  check_limit(tc_graph_read_json, "js_nodes_huge.json", ": nodes: 3000000000 outside 0..%d", TC_MAX_NODES);
  check_limit(tc_graph_read_json, "js_nodes_negative.json", ": nodes: -4 outside 0..%d", TC_MAX_NODES);
}

static void json_reader_unreadable(void **state) {
  tc_tmpdir *f = *state;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_read_json("/nonexistent-dir/g.json", &g, &err), TC_EIO);
  assert_string_equal(err.msg, "cannot read /nonexistent-dir/g.json: No such file or directory");
  assert_int_equal(tc_graph_read_json(f->dir, &g, &err), TC_EIO);
  assert_null(g);
  assert_non_null(strstr(err.msg, "Is a directory"));
}

/* ---- wiring plans ---- */

static void wiring_bidirectional_by_hand(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "w.csv", path, sizeof path);
  /*
  ** Links 0-1 (twice), 0-2, 1-2 (capacity 2) and a loop at 2. Sorted arcs and partners:
  **   a0 0->1  a1 0->1  a2 0->2  | a3 1->0  a4 1->0  a5 1->2 c2 | a6 2->0  a7 2->1 c2  a8 2->2
  **   rev: a0<->a3, a1<->a4, a2<->a6, a5<->a7, a8<->a8;  out_off = 0, 3, 6, 9.
  ** One cable per pair at its lower arc id (a0, a1, a2, a5, a8). The port of a node is its
  ** own arc's index among its out-arcs: cable 0 = a0 (0 port 0) with a3 (1 port 3-3=0),
  ** cable 1 = a1 (0 port 1) with a4 (1 port 1), cable 2 = a2 (0 port 2) with a6 (2 port 0),
  ** cable 3 = a5 (1 port 2) with a7 (2 port 1), cable 4 = loop a8 at port 8-6=2 of 2.
  ** Every node (3-regular, the loop counted once) uses ports 0, 1, 2 exactly once.
  ** Node 0's label holds a comma and quotes, so it is quoted with doubled quotes.
  */
  const arc_spec links[] = {{0, 1, 1}, {0, 1, 1}, {0, 2, 1}, {1, 2, 2}, {2, 2, 1}};
  const char *const labels[] = {"rack \"A\",1", "b", NULL};
  tc_graph *g = with_extras(build(3, links, 5, 0), NULL, 0, labels);
  tc_error err;
  assert_int_equal(tc_graph_write_wiring(g, path, &err), TC_OK);
  assert_file_text(path,
                   "cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity\n"
                   "0,duplex,0,\"rack \"\"A\"\",1\",0,1,b,0,1\n"
                   "1,duplex,0,\"rack \"\"A\"\",1\",1,1,b,1,1\n"
                   "2,duplex,0,\"rack \"\"A\"\",1\",2,2,,0,1\n"
                   "3,duplex,1,b,2,2,,1,2\n"
                   "4,loopback,2,,2,2,,2,1\n");
  /* The same graph cabled with simplex fibres (plan --links simplex): one row per arc,
     from_port its index among the source's out-arcs, to_port among the destination's
     in-arcs by arc id: node 0 [a3, a4, a6], node 1 [a0, a1, a7], node 2 [a2, a5, a8]. */
  assert_int_equal(tc_graph_write_wiring_as(g, TC_WIRING_SIMPLEX, path, &err), TC_OK);
  assert_file_text(path,
                   "cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity\n"
                   "0,simplex,0,\"rack \"\"A\"\",1\",0,1,b,0,1\n"
                   "1,simplex,0,\"rack \"\"A\"\",1\",1,1,b,1,1\n"
                   "2,simplex,0,\"rack \"\"A\"\",1\",2,2,,0,1\n"
                   "3,simplex,1,b,0,0,\"rack \"\"A\"\",1\",0,1\n"
                   "4,simplex,1,b,1,0,\"rack \"\"A\"\",1\",1,1\n"
                   "5,simplex,1,b,2,2,,1,2\n"
                   "6,simplex,2,,0,0,\"rack \"\"A\"\",1\",2,1\n"
                   "7,simplex,2,,1,1,b,2,2\n"
                   "8,simplex,2,,2,2,,2,1\n");
  assert_int_equal(tc_graph_write_wiring_as(g, TC_WIRING_DUPLEX, path, &err), TC_OK);
  assert_file_text(path,
                   "cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity\n"
                   "0,duplex,0,\"rack \"\"A\"\",1\",0,1,b,0,1\n"
                   "1,duplex,0,\"rack \"\"A\"\",1\",1,1,b,1,1\n"
                   "2,duplex,0,\"rack \"\"A\"\",1\",2,2,,0,1\n"
                   "3,duplex,1,b,2,2,,1,2\n"
                   "4,loopback,2,,2,2,,2,1\n");
  tc_graph_destroy(g);
}

static void wiring_unidirectional_multigraph_by_hand(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "w.csv", path, sizeof path);
  /*
  ** Arcs 0->1 (twice), 0->2 (capacity 3), 1->2, 2->0, loop 2->2; 0->1 has no partner, so
  ** the graph is not bidirectional and every arc is a simplex fibre. Sorted:
  **   a0 0->1  a1 0->1  a2 0->2 c3 | a3 1->2 | a4 2->0  a5 2->2;  out_off = 0, 3, 4, 6.
  ** In-arcs by arc id: node 0 [a4], node 1 [a0, a1], node 2 [a2, a3, a5].
  ** from_port = index among the source's out-arcs (transmit side),
  ** to_port = index among the destination's in-arcs (receive side):
  **   a0: 0 tx0 -> 1 rx0   a1: 0 tx1 -> 1 rx1   a2: 0 tx2 -> 2 rx0
  **   a3: 1 tx0 -> 2 rx1   a4: 2 tx0 -> 0 rx0   a5: 2 tx1 -> 2 rx2
  */
  const arc_spec arcs[] = {{2, 2, 1}, {0, 1, 1}, {2, 0, 1}, {1, 2, 1}, {0, 2, 3}, {0, 1, 1}};
  tc_graph *g = build(3, arcs, 6, 1);
  assert_false(g->bidirectional);
  tc_error err;
  assert_int_equal(tc_graph_write_wiring(g, path, &err), TC_OK);
  assert_file_text(path,
                   "cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity\n"
                   "0,simplex,0,,0,1,,0,1\n"
                   "1,simplex,0,,1,1,,1,1\n"
                   "2,simplex,0,,2,2,,0,3\n"
                   "3,simplex,1,,0,2,,1,1\n"
                   "4,simplex,2,,0,0,,0,1\n"
                   "5,simplex,2,,1,2,,2,1\n");
  /* Duplex cables need opposite pairs: refused before anything is written. */
  char other[PATH_MAX];
  tc_tmpdir_path(f, "duplex.csv", other, sizeof other);
  assert_int_equal(tc_graph_write_wiring_as(g, TC_WIRING_DUPLEX, other, &err), TC_EINPUT);
  assert_string_equal(err.msg, "duplex cables need links in opposite pairs; this graph has one-way arcs");
  assert_int_equal(access(other, F_OK), -1);
  tc_graph_destroy(g);
}

/* Parse an unlabelled wiring CSV; count uses of (node, port) on the transmit side
   (from_*) and receive side (to_*). For duplex cables both ends count on both sides. */
static void count_port_use(const char *text, int n, int d, int *tx, int *rx) {
  memset(tx, 0, sizeof *tx * (size_t)(n * d));
  memset(rx, 0, sizeof *rx * (size_t)(n * d));
  const char *line = strchr(text, '\n') + 1;
  while (*line) {
    int cable, u, p, v, q, cap;
    char kind[16];
    assert_int_equal(sscanf(line, "%d,%15[a-z],%d,,%d,%d,,%d,%d", &cable, kind, &u, &p, &v, &q, &cap), 7);
    assert_true(u >= 0 && u < n && v >= 0 && v < n && p >= 0 && p < d && q >= 0 && q < d);
    tx[u * d + p]++;
    rx[v * d + q]++;
    if (!strcmp(kind, "duplex")) { /* the other direction of the same cable */
      tx[v * d + q]++;
      rx[u * d + p]++;
    }
    line = strchr(line, '\n') + 1;
  }
}

static void wiring_regular_graphs_use_every_port_once(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "w.csv", path, sizeof path);
  enum { N = 9 };
  int tx[N * 4], rx[N * 4];
  tc_error err;
  /* Undirected circulant C9(1, 2): links u-(u+1) and u-(u+2), 4-regular. */
  arc_spec links[2 * N];
  for (int u = 0; u < N; u++) {
    links[2 * u] = (arc_spec){u, (u + 1) % N, 1};
    links[2 * u + 1] = (arc_spec){u, (u + 2) % N, 1};
  }
  tc_graph *g = build(N, links, 2 * N, 0);
  assert_int_equal(tc_graph_out_regular(g), 4);
  assert_int_equal(tc_graph_write_wiring(g, path, &err), TC_OK);
  char *text = tc_files_slurp(path);
  count_port_use(text, N, 4, tx, rx);
  for (int i = 0; i < N * 4; i++) {
    assert_int_equal(tx[i], 1);
    assert_int_equal(rx[i], 1);
  }
  free(text);
  tc_graph_destroy(g);
  /* Directed circulant with jumps 1, 3, 3 (a doubled arc): 3-regular in and out. */
  arc_spec arcs[3 * N];
  for (int u = 0; u < N; u++) {
    arcs[3 * u] = (arc_spec){u, (u + 1) % N, 1};
    arcs[3 * u + 1] = (arc_spec){u, (u + 3) % N, 1};
    arcs[3 * u + 2] = (arc_spec){u, (u + 3) % N, 1};
  }
  g = build(N, arcs, 3 * N, 1);
  assert_false(g->bidirectional);
  assert_int_equal(tc_graph_write_wiring(g, path, &err), TC_OK);
  text = tc_files_slurp(path);
  count_port_use(text, N, 3, tx, rx);
  for (int i = 0; i < N * 3; i++) {
    assert_int_equal(tx[i], 1);
    assert_int_equal(rx[i], 1);
  }
  free(text);
  tc_graph_destroy(g);
}

/* ---- DOT ---- */

static void dot_directed_exact(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "g.dot", path, sizeof path);
  const arc_spec arcs[] = {{0, 1, 1}, {0, 2, 3}, {1, 2, 20}, {2, 0, 1}};
  const int sw[] = {1};
  const char *const labels[] = {NULL, "sw \"x\"\\y", "line1\nline2"};
  tc_graph *g = with_extras(build(3, arcs, 4, 1), sw, 1, labels);
  tc_error err;
  assert_int_equal(tc_graph_write_dot(g, "net", path, &err), TC_OK);
  assert_file_text(path,
                   "digraph \"net\" {\n"
                   "  \"0\";\n"
                   "  \"1\" [label=\"sw \\\"x\\\"\\\\y\", shape=box];\n"
                   "  \"2\" [label=\"line1\\nline2\"];\n"
                   "  \"0\" -> \"1\";\n"
                   "  \"0\" -> \"2\" [label=\"3\", penwidth=3];\n"
                   "  \"1\" -> \"2\" [label=\"20\", penwidth=8];\n"
                   "  \"2\" -> \"0\";\n"
                   "}\n");
  tc_graph_destroy(g);
}

static void dot_bidirectional_one_edge_per_pair(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "b.dot", path, sizeof path);
  const arc_spec links[] = {{0, 1, 1}, {1, 2, 2}, {0, 1, 1}, {2, 2, 1}};
  const int sw[] = {0};
  tc_graph *g = with_extras(build(3, links, 4, 0), sw, 1, NULL);
  tc_error err;
  assert_int_equal(tc_graph_write_dot(g, NULL, path, &err), TC_OK);
  assert_file_text(path,
                   "graph \"topocoll\" {\n"
                   "  \"0\" [shape=box];\n"
                   "  \"1\";\n"
                   "  \"2\";\n"
                   "  \"0\" -- \"1\";\n"
                   "  \"0\" -- \"1\";\n"
                   "  \"1\" -- \"2\" [label=\"2\", penwidth=2];\n"
                   "  \"2\" -- \"2\";\n"
                   "}\n");
  tc_graph_destroy(g);
}

/* ---- failing writes ---- */

typedef int (*writer_fn)(const tc_graph *, const char *, tc_error *);

static int write_json_nospec(const tc_graph *g, const char *p, tc_error *e) { return tc_graph_write_json(g, NULL, p, e); }
static int write_dot_noname(const tc_graph *g, const char *p, tc_error *e) { return tc_graph_write_dot(g, NULL, p, e); }

static const writer_fn all_writers[] = {tc_graph_write_edgelist, write_json_nospec, write_dot_noname,
                                        tc_graph_write_wiring};

static void write_into_missing_directory(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX], want[PATH_MAX + 64];
  tc_tmpdir_path(f, "no/such/dir/out", path, sizeof path);
  snprintf(want, sizeof want, "cannot write %s: No such file or directory", path);
  const arc_spec arcs[] = {{0, 1, 1}};
  tc_graph *g = build(2, arcs, 1, 1);
  for (size_t i = 0; i < sizeof all_writers / sizeof *all_writers; i++) {
    tc_error err;
    assert_int_equal(all_writers[i](g, path, &err), TC_EIO);
    assert_string_equal(err.msg, want);
  }
  tc_graph_destroy(g);
  assert_int_equal(tc_files_count(f->dir), 0);
}

static void failed_write_keeps_target(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_error err;
  const char *old = "old contents, must survive\n";
  /* 1. The JSON writer meets a label that is not UTF-8 halfway through. */
  tc_tmpdir_path(f, "keep.json", path, sizeof path);
  tc_files_spill(path, old, strlen(old));
  const arc_spec arcs[] = {{0, 1, 1}};
  const char *const labels[] = {"fine", "bad \xff byte"};
  tc_graph *g = with_extras(build(2, arcs, 1, 1), NULL, 0, labels);
  assert_int_equal(tc_graph_write_json(g, NULL, path, &err), TC_EINPUT);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof want, "cannot write %s: the label of node 1 is not valid UTF-8", path);
  assert_string_equal(err.msg, want);
  assert_file_text(path, old);
  assert_int_equal(tc_graph_write_json(g, "bad \xc3", path, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "spec string is not valid UTF-8"));
  assert_file_text(path, old);
  assert_int_equal(tc_files_count(f->dir), 1);
  tc_graph_destroy(g);

  /* 2. The target is a directory: refused before anything is written, the directory stays. */
  tc_tmpdir_path(f, "adir", path, sizeof path);
  assert_int_equal(mkdir(path, 0755), 0);
  g = build(2, arcs, 1, 1);
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_EINPUT);
  snprintf(want, sizeof want, "cannot write %s: it is a directory", path);
  assert_string_equal(err.msg, want);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  assert_int_equal(tc_files_count(f->dir), 2);
  tc_graph_destroy(g);
}

static void write_error_midway_keeps_target(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_error err;
  const char *old = "old contents, must survive\n";
  tc_tmpdir_path(f, "keep.txt", path, sizeof path);
  tc_files_spill(path, old, strlen(old));
  /* ~100 KB of edge list against a 4 KB file-size limit: a real write error (EFBIG). */
  enum { M = 10000 };
  arc_spec *arcs = malloc(M * sizeof *arcs);
  assert_non_null(arcs);
  for (int i = 0; i < M; i++) arcs[i] = (arc_spec){i % 1000, (i * 7) % 1000, 1 + i % 5};
  tc_graph *g = build(1000, arcs, M, 1);
  free(arcs);
  struct rlimit saved, small;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
  small = saved;
  small.rlim_cur = 4096;
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  int rc = tc_graph_write_edgelist(g, path, &err);
  int rc_csv = tc_graph_write_wiring(g, path, &err);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
  signal(SIGXFSZ, old_handler);
  assert_int_equal(rc, TC_EIO);
  assert_int_equal(rc_csv, TC_EIO);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof want, "cannot write %s: File too large", path);
  assert_string_equal(err.msg, want);
  assert_file_text(path, old);
  assert_int_equal(tc_files_count(f->dir), 1);
  tc_graph_destroy(g);
}

static void unwritable_directory(void **state) {
  tc_tmpdir *f = *state;
  if (geteuid() == 0) skip(); /* root ignores directory permissions */
  char dir[PATH_MAX], path[PATH_MAX + 16];
  tc_tmpdir_path(f, "ro", dir, sizeof dir);
  assert_int_equal(mkdir(dir, 0555), 0);
  snprintf(path, sizeof path, "%s/out.txt", dir);
  const arc_spec arcs[] = {{0, 1, 1}};
  tc_graph *g = build(2, arcs, 1, 1);
  tc_error err;
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_EIO);
  assert_non_null(strstr(err.msg, path));
  assert_non_null(strstr(err.msg, "Permission denied"));
  tc_graph_destroy(g);
  chmod(dir, 0755);
}

static void written_file_modes(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "mode.txt", path, sizeof path);
  const arc_spec arcs[] = {{0, 1, 1}};
  tc_graph *g = build(2, arcs, 1, 1);
  tc_error err;
  struct stat st;
  mode_t saved = umask(022);
  /* A new file gets 0666 minus the umask, not mkstemp's private 0600. */
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_OK);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
  /* A replaced file keeps its mode. */
  assert_int_equal(chmod(path, 0640), 0);
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_OK);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0640);
  umask(saved);
  tc_graph_destroy(g);
}

/* ---- robustness: mutated inputs ---- */

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Flip, insert or delete a few bytes of `good`, read the result; any outcome but a
   crash, a hang or a multi-line message is fine. */
static void mutate_and_read(const tc_tmpdir *f, const char *good, const char *name, reader_fn read, uint64_t seed) {
  char path[PATH_MAX];
  tc_tmpdir_path(f, name, path, sizeof path);
  size_t len = strlen(good);
  char *buf = malloc(len + 16);
  assert_non_null(buf);
  static const char alphabet[] = "0123456789-,[]{}\":# \n\tnodesarc\xff";
  for (int round = 0; round < 400; round++) {
    size_t k = len;
    memcpy(buf, good, len);
    for (int edits = 1 + (int)(next_random(&seed) % 4); edits > 0; edits--) {
      size_t at = k ? next_random(&seed) % k : 0;
      char c = alphabet[next_random(&seed) % (sizeof alphabet - 1)];
      switch (next_random(&seed) % 3) {
        case 0: if (k) buf[at] = c; break;
        case 1: memmove(buf + at + 1, buf + at, k - at); buf[at] = c; k++; break;
        default: if (k) { memmove(buf + at, buf + at + 1, k - at - 1); k--; } break;
      }
      if (k >= len + 12) break;
    }
    tc_files_spill(path, buf, k);
    tc_graph *g = NULL;
    tc_error err;
    int rc = read(path, &g, &err);
    if (rc == TC_OK) {
      assert_non_null(g);
      tc_graph_destroy(g);
    } else {
      assert_int_equal(rc, TC_EINPUT);
      assert_null(g);
      assert_one_line(&err);
    }
  }
  free(buf);
}

static void mutated_files_never_crash(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  data_path("js_good.json", path, sizeof path);
  char *json = tc_files_slurp(path);
  data_path("el_good.txt", path, sizeof path);
  char *edges = tc_files_slurp(path);
  assert_non_null(json);
  assert_non_null(edges);
  mutate_and_read(f, json, "m.json", tc_graph_read_json, 0x9e3779b97f4a7c15ull);
  mutate_and_read(f, edges, "m.txt", tc_graph_read_edgelist, 0x2545f4914f6cdd1dull);
  free(json);
  free(edges);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, make_tmpdir, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(edgelist_round_trip_exact),
      T(edgelist_round_trip_bidirectional),
      T(edgelist_reader_accepts_comments_crlf_tabs),
      T(json_round_trip_kinds_labels),
      T(json_writer_exact_minimal),
      T(json_reader_hand_written),
      T(edgelist_reader_errors),
      T(edgelist_reader_errors_generated),
      T(json_reader_errors),
      T(json_reader_unreadable),
      T(wiring_bidirectional_by_hand),
      T(wiring_unidirectional_multigraph_by_hand),
      T(wiring_regular_graphs_use_every_port_once),
      T(dot_directed_exact),
      T(dot_bidirectional_one_edge_per_pair),
      T(write_into_missing_directory),
      T(failed_write_keeps_target),
      T(write_error_midway_keeps_target),
      T(unwritable_directory),
      T(written_file_modes),
      T(mutated_files_never_crash),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
