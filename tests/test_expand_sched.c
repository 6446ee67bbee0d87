/*
** test_expand_sched.c — allgather schedules of expanded topologies, constructed from a base
** schedule (paper 000 §5, App. D, Table 3): line graph (Def. 1), degree expansion
** (Def. 2), Cartesian power (Def. 14), products by BFB (Thm 13), and the stored Diamond /
** DBJMod schedules they start from (fig_schedules.h).
**
** Every schedule built here passes tc_schedule_verify and is measured by tc_schedule_cost;
** the measured (T_L, tau) are compared exactly (rationals) with:
**   - Thm 10 / Cor 10.1: L^n of a base with the optimal BFB schedule and >= 2 distinct
**     out-neighbours per node: T_L + n steps, tau + (d/(d-1))(1/N - 1/(d^n N)); and with the
**     optimal BFB schedule computed directly on L^n(G) (Thm 10: they are the same optimum);
**   - Thm 7 / Cor 7.1 bounds for non-BFB bases (Diamond, DBJMod) and for bases outside
**     Thm 10's hypotheses (parallel arcs, one out-neighbour, self-loops);
**   - Thm 11 / Cor 11.1 (degree expansion), Thm 12 / Cor 12.1 (power), Thm 13 (product);
**   - paper 000 Table 7, each printed 3-decimal tau read as the exact value the row's
**     theorem gives (the theorem is cited where the row is used);
**   - the definitions themselves: Def. 1's tuples on K_{2,2} (Fig. 2) by a literal
**     re-enumeration, Fig. 4's twin exchange for UniRing(1,4)*2, Def. 14's shape (each
**     transfer moves one coordinate, the one its sub-schedule visits in that phase);
**   - K_2^□n and K_3^□2 equal hypercube(n) and hamming(2,3) arc for arc, so the power
**     schedules also run on those graphs;
**   - mutation: dropping one transfer of an expanded schedule makes the verifier fail;
**   - the stored schedules equal their JSON files transfer by transfer (the embedded data
**     is generated, and a stale copy must fail here);
**   - error paths: expanded graphs not built from the base (or with another n / k), loops
**     for degree expansion, non-allgather or malformed base schedules, overflowing sizes.
** Measured values that the paper only bounds are printed (print_message) for the record.
*/
#include <jansson.h>
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/bfb.h"
#include "topocoll/cost.h"
#include "topocoll/expand.h"
#include "topocoll/expand_sched.h"
#include "topocoll/fig_schedules.h"
#include "topocoll/metrics.h"
#include "topocoll/verify.h"

/* ---- exact rationals ------------------------------------------------------------------ */

static tc_rat rat(int64_t num, int64_t den) {
  tc_rat r;
  assert_int_equal(tc_rat_make(num, den, &r, NULL), TC_OK);
  return r;
}
static tc_rat rat_add(tc_rat a, tc_rat b) {
  tc_rat r;
  assert_int_equal(tc_rat_add(a, b, &r, NULL), TC_OK);
  return r;
}
static tc_rat rat_sub(tc_rat a, tc_rat b) {
  tc_rat r;
  assert_int_equal(tc_rat_sub(a, b, &r, NULL), TC_OK);
  return r;
}
static tc_rat rat_mul(tc_rat a, tc_rat b) {
  tc_rat r;
  assert_int_equal(tc_rat_mul(a, b, &r, NULL), TC_OK);
  return r;
}

static void assert_rat_equal(tc_rat got, tc_rat want, const char *what) {
  if (tc_rat_cmp(got, want))
    fail_msg("%s: tau %lld/%lld, want %lld/%lld", what, (long long)got.num, (long long)got.den, (long long)want.num,
             (long long)want.den);
}
static void assert_rat_at_most(tc_rat got, tc_rat bound, const char *what) {
  if (tc_rat_cmp(got, bound) > 0)
    fail_msg("%s: tau %lld/%lld above the bound %lld/%lld", what, (long long)got.num, (long long)got.den,
             (long long)bound.num, (long long)bound.den);
}

static int64_t ipow(int64_t b, int e) {
  int64_t p = 1;
  while (e-- > 0) p *= b;
  return p;
}

/* ---- building and measuring ----------------------------------------------------------- */

/* A verified schedule on its graph, with its measured cost. */
typedef struct sched_on {
  tc_graph *g;
  tc_schedule s;
  tc_cost c;
} sched_on;

static void measure(sched_on *x, const char *what) {
  tc_error err;
  if (tc_schedule_verify(x->g, &x->s, &err)) fail_msg("%s: schedule rejected: %s", what, err.msg);
  if (tc_schedule_cost(x->g, &x->s, &x->c, &err)) fail_msg("%s: cost: %s", what, err.msg);
}

static void sched_on_destroy(sched_on *x) {
  tc_graph_destroy(x->g);
  tc_schedule_destroy(&x->s);
  tc_cost_destroy(&x->c);
  memset(x, 0, sizeof *x);
}

static tc_graph *copy_graph(const tc_graph *g) {
  tc_graph *c = NULL;
  assert_int_equal(tc_graph_copy(g, &c, NULL), TC_OK);
  return c;
}

/* The optimal BFB allgather on g (which the result owns) or on `spec`. */
static sched_on bfb_on_graph(tc_graph *g, const char *what) {
  sched_on x = {.g = g};
  tc_error err;
  if (tc_bfb_allgather(g, &x.s, NULL, &err)) fail_msg("%s: bfb: %s", what, err.msg);
  measure(&x, what);
  return x;
}
static sched_on bfb_on(const char *spec) { return bfb_on_graph(tc_test_spec(spec), spec); }

/* The stored schedule of a figure topology. */
static sched_on stored_on(const char *spec) {
  sched_on x = {.g = tc_test_spec(spec)};
  tc_error err;
  if (tc_fig_schedule(spec, x.g, &x.s, &err)) fail_msg("%s: %s", spec, err.msg);
  measure(&x, spec);
  return x;
}

static sched_on line_of(const sched_on *base, const char *what) {
  sched_on x = {0};
  tc_error err;
  assert_int_equal(tc_graph_line(base->g, &x.g, &err), TC_OK);
  if (tc_schedule_line(base->g, &base->s, x.g, &x.s, &err)) fail_msg("%s: line: %s", what, err.msg);
  measure(&x, what);
  return x;
}

static sched_on degree_of(const sched_on *base, int64_t n, const char *what) {
  sched_on x = {0};
  tc_error err;
  assert_int_equal(tc_graph_degree_expand(base->g, n, &x.g, &err), TC_OK);
  if (tc_schedule_degree(base->g, &base->s, n, x.g, &x.s, &err)) fail_msg("%s: degree: %s", what, err.msg);
  measure(&x, what);
  return x;
}

static sched_on power_of(const sched_on *base, int k, const char *what) {
  sched_on x = {0};
  tc_error err;
  assert_int_equal(tc_graph_power(base->g, k, &x.g, &err), TC_OK);
  if (tc_schedule_power(base->g, &base->s, k, x.g, &x.s, &err)) fail_msg("%s: power: %s", what, err.msg);
  measure(&x, what);
  return x;
}

static int64_t degree_of_graph(const tc_graph *g) {
  int64_t d = tc_graph_out_regular(g);
  assert_true(d >= 1);
  return d;
}

static int32_t diameter_of(const tc_graph *g) {
  int32_t d = -1;
  tc_error err;
  assert_int_equal(tc_graph_diameter(g, &d, &err), TC_OK);
  return d;
}

/* Dropping transfer `at` must break the schedule (none of them is redundant). */
static void assert_drop_breaks(const sched_on *x, int64_t at, const char *what) {
  tc_schedule cut;
  tc_error err;
  assert_int_equal(tc_schedule_copy(&x->s, &cut, &err), TC_OK);
  memmove(&cut.xfer[at], &cut.xfer[at + 1], (size_t)(cut.count - at - 1) * sizeof *cut.xfer);
  cut.count--;
  if (tc_schedule_verify(x->g, &cut, &err) != TC_EFAIL)
    fail_msg("%s: still an allgather without transfer #%lld", what, (long long)at);
  tc_schedule_destroy(&cut);
}

static void assert_fragile(const sched_on *x, const char *what) {
  assert_true(x->s.count > 0);
  assert_drop_breaks(x, 0, what);
  assert_drop_breaks(x, x->s.count / 2, what);
  assert_drop_breaks(x, x->s.count - 1, what);
}

/* ---- formulas of the theorems --------------------------------------------------------- */

/* Cor 10.1 / Cor 7.1: tau + (d/(d-1)) (1/N - 1/(d^n N)); n = 1 is Thm 10 / Thm 7's 1/N. */
static tc_rat line_tau(tc_rat tau, int64_t d, int64_t N, int n) {
  tc_rat gap = rat_sub(rat(1, N), rat(1, ipow(d, n) * N));
  return rat_add(tau, rat_mul(rat(d, d - 1), gap));
}

/* Thm 11: tau + (n-1)/(nN). */
static tc_rat degree_tau(tc_rat tau, int64_t n, int64_t N) { return rat_add(tau, rat(n - 1, n * N)); }

/* Thm 12: tau * N/(N-1) * (N^k - 1)/N^k. */
static tc_rat power_tau(tc_rat tau, int64_t N, int k) {
  return rat_mul(rat_mul(tau, rat(N, N - 1)), rat(ipow(N, k) - 1, ipow(N, k)));
}

/* ---- Definition 1: line graph --------------------------------------------------------- */

/* Thm 10 with the optimal BFB base: T_L + 1 and tau + 1/N exactly, and the result is the
   optimal BFB schedule of L(G), so BFB run on L(G) itself costs the same. Bases: Figure
   3's four (K_{4,4}, K_5, the 6-node directed circulant, H(2,3)) and others, all with at
   least two distinct out-neighbours per node. */
static void line_thm10_bfb_bases(void **state) {
  (void)state;
  const char *bases[] = {"bipartite(4)", "complete(5)",     "circulant(16,3,4)", "hamming(2,3)",
                         "dcirculant(6,1,2,3,4)", "torus(3,3)", "drg(odd4)", "drg(ag24-minus)",
                         "biring(2,7)",  "hypercube(3)",    "kautz(2,2)",        "twistedhypercube(3)"};
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = bfb_on(bases[i]);
    sched_on l = line_of(&base, bases[i]);
    assert_int_equal(l.c.steps, base.c.steps + 1);
    assert_rat_equal(l.c.tau, rat_add(base.c.tau, rat(1, base.g->n)), bases[i]);
    assert_int_equal(l.s.units, base.s.units);
    sched_on direct = bfb_on_graph(copy_graph(l.g), bases[i]);
    assert_int_equal(direct.c.steps, l.c.steps);
    assert_rat_equal(l.c.tau, direct.c.tau, "Thm 10: BFB on L(G)");
    assert_fragile(&l, bases[i]);
    sched_on_destroy(&direct);
    sched_on_destroy(&l);
    sched_on_destroy(&base);
  }
}

/* Cor 10.1 by iterating Def. 1 from the optimal BFB schedule, at every level equal to the
   formula and to BFB on L^n(G), and Table 7 where it has the row (its 3 decimals are those of
   the Cor. 10.1 value). */
static void line_cor101_iterated(void **state) {
  (void)state;
  const struct {
    const char *spec;
    int levels;
    int t7_steps[4]; /* Table 7 or Thm 10 (T_L, tau) of L^n, n = 1..3; 0 = no row */
    int64_t t7_num[4], t7_den[4];
  } bases[] = {
      /* Table 7: L(K_{4,4}) 3, 1; L^2(K_{4,4}) 4, 33/32; L^3(K_{4,4}) 5, 133/128 */
      {"bipartite(4)", 3, {3, 4, 5}, {1, 33, 133}, {1, 32, 128}},
      /* Thm 10 on C(16,{3,4}) (3, 15/16): L 4, 15/16 + 1/16 = 1; Table 7: L^3 6, 261/256 */
      {"circulant(16,3,4)", 3, {4, 0, 6}, {1, 0, 261}, {1, 1, 256}},
      /* Table 7: L(DistReg(4,32)) 5, 1; L^2(DistReg(4,32)) 6, 129/128 */
      {"drg(ag24-minus)", 2, {5, 6}, {1, 129}, {1, 128}},
      {"complete(5)", 2, {0}, {0}, {1, 1}},
      {"hamming(2,3)", 2, {0}, {0}, {1, 1}},
  };
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = bfb_on(bases[i].spec), cur = {0};
    int64_t d = degree_of_graph(base.g), N = base.g->n;
    for (int n = 1; n <= bases[i].levels; n++) {
      char what[96];
      snprintf(what, sizeof what, "L^%d(%s)", n, bases[i].spec);
      sched_on next = line_of(n == 1 ? &base : &cur, what);
      if (n > 1) sched_on_destroy(&cur);
      cur = next;
      assert_int_equal(cur.g->n, ipow(d, n) * N);
      assert_int_equal(cur.c.steps, base.c.steps + n);
      assert_rat_equal(cur.c.tau, line_tau(base.c.tau, d, N, n), what);
      if (bases[i].t7_steps[n - 1]) {
        assert_int_equal(cur.c.steps, bases[i].t7_steps[n - 1]);
        assert_rat_equal(cur.c.tau, rat(bases[i].t7_num[n - 1], bases[i].t7_den[n - 1]), what);
      }
      sched_on direct = bfb_on_graph(copy_graph(cur.g), what);
      assert_int_equal(direct.c.steps, cur.c.steps);
      assert_rat_equal(cur.c.tau, direct.c.tau, "Cor 10.1: BFB on L^n(G)");
      sched_on_destroy(&direct);
    }
    sched_on_destroy(&cur);
    sched_on_destroy(&base);
  }
}

/* Thm 7 / Cor 7.1 bounds with the stored (BW-optimal, not BFB) schedules as bases. Table
   7: L(DBJMod(4,2)) 4 steps, tau <= 1; L^2(DBJMod(4,2)) 5 steps, tau <= 65/64. */
static void line_thm7_stored_bases(void **state) {
  (void)state;
  const char *bases[] = {"diamond()", "dbjmod(2,3)", "dbjmod(3,2)", "dbjmod(4,2)", "dbjmod(2,4)"};
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = stored_on(bases[i]), l[3] = {{0}};
    int64_t d = degree_of_graph(base.g), N = base.g->n;
    for (int n = 1; n <= 2; n++) {
      char what[96];
      snprintf(what, sizeof what, "L^%d(%s)", n, bases[i]);
      l[n] = line_of(n == 1 ? &base : &l[n - 1], what);
      assert_int_equal(l[n].c.steps, base.c.steps + n);
      tc_rat bound = line_tau(base.c.tau, d, N, n);
      assert_rat_at_most(l[n].c.tau, bound, what);
      /* Thm 7 applied to the previous level, whatever it measured */
      const sched_on *prev = n == 1 ? &base : &l[n - 1];
      assert_rat_at_most(l[n].c.tau, rat_add(prev->c.tau, rat(1, prev->g->n)), what);
      print_message("%s: %d steps, tau %lld/%lld (Cor 7.1 bound %lld/%lld)\n", what, l[n].c.steps,
                    (long long)l[n].c.tau.num, (long long)l[n].c.tau.den, (long long)bound.num, (long long)bound.den);
      if (!strcmp(bases[i], "dbjmod(4,2)")) {
        assert_int_equal(l[n].c.steps, n == 1 ? 4 : 5);
        assert_rat_at_most(l[n].c.tau, n == 1 ? rat(1, 1) : rat(65, 64), "Table 7");
      }
    }
    assert_fragile(&l[1], bases[i]);
    sched_on_destroy(&l[2]);
    sched_on_destroy(&l[1]);
    sched_on_destroy(&base);
  }
}

/* Table 7: Diamond^□2 6 steps, 63/64 (Thm 12); L(Diamond^□2) 7 steps, tau <= 1 (Thm 7);
   L^2(Diamond^□2) 8 steps, tau <= 257/256 (Cor 7.1). */
static void line_of_diamond_power(void **state) {
  (void)state;
  sched_on base = stored_on("diamond()");
  sched_on p = power_of(&base, 2, "Diamond^2");
  assert_int_equal(p.c.steps, 6);
  assert_rat_equal(p.c.tau, rat(63, 64), "Diamond^2");
  sched_on l1 = line_of(&p, "L(Diamond^2)");
  sched_on l2 = line_of(&l1, "L^2(Diamond^2)");
  assert_int_equal(l1.c.steps, 7);
  assert_int_equal(l2.c.steps, 8);
  assert_rat_at_most(l1.c.tau, rat(1, 1), "L(Diamond^2)");
  assert_rat_at_most(l2.c.tau, rat(257, 256), "L^2(Diamond^2)");
  assert_rat_at_most(l2.c.tau, line_tau(p.c.tau, 4, 64, 2), "L^2(Diamond^2), Cor 7.1");
  print_message("L(Diamond^2): %d steps, tau %lld/%lld; L^2(Diamond^2): %d steps, tau %lld/%lld\n", l1.c.steps,
                (long long)l1.c.tau.num, (long long)l1.c.tau.den, l2.c.steps, (long long)l2.c.tau.num,
                (long long)l2.c.tau.den);
  sched_on_destroy(&l2);
  sched_on_destroy(&l1);
  sched_on_destroy(&p);
  sched_on_destroy(&base);
}

/* Table 7: DBJMod(2,4)^□2 10 = 2·5 steps, 255/256 (Thm 12); L(DBJMod(2,4)^□2) 11 steps,
   tau <= 1 (Thm 7). */
static void line_of_dbjmod_power(void **state) {
  (void)state;
  sched_on base = stored_on("dbjmod(2,4)");
  sched_on p = power_of(&base, 2, "DBJMod(2,4)^2");
  assert_int_equal(p.c.steps, 10);
  assert_rat_equal(p.c.tau, rat(255, 256), "DBJMod(2,4)^2");
  sched_on l = line_of(&p, "L(DBJMod(2,4)^2)");
  assert_int_equal(l.g->n, 1024);
  assert_int_equal(l.c.steps, 11);
  assert_rat_at_most(l.c.tau, rat(1, 1), "L(DBJMod(2,4)^2)");
  print_message("L(DBJMod(2,4)^2): %d steps, tau %lld/%lld\n", l.c.steps, (long long)l.c.tau.num,
                (long long)l.c.tau.den);
  sched_on_destroy(&l);
  sched_on_destroy(&p);
  sched_on_destroy(&base);
}

/* Bases outside Thm 10's hypothesis (one distinct out-neighbour, parallel arcs,
   self-loops): Def. 1 still gives a valid allgather in T_L + 1 steps, and Thm 7's bound
   (d-regular, loops counted in d) still holds; the measured values are printed. */
static void line_outside_thm10(void **state) {
  (void)state;
  const char *bases[] = {"uniring(1,5)", "uniring(2,4)", "biring(4,5)", "debruijn(2,3)", "genkautz(2,7)",
                         "debruijn(3,2)"};
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = bfb_on(bases[i]);
    sched_on l1 = line_of(&base, bases[i]);
    sched_on l2 = line_of(&l1, bases[i]);
    assert_int_equal(l1.c.steps, base.c.steps + 1);
    assert_int_equal(l2.c.steps, base.c.steps + 2);
    assert_rat_at_most(l1.c.tau, rat_add(base.c.tau, rat(1, base.g->n)), bases[i]);
    assert_rat_at_most(l2.c.tau, rat_add(l1.c.tau, rat(1, l1.g->n)), bases[i]);
    print_message("%s (tau %lld/%lld): L %lld/%lld, L^2 %lld/%lld\n", bases[i], (long long)base.c.tau.num,
                  (long long)base.c.tau.den, (long long)l1.c.tau.num, (long long)l1.c.tau.den,
                  (long long)l2.c.tau.num, (long long)l2.c.tau.den);
    assert_fragile(&l1, bases[i]);
    sched_on_destroy(&l2);
    sched_on_destroy(&l1);
    sched_on_destroy(&base);
  }
}

static int cmp_transfer(const void *pa, const void *pb) {
  const tc_transfer *a = pa, *b = pb;
  if (a->step != b->step) return a->step < b->step ? -1 : 1;
  if (a->shard != b->shard) return a->shard < b->shard ? -1 : 1;
  if (a->arc != b->arc) return a->arc < b->arc ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return (a->hi > b->hi) - (a->hi < b->hi);
}

/* The arc a -> c of L(G), found by its endpoints (L(G) has no parallel arcs). */
static int64_t line_arc(const tc_graph *lg, int64_t a, int64_t c) {
  for (int64_t x = lg->out_off[a]; x < lg->out_off[a + 1]; x++)
    if (lg->dst[x] == c) return x;
  fail_msg("no arc %lld -> %lld in L(G)", (long long)a, (long long)c);
  return -1;
}

/* Def. 1 re-enumerated literally over all pairs of nodes of L(G): the tuples must be
   exactly those of tc_schedule_line, as a multiset. */
static void assert_definition1(const sched_on *base, const sched_on *l) {
  const tc_graph *g = base->g;
  int64_t count = 0, room = 1024;
  tc_transfer *want = malloc((size_t)room * sizeof *want);
  assert_non_null(want);
#define WANT(...)                                                   \
  do {                                                              \
    if (count == room) {                                            \
      room *= 2;                                                    \
      want = realloc(want, (size_t)room * sizeof *want);            \
      assert_non_null(want);                                        \
    }                                                               \
    want[count++] = (tc_transfer){__VA_ARGS__};                     \
  } while (0)
  /* 1. ((v'v, S), (v'v, vu), 1) for every edge (v'v, vu) of L(G) with v'v != vu */
  for (int64_t a = 0; a < g->m; a++)
    for (int64_t c = 0; c < g->m; c++)
      if (g->dst[a] == g->src[c] && a != c) WANT((int32_t)a, 1, line_arc(l->g, a, c), 0, base->s.units);
  /* 2. ((v'v, C), (uw, ww'), t+1) for each ((v,C),(u,w),t), in-edge v'v, out-edge ww' */
  for (int64_t i = 0; i < base->s.count; i++) {
    const tc_transfer *x = &base->s.xfer[i];
    for (int64_t a = 0; a < g->m; a++)
      for (int64_t c = 0; c < g->m; c++)
        if (g->dst[a] == x->shard && g->src[c] == g->dst[x->arc] && a != c)
          WANT((int32_t)a, x->step + 1, line_arc(l->g, x->arc, c), x->lo, x->hi);
  }
#undef WANT
  assert_int_equal(count, l->s.count);
  tc_transfer *got = malloc((size_t)count * sizeof *got);
  assert_non_null(got);
  memcpy(got, l->s.xfer, (size_t)count * sizeof *got);
  qsort(got, (size_t)count, sizeof *got, cmp_transfer);
  qsort(want, (size_t)count, sizeof *want, cmp_transfer);
  assert_memory_equal(got, want, (size_t)count * sizeof *got);
  free(got);
  free(want);
}

static int64_t arc_between(const tc_graph *g, int32_t u, int32_t v) {
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v) return a;
  fail_msg("no arc %d -> %d", u, v);
  return -1;
}

/* Units of `shard` sent over arc `arc` in step `step`. */
static int64_t units_sent(const tc_schedule *s, int32_t shard, int64_t arc, int32_t step) {
  int64_t total = 0;
  for (int64_t i = 0; i < s->count; i++)
    if (s->xfer[i].shard == shard && s->xfer[i].arc == arc && s->xfer[i].step == step)
      total += s->xfer[i].hi - s->xfer[i].lo;
  return total;
}

/* Fig. 2 (K_{2,2}, sides {a,b} = {0,1} and {c,d} = {2,3}) and small bases with parallel
   arcs and self-loops, against the literal Def. 1. */
static void line_definition1_literal(void **state) {
  (void)state;
  const char *bases[] = {"bipartite(2)", "uniring(2,3)", "debruijn(2,2)", "dcirculant(5,1,2)", "complete(3)"};
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = bfb_on(bases[i]);
    sched_on l = line_of(&base, bases[i]);
    assert_definition1(&base, &l);
    if (i == 0) {
      /* Fig. 1: K_{2,2} T_L 2, tau 3/4; Fig. 2's tuples of node ca. */
      assert_int_equal(base.c.steps, 2);
      assert_rat_equal(base.c.tau, rat(3, 4), "K_{2,2}");
      const tc_graph *g = base.g;
      int64_t ca = arc_between(g, 2, 0), ac = arc_between(g, 0, 2), ad = arc_between(g, 0, 3);
      int64_t cb = arc_between(g, 2, 1), bc = arc_between(g, 1, 2), bd = arc_between(g, 1, 3);
      int64_t U = l.s.units;
      assert_int_equal(units_sent(&l.s, (int32_t)ca, line_arc(l.g, ca, ac), 1), U);
      assert_int_equal(units_sent(&l.s, (int32_t)ca, line_arc(l.g, ca, ad), 1), U);
      /* base ((a, C1), (c, b), 2) -> ((ca, C1), (cb, bc), 3) and ((ca, C1), (cb, bd), 3) */
      int64_t c1 = units_sent(&base.s, 0, cb, 2);
      assert_true(c1 > 0 && c1 < U);
      assert_int_equal(units_sent(&l.s, (int32_t)ca, line_arc(l.g, cb, bc), 3), c1);
      assert_int_equal(units_sent(&l.s, (int32_t)ca, line_arc(l.g, cb, bd), 3), c1);
    }
    sched_on_destroy(&l);
    sched_on_destroy(&base);
  }
}

/* ---- Definition 2: degree expansion --------------------------------------------------- */

/* Thm 11: T_L + 1, tau + (n-1)/(nN) exactly; Cor 11.1: BW-optimal stays BW-optimal. n = 1
   gives the base schedule back. */
static void degree_thm11(void **state) {
  (void)state;
  const struct {
    const char *spec;
    int stored;
  } bases[] = {{"uniring(1,4)", 0}, {"uniring(2,3)", 0},   {"circulant(16,3,4)", 0},     {"bipartite(4)", 0},
               {"torus(3,3)", 0},   {"complete(5)", 0},    {"dcirculant(6,1,2,3,4)", 0}, {"biring(2,5)", 0},
               {"kautz(2,2)", 0},   {"diamond()", 1},      {"dbjmod(3,2)", 1}};
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = bases[i].stored ? stored_on(bases[i].spec) : bfb_on(bases[i].spec);
    int64_t N = base.g->n;
    for (int64_t n = 1; n <= 3; n++) {
      char what[96];
      snprintf(what, sizeof what, "%s*%lld", bases[i].spec, (long long)n);
      sched_on x = degree_of(&base, n, what);
      assert_int_equal(x.g->n, n * N);
      if (n == 1) {
        assert_int_equal(x.c.steps, base.c.steps);
        assert_rat_equal(x.c.tau, base.c.tau, what);
        assert_int_equal(x.s.count, base.s.count);
      } else {
        assert_int_equal(x.c.steps, base.c.steps + 1);
        assert_rat_equal(x.c.tau, degree_tau(base.c.tau, n, N), what);
        if (base.c.bw_optimal) {
          assert_true(x.c.bw_optimal);
          assert_rat_equal(x.c.tau, rat(n * N - 1, n * N), what);
        }
        assert_fragile(&x, what);
      }
      sched_on_destroy(&x);
    }
    sched_on_destroy(&base);
  }
}

/* Fig. 4: UniRing(1,4)*2, nodes a..d = 0..3 (copy 1) and 4..7 (copy 2): 8 nodes, degree 2,
   T_L 3 + 1, tau 3/4 + 1/8 = 7/8. Paths a_1 -> b_1 -> c_2 and a_2 -> b_2 -> c_2 -> d_1;
   in the last step d_1 and d_2 each send half of a_1's shard to a_2 and half of a_2's
   to a_1. */
static void degree_fig4(void **state) {
  (void)state;
  sched_on base = bfb_on("uniring(1,4)");
  sched_on x = degree_of(&base, 2, "UniRing(1,4)*2");
  assert_int_equal(x.g->n, 8);
  assert_int_equal(degree_of_graph(x.g), 2);
  assert_int_equal(x.c.steps, 4);
  assert_rat_equal(x.c.tau, rat(7, 8), "Fig. 4");
  int64_t U = x.s.units;
  const tc_graph *g = x.g;
  /* the ring has one arc per pair, and G*2 one per pair of copies */
  assert_int_equal(units_sent(&x.s, 0, arc_between(g, 1, 6), 2), U); /* a_1 -> b_1 -> c_2 */
  assert_int_equal(units_sent(&x.s, 4, arc_between(g, 6, 3), 3), U); /* a_2 ... c_2 -> d_1 */
  for (int32_t twin = 0; twin <= 4; twin += 4) {
    int32_t other = 4 - twin;
    assert_int_equal(units_sent(&x.s, other, arc_between(g, 3, twin), 4), U / 2);
    assert_int_equal(units_sent(&x.s, other, arc_between(g, 7, twin), 4), U / 2);
  }
  sched_on_destroy(&x);
  sched_on_destroy(&base);
}

/* ---- Definition 14: Cartesian power --------------------------------------------------- */

/* Every transfer of the power schedule moves one coordinate: the one sub-schedule r
   (chunk in [rU, (r+1)U)) visits in phase p (step in pT+1 .. (p+1)T), dimension (r+p) mod
   k; and the shard agrees with the sender on the dimensions r has not visited yet. */
static void assert_definition14_shape(const sched_on *base, const sched_on *x, int k) {
  int64_t N = base->g->n, U = base->s.units, T = base->s.steps;
  assert_int_equal(x->s.units, k * U);
  for (int64_t i = 0; i < x->s.count; i++) {
    const tc_transfer *t = &x->s.xfer[i];
    int64_t r = t->lo / U, p = (t->step - 1) / T;
    assert_true(t->hi <= (r + 1) * U);
    int dim = (int)((r + p) % k);
    int64_t s = x->g->src[t->arc], y = x->g->dst[t->arc], place = 1;
    for (int c = k - 1; c >= 0; place *= N, c--) {
      int64_t ds = s / place % N, dy = y / place % N, dx = t->shard / place % N;
      if (c != dim) assert_int_equal(ds, dy);
      int unvisited = (int)((c - r + k) % k) > p;
      if (unvisited) assert_int_equal(ds, dx);
    }
  }
}

/* Thm 12: k T_L steps and tau * N/(N-1) * (N^k-1)/N^k exactly; Cor 12.1: BW-optimal stays
   BW-optimal. Table 7: Diamond^□2 6 steps, 63/64; DBJMod(2,4)^□2 10 steps, 255/256. */
static void power_thm12(void **state) {
  (void)state;
  const struct {
    const char *spec;
    int stored, kmax;
    int t7_steps;
    int64_t t7_num, t7_den; /* Table 7 row for k = 2, if any */
  } bases[] = {
      {"complete(2)", 0, 4, 0, 0, 1}, {"complete(3)", 0, 2, 0, 0, 1},  {"uniring(1,4)", 0, 3, 0, 0, 1},
      {"biring(2,5)", 0, 2, 0, 0, 1}, {"uniring(2,3)", 0, 2, 0, 0, 1}, {"debruijn(2,2)", 0, 2, 0, 0, 1},
      {"bipartite(2)", 0, 3, 0, 0, 1}, {"kautz(2,1)", 0, 2, 0, 0, 1},
      {"diamond()", 1, 2, 6, 63, 64}, {"dbjmod(2,4)", 1, 2, 10, 255, 256}, {"dbjmod(3,2)", 1, 2, 0, 0, 1},
  };
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    sched_on base = bases[i].stored ? stored_on(bases[i].spec) : bfb_on(bases[i].spec);
    int64_t N = base.g->n;
    for (int k = 1; k <= bases[i].kmax; k++) {
      char what[96];
      snprintf(what, sizeof what, "%s^%d", bases[i].spec, k);
      sched_on x = power_of(&base, k, what);
      assert_int_equal(x.g->n, ipow(N, k));
      assert_int_equal(x.c.steps, k * base.c.steps);
      assert_rat_equal(x.c.tau, power_tau(base.c.tau, N, k), what);
      assert_int_equal(x.c.bw_optimal, base.c.bw_optimal);
      assert_definition14_shape(&base, &x, k);
      if (k == 2 && bases[i].t7_steps) {
        assert_int_equal(x.c.steps, bases[i].t7_steps);
        assert_rat_equal(x.c.tau, rat(bases[i].t7_num, bases[i].t7_den), "Table 7");
      }
      if (x.s.count <= 100000) assert_fragile(&x, what);
      sched_on_destroy(&x);
    }
    sched_on_destroy(&base);
  }
}

static void assert_same_graph(const tc_graph *a, const tc_graph *b) {
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->m, b->m);
  assert_memory_equal(a->src, b->src, (size_t)a->m * sizeof *a->src);
  assert_memory_equal(a->dst, b->dst, (size_t)a->m * sizeof *a->dst);
}

/* Cor 12.1: hypercubes are K_2^□n and Hamming graphs K_q^□n (arc for arc here), so the
   power schedule runs on them: H(n,q) T_L n (Table 9 row 3), tau (q^n-1)/q^n (Thm 12 from
   K_q's 1, (q-1)/q). */
static void power_is_hamming(void **state) {
  (void)state;
  const struct {
    const char *factor, *target;
    int k, q;
  } cases[] = {{"complete(2)", "hypercube(2)", 2, 2}, {"complete(2)", "hypercube(3)", 3, 2},
               {"complete(2)", "hypercube(4)", 4, 2}, {"complete(3)", "hamming(2,3)", 2, 3},
               {"complete(4)", "hamming(2,4)", 2, 4}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sched_on base = bfb_on(cases[i].factor);
    sched_on x = power_of(&base, cases[i].k, cases[i].target);
    tc_graph *h = tc_test_spec(cases[i].target);
    assert_same_graph(x.g, h);
    sched_on on_h = {.g = h};
    tc_error err;
    assert_int_equal(tc_schedule_copy(&x.s, &on_h.s, &err), TC_OK);
    measure(&on_h, cases[i].target);
    int64_t qn = ipow(cases[i].q, cases[i].k);
    assert_int_equal(on_h.c.steps, cases[i].k);
    assert_rat_equal(on_h.c.tau, rat(qn - 1, qn), cases[i].target);
    sched_on_destroy(&on_h);
    sched_on_destroy(&x);
    sched_on_destroy(&base);
  }
}

/* Table 7: (UniRing(1,4) □ UniRing(1,8))^□2, 20 = 2·10 steps, 1023/1024: the base is the
   BFB schedule of the product (Thm 13: 10 steps, 31/32), then Thm 12. */
static void power_of_product_table7(void **state) {
  (void)state;
  sched_on base = bfb_on("product(uniring(1,4),uniring(1,8))");
  assert_int_equal(base.c.steps, 10);
  assert_rat_equal(base.c.tau, rat(31, 32), "UniRing(1,4) x UniRing(1,8)");
  sched_on x = power_of(&base, 2, "(UniRing(1,4) x UniRing(1,8))^2");
  assert_int_equal(x.g->n, 1024);
  assert_int_equal(degree_of_graph(x.g), 4);
  assert_int_equal(x.c.steps, 20);
  assert_rat_equal(x.c.tau, rat(1023, 1024), "Table 7");
  assert_true(x.c.bw_optimal);
  sched_on_destroy(&x);
  sched_on_destroy(&base);
}

/* ---- Theorem 13: products by BFB ------------------------------------------------------ */

/* BFB on a product of factors with BW-optimal BFB schedules: T_L = Σ D(G_i) and
   tau = (N-1)/N. Table 7: BiRing(2,8) □ UniRing(1,4)^□2 10 = 4+3+3 steps, 127/128;
   UniRing(1,4)^□3 □ UniRing(1,8) 16 = 9+7, 511/512; §8.5.2's torus 3x3x2 (K_2) 3, 17/18.
   Table 7's L(UniRing(1,4)^□3 □ UniRing(1,2)): 11 = 3·3+1+1 steps, tau 1 (Thm 13, then
   Thm 10). */
static void product_thm13(void **state) {
  (void)state;
  const struct {
    const char *spec;
    const char *factors[4];
    int t7_steps;
    int64_t t7_den;
  } cases[] = {
      {"product(biring(2,8),power(uniring(1,4),2))", {"biring(2,8)", "uniring(1,4)", "uniring(1,4)"}, 10, 128},
      {"product(power(uniring(1,4),3),uniring(1,8))",
       {"uniring(1,4)", "uniring(1,4)", "uniring(1,4)", "uniring(1,8)"},
       16,
       512},
      {"product(uniring(1,4),uniring(1,8))", {"uniring(1,4)", "uniring(1,8)"}, 10, 32},
      {"product(biring(2,3),biring(2,3),complete(2))", {"biring(2,3)", "biring(2,3)", "complete(2)"}, 3, 18},
      {"product(complete(3),uniring(1,5),biring(2,4))", {"complete(3)", "uniring(1,5)", "biring(2,4)"}, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sched_on x = bfb_on(cases[i].spec);
    int32_t steps = 0;
    for (int f = 0; f < 4 && cases[i].factors[f]; f++) {
      sched_on factor = bfb_on(cases[i].factors[f]);
      assert_true(factor.c.bw_optimal); /* Thm 13's hypothesis */
      steps += diameter_of(factor.g);
      sched_on_destroy(&factor);
    }
    int64_t N = x.g->n;
    assert_int_equal(x.c.steps, steps);
    assert_rat_equal(x.c.tau, rat(N - 1, N), cases[i].spec);
    if (cases[i].t7_steps) {
      assert_int_equal(x.c.steps, cases[i].t7_steps);
      assert_rat_equal(x.c.tau, rat(cases[i].t7_den - 1, cases[i].t7_den), "Table 7");
    }
    sched_on_destroy(&x);
  }
  sched_on base = bfb_on("product(power(uniring(1,4),3),uniring(1,2))");
  assert_int_equal(base.c.steps, 10);
  assert_rat_equal(base.c.tau, rat(127, 128), "UniRing(1,4)^3 x UniRing(1,2)");
  sched_on l = line_of(&base, "L(UniRing(1,4)^3 x UniRing(1,2))");
  assert_int_equal(l.g->n, 512);
  assert_int_equal(l.c.steps, 11);
  assert_rat_equal(l.c.tau, rat(1, 1), "Table 7");
  sched_on_destroy(&l);
  sched_on_destroy(&base);
}

/* ---- stored figure schedules ---------------------------------------------------------- */

static json_t *load_json(const char *spec) {
  char file[64];
  size_t len = 0;
  for (const char *p = spec; *p && len + 6 < sizeof file; p++)
    if (*p == '(' || *p == ',') file[len++] = '_';
    else if (*p != ')') file[len++] = *p;
  while (len && file[len - 1] == '_') len--;
  snprintf(file + len, sizeof file - len, ".json");
  const char *dir = getenv("TC_TEST_DATA");
  assert_non_null(dir);
  char path[1024];
  snprintf(path, sizeof path, "%s/fig_schedules/%s", dir, file);
  json_error_t jerr;
  json_t *doc = json_load_file(path, 0, &jerr);
  if (!doc) fail_msg("cannot read %s: %s", path, jerr.text);
  return doc;
}

/* "p/q" or "p" as units of 1/units. */
static int64_t json_units(json_t *v, int64_t units) {
  const char *s = json_string_value(v);
  assert_non_null(s);
  char *end = NULL;
  int64_t num = strtoll(s, &end, 10), den = 1;
  if (*end == '/') den = strtoll(end + 1, &end, 10);
  assert_int_equal(*end, '\0');
  assert_int_equal(units % den, 0);
  return num * (units / den);
}

/* Every stored schedule is a verified BW-optimal allgather with the listed steps and tau,
   and equals its JSON file transfer by transfer (same order). */
static void fig_schedules_match_files(void **state) {
  (void)state;
  int count = 0;
  const tc_fig_info *list = tc_fig_schedule_list(&count);
  assert_int_equal(count, 5); /* Diamond, DBJMod(2,3), (2,4), (3,2), (4,2) */
  for (int i = 0; i < count; i++) {
    const tc_fig_info *info = &list[i];
    if (i) assert_true(strcmp(list[i - 1].spec, info->spec) < 0);
    sched_on x = stored_on(info->spec);
    assert_int_equal(x.g->n, info->nodes);
    assert_int_equal(degree_of_graph(x.g), info->degree);
    assert_int_equal(x.c.steps, info->steps);
    assert_rat_equal(x.c.tau, rat(info->tau_num, info->tau_den), info->spec);
    assert_rat_equal(x.c.tau, rat(info->nodes - 1, info->nodes), info->spec);
    assert_true(x.c.bw_optimal);
    assert_string_equal(x.s.algorithm, "stored");

    json_t *doc = load_json(info->spec), *tr = json_object_get(doc, "transfers");
    assert_int_equal(json_integer_value(json_object_get(doc, "steps")), info->steps);
    assert_int_equal(json_integer_value(json_object_get(doc, "N")), info->nodes);
    assert_int_equal((int64_t)json_array_size(tr), x.s.count);
    for (int64_t t = 0; t < x.s.count; t++) {
      json_t *row = json_array_get(tr, (size_t)t);
      const tc_transfer *y = &x.s.xfer[t];
      assert_int_equal(json_integer_value(json_array_get(row, 0)), y->step);
      assert_int_equal(json_integer_value(json_array_get(row, 1)), x.g->src[y->arc]);
      assert_int_equal(json_integer_value(json_array_get(row, 2)), x.g->dst[y->arc]);
      assert_int_equal(json_integer_value(json_array_get(row, 3)), y->shard);
      assert_int_equal(json_units(json_array_get(row, 4), x.s.units), y->lo);
      assert_int_equal(json_units(json_array_get(row, 5), x.s.units), y->hi);
    }
    json_decref(doc);
    sched_on_destroy(&x);
  }
}

static void expect_error(int rc, int code, const tc_error *err, const char *fragment, const tc_schedule *out) {
  if (rc != code) fail_msg("rc %d, want %d (%s)", rc, code, err->msg);
  if (!strstr(err->msg, fragment)) fail_msg("message '%s' lacks '%s'", err->msg, fragment);
  assert_int_equal(out->count, 0);
  assert_null(out->xfer);
  assert_null(out->owner);
}

static void fig_schedule_errors(void **state) {
  (void)state;
  tc_schedule s;
  tc_error err;
  tc_graph *dbj = tc_test_spec("dbjmod(2,3)"), *debruijn = tc_test_spec("debruijn(2,3)");
  expect_error(tc_fig_schedule("kautz(2,2)", dbj, &s, &err), TC_EINPUT, &err, "stored: dbjmod(2,3)", &s);
  expect_error(tc_fig_schedule(NULL, dbj, &s, &err), TC_EINPUT, &err, "no stored schedule", &s);
  /* DBJMod(2,3) and Diamond both have 8 nodes and 16 arcs; B(2,3) too, with loops */
  expect_error(tc_fig_schedule("diamond", dbj, &s, &err), TC_EINPUT, &err, "not the one", &s);
  expect_error(tc_fig_schedule("dbjmod(2,3)", debruijn, &s, &err), TC_EINPUT, &err, "not the one", &s);
  expect_error(tc_fig_schedule("dbjmod(2,4)", dbj, &s, &err), TC_EINPUT, &err, "8 nodes", &s);
  /* spelling: case and whitespace are ignored */
  assert_int_equal(tc_fig_schedule(" DBJMod( 2 , 3 ) ", dbj, &s, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(dbj, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(dbj);
  tc_graph_destroy(debruijn);
}

/* ---- error paths of the expansions ---------------------------------------------------- */

static tc_graph *expanded(const char *op, const tc_graph *g, int64_t k) {
  tc_graph *x = NULL;
  tc_error err;
  int rc = !strcmp(op, "line")     ? tc_graph_line(g, &x, &err)
           : !strcmp(op, "degree") ? tc_graph_degree_expand(g, k, &x, &err)
                                   : tc_graph_power(g, k, &x, &err);
  assert_int_equal(rc, TC_OK);
  return x;
}

/* Each expansion refuses a base schedule that is not an allgather in the paper's layout,
   or whose transfers point outside the base graph. */
static void base_schedule_errors(void **state) {
  (void)state;
  sched_on base = bfb_on("bipartite(2)"), other = bfb_on("complete(3)");
  tc_graph *lg = expanded("line", base.g, 1), *dg = expanded("degree", base.g, 2), *pg = expanded("power", base.g, 2);
  tc_schedule bad, out;
  tc_error err;
  for (int variant = 0; variant < 4; variant++) {
    const char *fragment = NULL;
    assert_int_equal(tc_schedule_copy(&base.s, &bad, &err), TC_OK);
    switch (variant) {
      case 0: bad.coll = TC_COLL_REDUCE_SCATTER, fragment = "must be an allgather"; break;
      case 1: bad.xfer[3].arc = base.g->m, fragment = "outside 0..7"; break;
      case 2: bad.xfer[2].step = bad.steps + 1, fragment = "outside 1..2"; break;
      case 3: bad.xfer[1].hi = bad.units + 1, fragment = "outside [0,"; break;
    }
    expect_error(tc_schedule_line(base.g, &bad, lg, &out, &err), TC_EINPUT, &err, fragment, &out);
    expect_error(tc_schedule_degree(base.g, &bad, 2, dg, &out, &err), TC_EINPUT, &err, fragment, &out);
    expect_error(tc_schedule_power(base.g, &bad, 2, pg, &out, &err), TC_EINPUT, &err, fragment, &out);
    tc_schedule_destroy(&bad);
  }
  /* a schedule of another graph */
  expect_error(tc_schedule_line(base.g, &other.s, lg, &out, &err), TC_EINPUT, &err, "for 3 nodes", &out);
  /* shards not owned by their nodes */
  int32_t owners[4] = {1, 0, 2, 3};
  assert_int_equal(tc_schedule_init_owned(&bad, TC_COLL_ALLGATHER, 4, 4, owners, 1, "x", &err), TC_OK);
  expect_error(tc_schedule_power(base.g, &bad, 2, pg, &out, &err), TC_EINPUT, &err, "belongs to node 1", &out);
  tc_schedule_destroy(&bad);
  tc_graph_destroy(lg);
  tc_graph_destroy(dg);
  tc_graph_destroy(pg);
  sched_on_destroy(&other);
  sched_on_destroy(&base);
}

/* The expanded graph must be the expansion of g with the given n / k. */
static void mismatched_graph_errors(void **state) {
  (void)state;
  sched_on base = bfb_on("bipartite(2)");
  tc_graph *twin = tc_test_spec("uniring(2,4)"); /* also 4 nodes, 8 arcs */
  tc_graph *lg_twin = expanded("line", twin, 1), *dg3 = expanded("degree", base.g, 3);
  tc_graph *dg_twin = expanded("degree", twin, 2);
  tc_graph *pg3 = expanded("power", base.g, 3), *pg_twin = expanded("power", twin, 2);
  tc_schedule out;
  tc_error err;
  expect_error(tc_schedule_line(base.g, &base.s, base.g, &out, &err), TC_EINPUT, &err,
               "has 4 nodes but the base graph has 8 arcs", &out);
  expect_error(tc_schedule_line(base.g, &base.s, lg_twin, &out, &err), TC_EINPUT, &err, "not L(base)", &out);
  expect_error(tc_schedule_degree(base.g, &base.s, 2, dg3, &out, &err), TC_EINPUT, &err, "12 nodes, not 2 x 4", &out);
  expect_error(tc_schedule_degree(base.g, &base.s, 2, dg_twin, &out, &err), TC_EINPUT, &err, "is not G*2", &out);
  expect_error(tc_schedule_degree(base.g, &base.s, 0, dg3, &out, &err), TC_EINPUT, &err, "must be >= 1", &out);
  expect_error(tc_schedule_power(base.g, &base.s, 2, pg3, &out, &err), TC_EINPUT, &err, "64 nodes, not 4^2", &out);
  expect_error(tc_schedule_power(base.g, &base.s, 2, pg_twin, &out, &err), TC_EINPUT, &err, "is not G^2", &out);
  expect_error(tc_schedule_power(base.g, &base.s, 0, pg3, &out, &err), TC_EINPUT, &err, "must be >= 1", &out);
  /* degree expansion needs a loop-free base (Def. 13) */
  sched_on looped = bfb_on("debruijn(2,2)");
  expect_error(tc_schedule_degree(looped.g, &looped.s, 2, dg3, &out, &err), TC_EINPUT, &err, "self-loops", &out);
  sched_on_destroy(&looped);
  tc_graph_destroy(lg_twin);
  tc_graph_destroy(dg3);
  tc_graph_destroy(dg_twin);
  tc_graph_destroy(pg3);
  tc_graph_destroy(pg_twin);
  tc_graph_destroy(twin);
  sched_on_destroy(&base);
}

/* Sizes that do not fit are TC_ERANGE before anything is built: units refined beyond
   int64 (degree: LCM with n*d; power: times k) and a step count beyond int32. */
static void overflow_errors(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_graph *lg = expanded("line", g, 1), *dg = expanded("degree", g, 2), *pg = expanded("power", g, 3);
  tc_schedule huge, out;
  tc_error err;
  assert_int_equal(tc_schedule_init(&huge, TC_COLL_ALLGATHER, 4, INT64_MAX / 2, "huge", &err), TC_OK);
  expect_error(tc_schedule_degree(g, &huge, 2, dg, &out, &err), TC_ERANGE, &err, "units per shard overflows", &out);
  expect_error(tc_schedule_power(g, &huge, 3, pg, &out, &err), TC_ERANGE, &err, "units per shard overflows", &out);
  huge.units = 1;
  huge.steps = INT32_MAX;
  expect_error(tc_schedule_line(g, &huge, lg, &out, &err), TC_ERANGE, &err, "too many steps", &out);
  expect_error(tc_schedule_degree(g, &huge, 2, dg, &out, &err), TC_ERANGE, &err, "too many steps", &out);
  expect_error(tc_schedule_power(g, &huge, 3, pg, &out, &err), TC_ERANGE, &err, "steps are too many", &out);
  tc_schedule_destroy(&huge);
  tc_graph_destroy(lg);
  tc_graph_destroy(dg);
  tc_graph_destroy(pg);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(line_thm10_bfb_bases),   cmocka_unit_test(line_cor101_iterated),
      cmocka_unit_test(line_thm7_stored_bases), cmocka_unit_test(line_of_diamond_power),
      cmocka_unit_test(line_of_dbjmod_power),
      cmocka_unit_test(line_outside_thm10),     cmocka_unit_test(line_definition1_literal),
      cmocka_unit_test(degree_thm11),           cmocka_unit_test(degree_fig4),
      cmocka_unit_test(power_thm12),            cmocka_unit_test(power_is_hamming),
      cmocka_unit_test(power_of_product_table7), cmocka_unit_test(product_thm13),
      cmocka_unit_test(fig_schedules_match_files), cmocka_unit_test(fig_schedule_errors),
      cmocka_unit_test(base_schedule_errors),   cmocka_unit_test(mismatched_graph_errors),
      cmocka_unit_test(overflow_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
