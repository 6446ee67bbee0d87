/*
** test_report.c — the report's pieces (tools/report_svg.c, report_figs.c, report_sniff.c):
** axis ticks on log and linear scales, pixel positions, escaping of names with < > & " ',
** heatmap cells = links x steps, the topology's ring-of-groups positions and DOT, the link utilisation of a hand-made schedule, the
** frontier's points at their computed coordinates with the chosen one marked, the train
** timeline's spans, and which JSON documents are recognised as what, alone and read from a
** directory.
**
** Oracles: the positions are worked out by hand from the plot's fixed margins (data area
** x 78..704 and y 336..12 in a 720 x 380 plot) in the comments beside them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_test.h"
#include "report_figs.h"
#include "report_sniff.h"
#include "report_svg.h"
#include "report_topo.h"
#include "topocoll/cost.h"
#include "topocoll/sched.h"
#include "topocoll/units.h"

/* What fn wrote into a memory stream, malloc'd. */
typedef struct sink {
  char *text;
  size_t size;
  FILE *fp;
} sink;

static void sink_open(sink *s) {
  s->text = NULL;
  s->size = 0;
  s->fp = open_memstream(&s->text, &s->size);
  assert_non_null(s->fp);
}

static void sink_close(sink *s) { assert_int_equal(fclose(s->fp), 0); }

static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

static void log_ticks(void **state) {
  (void)state;
  double t[16];
  tc_svg_axis a = {1e3, 1e9, 1, 0, 600};
  assert_int_equal(tc_svg_ticks(&a, t, 16), 7);
  const double decades[7] = {1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  for (int i = 0; i < 7; i++) assert_true(t[i] == decades[i]);
  tc_svg_axis b = {2e3, 5e5, 1, 0, 600}; /* only the decades inside */
  assert_int_equal(tc_svg_ticks(&b, t, 16), 2);
  assert_true(t[0] == 1e4 && t[1] == 1e5);
  assert_int_equal(tc_svg_ticks(&a, t, 3), 3); /* at most max */
  /* 1e6 is half-way between 1e3 and 1e9 in log scale */
  assert_true(tc_svg_pos(&a, 1e6) == 300);
  assert_true(tc_svg_pos(&a, 1e3) == 0 && tc_svg_pos(&a, 1e9) == 600);
}

static void linear_ticks(void **state) {
  (void)state;
  double t[16];
  /* 0..1.15: steps of 0.1 give 12 ticks, of 0.2 six: 0, 0.2, ..., 1.0 */
  tc_svg_axis a = {0, 1.15, 0, 336, 12};
  assert_int_equal(tc_svg_ticks(&a, t, 16), 6);
  for (int i = 0; i < 6; i++) assert_float_equal(t[i], 0.2 * i, 1e-12);
  /* 1..4 (steps): 1, 2, 3, 4 */
  tc_svg_axis b = {1, 4, 0, 78, 704};
  assert_int_equal(tc_svg_ticks(&b, t, 16), 4);
  for (int i = 0; i < 4; i++) assert_float_equal(t[i], 1 + i, 1e-12);
  /* y runs upwards: 0 at the bottom pixel 336, 1.15 at the top 12 */
  assert_float_equal(tc_svg_pos(&a, 0), 336, 1e-9);
  assert_float_equal(tc_svg_pos(&a, 1.15), 12, 1e-9);
}

static void escaping(void **state) {
  (void)state;
  sink s;
  sink_open(&s);
  tc_svg_escape(s.fp, "a<b>&\"c'd");
  sink_close(&s);
  assert_string_equal(s.text, "a&lt;b&gt;&amp;&quot;c&#39;d");
  free(s.text);
}

static void heatmap_cells(void **state) {
  (void)state;
  const double v[12] = {0, 0.5, 1, 1, 0.25, 0, 1, 1, 1, 0, 0, 0};
  const char *const rows[3] = {"0->1", "x<&\"y", "2->0"};
  sink s;
  sink_open(&s);
  tc_svg_heatmap(s.fp, "h", 300, 200, 3, 4, v, rows, "step");
  sink_close(&s);
  assert_int_equal(count(s.text, "<rect class=\"cell\""), 12); /* links x steps */
  assert_non_null(strstr(s.text, "<title>x&lt;&amp;&quot;y, step 1: 0.25</title>"));
  assert_null(strstr(s.text, "x<&"));
  /* value 1 is full blue, 0 white */
  assert_int_equal(count(s.text, "fill=\"rgb(0,0,255)\""), 5);
  assert_int_equal(count(s.text, "fill=\"rgb(255,255,255)\""), 5);
  /* no grid of any kind: no <line>, and cells on whole pixels that abut, drawn crisp (the
     seams of fractional edges looked like grid lines). Data area 78..284 x 12..156: columns
     of 51.5 px start at 78, 130 (129.5 rounded), 181, 233 and end at 284; rows of 48 px. */
  assert_int_equal(count(s.text, "<line"), 0);
  assert_int_equal(count(s.text, "<g class=\"cells\" shape-rendering=\"crispEdges\">"), 1);
  assert_non_null(strstr(s.text, "<rect class=\"cell\" x=\"78\" y=\"12\" width=\"52\" height=\"48\""));
  assert_non_null(strstr(s.text, "<rect class=\"cell\" x=\"130\" y=\"60\" width=\"51\" height=\"48\""));
  assert_non_null(strstr(s.text, "<rect class=\"cell\" x=\"181\" y=\"108\" width=\"52\" height=\"48\""));
  assert_non_null(strstr(s.text, "<rect class=\"cell\" x=\"233\" y=\"108\" width=\"51\" height=\"48\""));
  free(s.text);
}

/* Tick labels: the shortest exact form in the largest unit reached. */
static void tick_labels(void **state) {
  (void)state;
  char b[64];
  const double t[] = {10, 1, 0.1, 0.01, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-9, 2.5e-3, 0};
  const char *const want_t[] = {"10 s", "1 s", "100 ms", "10 ms", "1 ms", "100 us", "10 us", "1 us", "100 ns",
                                "1 ns", "2.5 ms", "0"};
  for (int i = 0; i < 12; i++) {
    tc_svg_tick_time(t[i], b, sizeof b);
    assert_string_equal(b, want_t[i]);
  }
  const double w[] = {1e13, 1e10, 1e9, 1e8, 1e5, 1e3, 100, 0.5};
  const char *const want_w[] = {"10 TB/s", "10 GB/s", "1 GB/s", "100 MB/s", "100 KB/s", "1 KB/s", "100 B/s",
                                "0.5 B/s"};
  for (int i = 0; i < 8; i++) {
    tc_svg_tick_bw(w[i], b, sizeof b);
    assert_string_equal(b, want_w[i]);
  }
}

/* The uniring 0->1->2->0 (arcs 0: 0->1, 1: 1->2, 2: 2->0), 2 units per shard. Step 1: a
   whole shard on 0->1, half a shard on 1->2: utilisation 1, 0.5, 0 of the busiest. Step 2:
   half a shard on 2->0 and on 0->1: both as busy as the busiest, 1->2 idle. */
static void utilisation(void **state) {
  (void)state;
  const int arcs[3][2] = {{0, 1}, {1, 2}, {2, 0}};
  tc_graph *g = tc_test_from_arcs(3, arcs, 3);
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 3, 2, "hand", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 0, 1, 0, 2, &err), TC_OK); /* step 1, 0->1: 2 units */
  assert_int_equal(tc_schedule_add(&s, 1, 1, 1, 0, 1, &err), TC_OK); /* step 1, 1->2: 1 unit */
  assert_int_equal(tc_schedule_add(&s, 2, 2, 2, 0, 1, &err), TC_OK); /* step 2, 2->0: 1 unit */
  assert_int_equal(tc_schedule_add(&s, 2, 0, 2, 0, 1, &err), TC_OK); /* step 2, 0->1: 1 unit */
  double *u;
  assert_int_equal(tc_report_utilisation(g, &s, &u, &err), TC_OK);
  assert_int_equal(s.steps, 2);
  /* rows are arcs, columns steps: step 1 (1, 0.5, 0), step 2 (1, 0, 1) */
  const double want[6] = {1, 1, 0.5, 0, 0, 1};
  for (int i = 0; i < 6; i++) assert_true(u[i] == want[i]);
  free(u);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Rows of the heatmap: one per arc up to 256 arcs, then blocks: 4096 arcs (1024 nodes of
   degree 4) are 256 rows of 16, 257 arcs 129 rows of 2 (the last holds one). */
static void heat_rows(void **state) {
  (void)state;
  int64_t per;
  assert_int_equal(tc_report_heat_rows(16, &per), 16);
  assert_int_equal(per, 1);
  assert_int_equal(tc_report_heat_rows(256, &per), 256);
  assert_int_equal(per, 1);
  assert_int_equal(tc_report_heat_rows(4096, &per), 256);
  assert_int_equal(per, 16);
  assert_int_equal(tc_report_heat_rows(257, &per), 129);
  assert_int_equal(per, 2);
}

/* The ring of groups: ceil(sqrt(N)) groups of ceil(N / groups) nodes. 8 nodes: 3 groups of 3
   (the last of 2), placed in 8 + 3 slots (one empty slot after each group) on a circle of
   radius 120 pt: node 0 at slot 0 (120, 0), node 1 at slot 1 (101.0, 64.9), node 3 at slot 4
   (-78.6, 90.7). A duplex pair is one line (dir=none) from its smaller end, an arc without
   its opposite an arrow, a self-loop nothing. */
static void topology_layout(void **state) {
  (void)state;
  int32_t size;
  assert_int_equal(tc_report_groups(8, &size), 3);
  assert_int_equal(size, 3);
  assert_int_equal(tc_report_groups(1024, &size), 32);
  assert_int_equal(size, 32);
  assert_int_equal(tc_report_groups(10, &size), 4); /* 3, 3, 3 and 1 */
  assert_int_equal(size, 3);
  const int arcs[][2] = {{0, 1}, {1, 0}, {1, 3}, {7, 7}};
  tc_graph *g = tc_test_from_arcs(8, arcs, 4);
  sink s;
  sink_open(&s);
  tc_report_topology_dot(s.fp, g, 0);
  sink_close(&s);
  /* index order: the links' median span is 1 (0-1, 1-0, 1-3: 1, 1, 2), 16 x 1 >= 8 */
  assert_non_null(strstr(s.text, "  n0 [label=\"0\", tooltip=\"node 0\", pos=\"120.0,0.0\"];\n"));
  assert_non_null(strstr(s.text, "  n1 [label=\"1\", tooltip=\"node 1\", pos=\"101.0,64.9\"];\n"));
  assert_non_null(strstr(s.text, "  n3 [label=\"3\", tooltip=\"node 3\", pos=\"-78.6,90.7\"];\n"));
  /* links drawn over the nodes, thin and translucent; nodes labelled circles of 18 pt */
  assert_non_null(strstr(s.text, "outputorder=nodesfirst;"));
  assert_int_equal(count(s.text, "fontname=\"sans-serif\""), 1); /* the page's font, not Times */
  assert_non_null(strstr(s.text, "node [shape=circle, width=0.250, fixedsize=true,"));
  assert_non_null(strstr(s.text, "edge [arrowsize=0.35, penwidth=0.6, color=\"#1f77b499\"]"));
  assert_int_equal(count(s.text, "shape=box"), 0); /* no switch */
  assert_int_equal(count(s.text, " -> "), 2);
  assert_non_null(strstr(s.text, "  n0 -> n1 [dir=none];\n"));
  assert_non_null(strstr(s.text, "  n1 -> n3;\n"));
  free(s.text);
  /* grouped: groups 0 (0-2), 1 (3-5), 2 (6-7); inside group 0 the duplex link 0-1 (two
     arcs, one link), between groups 0 and 1 the link 1->3; the self-loop 7->7 is no link */
  sink_open(&s);
  tc_report_topology_dot(s.fp, g, 1);
  sink_close(&s);
  assert_non_null(strstr(s.text, "g0 [label=\"0-2\\n3 nodes\\n1 link inside\""));
  assert_non_null(strstr(s.text, "g2 [label=\"6-7\\n2 nodes\\n0 links inside\""));
  assert_int_equal(count(s.text, " -- "), 1);
  assert_non_null(strstr(s.text, "  g0 -- g1 [penwidth=4.00, tooltip=\"1 link between\"];\n"));
  /* 3 groups on a circle of radius 150 (100 pt apart would need only 47.7): group 1 at
     120 degrees (-75, 129.9) */
  assert_non_null(strstr(s.text, "pos=\"-75.0,129.9\""));
  assert_int_equal(count(s.text, "fontname=\"sans-serif\""), 1);
  free(s.text);
  tc_graph_destroy(g);
}

/* Breadth-first order when index order would put the links on the ring: a bidirectional
   ring on nodes 0..19 and node 20 alone (median span 1, 16 x 1 < 21). From 0: 0; 1, 19;
   2, 18; ...; 10 (layer 10); then 20 unreached, a search of its own in layer 11: 12 layers. */
static void ring_order(void **state) {
  (void)state;
  int arcs[40][2];
  for (int i = 0; i < 20; i++) {
    arcs[2 * i][0] = i;
    arcs[2 * i][1] = (i + 1) % 20;
    arcs[2 * i + 1][0] = (i + 1) % 20;
    arcs[2 * i + 1][1] = i;
  }
  tc_graph *g = tc_test_from_arcs(21, (const int(*)[2])arcs, 40);
  int32_t order[21], layer[21];
  assert_int_equal(tc_report_ring_order(g, order, layer), 12);
  const int32_t want[7] = {0, 1, 19, 2, 18, 3, 17};
  for (int i = 0; i < 7; i++) assert_int_equal(order[i], want[i]);
  assert_int_equal(order[19], 10);
  assert_int_equal(layer[10], 10);
  assert_int_equal(order[20], 20);
  assert_int_equal(layer[20], 11);
  assert_int_equal(layer[19], 1);
  /* the drawing: 21 nodes and 12 gaps in 33 slots on a radius of 27 x 33 / 2 pi = 141.8 pt;
     node 1 (rank 1, layer 1) in slot 2: (141.8 cos(4 pi / 33), 141.8 sin(4 pi / 33)) */
  sink s;
  sink_open(&s);
  tc_report_topology_dot(s.fp, g, 0);
  sink_close(&s);
  assert_non_null(strstr(s.text, "  n1 [label=\"1\", tooltip=\"node 1, breadth-first layer 1\", pos=\"131.6,52.7\"];\n"));
  assert_non_null(strstr(s.text, "  n0 [label=\"0\", tooltip=\"node 0, breadth-first layer 0\", pos=\"141.8,0.0\"];\n"));
  free(s.text);
  tc_graph_destroy(g);
  /* beyond TC_REPORT_LABEL_MAX nodes, dots of 5 pt */
  int big[65][2];
  for (int i = 0; i < 65; i++) {
    big[i][0] = i;
    big[i][1] = (i + 20) % 65;
  }
  g = tc_test_from_arcs(65, (const int(*)[2])big, 65);
  sink_open(&s);
  tc_report_topology_dot(s.fp, g, 0);
  sink_close(&s);
  assert_non_null(strstr(s.text, "node [shape=point, width=0.069, fixedsize=true,"));
  free(s.text);
  tc_graph_destroy(g);
}

static const char PLAN[] =
    "{\"format\": \"topocoll-plan\", \"version\": 1, \"spec\": \"x<&\\\"y\", \"nodes\": 4,"
    " \"workload\": {\"alpha_s\": 1e-5, \"link_bw_Bps\": 3.125e9, \"sizes\": [{\"bytes\": 1e6, \"weight\": 1}]},"
    " \"chosen\": {\"expected_s\": 0.001},"
    " \"frontier\": {\"bound_steps\": 2, \"bound_tau\": [3, 4], \"members\": ["
    "   {\"spec\": \"a\", \"label\": \"A\", \"steps\": 2, \"tau\": [1, 1], \"chosen\": false},"
    "   {\"spec\": \"x<&\\\"y\", \"label\": \"B\", \"steps\": 3, \"tau\": [3, 4], \"chosen\": true}]},"
    " \"curves\": [{\"name\": \"x<&\\\"y (chosen)\", \"kind\": \"chosen\", \"steps\": 6, \"tau\": [3, 2], \"degree\": 2}]}";

static void frontier_points(void **state) {
  (void)state;
  json_error_t je;
  json_t *root = json_loads(PLAN, 0, &je);
  assert_non_null(root);
  tc_report_plan p;
  tc_error err;
  assert_int_equal(tc_plan_json_read(root, "plan.json", &p, &err), TC_OK);
  assert_int_equal(p.ncurves, 1);
  assert_int_equal(p.curve[0].cost.steps, 6);
  /* the frontier as train --plan reads it too; no frontier.degree (older plan.json): 0 */
  assert_int_equal(p.nodes, 4);
  assert_int_equal(p.nmembers, 2);
  assert_int_equal(p.degree, 0);
  assert_string_equal(p.member[1].spec, "x<&\"y");
  assert_int_equal(p.member[1].chosen, 1);
  assert_int_equal(p.member[0].chosen, 0);
  assert_int_equal(p.member[1].tau.num, 3);
  assert_int_equal(p.member[1].has_a2a_f, 0);
  sink s;
  sink_open(&s);
  tc_report_fig_frontier(s.fp, &p);
  sink_close(&s);
  /* x: steps 1..4 (the bound 2 and members 2..3, one step of room) onto 78..704;
     y: 0..1.15 (the largest tau 1, and 15 % room) onto 336..12.
     member a (2, 1): x = 78 + 626/3 = 286.67, y = 336 - 324/1.15 = 54.26
     member b (3, 3/4), chosen: x = 78 + 2*626/3 = 495.33, y = 336 - 0.75*324/1.15 = 124.70 */
  assert_non_null(strstr(s.text, "<circle class=\"marker\" cx=\"286.67\" cy=\"54.26\" r=\"3.5\" fill=\"#1f77b4\">"));
  assert_non_null(strstr(s.text, "<circle class=\"marker\" cx=\"495.33\" cy=\"124.70\" r=\"3.5\" fill=\"#d62728\">"));
  assert_non_null(strstr(s.text, "<g class=\"series\" data-series=\"chosen: x&lt;&amp;&quot;y\">"));
  /* the bounds: T_L* = 2 at x 286.67, T_B* = 3/4 at y 124.70 */
  assert_non_null(strstr(s.text, "<line class=\"ref\" x1=\"286.67\" y1=\"12.00\" x2=\"286.67\" y2=\"336.00\""));
  assert_non_null(strstr(s.text, "<line class=\"ref\" x1=\"78.00\" y1=\"124.70\" x2=\"704.00\" y2=\"124.70\""));
  /* the legend in two rows below the plot (inside, it ran into the Moore bound's label):
     the svg is 380 + 2 x 14 tall, the first entry's box at y 380 + 4 - 9 */
  assert_non_null(strstr(s.text, "<svg id=\"plot-frontier\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" "
                                 "width=\"720\" height=\"408\""));
  assert_non_null(strstr(s.text, "style=\"cursor:pointer\"><rect x=\"86.00\" y=\"375.00\""));
  /* the y title left of the widest tick label ("0.2": 3 characters of 6.5 px), centred on
     the data area: x 78 - 4 - 19 - 6 = 49, y (12 + 336) / 2 = 174 */
  assert_non_null(strstr(s.text, "<text class=\"ytitle\" transform=\"translate(49,174) rotate(-90)\""));
  assert_int_equal(count(s.text, "<tr class=\"chosen\"><td>x&lt;&amp;&quot;y</td>"), 1);
  assert_null(strstr(s.text, "x<&"));
  free(s.text);
  /* a curve without degree is refused, naming it */
  json_object_del(json_array_get(json_object_get(root, "curves"), 0), "degree");
  tc_plan_json_destroy(&p);
  assert_int_equal(tc_plan_json_read(root, "plan.json", &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "plan.json: curves[0] needs name, kind, steps, tau [p, q] and degree >= 1");
  /* a member without chosen, likewise */
  json_object_set_new(json_array_get(json_object_get(root, "curves"), 0), "degree", json_integer(2));
  json_object_del(json_array_get(json_object_get(json_object_get(root, "frontier"), "members"), 0), "chosen");
  assert_int_equal(tc_plan_json_read(root, "plan.json", &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "plan.json: frontier.members[0] needs spec, steps >= 1, tau [p, q], chosen and (if any) "
                               "a2a_f [p, q]");
  json_decref(root);
}

/* A baseline at two pipelining depths is one drawn curve, the best of them at each size,
   and each depth alone hidden (display:none) with a dimmed legend entry below the rest. */
static const char PLAN_DEPTHS[] =
    "{\"format\": \"topocoll-plan\", \"version\": 1, \"spec\": \"c\", \"nodes\": 4,"
    " \"workload\": {\"alpha_s\": 1e-5, \"link_bw_Bps\": 3.125e9, \"sizes\": [{\"bytes\": 1e3, \"weight\": 1},"
    " {\"bytes\": 1e8, \"weight\": 1}]},"
    " \"curves\": [{\"name\": \"c (chosen)\", \"kind\": \"chosen\", \"steps\": 6, \"tau\": [3, 2], \"degree\": 2},"
    " {\"name\": \"dbt on T\", \"kind\": \"baseline\", \"steps\": 2, \"tau\": [8, 1], \"degree\": 2},"
    " {\"name\": \"dbt P=16 on T\", \"kind\": \"baseline\", \"steps\": 32, \"tau\": [2, 1], \"degree\": 2}]}";

static void depth_envelope(void **state) {
  (void)state;
  json_error_t je;
  json_t *root = json_loads(PLAN_DEPTHS, 0, &je);
  assert_non_null(root);
  tc_report_plan p;
  tc_error err;
  assert_int_equal(tc_plan_json_read(root, "plan.json", &p, &err), TC_OK);
  sink s;
  sink_open(&s);
  tc_report_fig_curves(s.fp, &p, 0);
  sink_close(&s);
  const char *env = "dbt (best pipelining depth at each size) on T";
  char want[256], t[64];
  snprintf(want, sizeof want, "<g class=\"series\" data-series=\"%s\">", env);
  assert_int_equal(count(s.text, want), 2); /* its line and its markers */
  assert_int_equal(count(s.text, "<g class=\"series\" data-series=\"dbt on T\" style=\"display:none\">"), 2);
  assert_int_equal(count(s.text, "<g class=\"series\" data-series=\"dbt P=16 on T\" style=\"display:none\">"), 2);
  assert_int_equal(count(s.text, "<g class=\"series\" data-series=\"c (chosen)\">"), 2);
  /* the envelope's markers are the faster depth at each size: P=1 at 1 KB, P=16 at 100 MB */
  double small = tc_cost_time(&p.curve[1].cost, p.alpha_s, p.link_bw, 1e3);
  double large = tc_cost_time(&p.curve[2].cost, p.alpha_s, p.link_bw, 1e8);
  assert_true(small < tc_cost_time(&p.curve[2].cost, p.alpha_s, p.link_bw, 1e3));
  assert_true(large < tc_cost_time(&p.curve[1].cost, p.alpha_s, p.link_bw, 1e8));
  tc_units_format_time(small, 0, t, sizeof t);
  snprintf(want, sizeof want, "<title>%s: 1 KB, %s</title>", env, t);
  assert_non_null(strstr(s.text, want));
  tc_units_format_time(large, 0, t, sizeof t);
  snprintf(want, sizeof want, "<title>%s: 100 MB, %s</title>", env, t);
  assert_non_null(strstr(s.text, want));
  /* legend: chosen, envelope, then the two depths dimmed */
  const char *a = strstr(s.text, "<g class=\"legend\" data-series=\"c (chosen)\" style=\"cursor:pointer\">");
  snprintf(want, sizeof want, "<g class=\"legend\" data-series=\"%s\" style=\"cursor:pointer\">", env);
  const char *b = strstr(s.text, want);
  const char *c = strstr(s.text, "<g class=\"legend\" data-series=\"dbt on T\" style=\"cursor:pointer;opacity:0.4\">");
  const char *d = strstr(s.text, "<g class=\"legend\" data-series=\"dbt P=16 on T\" style=\"cursor:pointer;opacity:0.4\">");
  assert_true(a && b && c && d && a < b && b < c && c < d);
  /* tick labels in their shortest form; the caption says what the one curve is */
  assert_non_null(strstr(s.text, ">100 us</text>"));
  assert_null(strstr(s.text, ".000 ms</text>"));
  assert_non_null(strstr(s.text, "its best depth at each size (the lower envelope"));
  free(s.text);
  tc_plan_json_destroy(&p);
  json_decref(root);
}

static tc_doc_kind sniff(const char *text, char *note) {
  json_error_t je;
  json_t *root = json_loads(text, 0, &je);
  assert_non_null(root);
  note[0] = '\0';
  tc_doc_kind k = tc_report_sniff(root, note, 160);
  json_decref(root);
  return k;
}

static const char TRAIN[] =
    "{\"command\": \"train\", \"iteration_time_s\": 0.010, \"compute_s\": 0.008, \"allreduce_exposed_s\": 0.002,"
    " \"alltoall_s\": 0, \"timeline\": ["
    " {\"stream\": \"compute\", \"kind\": \"forward\", \"layer\": 0, \"start_s\": 0, \"end_s\": 0.003},"
    " {\"stream\": \"compute\", \"kind\": \"backward\", \"layer\": 0, \"start_s\": 0.003, \"end_s\": 0.008},"
    " {\"stream\": \"comm\", \"kind\": \"allreduce\", \"layer\": 0, \"start_s\": 0.005, \"end_s\": 0.010}]}";

static void sniffing(void **state) {
  (void)state;
  char note[160];
  assert_int_equal(sniff("{\"format\": \"topocoll-plan\"}", note), TC_DOC_PLAN);
  assert_int_equal(sniff("{\"format\": \"topocoll-schedule\"}", note), TC_DOC_OWN);
  assert_int_equal(sniff("{\"format\": \"topocoll-forest\", \"algbw_float\": 1}", note), TC_DOC_FOREST);
  assert_int_equal(sniff("{\"spec\": \"s\", \"optimum\": {}, \"k_scan\": []}", note), TC_DOC_FOREST);
  assert_int_equal(sniff("{\"np\": 4, \"results\": [{\"size_bytes\": 1, \"time_s\": 1}]}", note), TC_DOC_RUN);
  assert_int_equal(sniff("{\"results\": [{\"size_bytes\": 1, \"sim_time_s\": 1}]}", note), TC_DOC_SIMULATE);
  assert_int_equal(sniff("{\"f\": \"1/2\", \"method\": \"dw\", \"bounds\": {}}", note), TC_DOC_A2A);
  assert_int_equal(sniff(TRAIN, note), TC_DOC_TRAIN);
  /* results without np are no run; a train without its timeline is not drawn */
  assert_int_equal(sniff("{\"results\": [{\"size_bytes\": 1, \"time_s\": 1}]}", note), TC_DOC_UNKNOWN);
  assert_string_equal(note, "no key of a run, simulate, forest, a2a or train result");
  assert_int_equal(sniff("{\"command\": \"train\"}", note), TC_DOC_UNKNOWN);
  assert_string_equal(note, "\"command\": \"train\" without a \"timeline\" of {\"start_s\", ...} and \"iteration_time_s\"");
  assert_int_equal(sniff("{\"format\": \"other\"}", note), TC_DOC_UNKNOWN);
  assert_string_equal(note, "a \"other\" document, which the report does not draw");
}

/* A directory read by content: a plan's own schedule told by its head (the rest need not even
   parse), a train timeline whatever its name, a broken file and a non-JSON name skipped. */
static void read_dir(void **state) {
  (void)state;
  char dir[] = "/tmp/test_report-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  const char *const files[][2] = {
      {"b-sched.json", "{\n  \"format\": \"topocoll-schedule\",\n  \"version\": 1, ...cut short"},
      {"a-timeline.json", TRAIN},
      {"c.json", "{\"broken\": "},
      {"notes.txt", "{\"format\": \"topocoll-plan\"}"},
  };
  for (int i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(files[i][1], fp);
    assert_int_equal(fclose(fp), 0);
  }
  tc_doc *docs;
  int n;
  tc_error err;
  assert_int_equal(tc_report_read_dir(dir, &docs, &n, &err), TC_OK);
  assert_int_equal(n, 3); /* sorted by name; notes.txt is no JSON file */
  assert_string_equal(docs[0].name, "a-timeline.json");
  assert_int_equal(docs[0].kind, TC_DOC_TRAIN);
  assert_non_null(docs[0].root);
  assert_string_equal(docs[1].name, "b-sched.json");
  assert_int_equal(docs[1].kind, TC_DOC_OWN);
  assert_string_equal(docs[2].name, "c.json");
  assert_int_equal(docs[2].kind, TC_DOC_UNKNOWN);
  assert_null(docs[2].root);
  assert_string_equal(docs[2].note, "not valid JSON (line 1: unexpected token near end of file)");
  tc_report_docs_destroy(docs, n);
  for (int i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
    unlink(path);
  }
  rmdir(dir);
}

static void train_timeline(void **state) {
  (void)state;
  json_error_t je;
  tc_doc d = {.name = "t<1>.json", .kind = TC_DOC_TRAIN, .root = json_loads(TRAIN, 0, &je)};
  assert_non_null(d.root);
  sink s;
  sink_open(&s);
  tc_report_fig_train(s.fp, &d);
  sink_close(&s);
  assert_int_equal(count(s.text, "<rect class=\"span\""), 3);
  /* x: 0..10 ms onto 78..704; the allreduce 5..10 ms spans 391..704, in the lower lane */
  assert_non_null(strstr(s.text, "<rect class=\"span\" x=\"391.00\""));
  assert_non_null(strstr(s.text, "<title>allreduce layer 0: 5.000 ms .. 10.000 ms</title>"));
  assert_non_null(strstr(s.text, "From t&lt;1&gt;.json: iteration"));
  free(s.text);
  json_decref(d.root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(log_ticks),       cmocka_unit_test(linear_ticks), cmocka_unit_test(escaping),
      cmocka_unit_test(heatmap_cells),   cmocka_unit_test(utilisation),  cmocka_unit_test(frontier_points),
      cmocka_unit_test(sniffing),        cmocka_unit_test(train_timeline), cmocka_unit_test(read_dir),
      cmocka_unit_test(heat_rows),       cmocka_unit_test(topology_layout), cmocka_unit_test(tick_labels),
      cmocka_unit_test(ring_order),      cmocka_unit_test(depth_envelope),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
