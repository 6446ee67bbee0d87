/*
** test_iso.c — isomorphism, reverse symmetry and the isomorphism checker (iso.h).
**
** The reference is a brute-force oracle that tries every permutation of n <= 8 nodes on
** an exact table of arc counts per (capacity, u, v); it shares no code with iso.c. It
** judges random multigraphs (loops, parallel arcs, capacities 1..3, switch nodes) and the
** small named topologies below. Every expected value is labelled with where it comes
** from: a closed form, paper 000 (Table 9), or the oracle. The automorphism generators are
** judged by the group they generate: its order (closure by multiplication) must be the
** oracle's count of automorphisms, and every generator the oracle's automorphism.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "topocoll/graph.h"
#include "topocoll/iso.h"

#define ORACLE_MAX_N 8 /* 8! = 40320 permutations: B(2,3) fits */
#define RANDOM_MAX_N 7
#define ORACLE_MAX_CAP 3

/* ---------------------------------------------------------------------------------
** Building graphs.
*/

/* Affine family on Z_n: x -> sign*(mul*x + a) mod n for a = a_first .. a_first+d-1.
   Π_{d,m} (paper 000 Def. 16): sign -1, mul d, a 1..d. de Bruijn: sign +1, mul d, a 0..d-1.
   Directed cycle: sign +1, mul 1, a = 1. */
static tc_graph *affine_graph(int64_t n, int64_t sign, int64_t mul, int64_t a_first, int64_t d) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int64_t x = 0; x < n; x++)
    for (int64_t a = a_first; a < a_first + d; a++) {
      int64_t y = ((sign * (mul * x + a)) % n + n) % n;
      assert_int_equal(tc_graph_builder_add_arc(&b, x, y, 1, &err), TC_OK);
    }
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

typedef struct arc { int u, v, cap; } arc;

static tc_graph *graph_of(int n, const arc *arcs, int m, const uint8_t *kind) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++) assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i].u, arcs[i].v, arcs[i].cap, &err), TC_OK);
  for (int u = 0; kind && u < n; u++) assert_int_equal(tc_graph_builder_set_kind(&b, u, kind[u], &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* Copy of g with node u renamed perm[u]; if edit >= 0, arc `edit` instead goes to
   new_dst with capacity new_cap. Arcs are added in reverse so the builder must sort. */
static tc_graph *relabel_edit(const tc_graph *g, const int32_t *perm, int64_t edit, int32_t new_dst, int64_t new_cap) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *out = NULL;
  assert_int_equal(tc_graph_builder_init(&b, g->n, &err), TC_OK);
  for (int64_t a = g->m - 1; a >= 0; a--) {
    int32_t v = a == edit ? new_dst : g->dst[a];
    int64_t c = a == edit ? new_cap : g->cap[a];
    assert_int_equal(tc_graph_builder_add_arc(&b, perm[g->src[a]], perm[v], c, &err), TC_OK);
  }
  for (int32_t u = 0; u < g->n; u++)
    assert_int_equal(tc_graph_builder_set_kind(&b, perm[u], (tc_node_kind)g->kind[u], &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &out, &err), TC_OK);
  return out;
}

static void random_permutation(tc_rng *r, int32_t *p, int32_t n) {
  for (int32_t i = 0; i < n; i++) p[i] = i;
  for (int32_t i = n - 1; i > 0; i--) {
    int32_t j = (int32_t)tci_rng_below(r, (uint64_t)i + 1), t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

/* A random small digraph. simple: distinct non-loop unit arcs (igraph's fast path);
   otherwise loops, parallel arcs (a third of arcs repeat an earlier pair) and
   capacities 1..ORACLE_MAX_CAP. */
static tc_graph *random_small_graph(tc_rng *r, int n, int m, int simple, int switches) {
  arc arcs[64];
  uint8_t kind[ORACLE_MAX_N];
  uint8_t used[ORACLE_MAX_N][ORACLE_MAX_N] = {{0}};
  if (simple && m > n * (n - 1)) m = n * (n - 1);
  for (int i = 0; i < m; i++) {
    if (simple) {
      int u, v;
      do {
        u = (int)tci_rng_below(r, (uint64_t)n);
        v = (int)tci_rng_below(r, (uint64_t)n);
      } while (u == v || used[u][v]);
      used[u][v] = 1;
      arcs[i] = (arc){u, v, 1};
    } else if (i > 0 && tci_rng_below(r, 3) == 0) {
      arcs[i] = arcs[tci_rng_below(r, (uint64_t)i)];
      arcs[i].cap = 1 + (int)tci_rng_below(r, ORACLE_MAX_CAP);
    } else {
      arcs[i] = (arc){(int)tci_rng_below(r, (uint64_t)n), (int)tci_rng_below(r, (uint64_t)n),
                      1 + (int)tci_rng_below(r, ORACLE_MAX_CAP)};
    }
  }
  for (int u = 0; u < n; u++) kind[u] = switches ? (uint8_t)tci_rng_below(r, 2) : TC_NODE_COMPUTE;
  return graph_of(n, arcs, m, kind);
}

/* ---------------------------------------------------------------------------------
** Brute-force oracle: exact arc counts per (capacity, u, v), every permutation tried.
*/
typedef struct arc_table {
  int n;
  uint8_t kind[ORACLE_MAX_N];
  uint8_t count[ORACLE_MAX_CAP + 1][ORACLE_MAX_N][ORACLE_MAX_N];
} arc_table;

/* transposed: tabulate G^T (arc u->v counted as v->u), independent of tc_graph_transpose. */
static void tabulate(const tc_graph *g, int transposed, arc_table *t) {
  assert_true(g->n <= ORACLE_MAX_N);
  memset(t, 0, sizeof *t);
  t->n = g->n;
  for (int32_t u = 0; u < g->n; u++) t->kind[u] = g->kind[u];
  for (int64_t a = 0; a < g->m; a++) {
    assert_true(g->cap[a] <= ORACLE_MAX_CAP);
    int u = g->src[a], v = g->dst[a];
    t->count[g->cap[a]][transposed ? v : u][transposed ? u : v]++;
  }
}

static int oracle_accepts(const arc_table *a, const arc_table *b, const int32_t *p) {
  for (int u = 0; u < a->n; u++)
    if (a->kind[u] != b->kind[p[u]]) return 0;
  for (int c = 1; c <= ORACLE_MAX_CAP; c++)
    for (int u = 0; u < a->n; u++)
      for (int v = 0; v < a->n; v++)
        if (a->count[c][u][v] != b->count[c][p[u]][p[v]]) return 0;
  return 1;
}

/* Lexicographic successor of p; 0 after the last permutation. */
static int next_permutation(int32_t *p, int n) {
  int i = n - 2;
  while (i >= 0 && p[i] > p[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (p[j] < p[i]) j--;
  int32_t t = p[i]; p[i] = p[j]; p[j] = t;
  for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) { t = p[lo]; p[lo] = p[hi]; p[hi] = t; }
  return 1;
}

static int oracle_isomorphic_tables(const arc_table *a, const arc_table *b) {
  if (a->n != b->n) return 0;
  int32_t p[ORACLE_MAX_N];
  for (int i = 0; i < a->n; i++) p[i] = i;
  do
    if (oracle_accepts(a, b, p)) return 1;
  while (next_permutation(p, a->n));
  return 0;
}

static int oracle_isomorphic(const tc_graph *g1, const tc_graph *g2) {
  arc_table a, b;
  if (g1->n != g2->n || g1->m != g2->m) return 0;
  tabulate(g1, 0, &a);
  tabulate(g2, 0, &b);
  return oracle_isomorphic_tables(&a, &b);
}

static int oracle_reverse_symmetric(const tc_graph *g) {
  arc_table a, t;
  tabulate(g, 0, &a);
  tabulate(g, 1, &t);
  return oracle_isomorphic_tables(&a, &t);
}

/* ---------------------------------------------------------------------------------
** Helpers asserting the library's answer against an expected one.
*/

/* Runs tc_graph_isomorphism, checks any map it returns with both the public checker
   and the oracle (small graphs), and returns found. */
static int iso_answer(const tc_graph *g1, const tc_graph *g2) {
  int found = -1;
  tc_error err;
  int32_t *map = malloc(((size_t)g1->n + 1) * sizeof *map);
  assert_non_null(map);
  for (int32_t u = 0; u < g1->n; u++) map[u] = -7;
  int rc = tc_graph_isomorphism(g1, g2, &found, map, &err);
  if (rc) fail_msg("tc_graph_isomorphism: %s", err.msg);
  if (found) {
    assert_true(tc_graph_check_isomorphism(g1, g2, map));
    if (g1->n <= ORACLE_MAX_N) {
      arc_table a, b;
      tabulate(g1, 0, &a);
      tabulate(g2, 0, &b);
      assert_true(oracle_accepts(&a, &b, map));
    }
  } else {
    for (int32_t u = 0; u < g1->n; u++) assert_int_equal(map[u], -7); /* untouched */
  }
  free(map);
  return found;
}

/* Runs tc_graph_reverse_symmetry and checks any map against G^T; returns found. */
static int reverse_answer(const tc_graph *g) {
  int found = -1;
  tc_error err;
  tc_graph *t = NULL;
  int32_t *map = malloc(((size_t)g->n + 1) * sizeof *map);
  assert_non_null(map);
  int rc = tc_graph_reverse_symmetry(g, &found, map, &err);
  if (rc) fail_msg("tc_graph_reverse_symmetry: %s", err.msg);
  if (found) {
    assert_int_equal(tc_graph_transpose(g, &t, &err), TC_OK);
    assert_true(tc_graph_check_isomorphism(g, t, map));
    tc_graph_destroy(t);
  }
  free(map);
  return found;
}

/* ---------------------------------------------------------------------------------
** Random cross-check against the oracle.
*/
static void random_pairs_agree_with_brute_force(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20240611);
  int yes = 0, no = 0, yes_after_edit = 0;
  for (int trial = 0; trial < 900; trial++) {
    int n = 1 + (int)tci_rng_below(&r, RANDOM_MAX_N);
    int m = (int)tci_rng_below(&r, (uint64_t)(3 * n + 1));
    int simple = tci_rng_below(&r, 3) == 0, switches = tci_rng_below(&r, 2) == 0;
    tc_graph *g1 = random_small_graph(&r, n, m, simple, switches), *g2;
    int32_t perm[ORACLE_MAX_N];
    random_permutation(&r, perm, n);
    int mode = (int)tci_rng_below(&r, 3);
    if (mode == 0) {
      g2 = relabel_edit(g1, perm, -1, 0, 0); /* a relabelled copy: isomorphic by construction */
    } else if (mode == 1 && g1->m > 0) {
      /* A relabelled copy with one arc moved or re-weighted: usually, not always, different. */
      int64_t a = (int64_t)tci_rng_below(&r, (uint64_t)g1->m);
      g2 = relabel_edit(g1, perm, a, (int32_t)tci_rng_below(&r, (uint64_t)n),
                        simple ? 1 : 1 + (int64_t)tci_rng_below(&r, ORACLE_MAX_CAP));
    } else {
      g2 = random_small_graph(&r, n, m, simple, switches);
    }
    int expected = oracle_isomorphic(g1, g2);
    if (mode == 0) assert_true(expected);
    assert_int_equal(iso_answer(g1, g2), expected);
    yes += expected;
    no += !expected;
    yes_after_edit += mode == 1 && expected;

    /* The checker agrees with the oracle on the true relabelling and on a random map. */
    arc_table a, b;
    tabulate(g1, 0, &a);
    tabulate(g2, 0, &b);
    assert_int_equal(tc_graph_check_isomorphism(g1, g2, perm), oracle_accepts(&a, &b, perm));
    int32_t guess[ORACLE_MAX_N];
    random_permutation(&r, guess, n);
    assert_int_equal(tc_graph_check_isomorphism(g1, g2, guess), oracle_accepts(&a, &b, guess));

    /* Reverse symmetry of the same random graph, against the oracle on G vs G^T. */
    assert_int_equal(reverse_answer(g1), oracle_reverse_symmetric(g1));
    tc_graph_destroy(g1);
    tc_graph_destroy(g2);
  }
  /* The sample must exercise both answers, including edits that happen to stay isomorphic. */
  assert_true(yes > 300);
  assert_true(no > 200);
  assert_true(yes_after_edit > 5);
}

/* ---------------------------------------------------------------------------------
** Hand-picked isomorphism cases.
*/
static void capacities_loops_and_kinds_distinguish(void **state) {
  (void)state;
  /* Directed triangle with one capacity-2 arc vs. its rotation: isomorphic (closed form:
     the rotation u -> u+1 carries the heavy arc 0->1 to 1->2). */
  const arc tri_a[] = {{0, 1, 2}, {1, 2, 1}, {2, 0, 1}};
  const arc tri_b[] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 1}};
  tc_graph *g1 = graph_of(3, tri_a, 3, NULL), *g2 = graph_of(3, tri_b, 3, NULL);
  assert_true(iso_answer(g1, g2));
  tc_graph_destroy(g2);

  /* Same arcs, capacities {2,1,1} vs {2,2,1}: capacity multisets differ, so no (closed form). */
  const arc tri_c[] = {{0, 1, 2}, {1, 2, 2}, {2, 0, 1}};
  g2 = graph_of(3, tri_c, 3, NULL);
  assert_false(iso_answer(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);

  /* Parallel pair {1,2} vs {1,1}+{2} split over two heads, same degrees: the bundle
     multiset differs (closed form), confirmed by the oracle. */
  const arc par_a[] = {{0, 1, 1}, {0, 1, 2}, {1, 2, 1}, {2, 0, 1}};
  const arc par_b[] = {{0, 1, 1}, {0, 1, 1}, {1, 2, 2}, {2, 0, 1}};
  g1 = graph_of(3, par_a, 4, NULL);
  g2 = graph_of(3, par_b, 4, NULL);
  assert_false(oracle_isomorphic(g1, g2));
  assert_false(iso_answer(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);

  /* A loop of capacity 1 vs. capacity 2 on an otherwise equal graph: no (closed form). */
  const arc loop_a[] = {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}};
  const arc loop_b[] = {{0, 0, 2}, {0, 1, 1}, {1, 0, 1}};
  g1 = graph_of(2, loop_a, 3, NULL);
  g2 = graph_of(2, loop_b, 3, NULL);
  assert_false(iso_answer(g1, g2));
  tc_graph_destroy(g2);
  /* ... and the loop moved to node 1: yes via the swap (closed form). */
  const arc loop_c[] = {{1, 1, 1}, {0, 1, 1}, {1, 0, 1}};
  g2 = graph_of(2, loop_c, 3, NULL);
  assert_true(iso_answer(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);

  /* Directed 3-cycle, switch at node 0 vs. at node 2: yes by rotation; all compute vs
     one switch: no, kind counts differ (closed form). */
  const arc cyc[] = {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  const uint8_t k0[] = {TC_NODE_SWITCH, TC_NODE_COMPUTE, TC_NODE_COMPUTE};
  const uint8_t k2[] = {TC_NODE_COMPUTE, TC_NODE_COMPUTE, TC_NODE_SWITCH};
  g1 = graph_of(3, cyc, 3, k0);
  g2 = graph_of(3, cyc, 3, k2);
  assert_true(iso_answer(g1, g2));
  tc_graph_destroy(g2);
  g2 = graph_of(3, cyc, 3, NULL);
  assert_false(iso_answer(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);

  /* A switch hub with 18 out-arcs (three parallel arcs of capacities 1..3 to each of six
     nodes; more than the checker's insertion-sort cut-off) and a relabelled copy: yes by
     construction; the same copy with one hub arc re-weighted: the oracle decides. */
  arc hub[19];
  int k = 0;
  for (int v = 1; v <= 6; v++)
    for (int c = 1; c <= 3; c++) hub[k++] = (arc){0, v, 1 + (v + c) % 3};
  hub[k++] = (arc){6, 0, 1};
  const uint8_t hub_kind[] = {TC_NODE_SWITCH, 0, 0, 0, 0, 0, 0};
  g1 = graph_of(7, hub, k, hub_kind);
  const int32_t shuffle[] = {3, 6, 0, 5, 1, 2, 4};
  g2 = relabel_edit(g1, shuffle, -1, 0, 0);
  assert_true(iso_answer(g1, g2));
  tc_graph_destroy(g2);
  g2 = relabel_edit(g1, shuffle, 4, g1->dst[4], g1->cap[4] == 3 ? 1 : g1->cap[4] + 1);
  assert_int_equal(iso_answer(g1, g2), oracle_isomorphic(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);

  /* Different n or m: no without search. Two empty graphs: yes (closed form). */
  g1 = graph_of(3, cyc, 3, NULL);
  g2 = graph_of(3, cyc, 2, NULL);
  assert_false(iso_answer(g1, g2));
  tc_graph_destroy(g2);
  g2 = graph_of(4, cyc, 3, NULL);
  assert_false(iso_answer(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);
  g1 = graph_of(0, NULL, 0, NULL);
  g2 = graph_of(0, NULL, 0, NULL);
  assert_true(iso_answer(g1, g2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);
}

/* Relabelled copies of a 1000-node Π_{3,1000}: isomorphic by construction, once as a
   simple graph (fast path) and once with parallel arcs and capacities (bundle vertices). */
static void large_relabelled_copies_are_found(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 7);
  const int32_t n = 1000;
  int32_t *perm = malloc((size_t)n * sizeof *perm);
  assert_non_null(perm);
  random_permutation(&r, perm, n);
  tc_graph *g = affine_graph(n, -1, 3, 1, 3);
  tc_graph *h = relabel_edit(g, perm, -1, 0, 0);
  assert_true(iso_answer(g, h));
  assert_true(iso_answer(h, g));
  tc_graph_destroy(h);

  /* Weighted variant: arc a gets capacity 1 + (a mod 3) and arc 0 a parallel twin. */
  tc_graph_builder b;
  tc_error err;
  tc_graph *w = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int64_t a = 0; a < g->m; a++)
    assert_int_equal(tc_graph_builder_add_arc(&b, g->src[a], g->dst[a], 1 + a % 3, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, g->src[0], g->dst[0], 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &w, &err), TC_OK);
  h = relabel_edit(w, perm, -1, 0, 0);
  assert_true(iso_answer(w, h));
  tc_graph_destroy(h);
  /* Arc 0 re-weighted to capacity 4, which no other arc has: the capacity multiset is an
     invariant, so no (closed form). */
  h = relabel_edit(w, perm, 0, w->dst[0], 4);
  assert_false(iso_answer(w, h));
  tc_graph_destroy(h);
  tc_graph_destroy(w);
  tc_graph_destroy(g);
  free(perm);
}

/* ---------------------------------------------------------------------------------
** Reverse symmetry of named topologies.
*/
static void directed_cycle_is_reverse_symmetric(void **state) {
  (void)state;
  /* Closed form: u -> -u mod n sends arc u->u+1 to -u -> -u-1, an arc of C_n^T. */
  tc_graph *g = affine_graph(5, 1, 1, 1, 1), *t = NULL;
  tc_error err;
  assert_int_equal(tc_graph_transpose(g, &t, &err), TC_OK);
  const int32_t negate[] = {0, 4, 3, 2, 1};
  assert_true(tc_graph_check_isomorphism(g, t, negate));
  assert_true(oracle_reverse_symmetric(g));
  assert_true(reverse_answer(g));
  tc_graph_destroy(t);
  tc_graph_destroy(g);
}

static void de_bruijn_2_3_is_reverse_symmetric(void **state) {
  (void)state;
  /* B(2,3): x -> 2x + a mod 8. Paper 000 Table 9 row 11: reverse-symmetric. Closed form:
     reversing the 3-bit string maps x1x2x3 -> x2x3y to y x3x2 -> x3x2x1, an arc of the
     transpose. The oracle agrees. */
  tc_graph *g = affine_graph(8, 1, 2, 0, 2), *t = NULL;
  tc_error err;
  assert_int_equal(tc_graph_count_self_loops(g), 2); /* 000 and 111 (Table 9: self-loops) */
  assert_int_equal(tc_graph_transpose(g, &t, &err), TC_OK);
  const int32_t bit_reversal[] = {0, 4, 2, 6, 1, 5, 3, 7};
  assert_true(tc_graph_check_isomorphism(g, t, bit_reversal));
  assert_true(oracle_reverse_symmetric(g));
  assert_true(reverse_answer(g));
  tc_graph_destroy(t);
  tc_graph_destroy(g);
}

static void generalized_kautz_reverse_symmetry_varies(void **state) {
  (void)state;
  /* Π_{2,m}, m = 3..7. Paper 000 Table 9 row 5 marks generalized Kautz "not
     reverse-symmetric" as a family, but instances differ; each expectation below comes
     from the brute-force oracle (asserted here too). Π_{2,6} = K(2,1) (6 = 2^2 + 2,
     Def. 16), a Kautz graph, which Table 9 row 4 lists as reverse-symmetric. Π_{2,5} and
     Π_{2,7} are 2-in/2-out regular, so no degree test can reject them: BLISS must. */
  const int expected[] = {[3] = 1, [4] = 1, [5] = 0, [6] = 1, [7] = 0};
  for (int m = 3; m <= 7; m++) {
    tc_graph *g = affine_graph(m, -1, 2, 1, 2);
    assert_int_equal(tc_graph_out_regular(g), 2);
    assert_int_equal(tc_graph_in_regular(g), 2);
    assert_int_equal(oracle_reverse_symmetric(g), expected[m]);
    assert_int_equal(reverse_answer(g), expected[m]);
    tc_graph_destroy(g);
  }
}

static void bidirectional_graph_gets_identity(void **state) {
  (void)state;
  /* Undirected path with unequal capacities: G^T == G, so the identity (closed form). */
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, 4, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_edge(&b, 0, 1, 3, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_edge(&b, 1, 2, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_edge(&b, 2, 3, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  assert_true(g->bidirectional);
  int found = 0;
  int32_t map[4] = {-1, -1, -1, -1};
  assert_int_equal(tc_graph_reverse_symmetry(g, &found, map, &err), TC_OK);
  assert_true(found);
  for (int32_t u = 0; u < 4; u++) assert_int_equal(map[u], u);
  assert_int_equal(tc_graph_reverse_symmetry(g, &found, NULL, &err), TC_OK);
  assert_true(found);
  tc_graph_destroy(g);
}

static void de_bruijn_1024_is_reverse_symmetric(void **state) {
  (void)state;
  /* DBJ(2,10): paper 000 Table 9 row 11 says reverse-symmetric (closed form: reversing
     the 10-bit string, as for B(2,3) above). The returned map is checked by reverse_answer. */
  tc_graph *g = affine_graph(1024, 1, 2, 0, 2);
  assert_true(reverse_answer(g));
  tc_graph_destroy(g);
}

/* ---------------------------------------------------------------------------------
** Concurrent callers: igraph (as packaged) keeps its error handlers and cleanup stack in
** process globals, which iso.c serialises. A smoke test: it checks that concurrent calls
** neither deadlock nor disturb each other's answers (it did not catch a race when the
** lock was removed, so it is no proof of the lock's need). Threads record answers; only
** the main thread asserts (cmocka's assertions must not longjmp across threads).
*/
typedef struct worker {
  const tc_graph *g[2];
  int answers[2][40];
  int failures;
} worker;

static void *reverse_symmetry_worker(void *arg) {
  worker *w = arg;
  for (int round = 0; round < 40; round++)
    for (int i = 0; i < 2; i++) {
      int found = -1;
      tc_error err;
      if (tc_graph_reverse_symmetry(w->g[i], &found, NULL, &err) != TC_OK) w->failures++;
      w->answers[i][round] = found;
    }
  return NULL;
}

static void concurrent_calls_agree(void **state) {
  (void)state;
  /* Π_{2,6} is reverse-symmetric and Π_{2,7} is not (oracle, test above). */
  tc_graph *yes = affine_graph(6, -1, 2, 1, 2), *no = affine_graph(7, -1, 2, 1, 2);
  enum { THREADS = 4 };
  worker w[THREADS];
  pthread_t tid[THREADS];
  for (int t = 0; t < THREADS; t++) {
    memset(&w[t], 0, sizeof w[t]);
    w[t].g[0] = yes;
    w[t].g[1] = no;
    assert_int_equal(pthread_create(&tid[t], NULL, reverse_symmetry_worker, &w[t]), 0);
  }
  for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_join(tid[t], NULL), 0);
  for (int t = 0; t < THREADS; t++) {
    assert_int_equal(w[t].failures, 0);
    for (int round = 0; round < 40; round++) {
      assert_int_equal(w[t].answers[0][round], 1);
      assert_int_equal(w[t].answers[1][round], 0);
    }
  }
  tc_graph_destroy(yes);
  tc_graph_destroy(no);
}

/* ---------------------------------------------------------------------------------
** The checker on wrong maps, and argument errors.
*/
static void checker_rejects_wrong_maps(void **state) {
  (void)state;
  /* 0->1 twice, 1->2, 2->0: automorphism group is trivial (the double arc pins 0). */
  const arc arcs[] = {{0, 1, 1}, {0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  tc_graph *g = graph_of(3, arcs, 4, NULL);
  const int32_t identity[] = {0, 1, 2};
  assert_true(tc_graph_check_isomorphism(g, g, identity));
  const int32_t not_bijective[] = {0, 0, 2}, out_of_range[] = {0, 1, 3}, negative[] = {-1, 1, 2};
  assert_false(tc_graph_check_isomorphism(g, g, not_bijective));
  assert_false(tc_graph_check_isomorphism(g, g, out_of_range));
  assert_false(tc_graph_check_isomorphism(g, g, negative));
  /* The rotation u -> u+1 preserves the underlying cycle but moves the double arc. */
  const int32_t rotation[] = {1, 2, 0};
  assert_false(tc_graph_check_isomorphism(g, g, rotation));
  tc_graph_destroy(g);

  /* Multiplicity: 0->1 x2 / 1->0 x1 vs 0->1 x1 / 1->0 x2; identity no, swap yes. */
  const arc two_one[] = {{0, 1, 1}, {0, 1, 1}, {1, 0, 1}};
  const arc one_two[] = {{0, 1, 1}, {1, 0, 1}, {1, 0, 1}};
  tc_graph *g1 = graph_of(2, two_one, 3, NULL), *g2 = graph_of(2, one_two, 3, NULL);
  const int32_t id2[] = {0, 1}, swap[] = {1, 0};
  assert_false(tc_graph_check_isomorphism(g1, g2, id2));
  assert_true(tc_graph_check_isomorphism(g1, g2, swap));
  tc_graph_destroy(g2);

  /* Same multiplicities, one capacity differs: rejected under every map. */
  const arc heavier[] = {{0, 1, 1}, {0, 1, 2}, {1, 0, 1}};
  g2 = graph_of(2, heavier, 3, NULL);
  assert_false(tc_graph_check_isomorphism(g1, g2, id2));
  assert_false(tc_graph_check_isomorphism(g1, g2, swap));
  tc_graph_destroy(g2);
  /* Different arc counts. */
  g2 = graph_of(2, two_one, 2, NULL);
  assert_false(tc_graph_check_isomorphism(g1, g2, id2));
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);

  /* Kinds: the 3-cycle with a switch at 0 is only mapped onto itself by the identity. */
  const arc cyc[] = {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  const uint8_t k0[] = {TC_NODE_SWITCH, TC_NODE_COMPUTE, TC_NODE_COMPUTE};
  g = graph_of(3, cyc, 3, k0);
  assert_true(tc_graph_check_isomorphism(g, g, identity));
  assert_false(tc_graph_check_isomorphism(g, g, rotation));
  assert_false(tc_graph_check_isomorphism(g, g, NULL));
  assert_false(tc_graph_check_isomorphism(NULL, g, identity));
  tc_graph_destroy(g);
}

static void null_arguments_are_input_errors(void **state) {
  (void)state;
  const arc cyc[] = {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  tc_graph *g = graph_of(3, cyc, 3, NULL);
  tc_error err;
  int found = 5;
  assert_int_equal(tc_graph_isomorphism(g, NULL, &found, NULL, &err), TC_EINPUT);
  assert_int_equal(tc_graph_isomorphism(g, g, NULL, NULL, &err), TC_EINPUT);
  assert_int_equal(tc_graph_reverse_symmetry(NULL, &found, NULL, &err), TC_EINPUT);
  assert_int_equal(tc_graph_isomorphism(g, g, &found, NULL, NULL), TC_OK); /* map and err optional */
  assert_true(found);
  tc_graph_destroy(g);
}

/* ---------------------------------------------------------------------------------
** Automorphism generators: the group they generate is the whole automorphism group.
*/

/* Order of the group the generators generate (n <= ORACLE_MAX_N: elements as base-n codes). */
static int64_t closure_order(const int32_t *gens, int32_t count, int n) {
  enum { MAXE = 40320 };
  static int32_t elems[MAXE][ORACLE_MAX_N];
  static int64_t codes[MAXE];
  int64_t size = 1;
  for (int u = 0; u < n; u++) elems[0][u] = u;
  codes[0] = 0;
  for (int u = 0; u < n; u++) codes[0] = codes[0] * n + u;
  for (int64_t i = 0; i < size; i++)
    for (int32_t k = 0; k < count; k++) {
      int32_t z[ORACLE_MAX_N];
      int64_t code = 0;
      for (int u = 0; u < n; u++) z[u] = gens[k * n + elems[i][u]], code = code * n + z[u];
      int64_t j = 0;
      while (j < size && codes[j] != code) j++;
      if (j < size) continue;
      assert_true(size < MAXE);
      memcpy(elems[size], z, sizeof z);
      codes[size++] = code;
    }
  return size;
}

static void automorphism_generators_generate_the_group(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 777);
  int nontrivial = 0;
  for (int trial = 0; trial < 300; trial++) {
    int n = 1 + (int)tci_rng_below(&r, 6);
    int m = (int)tci_rng_below(&r, (uint64_t)(2 * n + 1));
    tc_graph *g = random_small_graph(&r, n, m, tci_rng_below(&r, 2) == 0, tci_rng_below(&r, 3) == 0);
    arc_table a;
    tabulate(g, 0, &a);
    int64_t want = 0;
    int32_t p[ORACLE_MAX_N];
    for (int i = 0; i < n; i++) p[i] = i;
    do want += oracle_accepts(&a, &a, p);
    while (next_permutation(p, n));
    int32_t *gens = NULL, count = -1;
    tc_error err;
    if (tc_graph_automorphism_generators(g, &gens, &count, &err)) fail_msg("generators: %s", err.msg);
    for (int32_t k = 0; k < count; k++) assert_true(oracle_accepts(&a, &a, gens + (int64_t)k * n));
    if (closure_order(gens, count, n) != want)
      fail_msg("trial %d (n %d, m %d): generators give %lld automorphisms, the oracle counts %lld", trial, n, m,
               (long long)closure_order(gens, count, n), (long long)want);
    nontrivial += want > 1;
    free(gens);
    tc_graph_destroy(g);
  }
  assert_true(nontrivial > 50); /* the test saw real groups, not only trivial ones */
  /* the directed 7-cycle: Z_7 exactly (closed form) */
  tc_graph *c7 = affine_graph(7, 1, 1, 1, 1);
  int32_t *gens = NULL, count = 0;
  tc_error err;
  assert_int_equal(tc_graph_automorphism_generators(c7, &gens, &count, &err), TC_OK);
  assert_int_equal(closure_order(gens, count, 7), 7);
  free(gens);
  tc_graph_destroy(c7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_pairs_agree_with_brute_force),
      cmocka_unit_test(capacities_loops_and_kinds_distinguish),
      cmocka_unit_test(large_relabelled_copies_are_found),
      cmocka_unit_test(directed_cycle_is_reverse_symmetric),
      cmocka_unit_test(de_bruijn_2_3_is_reverse_symmetric),
      cmocka_unit_test(generalized_kautz_reverse_symmetry_varies),
      cmocka_unit_test(bidirectional_graph_gets_identity),
      cmocka_unit_test(de_bruijn_1024_is_reverse_symmetric),
      cmocka_unit_test(concurrent_calls_agree),
      cmocka_unit_test(checker_rejects_wrong_maps),
      cmocka_unit_test(automorphism_generators_generate_the_group),
      cmocka_unit_test(null_arguments_are_input_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
