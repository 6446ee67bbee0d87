/*
** test_graph_nx.c — networkx's formats (graph_io.h, docs/formats.md): the edge list of
** nx.write_edgelist and node-link JSON of nx.node_link_data.
**   - the writers' exact text for small graphs;
**   - round trips, arc for arc: written and read back, every graph (directed, undirected,
**     parallel arcs, loops, capacities, switches, labels, isolated nodes) has the same
**     arcs, and node-link the same kinds and labels;
**   - reading what networkx writes: data dicts ({}, 'weight', 'capacity', nested values),
**     weighted third columns, names mapped by first appearance and kept as labels, the
**     integers 0..n-1 kept as ids, integer and string ids told apart, "links" or "edges";
**   - every refusal, with its exact message; our readers point at each other's formats.
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

#include "tc_files.h"
#include "topocoll/graph_io.h"
#include "topocoll/spec.h"

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-graph-nx"); }

typedef int (*reader_fn)(const char *, tc_graph **, tc_error *);
typedef int (*writer_fn)(const tc_graph *, const char *, tc_error *);

/* `text` written to NAME in the test's directory; its path in `path`. */
static void spill(const tc_tmpdir *f, const char *name, const char *text, char *path, size_t size) {
  tc_tmpdir_path(f, name, path, size);
  tc_files_spill(path, text, strlen(text));
}

static tc_graph *read_text(const tc_tmpdir *f, reader_fn read, const char *name, const char *text) {
  char path[PATH_MAX];
  spill(f, name, text, path, sizeof path);
  tc_graph *g = NULL;
  tc_error err;
  int rc = read(path, &g, &err);
  if (rc) fail_msg("%s: %s", name, err.msg);
  return g;
}

/* The reader refuses `text` with exactly "<path><want>". */
static void expect_refused(const tc_tmpdir *f, reader_fn read, const char *name, const char *text, const char *want) {
  char path[PATH_MAX];
  spill(f, name, text, path, sizeof path);
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(read(path, &g, &err), TC_EINPUT);
  assert_null(g);
  char full[PATH_MAX + 512];
  snprintf(full, sizeof full, "%s%s", path, want);
  assert_string_equal(err.msg, full);
}

static tc_graph *spec(const char *text) {
  tc_graph *g = NULL;
  tc_error err;
  if (tc_spec_build(text, &g, &err)) fail_msg("%s: %s", text, err.msg);
  return g;
}

/* Same nodes, arcs in order with capacities, bidirectionality; kinds and labels if asked. */
static void assert_same_arcs(const tc_graph *g, const tc_graph *h, int nodes_too) {
  assert_int_equal(g->n, h->n);
  assert_int_equal(g->m, h->m);
  assert_int_equal(g->bidirectional, h->bidirectional);
  for (int64_t a = 0; a < g->m; a++) {
    assert_int_equal(g->src[a], h->src[a]);
    assert_int_equal(g->dst[a], h->dst[a]);
    assert_int_equal(g->cap[a], h->cap[a]);
  }
  for (int32_t u = 0; nodes_too && u < g->n; u++) {
    assert_int_equal(g->kind[u], h->kind[u]);
    const char *lg = tc_graph_label(g, u), *lh = tc_graph_label(h, u);
    if (lg || lh) assert_string_equal(lg ? lg : "(none)", lh ? lh : "(none)");
  }
}

static void assert_label(const tc_graph *g, int32_t u, const char *want) {
  assert_non_null(tc_graph_label(g, u));
  assert_string_equal(tc_graph_label(g, u), want);
}

static void assert_arc(const tc_graph *g, int64_t a, int32_t u, int32_t v, int64_t cap) {
  assert_int_equal(g->src[a], u);
  assert_int_equal(g->dst[a], v);
  assert_int_equal(g->cap[a], cap);
}

/* A graph from arcs "u v cap" (directed), kinds and labels optional. */
static tc_graph *build(int n, const int (*arcs)[3], int m, int sw, const char *const *labels) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++) assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], arcs[i][2], &err), TC_OK);
  if (sw >= 0) assert_int_equal(tc_graph_builder_set_kind(&b, sw, TC_NODE_SWITCH, &err), TC_OK);
  for (int u = 0; labels && u < n; u++) assert_int_equal(tc_graph_builder_set_label(&b, u, labels[u], &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* ---- writers' text ---- */

static void writers_text(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_error err;
  /* directed, a parallel pair, a loop, capacities, node 3 isolated */
  static const int arcs[][3] = {{0, 1, 2}, {0, 1, 2}, {1, 2, 1}, {2, 2, 5}};
  tc_graph *g = build(4, arcs, 4, -1, NULL);
  tc_tmpdir_path(f, "d.edges", path, sizeof path);
  assert_int_equal(tc_graph_write_nx_edgelist(g, path, &err), TC_OK);
  char *text = tc_files_slurp(path);
  assert_string_equal(text,
                      "# topocoll graph as a networkx edge list: 4 arcs, one per line\n"
                      "# read it with nx.read_edgelist(path, create_using=nx.MultiDiGraph)\n"
                      "# 1 isolated node is not listed (node-link JSON keeps them)\n"
                      "0 1 {'capacity': 2}\n0 1 {'capacity': 2}\n1 2 {'capacity': 1}\n2 2 {'capacity': 5}\n");
  free(text);
  tc_tmpdir_path(f, "d.json", path, sizeof path);
  assert_int_equal(tc_graph_write_node_link(g, path, &err), TC_OK);
  text = tc_files_slurp(path);
  assert_string_equal(text,
                      "{\n  \"directed\": true,\n  \"multigraph\": true,\n  \"graph\": {},\n  \"nodes\": [\n"
                      "    {\"id\": 0},\n    {\"id\": 1},\n    {\"id\": 2},\n    {\"id\": 3}\n  ],\n  \"links\": [\n"
                      "    {\"source\": 0, \"target\": 1, \"capacity\": 2},\n"
                      "    {\"source\": 0, \"target\": 1, \"capacity\": 2},\n"
                      "    {\"source\": 1, \"target\": 2, \"capacity\": 1},\n"
                      "    {\"source\": 2, \"target\": 2, \"capacity\": 5}\n  ]\n}\n");
  free(text);
  tc_graph_destroy(g);
  /* undirected, labelled, a switch: each link once, the labels as ids */
  static const int links[][3] = {{0, 1, 3}, {1, 0, 3}, {1, 2, 1}, {2, 1, 1}};
  static const char *const names[] = {"gpu0", "gpu1", "sw"};
  g = build(3, links, 4, 2, names);
  assert_int_equal(tc_graph_write_node_link(g, path, &err), TC_OK);
  text = tc_files_slurp(path);
  assert_string_equal(text,
                      "{\n  \"directed\": false,\n  \"multigraph\": false,\n  \"graph\": {},\n  \"nodes\": [\n"
                      "    {\"id\": \"gpu0\"},\n    {\"id\": \"gpu1\"},\n    {\"id\": \"sw\", \"kind\": \"switch\"}\n"
                      "  ],\n  \"links\": [\n"
                      "    {\"source\": \"gpu0\", \"target\": \"gpu1\", \"capacity\": 3},\n"
                      "    {\"source\": \"gpu1\", \"target\": \"sw\", \"capacity\": 1}\n  ]\n}\n");
  free(text);
  tc_tmpdir_path(f, "u.edges", path, sizeof path);
  assert_int_equal(tc_graph_write_nx_edgelist(g, path, &err), TC_OK);
  text = tc_files_slurp(path);
  assert_string_equal(text,
                      "# topocoll graph as a networkx edge list: 4 arcs, one per line (both directions of every link)\n"
                      "# read it with nx.read_edgelist(path, create_using=nx.MultiDiGraph), or as an undirected "
                      "Graph with nx.read_edgelist(path)\n"
                      "# node kinds and labels are not stored in edge lists (node-link JSON keeps them)\n"
                      "0 1 {'capacity': 3}\n1 0 {'capacity': 3}\n1 2 {'capacity': 1}\n2 1 {'capacity': 1}\n");
  free(text);
  tc_graph_destroy(g);
  /* the empty graph */
  g = build(0, NULL, 0, -1, NULL);
  tc_tmpdir_path(f, "e.json", path, sizeof path);
  assert_int_equal(tc_graph_write_node_link(g, path, &err), TC_OK);
  text = tc_files_slurp(path);
  assert_string_equal(text, "{\n  \"directed\": false,\n  \"multigraph\": false,\n  \"graph\": {},\n  \"nodes\": [],\n"
                            "  \"links\": []\n}\n");
  free(text);
  tc_graph_destroy(g);
}

/* ---- round trips ---- */

static void round_trip(const tc_tmpdir *f, const tc_graph *g, const char *what) {
  char el[PATH_MAX], nl[PATH_MAX];
  tc_tmpdir_path(f, "rt.edges", el, sizeof el);
  tc_tmpdir_path(f, "rt.json", nl, sizeof nl);
  tc_error err;
  tc_graph *h = NULL;
  if (tc_graph_write_node_link(g, nl, &err) || tc_graph_read_nx_file(nl, &h, &err)) fail_msg("%s: %s", what, err.msg);
  assert_same_arcs(g, h, 1);
  tc_graph_destroy(h);
  if (tc_graph_write_nx_edgelist(g, el, &err) || tc_graph_read_nx_file(el, &h, &err)) fail_msg("%s: %s", what, err.msg);
  assert_same_arcs(g, h, 0); /* no isolated node in these: the names are 0..n-1 */
  assert_null(h->label);
  tc_graph_destroy(h);
}

static void round_trips(void **state) {
  const char *const specs[] = {"torus(3,2)", "kautz(2,2)", "uniring(2,4)", "biring(4,3)", "dgx_a100(1)",
                               "fig2toy(3)", "genkautz(2,5)", "circulant(7,1,2)"};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    tc_graph *g = spec(specs[i]);
    round_trip(*state, g, specs[i]);
    tc_graph_destroy(g);
  }
  /* loops, parallel links both ways, capacities, labels that are not ids */
  static const int arcs[][3] = {{0, 0, 4}, {0, 1, 2}, {0, 1, 2}, {1, 0, 2}, {1, 0, 2}, {1, 2, 9}, {2, 1, 9}};
  static const char *const names[] = {"b", "a", "c d"};
  tc_graph *g = build(3, arcs, 7, 1, names);
  round_trip(*state, g, "hand-made");
  tc_graph_destroy(g);
  /* node-link keeps isolated nodes; the edge list does not (and says so: writers_text) */
  static const int one[][3] = {{2, 0, 1}};
  g = build(4, one, 1, -1, NULL);
  char nl[PATH_MAX];
  tc_tmpdir_path(*state, "iso.json", nl, sizeof nl);
  tc_graph *h = NULL;
  tc_error err;
  assert_int_equal(tc_graph_write_node_link(g, nl, &err), TC_OK);
  assert_int_equal(tc_graph_read_node_link(nl, &h, &err), TC_OK);
  assert_same_arcs(g, h, 1);
  tc_graph_destroy(h);
  tc_graph_destroy(g);
}

/* ---- reading what networkx writes ---- */

static void edgelist_names_and_data(void **state) {
  tc_tmpdir *f = *state;
  /* names by first appearance, kept as labels; data dicts as networkx writes them */
  tc_graph *g = read_text(f, tc_graph_read_nx_edgelist, "n.edges",
                          "# written by networkx\n"
                          "spine leaf1 {'weight': 3, 'color': 'red'}\n"
                          "leaf1 spine {}\n"
                          "leaf2 spine {'capacity': 2, 'weight': 0.5, 'path': [1, (2, 'x}'), {'k': \"'\"}]}  # comment\n"
                          "\n"
                          "spine leaf2 7\n"
                          "leaf2 leaf2 {'weight': 4.0}\r\n");
  assert_int_equal(g->n, 3);
  assert_int_equal(g->m, 5);
  assert_label(g, 0, "spine");
  assert_label(g, 1, "leaf1");
  assert_label(g, 2, "leaf2");
  assert_arc(g, 0, 0, 1, 3);
  assert_arc(g, 1, 0, 2, 7);
  assert_arc(g, 2, 1, 0, 1);
  assert_arc(g, 3, 2, 0, 2);
  assert_arc(g, 4, 2, 2, 4);
  tc_graph_destroy(g);
  /* the integers 0..n-1 are the ids, whatever order they appear in */
  g = read_text(f, tc_graph_read_nx_edgelist, "i.edges", "2 0\n0 1\n1 2\n");
  assert_int_equal(g->n, 3);
  assert_null(g->label);
  assert_arc(g, 0, 0, 1, 1);
  assert_arc(g, 1, 1, 2, 1);
  assert_arc(g, 2, 2, 0, 1);
  tc_graph_destroy(g);
  /* 1-based integers are names: first appearance, labels "1", "2", "3" */
  g = read_text(f, tc_graph_read_nx_edgelist, "o.edges", "3 1\n1 2\n2 3\n");
  assert_int_equal(g->n, 3);
  assert_label(g, 0, "3");
  assert_label(g, 1, "1");
  assert_label(g, 2, "2");
  assert_arc(g, 0, 0, 1, 1);
  tc_graph_destroy(g);
  /* "01" is not "1" (networkx reads names as strings) */
  g = read_text(f, tc_graph_read_nx_edgelist, "z.edges", "0 1\n01 0\n");
  assert_int_equal(g->n, 3);
  assert_label(g, 2, "01");
  tc_graph_destroy(g);
}

static void node_link_reading(void **state) {
  tc_tmpdir *f = *state;
  /* networkx's defaults: no "directed" = undirected, no "multigraph" = multigraph; "edges"
     as networkx 3.6 writes it; extra attributes and keys ignored; 7 and "7" differ */
  tc_graph *g = read_text(f, tc_graph_read_node_link, "a.json",
                          "{\"nodes\": [{\"id\": \"a\", \"pos\": [1, 2]}, {\"id\": 7}, {\"id\": \"7\", \"kind\": \"switch\"}],"
                          " \"edges\": [{\"source\": \"a\", \"target\": 7, \"weight\": 2.0, \"key\": 0},"
                          " {\"source\": \"a\", \"target\": 7, \"key\": 1},"
                          " {\"source\": \"7\", \"target\": \"7\", \"capacity\": 5, \"weight\": 0.25}],"
                          " \"graph\": {\"name\": \"x\"}, \"extra\": 1}");
  assert_int_equal(g->n, 3);
  assert_int_equal(g->m, 5);
  assert_true(g->bidirectional);
  assert_label(g, 0, "a");
  assert_label(g, 1, "7");
  assert_label(g, 2, "7");
  assert_int_equal(g->kind[2], TC_NODE_SWITCH);
  assert_int_equal(g->kind[1], TC_NODE_COMPUTE);
  assert_arc(g, 0, 0, 1, 1);
  assert_arc(g, 1, 0, 1, 2);
  assert_arc(g, 2, 1, 0, 1);
  assert_arc(g, 3, 1, 0, 2);
  assert_arc(g, 4, 2, 2, 5);
  tc_graph_destroy(g);
  /* integer ids 0..n-1 in any order are the ids; directed links one arc each */
  g = read_text(f, tc_graph_read_node_link, "b.json",
                "{\"directed\": true, \"multigraph\": false, \"nodes\": [{\"id\": 1}, {\"id\": 0}],"
                " \"links\": [{\"source\": 1, \"target\": 0}, {\"source\": 0, \"target\": 1, \"capacity\": 4}]}");
  assert_int_equal(g->n, 2);
  assert_null(g->label);
  assert_false(g->bidirectional);
  assert_arc(g, 0, 0, 1, 4);
  assert_arc(g, 1, 1, 0, 1);
  tc_graph_destroy(g);
}

/* ---- refusals ---- */

static void edgelist_refusals(void **state) {
  tc_tmpdir *f = *state;
  reader_fn rd = tc_graph_read_nx_edgelist;
  expect_refused(f, rd, "a", "a b\nc\n", ":2: expected \"u v\" or \"u v {data}\", found 1 field");
  expect_refused(f, rd, "b", "a b {'weight': 2.5}\n", ":1: weight \"2.5\" is not a whole number");
  expect_refused(f, rd, "c", "a b {'capacity': 0, 'weight': 3}\n", ":1: capacity \"0\" must be >= 1");
  expect_refused(f, rd, "d", "a b {'weight': -2}\n", ":1: weight \"-2\" must be >= 1");
  expect_refused(f, rd, "e", "a b {'capacity': 99999999999999999999}\n",
                 ":1: capacity \"99999999999999999999\" is too large");
  expect_refused(f, rd, "f", "a b {'capacity': '3'}\n", ":1: capacity \"'3'\" is not a whole number");
  expect_refused(f, rd, "g", "a b {'weight'\n",
                 ":1: the link data \"{'weight'\" is not a dict as networkx writes it ({'capacity': 3})");
  expect_refused(f, rd, "h", "a b {'w': [1, 2}\n",
                 ":1: the link data \"{'w': [1, 2}\" is not a dict as networkx writes it ({'capacity': 3})");
  expect_refused(f, rd, "i", "a b {} x\n",
                 ":1: the link data \"{} x\" is not a dict as networkx writes it ({'capacity': 3})");
  expect_refused(f, rd, "j", "a b 3 red\n", ":1: expected \"u v\", \"u v {data}\" or \"u v capacity\", found more fields");
  expect_refused(f, rd, "k", "a b x\n", ":1: capacity \"x\" is not a whole number");
  expect_refused(f, rd, "l", "# nothing\n\n", ": no links (an edge list names its nodes by its links)");
  char path[PATH_MAX];
  tc_tmpdir_path(f, "nul", path, sizeof path);
  tc_files_spill(path, "a b\nc \0 d\n", 10);
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_read_nx_edgelist(path, &g, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, ":2: NUL byte in line (not a text file?)"));
  /* a line beyond the bound is refused at once */
  size_t len = 70000;
  char *long_line = malloc(len + 1);
  memset(long_line, 'x', len);
  long_line[len] = '\0';
  expect_refused(f, rd, "long", long_line, ":1: line longer than 65536 bytes (not an edge list?)");
  free(long_line);
  tc_tmpdir_path(f, "missing", path, sizeof path);
  assert_int_equal(tc_graph_read_nx_edgelist(path, &g, &err), TC_EIO);
}

static void node_link_refusals(void **state) {
  tc_tmpdir *f = *state;
  reader_fn rd = tc_graph_read_node_link;
  expect_refused(f, rd, "a", "{\"nodes\": [{\"id\": 0}, {\"id\": 0}], \"links\": []}",
                 ": nodes[1].id: 0 repeats the id of nodes[0]");
  expect_refused(f, rd, "b", "{\"nodes\": [{\"id\": \"x\"}, {\"id\": \"x\"}], \"links\": []}",
                 ": nodes[1].id: \"x\" repeats the id of nodes[0]");
  expect_refused(f, rd, "c", "{\"nodes\": [{\"id\": 0}, {\"id\": 1.5}], \"links\": []}",
                 ": nodes[1].id: expected an integer or a string, found a real number");
  expect_refused(f, rd, "d", "{\"nodes\": [{\"name\": 0}], \"links\": []}", ": nodes[0].id: missing");
  expect_refused(f, rd, "e", "{\"nodes\": [7], \"links\": []}",
                 ": nodes[0]: expected an object {\"id\": ...}, found an integer");
  expect_refused(f, rd, "f", "{\"nodes\": [{\"id\": 0}], \"links\": [{\"source\": 0, \"target\": \"0\"}]}",
                 ": links[0].target: \"0\" is not the id of a node in \"nodes\"");
  expect_refused(f, rd, "g", "{\"nodes\": [{\"id\": 0}], \"links\": [{\"target\": 0}]}", ": links[0].source: missing");
  expect_refused(f, rd, "h", "{\"nodes\": [{\"id\": 0}], \"links\": [{\"source\": 0, \"target\": 0, \"capacity\": \"3\"}]}",
                 ": links[0].capacity: expected a whole number >= 1, found a string");
  expect_refused(f, rd, "i", "{\"nodes\": [{\"id\": 0}], \"links\": [{\"source\": 0, \"target\": 0, \"weight\": 0.5}]}",
                 ": links[0].weight: 0.5 is not a whole number >= 1");
  expect_refused(f, rd, "j", "{\"nodes\": [{\"id\": 0}], \"links\": [{\"source\": 0, \"target\": 0, \"capacity\": 0}]}",
                 ": links[0].capacity: 0 is not a whole number >= 1");
  expect_refused(f, rd, "k", "{\"nodes\": [], \"links\": [], \"edges\": []}",
                 ": both \"links\" and \"edges\" (networkx reads one of them)");
  expect_refused(f, rd, "l", "{\"nodes\": []}", ": links: missing (networkx writes the links as \"links\" or \"edges\")");
  expect_refused(f, rd, "m", "{\"links\": []}", ": nodes: missing");
  expect_refused(f, rd, "n", "{\"directed\": 1, \"nodes\": [], \"links\": []}", ": directed: expected a boolean, found an integer");
  expect_refused(f, rd, "o", "{\"graph\": [], \"nodes\": [], \"links\": []}", ": graph: expected an object, found an array");
  expect_refused(f, rd, "p", "{\"nodes\": [], \"links\": {}}", ": links: expected an array, found an object");
  expect_refused(f, rd, "q", "{\"nodes\": [{\"id\": 0}], \"links\": [3]}",
                 ": links[0]: expected an object {\"source\": ..., \"target\": ...}, found an integer");
  /* a repeated link is refused unless "multigraph" (undirected: either direction repeats) */
  expect_refused(f, rd, "r",
                 "{\"multigraph\": false, \"nodes\": [{\"id\": 0}, {\"id\": 1}, {\"id\": 2}],"
                 " \"links\": [{\"source\": 1, \"target\": 2}, {\"source\": 0, \"target\": 1}, {\"source\": 2, \"target\": 1}]}",
                 ": links[2]: repeats the link of links[0], but \"multigraph\" is false");
  expect_refused(f, rd, "s",
                 "{\"directed\": true, \"multigraph\": false, \"nodes\": [{\"id\": 0}, {\"id\": 1}],"
                 " \"edges\": [{\"source\": 0, \"target\": 1}, {\"source\": 1, \"target\": 0}, {\"source\": 0, \"target\": 1}]}",
                 ": edges[2]: repeats the link of edges[0], but \"multigraph\" is false");
  /* our own formats say what they are, both ways */
  char path[PATH_MAX];
  spill(f, "ours.json", "{\"format\": \"topocoll-graph\", \"version\": 1, \"nodes\": 1, \"arcs\": []}", path, sizeof path);
  tc_graph *g = NULL;
  tc_error err;
  char want[3 * PATH_MAX];
  assert_int_equal(tc_graph_read_node_link(path, &g, &err), TC_EINPUT);
  snprintf(want, sizeof want, "%s is a topocoll graph JSON (nodes/arcs), not a networkx node-link graph; read it with file(%s)",
           path, path);
  assert_string_equal(err.msg, want);
  spill(f, "theirs.json", "{\"directed\": false, \"nodes\": [{\"id\": 0}], \"links\": []}", path, sizeof path);
  assert_int_equal(tc_graph_read_json(path, &g, &err), TC_EINPUT);
  snprintf(want, sizeof want, "%s is a networkx node-link graph (nodes/links), not a topocoll graph JSON; read it with nx(%s)",
           path, path);
  assert_string_equal(err.msg, want);
  spill(f, "theirs.edges", "0 1 {'weight': 3}\n", path, sizeof path);
  assert_int_equal(tc_graph_read_edgelist(path, &g, &err), TC_EINPUT);
  snprintf(want, sizeof want, "%s:1: a data dict after \"u v\" is networkx's edge list, not this one; read it with nx(%s)", path,
           path);
  assert_string_equal(err.msg, want);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, make_tmpdir, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(writers_text),      T(round_trips),         T(edgelist_names_and_data), T(node_link_reading),
      T(edgelist_refusals), T(node_link_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
