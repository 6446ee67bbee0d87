/*
** test_construct.c — the allgather a spec constructs (construct.h): tc_schedule_construct,
** tc_schedule_construct_text and tc_graph_same_arcs.
**
** For every kind of construction (line with k = 0, 1, 2; degree; power; bidir; the stored
** Diamond and DBJMod(2,3) schedules; a base family and a product by BFB) the result must:
**   - run on exactly tc_spec_build(spec)'s graph: nodes, kinds, and every arc's (src, dst,
**     cap) in order, compared here field by field (not with tc_graph_same_arcs);
**   - pass tc_schedule_verify;
**   - cost (tc_schedule_cost) exactly the (T_L, tau, d) that the paper's theorem for that
**     construction gives, derived by hand in the comment of each case from the base's
**     values (themselves derived by hand: BFB on a graph whose every in-link must carry one
**     shard per step, or the stored schedules' values in paper 000 Table 9).
** Failure paths: a malformed spec, a non-topology node, degree expansion of a graph with
** self-loops, bidir of a graph that is not reverse-symmetric — each with its code, its
** message, and empty outputs; tc_graph_same_arcs on pairs differing in exactly one thing.
*/
#include "tc_test.h"

#include "topocoll/construct.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

/* The graph of the construction must be the spec's graph, field by field. */
static void expect_spec_graph(const char *spec, const tc_graph *g) {
  tc_graph *want = tc_test_spec(spec);
  if (g->n != want->n || g->m != want->m)
    fail_msg("%s: constructed graph has %d nodes / %lld arcs, the spec's %d / %lld", spec, g->n, (long long)g->m,
             want->n, (long long)want->m);
  for (int32_t u = 0; u < g->n; u++) assert_int_equal(g->kind[u], want->kind[u]);
  for (int64_t a = 0; a < g->m; a++)
    if (g->src[a] != want->src[a] || g->dst[a] != want->dst[a] || g->cap[a] != want->cap[a])
      fail_msg("%s: arc %lld is %d->%d cap %lld, the spec's is %d->%d cap %lld", spec, (long long)a, g->src[a],
               g->dst[a], (long long)g->cap[a], want->src[a], want->dst[a], (long long)want->cap[a]);
  tc_graph_destroy(want);
}

/* One construction and what its theorem says it costs. */
typedef struct expect {
  const char *spec;
  int32_t nodes;
  int64_t degree;    /* d measured by the cost model (node bandwidth in link units) */
  int32_t steps;     /* T_L / alpha */
  int64_t num, den;  /* tau = T_B / (M/B) */
  const char *algo;  /* the schedule's generator name when the contract names it, else NULL */
} expect;

static void check_construction(const expect *e) {
  tc_graph *g = (tc_graph *)1;
  tc_schedule ag;
  tc_error err;
  if (tc_schedule_construct_text(e->spec, &g, &ag, &err)) fail_msg("%s: %s", e->spec, err.msg);
  expect_spec_graph(e->spec, g);
  assert_int_equal(g->n, e->nodes);
  assert_int_equal(ag.coll, TC_COLL_ALLGATHER);
  assert_int_equal(ag.nodes, e->nodes);
  assert_int_equal(ag.nshards, e->nodes);
  assert_null(ag.owner); /* the paper's layout */
  if (e->algo) assert_string_equal(ag.algorithm, e->algo);
  if (tc_schedule_verify(g, &ag, &err)) fail_msg("%s: constructed schedule rejected: %s", e->spec, err.msg);
  tc_cost c;
  if (tc_schedule_cost(g, &ag, &c, &err)) fail_msg("%s: cost: %s", e->spec, err.msg);
  if (c.steps != e->steps || c.tau.num != e->num || c.tau.den != e->den || c.degree != e->degree)
    fail_msg("%s: T_L %d, tau %lld/%lld, d %lld; expected %d, %lld/%lld, %lld", e->spec, c.steps,
             (long long)c.tau.num, (long long)c.tau.den, (long long)c.degree, e->steps, (long long)e->num,
             (long long)e->den, (long long)e->degree);
  assert_int_equal(ag.steps, e->steps);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&ag);
  tc_graph_destroy(g);
}

/* Bases. BFB on a graph where every node must receive every other shard and each in-link
   can carry at most what the theorem allows:
   - complete(3) = K_3, d = 2: step 1 delivers both other shards, one per in-link: max load
     1 shard, tau = (d/N)·1 = 2/3, T_L = 1 (= (N-1)/N: BW-optimal, paper 000 Thm 4).
   - biring(2,5), the bidirectional 5-ring, d = 2: step 1 brings the two neighbours' shards
     over the two in-links (load 1); step 2 the two shards at distance 2, each over its only
     shortest path, one per in-link (load 1): T_L = 2, tau = (2/5)(1 + 1) = 4/5.
   - uniring(1,4), d = 1: one shard per step over the only in-link for D = 3 steps:
     tau = (1/4)·3 = 3/4. uniring(1,3): T_L = 2, tau = 2/3.
   Stored (paper 000 Table 9, rows Diamond and DBJMod(2,3): BW-optimal, so tau = (N-1)/N):
   - diamond(): N = 8, d = 2, Moore-optimal: T_L = T_L*(8,2) = 3 (M_{2,2} = 7 < 8 <= 15),
     tau = 7/8 (BFB would give tau = 1 there: the stored schedule is not BFB);
   - dbjmod(2,3): N = 8, d = 2, T_L = 4, tau = 7/8. */
static void bases(void **state) {
  (void)state;
  const expect cases[] = {
      {"complete(3)", 3, 2, 1, 2, 3, "bfb"},
      {"biring(2,5)", 5, 2, 2, 4, 5, "bfb"},
      {"uniring(1,4)", 4, 1, 3, 3, 4, "bfb"},
      {"diamond()", 8, 2, 3, 7, 8, "stored"},
      {"dbjmod(2,3)", 8, 2, 4, 7, 8, "stored"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_construction(&cases[i]);
}

/* Products go to BFB whole (construct.h; paper 000 Thm 13): both factors are simple
   digraphs with BW-optimal BFB schedules, so BFB on the product is BW-optimal with
   T_L = Σ D(G_i).
   - product(uniring(1,3),uniring(1,4)): N = 12, d = 1 + 1 = 2, T_L = 2 + 3 = 5,
     tau = 11/12;
   - product(complete(3),complete(2)): N = 6, d = 2 + 1 = 3, T_L = 1 + 1 = 2, tau = 5/6. */
static void products_by_bfb(void **state) {
  (void)state;
  const expect cases[] = {
      {"product(uniring(1,3),uniring(1,4))", 12, 2, 5, 11, 12, "bfb"},
      {"product(complete(3),complete(2))", 6, 3, 2, 5, 6, "bfb"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_construction(&cases[i]);
}

/* line(X,k), Def. 1 applied k times. Base K_3 (N = 3, d = 2, T_L = 1, tau = 2/3, the optimal
   BFB schedule; every node has 2 distinct out-neighbours, as does every node uv of L(K_3):
   vu and vw). Thm 10 / Cor 10.1: T_L + k and
   tau + (d/(d-1))(1/N - 1/(d^k N)) = 2/3 + 2(1/3 - 1/(3·2^k)):
     k = 0: L^0 = K_3 itself, T_L 1, tau 2/3 (nothing applied);
     k = 1: 6 nodes, T_L 2, tau 2/3 + 2(1/3 - 1/6) = 2/3 + 1/3 = 1 (Thm 10: + 1/N_base);
     k = 2: 12 nodes, T_L 3, tau 2/3 + 2(1/3 - 1/12) = 2/3 + 1/2 = 7/6.
   Base Diamond (stored, not BFB: only Thm 7's bound tau <= 7/8 + 1/8 applies); Thm 7's
   T_L equality holds for any schedule: L(Diamond) has 16 nodes and T_L = 3 + 1 = 4; its
   tau is checked against the bound only. */
static void line_graphs(void **state) {
  (void)state;
  const expect cases[] = {
      {"line(complete(3),0)", 3, 2, 1, 2, 3, "bfb"},
      {"line(complete(3),1)", 6, 2, 2, 1, 1, NULL},
      {"line(complete(3))", 6, 2, 2, 1, 1, NULL}, /* k defaults to 1 */
      {"line(complete(3),2)", 12, 2, 3, 7, 6, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_construction(&cases[i]);
  tc_graph *g = NULL;
  tc_schedule ag;
  tc_error err;
  assert_int_equal(tc_schedule_construct_text("line(diamond())", &g, &ag, &err), TC_OK);
  expect_spec_graph("line(diamond())", g);
  assert_int_equal(tc_schedule_verify(g, &ag, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &ag, &c, &err), TC_OK);
  assert_int_equal(c.steps, 4);
  assert_true(tc_rat_cmp(c.tau, (tc_rat){1, 1}) <= 0); /* Thm 7 (5): 7/8 + 1/8 */
  assert_true(tc_rat_cmp(c.tau, (tc_rat){15, 16}) >= 0); /* tau* of 16 nodes (Thm 4) */
  tc_cost_destroy(&c);
  tc_schedule_destroy(&ag);
  tc_graph_destroy(g);
}

/* degree(X,n), Def. 2 (Def. 13's graph, nN nodes, degree nd). Thm 11: T_L + 1 and
   tau + (n-1)/(nN), exact for any base schedule of a d-regular loop-free G.
   - uniring(1,4) (T_L 3, tau 3/4), n = 2: 8 nodes, d 2, T_L 4, tau 3/4 + 1/8 = 7/8
     (paper 000 Fig. 4; Cor 11.1: (nN-1)/(nN));
   - the same, n = 3: 12 nodes, d 3, T_L 4, tau 3/4 + 2/12 = 11/12;
   - n = 1 reproduces the base (expand_sched.h): 4 nodes, T_L 3, tau 3/4;
   - complete(3) (T_L 1, tau 2/3), n = 2: 6 nodes, d 4, T_L 2, tau 2/3 + 1/6 = 5/6. */
static void degree_expansions(void **state) {
  (void)state;
  const expect cases[] = {
      {"degree(uniring(1,4),2)", 8, 2, 4, 7, 8, NULL},
      {"degree(uniring(1,4),3)", 12, 3, 4, 11, 12, NULL},
      {"degree(uniring(1,4),1)", 4, 1, 3, 3, 4, NULL},
      {"degree(complete(3),2)", 6, 4, 2, 5, 6, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_construction(&cases[i]);
}

/* power(X,k), Def. 14. Thm 12: k·T_L and tau · N/(N-1) · (N^k - 1)/N^k, degree k·d.
   - uniring(1,3) (N 3, T_L 2, tau 2/3), k = 2: 9 nodes, d 2, T_L 4,
     tau = 2/3 · 3/2 · 8/9 = 8/9; k = 3: 27 nodes, d 3, T_L 6, tau = 1 · 26/27 = 26/27;
   - diamond() (stored: N 8, T_L 3, tau 7/8), k = 2: 64 nodes, d 4, T_L 6,
     tau = 7/8 · 8/7 · 63/64 = 63/64 (paper 000 Table 7, Diamond^□2). */
static void powers(void **state) {
  (void)state;
  const expect cases[] = {
      {"power(uniring(1,3),2)", 9, 2, 4, 8, 9, NULL},
      {"power(uniring(1,3),3)", 27, 3, 6, 26, 27, NULL},
      {"power(diamond(),2)", 64, 4, 6, 63, 64, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_construction(&cases[i]);
}

/* bidir(X), App. A.6 on a reverse-symmetric X: half of every shard follows X's schedule,
   the other half its image on X^T; T_L and T_B are kept, the degree doubles.
   - uniring(1,4) (reverse-symmetric by v -> -v; T_L 3, tau 3/4): d 2, T_L 3, tau 3/4.
     Directly: every step each arc carries half a shard; tau = (2/4)·3·(1/2) = 3/4. BFB on
     the same graph (the bidirectional 4-ring) would take only D = 2 steps, so T_L = 3
     shows the construction was followed.
   - dbjmod(2,3) (reverse-symmetric, paper 000 Table 9; stored T_L 4, tau 7/8): d 4, T_L 4,
     tau 7/8. */
static void bidirectional(void **state) {
  (void)state;
  const expect cases[] = {
      {"bidir(uniring(1,4))", 4, 2, 3, 3, 4, NULL},
      {"bidir(dbjmod(2,3))", 8, 4, 4, 7, 8, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_construction(&cases[i]);
}

/* Expansions nest: line(degree(uniring(1,4),2)) — Thm 11 gives the base (8 nodes, d 2,
   T_L 4, tau 7/8), then Thm 7 adds exactly one step (T_L 5) and bounds tau by
   7/8 + 1/8 = 1 (the degree-expanded schedule is not BFB, so Thm 10's equality does not
   apply); below, tau* of 16 nodes is 15/16 (Thm 4).
   And tc_schedule_construct on a sub-node constructs that sub-topology alone, the same
   transfers as its own text. */
static void nesting_and_subnodes(void **state) {
  (void)state;
  tc_graph *g = NULL, *h = NULL;
  tc_schedule ag, bg;
  tc_error err;
  const char *spec = "line(degree(uniring(1,4),2))";
  assert_int_equal(tc_schedule_construct_text(spec, &g, &ag, &err), TC_OK);
  expect_spec_graph(spec, g);
  assert_int_equal(g->n, 16);
  assert_int_equal(tc_schedule_verify(g, &ag, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &ag, &c, &err), TC_OK);
  assert_int_equal(c.steps, 5);
  assert_true(tc_rat_cmp(c.tau, (tc_rat){1, 1}) <= 0);
  assert_true(tc_rat_cmp(c.tau, (tc_rat){15, 16}) >= 0);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&ag);
  tc_graph_destroy(g);

  tc_spec *s = NULL;
  assert_int_equal(tc_spec_parse(spec, &s, &err), TC_OK);
  const tc_spec_node *inner = tc_spec_arg(s->root, "g");
  assert_non_null(inner);
  assert_int_equal(tc_schedule_construct(s, inner, &g, &ag, &err), TC_OK);
  assert_int_equal(tc_schedule_construct_text("degree(uniring(1,4),2)", &h, &bg, &err), TC_OK);
  expect_spec_graph("degree(uniring(1,4),2)", g);
  assert_int_equal(ag.count, bg.count);
  assert_int_equal(ag.units, bg.units);
  assert_int_equal(ag.steps, 4);
  tc_schedule_sort(&ag);
  tc_schedule_sort(&bg);
  for (int64_t i = 0; i < ag.count; i++) assert_memory_equal(&ag.xfer[i], &bg.xfer[i], sizeof ag.xfer[i]);
  tc_schedule_destroy(&ag);
  tc_schedule_destroy(&bg);
  tc_graph_destroy(g);
  tc_graph_destroy(h);
  /* NULL node is the root */
  assert_int_equal(tc_schedule_construct(s, NULL, &g, &ag, &err), TC_OK);
  assert_int_equal(g->n, 16);
  assert_int_equal(ag.steps, 5);
  tc_schedule_destroy(&ag);
  tc_graph_destroy(g);
  tc_spec_destroy(s);
}

/* ---- failures: code, message, and empty outputs ---------------------------------------- */

static void poison(tc_graph **g, tc_schedule *ag) {
  *g = (tc_graph *)1;
  memset(ag, 0xA5, sizeof *ag);
}

static void expect_empty(const tc_graph *g, const tc_schedule *ag) {
  assert_null(g);
  assert_null(ag->xfer);
  assert_null(ag->owner);
  assert_int_equal(ag->count, 0);
  assert_int_equal(ag->room, 0);
  assert_int_equal(ag->steps, 0);
  assert_int_equal(ag->nodes, 0);
}

static void expect_failure(const char *spec, int code, const char *msg_part) {
  tc_graph *g;
  tc_schedule ag;
  tc_error err;
  poison(&g, &ag);
  int rc = tc_schedule_construct_text(spec, &g, &ag, &err);
  if (rc != code) fail_msg("%s: code %d (%s), expected %d", spec, rc, rc ? err.msg : "ok", code);
  expect_empty(g, &ag);
  if (!strstr(err.msg, msg_part)) fail_msg("%s: message '%s' lacks '%s'", spec, err.msg, msg_part);
  assert_null(strchr(err.msg, '\n'));
}

static void failures(void **state) {
  (void)state;
  /* malformed: the parser's column message */
  expect_failure("line(complete(3)", TC_EINPUT, "bad spec \"line(complete(3)\"");
  expect_failure("nosuchfamily(3)", TC_EINPUT, "nosuchfamily");
  expect_failure("", TC_EINPUT, "bad spec");
  /* Def. 13 needs a loop-free base; de Bruijn B(2,2) has the loops 00 -> 00 and 11 -> 11 */
  expect_failure("degree(debruijn(2,2),2)", TC_EINPUT,
                 "degree: the base graph has self-loops; degree expansion needs a loop-free graph");
  /* A.6 needs reverse symmetry; Diamond is not reverse-symmetric (paper 000 Table 9) */
  expect_failure("bidir(diamond())", TC_EINPUT, "not reverse-symmetric");
  /* a node that is not a call (the integer k of line(..., 2)) */
  tc_spec *s = NULL;
  tc_error err;
  assert_int_equal(tc_spec_parse("line(complete(3),2)", &s, &err), TC_OK);
  const tc_spec_node *k = tc_spec_arg(s->root, "k");
  assert_non_null(k);
  assert_int_equal(k->kind, TC_SPEC_INT);
  tc_graph *g;
  tc_schedule ag;
  poison(&g, &ag);
  assert_int_equal(tc_schedule_construct(s, k, &g, &ag, &err), TC_EINPUT);
  assert_string_equal(err.msg, "expected a topology");
  expect_empty(g, &ag);
  tc_spec_destroy(s);
}

/* ---- tc_graph_same_arcs ------------------------------------------------------------------ */

static void same_arcs(void **state) {
  (void)state;
  const int base[][3] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 1}, {2, 0, 1}, {1, 1, 1}};
  const int cap[][3] = {{0, 1, 1}, {1, 2, 3}, {2, 0, 1}, {2, 0, 1}, {1, 1, 1}};  /* one capacity */
  const int arc[][3] = {{0, 1, 1}, {1, 2, 2}, {2, 1, 1}, {2, 0, 1}, {1, 1, 1}};  /* one head */
  const int less[][3] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 1}, {1, 1, 1}};            /* one arc fewer */
  /* the same graph relabelled by 0 <-> 1: isomorphic, but not the same arcs */
  const int relab[][3] = {{1, 0, 1}, {0, 2, 2}, {2, 1, 1}, {2, 1, 1}, {0, 0, 1}};
  tc_graph *a = tc_test_graph(3, base, 5, NULL, 0), *a2 = tc_test_graph(3, base, 5, NULL, 0), *b = tc_test_graph(3, cap, 5, NULL, 0), *c = tc_test_graph(3, arc, 5, NULL, 0),
           *d = tc_test_graph(3, less, 4, NULL, 0), *e = tc_test_graph(4, base, 5, NULL, 0), *f = tc_test_graph(3, relab, 5, NULL, 0);
  assert_true(tc_graph_same_arcs(a, a));
  assert_true(tc_graph_same_arcs(a, a2));
  assert_false(tc_graph_same_arcs(a, b));
  assert_false(tc_graph_same_arcs(b, a));
  assert_false(tc_graph_same_arcs(a, c));
  assert_false(tc_graph_same_arcs(a, d));
  assert_false(tc_graph_same_arcs(d, a));
  assert_false(tc_graph_same_arcs(a, e)); /* one isolated node more */
  assert_false(tc_graph_same_arcs(e, a));
  assert_false(tc_graph_same_arcs(a, f));
  /* two spellings of one topology build the same arcs; a transpose of a non-symmetric one
     does not */
  tc_graph *k1 = tc_test_spec("kautz(2,2)"), *k2 = tc_test_spec("line(complete(3),2)"),
           *u = tc_test_spec("uniring(1,4)"), *ut = tc_test_spec("transpose(uniring(1,4))");
  assert_true(tc_graph_same_arcs(k1, k2));
  assert_false(tc_graph_same_arcs(u, ut));
  tc_graph *list[] = {a, a2, b, c, d, e, f, k1, k2, u, ut};
  for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) tc_graph_destroy(list[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bases),
      cmocka_unit_test(products_by_bfb),
      cmocka_unit_test(line_graphs),
      cmocka_unit_test(degree_expansions),
      cmocka_unit_test(powers),
      cmocka_unit_test(bidirectional),
      cmocka_unit_test(nesting_and_subnodes),
      cmocka_unit_test(failures),
      cmocka_unit_test(same_arcs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
