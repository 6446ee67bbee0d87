/*
** test_topo_kautz.c — the word-digraph families: Kautz K(d,n), generalized Kautz Π_{d,m}
** (Imase–Itoh) and de Bruijn B(d,n).
**
** Expected values come from the papers (cited at each check), from closed forms, and from
** brute-force oracles written here independently of the generators: the arc rule evaluated
** naively, word manipulation on the Kautz labels, a backtracking search for G ≅ G^T, and a
** direct count of the residues that carry a self-loop. Isomorphisms with other families
** go through iso.h (igraph BLISS, every map re-checked).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/expand.h"
#include "topocoll/iso.h"
#include "topocoll/metrics.h"
#include "topocoll/topo.h"

/* ---------------------------------------------------------------- helpers */

static int64_t ipow(int64_t b, int64_t e) {
  int64_t p = 1;
  while (e-- > 0) p *= b;
  return p;
}

/* Smallest k with d^k >= m (d >= 2): the Imase–Itoh diameter bound ceil(log_d m). */
static int32_t ceil_log(int64_t d, int64_t m) {
  int32_t k = 0;
  for (int64_t p = 1; p < m; p *= d) k++;
  return k;
}

static int32_t diameter_of(const tc_graph *g) {
  int32_t diam = -2;
  tc_error err;
  assert_int_equal(tc_graph_diameter(g, &diam, &err), TC_OK);
  return diam;
}

/* Diameter from one BFS per source (-1 if some node is unreachable). Used for the many
   small graphs of the Imase–Itoh sweep, where one BFS per node is cheaper than starting
   the all-pairs routine's thread team hundreds of times. */
static int32_t diameter_by_bfs(const tc_graph *g) {
  int32_t *dist = malloc((size_t)g->n * sizeof *dist), diam = 0;
  tc_error err;
  for (int32_t u = 0; u < g->n && diam >= 0; u++) {
    assert_int_equal(tc_graph_bfs(g, u, TC_OUT, dist, &err), TC_OK);
    for (int32_t v = 0; v < g->n; v++) {
      if (dist[v] < 0) {
        diam = -1;
        break;
      }
      if (dist[v] > diam) diam = dist[v];
    }
  }
  free(dist);
  return diam;
}

static tc_graph *genkautz(int64_t d, int64_t m, tc_loop_policy loops) {
  tc_graph *g = NULL;
  tc_error err;
  int rc = tc_topo_genkautz(d, m, loops, &g, &err);
  if (rc) fail_msg("genkautz(%lld,%lld): %s", (long long)d, (long long)m, err.msg);
  return g;
}

static tc_graph *kautz(int64_t d, int64_t n) {
  tc_graph *g = NULL;
  tc_error err;
  int rc = tc_topo_kautz(d, n, &g, &err);
  if (rc) fail_msg("kautz(%lld,%lld): %s", (long long)d, (long long)n, err.msg);
  return g;
}

static tc_graph *debruijn(int64_t d, int64_t n) {
  tc_graph *g = NULL;
  tc_error err;
  int rc = tc_topo_debruijn(d, n, &g, &err);
  if (rc) fail_msg("debruijn(%lld,%lld): %s", (long long)d, (long long)n, err.msg);
  return g;
}

/* Residues x of Z_m with (d+1)x ≡ -a (mod m) for some a in 1..d, counted directly. */
static int64_t brute_loop_count(int64_t d, int64_t m) {
  int64_t k = 0;
  for (int64_t x = 0; x < m; x++)
    for (int64_t a = 1; a <= d; a++)
      if (((d + 1) * x + a) % m == 0) {
        k++;
        break;
      }
  return k;
}

static int isomorphic(const tc_graph *a, const tc_graph *b) {
  int found = -1;
  tc_error err;
  int rc = tc_graph_isomorphism(a, b, &found, NULL, &err);
  if (rc) fail_msg("tc_graph_isomorphism: %s", err.msg);
  return found;
}

static int reverse_symmetric_iso(const tc_graph *g) {
  int found = -1;
  tc_error err;
  int rc = tc_graph_reverse_symmetry(g, &found, NULL, &err);
  if (rc) fail_msg("tc_graph_reverse_symmetry: %s", err.msg);
  return found;
}

/* ------------------------------------------- backtracking oracle for G ≅ G^T
   Nodes are placed in undirected BFS order, so every node after a component's root has an
   already placed parent and only the <= d neighbours of the parent's image are tried. A
   candidate is accepted when the multiplicities to and from every placed node (and its
   own loop count) agree. Exhaustive, so "not found" is a proof for the small m used. */

typedef struct rs_search {
  const tc_graph *g, *t;
  int32_t n;
  int32_t *order, *parent, *map;
  int8_t *parent_is_src, *used;
} rs_search;

static void bfs_order(rs_search *s) {
  int8_t *seen = calloc((size_t)s->n, 1);
  int32_t head = 0, tail = 0;
  for (int32_t root = 0; root < s->n; root++) {
    if (seen[root]) continue;
    seen[root] = 1;
    s->parent[tail] = -1;
    s->order[tail++] = root;
    while (head < tail) {
      int32_t u = s->order[head];
      int32_t upos = head++;
      for (int64_t a = s->g->out_off[u]; a < s->g->out_off[u + 1]; a++) {
        int32_t v = s->g->dst[a];
        if (seen[v]) continue;
        seen[v] = 1;
        s->parent[tail] = upos;
        s->parent_is_src[tail] = 1; /* arc parent -> v */
        s->order[tail++] = v;
      }
      for (int64_t i = s->g->in_off[u]; i < s->g->in_off[u + 1]; i++) {
        int32_t v = s->g->src[s->g->in_arc[i]];
        if (seen[v]) continue;
        seen[v] = 1;
        s->parent[tail] = upos;
        s->parent_is_src[tail] = 0; /* arc v -> parent */
        s->order[tail++] = v;
      }
    }
  }
  free(seen);
}

static int consistent(const rs_search *s, int32_t k, int32_t c) {
  int32_t v = s->order[k];
  if (tc_graph_arc_multiplicity(s->g, v, v) != tc_graph_arc_multiplicity(s->t, c, c)) return 0;
  for (int32_t j = 0; j < k; j++) {
    int32_t w = s->order[j], fw = s->map[w];
    if (tc_graph_arc_multiplicity(s->g, v, w) != tc_graph_arc_multiplicity(s->t, c, fw)) return 0;
    if (tc_graph_arc_multiplicity(s->g, w, v) != tc_graph_arc_multiplicity(s->t, fw, c)) return 0;
  }
  return 1;
}

static int place(rs_search *s, int32_t k) {
  if (k == s->n) return 1;
  int32_t v = s->order[k];
  if (s->parent[k] < 0) { /* component root: any unused image */
    for (int32_t c = 0; c < s->n; c++) {
      if (s->used[c] || !consistent(s, k, c)) continue;
      s->map[v] = c;
      s->used[c] = 1;
      if (place(s, k + 1)) return 1;
      s->used[c] = 0;
    }
    return 0;
  }
  int32_t fp = s->map[s->order[s->parent[k]]];
  /* parent -> v in G must become fp -> c in G^T, and v -> parent becomes c -> fp. */
  int64_t lo = s->parent_is_src[k] ? s->t->out_off[fp] : s->t->in_off[fp];
  int64_t hi = s->parent_is_src[k] ? s->t->out_off[fp + 1] : s->t->in_off[fp + 1];
  for (int64_t i = lo; i < hi; i++) {
    int32_t c = s->parent_is_src[k] ? s->t->dst[i] : s->t->src[s->t->in_arc[i]];
    if (s->used[c] || !consistent(s, k, c)) continue;
    s->map[v] = c;
    s->used[c] = 1;
    if (place(s, k + 1)) return 1;
    s->used[c] = 0;
  }
  return 0;
}

static int reverse_symmetric_brute(const tc_graph *g) {
  tc_graph *t = NULL;
  tc_error err;
  assert_int_equal(tc_graph_transpose(g, &t, &err), TC_OK);
  rs_search s = {.g = g, .t = t, .n = g->n};
  s.order = calloc((size_t)g->n, sizeof *s.order);
  s.parent = calloc((size_t)g->n, sizeof *s.parent);
  s.map = calloc((size_t)g->n, sizeof *s.map);
  s.parent_is_src = calloc((size_t)g->n, 1);
  s.used = calloc((size_t)g->n, 1);
  bfs_order(&s);
  int found = place(&s, 0);
  free(s.order);
  free(s.parent);
  free(s.map);
  free(s.parent_is_src);
  free(s.used);
  tc_graph_destroy(t);
  return found;
}

/* ----------------------------------------------------------------- Kautz */

/* Paper 000 Table 9 row 4, App. F.2: K(d,n) has (d+1)d^n nodes, degree d, no
   loops or multi-arcs, diameter n+1, and is Moore optimal (diameter = T_L*(N,d)). */
static void kautz_size_degree_diameter(void **state) {
  (void)state;
  const int64_t cases[][2] = {{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 6}, {3, 0}, {3, 1}, {3, 2},
                              {3, 4}, {4, 1}, {4, 2}, {4, 3}, {5, 2}, {8, 1}, {8, 2}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int64_t d = cases[i][0], n = cases[i][1], N = (d + 1) * ipow(d, n);
    tc_graph *g = kautz(d, n);
    assert_int_equal(g->n, N);
    assert_int_equal(g->m, N * d);
    assert_int_equal(tc_graph_out_regular(g), d);
    assert_int_equal(tc_graph_in_regular(g), d);
    assert_int_equal(tc_graph_count_self_loops(g), 0);
    assert_int_equal(tc_graph_count_multi_arcs(g), 0);
    assert_int_equal(diameter_of(g), n + 1);
    assert_int_equal(tc_moore_diameter_directed(N, d), n + 1);
    tc_graph_destroy(g);
  }
}

/* Paper 002 §2.1.3: K(d,k) has (d+1)d^(k-1) nodes, so its K(d,2) (diameter 2) has d(d+1):
   6, 12, 20, 72, 272, 1056, 4160 for d = 2, 3, 4, 8, 16, 32, 64. In paper 000's convention
   that is K(d,1). */
static void kautz_paper002_sizes(void **state) {
  (void)state;
  const int64_t d_values[] = {2, 3, 4, 8, 16, 32, 64};
  const int64_t sizes[] = {6, 12, 20, 72, 272, 1056, 4160};
  for (int i = 0; i < 7; i++) {
    tc_graph *g = kautz(d_values[i], 1);
    assert_int_equal(g->n, sizes[i]);
    assert_int_equal(g->m, sizes[i] * d_values[i]); /* |E| = (d+1)d^2 directed edges */
    if (d_values[i] <= 16) assert_int_equal(diameter_of(g), 2);
    tc_graph_destroy(g);
  }
}

static int32_t node_by_label(const tc_graph *g, const char *label) {
  for (int32_t u = 0; u < g->n; u++)
    if (g->label[u] && strcmp(g->label[u], label) == 0) return u;
  fail_msg("no node labelled %s", label);
  return -1;
}

/* Paper 002 §2.1.3's word definition written out (its Fig. 2.1 did not survive extraction):
   the arc list of paper 002's K(2,2) = paper 000's K(2,1),
   nodes {01,02,10,12,20,21}, checked arc for arc through the labels. */
static void kautz_paper002_arc_list(void **state) {
  (void)state;
  const char *arcs[][2] = {{"01", "10"}, {"01", "12"}, {"02", "20"}, {"02", "21"},
                           {"10", "01"}, {"10", "02"}, {"12", "20"}, {"12", "21"},
                           {"20", "01"}, {"20", "02"}, {"21", "10"}, {"21", "12"}};
  const char *order[] = {"01", "02", "10", "12", "20", "21"};
  tc_graph *g = kautz(2, 1);
  assert_int_equal(g->n, 6);
  assert_int_equal(g->m, 12);
  for (int u = 0; u < 6; u++) assert_string_equal(tc_graph_label(g, u), order[u]); /* lexicographic ids */
  for (int i = 0; i < 12; i++)
    assert_int_equal(tc_graph_arc_multiplicity(g, node_by_label(g, arcs[i][0]), node_by_label(g, arcs[i][1])), 1);
  tc_graph_destroy(g);
}

/* The definition, checked on the labels: every label is a word of n+1 letters with
   consecutive letters distinct, labels increase strictly (ids in lexicographic order), and
   u -> v is an arc iff label(v) = label(u) shifted left by one letter plus a new letter. */
static void kautz_words_match_definition(void **state) {
  (void)state;
  const int64_t cases[][2] = {{2, 4}, {3, 3}, {4, 2}};
  for (int i = 0; i < 3; i++) {
    int64_t d = cases[i][0], n = cases[i][1];
    tc_graph *g = kautz(d, n);
    assert_non_null(g->label);
    for (int32_t u = 0; u < g->n; u++) {
      const char *w = g->label[u];
      assert_int_equal((int64_t)strlen(w), n + 1);
      for (int64_t j = 0; j <= n; j++) {
        assert_true(w[j] >= '0' && w[j] <= '0' + d);
        if (j) assert_true(w[j] != w[j - 1]);
      }
      if (u) assert_true(strcmp(g->label[u - 1], w) < 0);
    }
    for (int32_t u = 0; u < g->n; u++)
      for (int32_t v = 0; v < g->n; v++) {
        const char *a = g->label[u], *b = g->label[v];
        int shift = strncmp(a + 1, b, (size_t)n) == 0;
        assert_int_equal(tc_graph_arc_multiplicity(g, u, v), shift);
      }
    tc_graph_destroy(g);
  }
}

/* Letters >= 10 are dot-separated; big graphs carry no labels; d = 1 is the 2-cycle. */
static void kautz_label_forms_and_degenerate_cases(void **state) {
  (void)state;
  tc_graph *g = kautz(10, 1);
  assert_int_equal(g->n, 110);
  assert_string_equal(tc_graph_label(g, 0), "0.1");
  assert_string_equal(tc_graph_label(g, 9), "0.10");
  assert_string_equal(tc_graph_label(g, 10), "1.0");
  assert_string_equal(tc_graph_label(g, 109), "10.9");
  tc_graph_destroy(g);
  g = kautz(2, 16); /* 3 * 2^16 = 196608 nodes: above the 100000-node label cut-off */
  assert_int_equal(g->n, 196608);
  assert_null(g->label);
  tc_graph_destroy(g);
  /* K(1,n) = L^n(K_2) is the 2-cycle for every n, even an absurd one (no long loop). */
  g = kautz(1, 3);
  assert_int_equal(g->n, 2);
  assert_int_equal(g->m, 2);
  assert_string_equal(tc_graph_label(g, 0), "0101");
  assert_string_equal(tc_graph_label(g, 1), "1010");
  tc_graph_destroy(g);
  g = kautz(1, INT64_C(1000000000000));
  assert_int_equal(g->n, 2);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 1), 1);
  assert_int_equal(tc_graph_arc_multiplicity(g, 1, 0), 1);
  tc_graph_destroy(g);
}

/* Paper 000 Table 9 (row 4, reverse-symmetric ✓): word reversal maps K(d,n) onto its
   transpose: u -> v is an arc iff rev(v) -> rev(u) is. Checked through the labels. */
static void kautz_reverse_symmetric_by_word_reversal(void **state) {
  (void)state;
  const int64_t cases[][2] = {{2, 3}, {3, 2}, {4, 1}};
  for (int i = 0; i < 3; i++) {
    tc_graph *g = kautz(cases[i][0], cases[i][1]);
    int32_t *rev = malloc((size_t)g->n * sizeof *rev);
    for (int32_t u = 0; u < g->n; u++) {
      char w[16];
      size_t len = strlen(g->label[u]);
      for (size_t j = 0; j < len; j++) w[j] = g->label[u][len - 1 - j];
      w[len] = '\0';
      rev[u] = node_by_label(g, w);
    }
    for (int32_t u = 0; u < g->n; u++)
      for (int32_t v = 0; v < g->n; v++)
        assert_int_equal(tc_graph_arc_multiplicity(g, u, v), tc_graph_arc_multiplicity(g, rev[v], rev[u]));
    assert_true(reverse_symmetric_iso(g));
    free(rev);
    tc_graph_destroy(g);
  }
}

/* Paper 000 Def. 16 (App. F.2): K(d,n) = L^n(K_{d+1}). */
static void kautz_is_line_power_of_complete(void **state) {
  (void)state;
  const int64_t cases[][2] = {{2, 0}, {2, 1}, {2, 3}, {3, 2}, {4, 2}};
  tc_error err;
  for (int i = 0; i < 5; i++) {
    int64_t d = cases[i][0], n = cases[i][1];
    tc_graph *complete = NULL, *line = NULL, *g = kautz(d, n);
    assert_int_equal(tc_topo_complete(d + 1, &complete, &err), TC_OK);
    assert_int_equal(tc_graph_line_power(complete, n, &line, &err), TC_OK);
    assert_int_equal(line->n, g->n);
    assert_true(isomorphic(g, line));
    tc_graph_destroy(complete);
    tc_graph_destroy(line);
    tc_graph_destroy(g);
  }
}

/* ------------------------------------------------------- generalized Kautz */

/* Paper 000 Def. 16 evaluated naively: mult(x,y) = #{a in 1..d : d*x + a + y ≡ 0 mod m}. */
static void genkautz_matches_definition(void **state) {
  (void)state;
  for (int64_t d = 1; d <= 5; d++)
    for (int64_t m = d + 1; m <= 40; m++) {
      tc_graph *g = genkautz(d, m, TC_LOOPS_KEEP);
      assert_int_equal(g->n, m);
      assert_int_equal(g->m, d * m);
      for (int64_t x = 0; x < m; x++)
        for (int64_t y = 0; y < m; y++) {
          int64_t expect = 0;
          for (int64_t a = 1; a <= d; a++) expect += (d * x + a + y) % m == 0;
          assert_int_equal(tc_graph_arc_multiplicity(g, (int32_t)x, (int32_t)y), expect);
        }
      tc_graph_destroy(g);
    }
}

/* Paper 000 Table 9 row 5: degree d with loops counted (KEEP), never a multi-arc; for
   m = d+1 it is the complete digraph K_{d+1} (diameter 1). */
static void genkautz_regular_and_smallest_case(void **state) {
  (void)state;
  for (int64_t d = 2; d <= 6; d++) {
    tc_graph *g = genkautz(d, d + 1, TC_LOOPS_KEEP);
    assert_int_equal(tc_graph_count_self_loops(g), 0);
    for (int32_t u = 0; u <= d; u++)
      for (int32_t v = 0; v <= d; v++) assert_int_equal(tc_graph_arc_multiplicity(g, u, v), u != v);
    assert_int_equal(diameter_of(g), 1);
    tc_graph_destroy(g);
    for (int64_t m = d + 1; m <= 60; m++) {
      g = genkautz(d, m, TC_LOOPS_KEEP);
      assert_int_equal(tc_graph_out_regular(g), d);
      assert_int_equal(tc_graph_in_regular(g), d);
      assert_int_equal(tc_graph_count_multi_arcs(g), 0);
      tc_graph_destroy(g);
    }
  }
}

/* Imase–Itoh (paper 000 ref. [36], as the proof of Thm 21 in App. G uses it):
   D(Π_{d,m}) <= ceil(log_d m), every m in d+1..300, d = 2, 3, 4; and Π is strongly
   connected. */
static void genkautz_diameter_bound(void **state) {
  (void)state;
  for (int64_t d = 2; d <= 4; d++)
    for (int64_t m = d + 1; m <= 300; m++) {
      tc_graph *g = genkautz(d, m, TC_LOOPS_KEEP);
      int32_t diam = diameter_by_bfs(g);
      assert_true(diam >= 1); /* -1 would mean not strongly connected */
      if (diam > ceil_log(d, m)) fail_msg("D(Pi_{%lld,%lld}) = %d > %d", (long long)d, (long long)m, diam, ceil_log(d, m));
      tc_graph_destroy(g);
    }
}

/* Table 9 row 5 (loops when m mod (d+1) != 0), made exact from Def. 16: the looped nodes
   are the x with (d+1)x ≡ -a (mod m), a in 1..d, one loop each, none when (d+1) | m; DROP
   removes exactly those arcs and leaves looped nodes with degree d-1. */
static void genkautz_self_loops(void **state) {
  (void)state;
  for (int64_t d = 1; d <= 5; d++)
    for (int64_t m = d + 1; m <= 200; m++) {
      tc_graph *keep = genkautz(d, m, TC_LOOPS_KEEP), *drop = genkautz(d, m, TC_LOOPS_DROP);
      int64_t loops = brute_loop_count(d, m);
      assert_int_equal(tc_graph_count_self_loops(keep), loops);
      if (m % (d + 1) == 0) assert_int_equal(loops, 0);
      assert_int_equal(drop->m, keep->m - loops);
      assert_int_equal(tc_graph_count_self_loops(drop), 0);
      for (int32_t x = 0; x < m; x++) {
        int64_t looped = tc_graph_arc_multiplicity(keep, x, x);
        assert_true(looped <= 1);
        assert_int_equal(tc_graph_out_degree(drop, x), d - looped);
        assert_int_equal(tc_graph_in_degree(drop, x), d - looped);
      }
      tc_graph_destroy(keep);
      tc_graph_destroy(drop);
    }
}

static void assert_loop_nodes(int64_t d, int64_t m, const int32_t *nodes, int k) {
  tc_graph *g = genkautz(d, m, TC_LOOPS_KEEP);
  assert_int_equal(tc_graph_count_self_loops(g), k);
  for (int i = 0; i < k; i++) assert_int_equal(tc_graph_arc_multiplicity(g, nodes[i], nodes[i]), 1);
  tc_graph_destroy(g);
}

/* Loop counts worked by hand from Def. 16 ((d+1)x ≡ -a mod m, one x per a since
   gcd(d+1, m) = 1 here; no paper prints them): Π_{4,64} has 4; GenKautz(N=8,d=2) and (16,2)
   have 2; (8,4) has them at u = 1, 3, 4, 6 (5x ≡ -a mod 8), (12,4) at u = 2,4,7,9 and
   (16,4) at u = 3,6,9,12. */
static void genkautz_published_loops(void **state) {
  (void)state;
  tc_graph *g = genkautz(4, 64, TC_LOOPS_KEEP);
  assert_int_equal(tc_graph_count_self_loops(g), 4);
  tc_graph_destroy(g);
  g = genkautz(2, 8, TC_LOOPS_KEEP);
  assert_int_equal(tc_graph_count_self_loops(g), 2);
  tc_graph_destroy(g);
  g = genkautz(2, 16, TC_LOOPS_KEEP);
  assert_int_equal(tc_graph_count_self_loops(g), 2);
  tc_graph_destroy(g);
  const int32_t l8[] = {1, 3, 4, 6}, l12[] = {2, 4, 7, 9}, l16[] = {3, 6, 9, 12};
  assert_loop_nodes(4, 8, l8, 4);
  assert_loop_nodes(4, 12, l12, 4);
  assert_loop_nodes(4, 16, l16, 4);
}

/* Small GenKautz(N,d) instances of the kind paper 003 §5.4 evaluates, with loops dropped
   (one reading; the paper does not say): arcs |E|, diameter and the sum of distances over
   ordered pairs. The paper prints none of these (its GenKautz results are only plotted,
   Figs. 7-10); the values come from a separate exact computation made outside this code. */
static void genkautz_paper003_instances(void **state) {
  (void)state;
  const int64_t rows[][5] = {/* N, d, |E|, diameter, sum of distances */
                             {8, 2, 14, 3, 118},  {12, 2, 24, 3, 306}, {16, 2, 30, 4, 680},
                             {8, 3, 24, 2, 88},   {12, 3, 36, 2, 228}, {16, 3, 48, 3, 520},
                             {10, 4, 40, 2, 140}, {12, 4, 44, 2, 220}, {16, 4, 60, 2, 420}};
  for (int i = 0; i < 9; i++) {
    tc_graph *g = genkautz(rows[i][1], rows[i][0], TC_LOOPS_DROP);
    tc_distance_stats st;
    tc_error err;
    assert_int_equal(g->m, rows[i][2]);
    assert_int_equal(tc_graph_distance_stats(g, &st, &err), TC_OK);
    assert_true(st.strongly_connected);
    assert_int_equal(st.diameter, rows[i][3]);
    assert_int_equal(st.distance_sum, rows[i][4]);
    tc_distance_stats_destroy(&st);
    tc_graph_destroy(g);
  }
}

/* Paper 000 Def. 16: Π_{d,m} with m = d^{n+1} + d^n is K(d,n); with m = d^n it is the de
   Bruijn graph B(d,n) (Imase–Itoh, paper 000 ref. [36]; loops kept on both sides). */
static void genkautz_special_sizes(void **state) {
  (void)state;
  const int64_t kautz_cases[][2] = {{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 2}, {4, 3}};
  for (int i = 0; i < 7; i++) {
    int64_t d = kautz_cases[i][0], n = kautz_cases[i][1];
    tc_graph *p = genkautz(d, ipow(d, n + 1) + ipow(d, n), TC_LOOPS_KEEP), *k = kautz(d, n);
    assert_int_equal(tc_graph_count_self_loops(p), 0); /* (d+1) | m */
    assert_true(isomorphic(p, k));
    tc_graph_destroy(p);
    tc_graph_destroy(k);
  }
  const int64_t db_cases[][2] = {{2, 3}, {2, 4}, {2, 5}, {3, 2}, {3, 3}, {4, 2}, {4, 3}};
  for (int i = 0; i < 7; i++) {
    int64_t d = db_cases[i][0], n = db_cases[i][1];
    tc_graph *p = genkautz(d, ipow(d, n), TC_LOOPS_KEEP), *b = debruijn(d, n);
    assert_true(isomorphic(p, b));
    tc_graph_destroy(p);
    tc_graph_destroy(b);
  }
}

/* Paper 000 Table 9 row 5 (Π not reverse-symmetric, except at Kautz, de Bruijn and other
   special sizes): the backtracking oracle decides G ≅ G^T exhaustively for m <= 24, and
   iso.h must agree on every one. Spot checks: Π_{2,5}, Π_{2,7}, Π_{3,5}, Π_{4,7} are not
   reverse-symmetric; Π_{2,6} = K(2,1), Π_{2,8} = B(2,3), Π_{3,9} = B(3,2) are. */
static void genkautz_reverse_symmetry(void **state) {
  (void)state;
  const int64_t no[][2] = {{2, 5}, {2, 7}, {3, 5}, {4, 7}};
  const int64_t yes[][2] = {{2, 6}, {2, 8}, {3, 9}, {4, 20}};
  for (int i = 0; i < 4; i++) {
    tc_graph *g = genkautz(no[i][0], no[i][1], TC_LOOPS_KEEP);
    assert_false(reverse_symmetric_brute(g));
    tc_graph_destroy(g);
    g = genkautz(yes[i][0], yes[i][1], TC_LOOPS_KEEP);
    assert_true(reverse_symmetric_brute(g));
    tc_graph_destroy(g);
  }
  for (int64_t d = 2; d <= 4; d++)
    for (int64_t m = d + 1; m <= 24; m++) {
      tc_graph *g = genkautz(d, m, TC_LOOPS_KEEP);
      int brute = reverse_symmetric_brute(g);
      if (reverse_symmetric_iso(g) != brute)
        fail_msg("reverse symmetry of Pi_{%lld,%lld}: iso.h disagrees with brute force (%d)", (long long)d,
                 (long long)m, brute);
      tc_graph_destroy(g);
    }
}

/* Large instance: 10^6 nodes, 4*10^6 arcs, spot-checked against the definition. Its build
   time is measured by bench/bench_graph.c, not asserted here: tests never time things. */
static void genkautz_large(void **state) {
  (void)state;
  tc_graph *g = genkautz(4, 1000000, TC_LOOPS_KEEP);
  assert_int_equal(g->n, 1000000);
  assert_int_equal(g->m, 4000000);
  assert_int_equal(tc_graph_out_regular(g), 4);
  assert_int_equal(tc_graph_in_regular(g), 4);
  assert_int_equal(tc_graph_count_self_loops(g), 0); /* 5 | 10^6 */
  const int64_t xs[] = {0, 1, 249999, 250000, 500001, 999999};
  for (int i = 0; i < 6; i++)
    for (int64_t a = 1; a <= 4; a++) {
      int64_t y = ((-(4 * xs[i] + a)) % 1000000 + 1000000) % 1000000;
      assert_int_equal(tc_graph_arc_multiplicity(g, (int32_t)xs[i], (int32_t)y), 1);
    }
  tc_graph_destroy(g);
}

/* ------------------------------------------------------------- de Bruijn */

static int64_t reverse_digits(int64_t x, int64_t d, int64_t n) {
  int64_t r = 0;
  for (int64_t i = 0; i < n; i++) {
    r = r * d + x % d;
    x /= d;
  }
  return r;
}

/* Paper 000 Table 9 row 11, with the standard word definition: d^n nodes, degree d,
   diameter n, exactly d self-loops (the constant words), no multi-arcs, arcs
   x -> shift(x)+a, and reverse-symmetric via word reversal; DBJ(4,4) (Table 7) has
   diameter 4. */
static void debruijn_properties(void **state) {
  (void)state;
  const int64_t cases[][2] = {{2, 1}, {2, 3}, {2, 6}, {3, 2}, {3, 4}, {4, 4}, {5, 3}};
  for (int i = 0; i < 7; i++) {
    int64_t d = cases[i][0], n = cases[i][1], N = ipow(d, n);
    tc_graph *g = debruijn(d, n);
    assert_int_equal(g->n, N);
    assert_int_equal(g->m, N * d);
    assert_int_equal(tc_graph_out_regular(g), d);
    assert_int_equal(tc_graph_in_regular(g), d);
    assert_int_equal(tc_graph_count_self_loops(g), d);
    assert_int_equal(tc_graph_count_multi_arcs(g), 0);
    assert_int_equal(diameter_of(g), n);
    for (int64_t x = 0; x < N; x++) {
      int64_t shifted = (x % (N / d)) * d; /* drop the leading letter, append a zero */
      for (int64_t a = 0; a < d; a++) assert_int_equal(tc_graph_arc_multiplicity(g, (int32_t)x, (int32_t)(shifted + a)), 1);
    }
    if (N <= 1024) {
      for (int64_t u = 0; u < N; u++)
        for (int64_t v = 0; v < N; v++)
          assert_int_equal(tc_graph_arc_multiplicity(g, (int32_t)u, (int32_t)v),
                           tc_graph_arc_multiplicity(g, (int32_t)reverse_digits(v, d, n), (int32_t)reverse_digits(u, d, n)));
    }
    tc_graph_destroy(g);
  }
  /* Degenerate sizes the formula still defines: one node carrying d loops. */
  tc_graph *g = debruijn(3, 0);
  assert_int_equal(g->n, 1);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 0), 3);
  tc_graph_destroy(g);
  g = debruijn(1, INT64_C(1000000000000));
  assert_int_equal(g->n, 1);
  assert_int_equal(g->m, 1);
  tc_graph_destroy(g);
}

/* ---------------------------------------------------------------- errors */

static void expect_error(int rc, tc_graph *g, const tc_error *err, int code, const char *fragment) {
  assert_int_equal(rc, code);
  assert_null(g);
  if (!strstr(err->msg, fragment)) fail_msg("message \"%s\" lacks \"%s\"", err->msg, fragment);
  assert_null(strchr(err->msg, '\n'));
}

static void bad_parameters(void **state) {
  (void)state;
  tc_graph *g = (tc_graph *)&g; /* any non-NULL value: failures must reset it */
  tc_error err;
  int rc;
  rc = tc_topo_genkautz(0, 5, TC_LOOPS_KEEP, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "genkautz: d must be >= 1 (got 0)");
  rc = tc_topo_genkautz(4, 4, TC_LOOPS_KEEP, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "m must be >= d+1");
  rc = tc_topo_genkautz(INT64_MAX, INT64_MAX, TC_LOOPS_KEEP, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "m must be >= d+1");
  rc = tc_topo_genkautz(2, 10, (tc_loop_policy)7, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "self-loop policy");
  rc = tc_topo_genkautz(2, (int64_t)TC_MAX_NODES + 1, TC_LOOPS_KEEP, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "node limit");
  int64_t m_many_arcs = TC_MAX_ARCS / 10 + 1; /* fits as nodes, 10 arcs each do not */
  assert_true(m_many_arcs <= TC_MAX_NODES);
  rc = tc_topo_genkautz(10, m_many_arcs, TC_LOOPS_KEEP, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "arc limit");

  rc = tc_topo_kautz(0, 2, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "kautz: d must be >= 1 (got 0)");
  rc = tc_topo_kautz(2, -1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "kautz: n must be >= 0 (got -1)");
  rc = tc_topo_kautz(4, 40, &g, &err); /* 5*4^40 would overflow int64: rejected while counting */
  expect_error(rc, g, &err, TC_ERANGE, "more than");
  rc = tc_topo_kautz(INT64_MAX, 0, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "nodes");
  rc = tc_topo_kautz(2, INT64_MAX, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "nodes");
  /* K(24,4): 25 * 24^4 = 8,294,400 nodes fit, 24 times as many arcs do not. */
  assert_true(25 * ipow(24, 4) <= TC_MAX_NODES && 24 * 25 * ipow(24, 4) > TC_MAX_ARCS);
  rc = tc_topo_kautz(24, 4, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "arcs");

  rc = tc_topo_debruijn(0, 3, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "debruijn: d must be >= 1 (got 0)");
  rc = tc_topo_debruijn(2, -3, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "debruijn: n must be >= 0 (got -3)");
  assert_true(ipow(2, 26) > TC_MAX_NODES);
  rc = tc_topo_debruijn(2, 26, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "nodes");
  rc = tc_topo_debruijn(INT64_MAX, 2, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "nodes");
  /* B(4000,2): 1.6*10^7 nodes fit, 6.4*10^10 arcs do not. */
  assert_true(4000 * 4000 <= TC_MAX_NODES && INT64_C(4000) * 4000 * 4000 > TC_MAX_ARCS);
  rc = tc_topo_debruijn(4000, 2, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "arcs");
  rc = tc_topo_debruijn(INT64_MAX, 0, &g, &err); /* one node, INT64_MAX loops */
  expect_error(rc, g, &err, TC_ERANGE, "arcs");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kautz_size_degree_diameter),
      cmocka_unit_test(kautz_paper002_sizes),
      cmocka_unit_test(kautz_paper002_arc_list),
      cmocka_unit_test(kautz_words_match_definition),
      cmocka_unit_test(kautz_label_forms_and_degenerate_cases),
      cmocka_unit_test(kautz_reverse_symmetric_by_word_reversal),
      cmocka_unit_test(kautz_is_line_power_of_complete),
      cmocka_unit_test(genkautz_matches_definition),
      cmocka_unit_test(genkautz_regular_and_smallest_case),
      cmocka_unit_test(genkautz_diameter_bound),
      cmocka_unit_test(genkautz_self_loops),
      cmocka_unit_test(genkautz_published_loops),
      cmocka_unit_test(genkautz_paper003_instances),
      cmocka_unit_test(genkautz_special_sizes),
      cmocka_unit_test(genkautz_reverse_symmetry),
      cmocka_unit_test(genkautz_large),
      cmocka_unit_test(debruijn_properties),
      cmocka_unit_test(bad_parameters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
