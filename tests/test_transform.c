/*
** test_transform.c — schedule transforms (paper 000 App. B Def. 5, Def. 7, Thm 1, Thm 2,
** Cor. 1.1; App. A.6; App. E.2 / Thm 20).
**
** Inputs are real allgathers: (1) built here from the definition of a BFB schedule
** (paper 000 Thm 14 / Thm 18: every in-neighbour w of u with d(v,u) = d(v,w) + 1 = t sends
** 1/b of v's shard, b = number of such in-arcs; also an uneven 1:2:...:b split), using the
** Floyd oracle for distances — on K_{2,2} this is exactly Fig. 1 (T_L 2, tau 3/4), on
** UniRing(1,m) the ring (m-1, (m-1)/m; Table 9 row 9, App. C.2), on BiRing(2,m) the BFB
** ring (floor(m/2), (m-1)/m; App. F.1), which the first test pins down; (2) the optimal BFB allgather of LP (1)
** (bfb.h) on tori, circulants, Kautz, de Bruijn and generalized Kautz graphs; (3) a
** pipelined ring and a broadcast tree for the paths BFB does not take.
**
** Oracles: every produced schedule passes tc_schedule_verify with the expected collective
** and is costed by tc_schedule_cost; the paper's equalities are compared against those
** costs: Def. 5 / Thm 2 (T_L and T_B kept; per-step loads mirrored), Thm 2's explicit tuple
** formula, reverse ∘ reverse = identity, Cor. 1.1 costing what the allgather on G^T costs,
** allreduce costs adding, A.6 keeping T_L and T_B, Theorem 20's additive bound (and its
** second form d/P on a Moore-optimal G: 0.004 at P = 1000, d = 4), the rounding rule itself (each amount is
** floor or floor + 1 of P·y, largest fractional parts first, summing to P), and closed
** forms of rounded Fig. 1 schedules.
*/
#include "tc_test.h"
#include "core/intmath.h"
#include "core/rng.h"
#include "topocoll/bfb.h"
#include "topocoll/cost.h"
#include "topocoll/expand.h"
#include "topocoll/iso.h"
#include "topocoll/transform.h"
#include "sched/transform_internal.h"
#include "topocoll/verify.h"

/* ---- building inputs ---------------------------------------------------------------- */

/* BFB allgather splitting each shard over the in-arcs that can carry it: equally, or with
   weights 1, 2, ..., b in in-arc order when `weighted` (uneven fractions for rounding). */
static void split_bfb(const tc_graph *g, int weighted, tc_schedule *s) {
  int n = g->n, *dist = tc_test_floyd(g);
  int64_t units = 1;
  for (int pass = 0; pass < 2; pass++) {
    tc_error err;
    const char *name = weighted ? "weighted-split" : "equal-split";
    if (pass) assert_int_equal(tc_schedule_init(s, TC_COLL_ALLGATHER, n, units, name, &err), TC_OK);
    for (int v = 0; v < n; v++)
      for (int u = 0; u < n; u++) {
        int t = dist[v * n + u];
        assert_true(t >= 0);
        if (u == v) continue;
        int64_t b = 0, i = 0;
        for (int64_t k = g->in_off[u]; k < g->in_off[u + 1]; k++) b += dist[v * n + g->src[g->in_arc[k]]] == t - 1;
        assert_true(b >= 1);
        int64_t whole = weighted ? b * (b + 1) / 2 : b, at = 0;
        if (!pass) { units = units / tci_gcd64(units, whole) * whole; continue; }
        for (int64_t k = g->in_off[u]; k < g->in_off[u + 1]; k++) {
          int64_t a = g->in_arc[k], share = (weighted ? i + 1 : 1) * (units / whole);
          if (dist[v * n + g->src[a]] != t - 1) continue;
          assert_int_equal(tc_schedule_add(s, v, a, t, at, at + share, &err), TC_OK);
          at += share;
          i++;
        }
      }
  }
  free(dist);
}

static void equal_split_bfb(const tc_graph *g, tc_schedule *s) { split_bfb(g, 0, s); }

static int equal_split_gen(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err) {
  (void)ctx;
  (void)err;
  equal_split_bfb(g, out);
  return TC_OK;
}

static int bfb_gen(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err) {
  (void)ctx;
  return tc_bfb_allgather(g, out, NULL, err);
}

/* ---- checking ----------------------------------------------------------------------- */

static void assert_verified(const tc_graph *g, const tc_schedule *s, tc_collective coll) {
  tc_error err;
  assert_int_equal(s->coll, coll);
  if (tc_schedule_verify(g, s, &err)) fail_msg("%s schedule rejected: %s", tc_collective_name(coll), err.msg);
}

static tc_cost cost_of(const tc_graph *g, const tc_schedule *s) {
  tc_cost c;
  tc_error err;
  if (tc_schedule_cost(g, s, &c, &err)) fail_msg("cost: %s", err.msg);
  return c;
}

static void assert_rat(tc_rat got, int64_t num, int64_t den) {
  tc_rat want;
  assert_int_equal(tc_rat_make(num, den, &want, NULL), TC_OK);
  if (tc_rat_cmp(got, want)) fail_msg("got %lld/%lld, want %lld/%lld", (long long)got.num, (long long)got.den,
                                      (long long)want.num, (long long)want.den);
}

static void assert_same_cost(const tc_cost *a, const tc_cost *b) {
  assert_int_equal(a->steps, b->steps);
  assert_int_equal(tc_rat_cmp(a->tau, b->tau), 0);
}

static void assert_empty(const tc_schedule *s) {
  assert_int_equal(s->count, 0);
  assert_null(s->xfer);
  assert_null(s->owner);
}

static void expect_error(int rc, int code, const tc_error *err, const char *frag) {
  if (rc != code) fail_msg("rc %d, want %d (%s)", rc, code, err->msg);
  if (frag && !strstr(err->msg, frag)) fail_msg("message '%s' lacks '%s'", err->msg, frag);
}

/* Graphs every transform test runs on: name, reverse-symmetric? (checked in
   theorem2_reduce_scatter). Π_{2,12} is the Kautz graph K(2,2) up to isomorphism (m =
   (d+1)d^k), hence reverse-symmetric; Π_{2,10} and Π_{3,20} are not. */
static const struct { const char *spec; int rsym; } graphs[] = {
    {"bipartite(2)", 1},   {"uniring(1,5)", 1},   {"uniring(2,4)", 1},   {"biring(2,6)", 1},
    {"torus(3,3)", 1},     {"kautz(2,2)", 1},     {"debruijn(2,4)", 1},  {"genkautz(2,12)", 1},
    {"genkautz(2,10)", 0}, {"genkautz(3,20)", 0}, {"line(circulant(16,3,4))", 1},
};
#define NGRAPHS (sizeof graphs / sizeof graphs[0])

/* ---- tests -------------------------------------------------------------------------- */

/* The inputs are the schedules the paper names: Fig. 1, the ring of App. C.2, the BFB ring
   of App. F.1. */
static void inputs_match_the_paper(void **state) {
  (void)state;
  const struct { const char *spec; int steps; int64_t num, den; } rows[] = {
      {"bipartite(2)", 2, 3, 4},  /* Fig. 1 */
      {"bipartite(3)", 2, 5, 6},  /* K_{d,d}: (2d-1)/(2d) */
      {"uniring(1,5)", 4, 4, 5},  /* UniRing(1,m): m-1, (m-1)/m */
      {"biring(2,6)", 3, 5, 6},   /* BiRing(2,N) BFB ring: floor(N/2), (N-1)/N */
      {"torus(3,3)", 2, 8, 9},    /* torus 3x3: (2, 8/9) */
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    tc_graph *g = tc_test_spec(rows[i].spec);
    tc_schedule s;
    equal_split_bfb(g, &s);
    assert_verified(g, &s, TC_COLL_ALLGATHER);
    tc_cost c = cost_of(g, &s);
    assert_int_equal(c.steps, rows[i].steps);
    assert_rat(c.tau, rows[i].num, rows[i].den);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* tci_graph_map_arcs on random multigraphs with loops, parallel arcs and mixed capacities:
   the map into the transpose is a bijection onto reversed arcs of equal capacity. */
static void arc_map_into_transpose(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 11);
  for (int rep = 0; rep < 200; rep++) {
    int n = 1 + (int)tci_rng_below(&r, 5), m = (int)tci_rng_below(&r, 16);
    tc_graph_builder b;
    tc_graph *g = NULL, *gt = NULL;
    tc_error err;
    assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
    for (int i = 0; i < m; i++)
      assert_int_equal(tc_graph_builder_add_arc(&b, (int64_t)tci_rng_below(&r, n), (int64_t)tci_rng_below(&r, n),
                                                1 + (int64_t)tci_rng_below(&r, 3), &err), TC_OK);
    assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
    assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
    int64_t map[16];
    uint8_t hit[16] = {0};
    assert_int_equal(tci_graph_map_arcs(g, gt, NULL, 1, NULL, map, &err), TC_OK);
    for (int64_t a = 0; a < g->m; a++) {
      assert_int_equal(gt->src[map[a]], g->dst[a]);
      assert_int_equal(gt->dst[map[a]], g->src[a]);
      assert_int_equal(gt->cap[map[a]], g->cap[a]);
      assert_false(hit[map[a]]);
      hit[map[a]] = 1;
    }
    /* Into g itself (not reversed) it must be the identity up to parallel arcs. */
    assert_int_equal(tci_graph_map_arcs(g, g, NULL, 0, NULL, map, &err), TC_OK);
    for (int64_t a = 0; a < g->m; a++) assert_int_equal(map[a], a);
    tc_graph_destroy(gt);
    tc_graph_destroy(g);
  }
  /* A missing counterpart is named. */
  tc_graph *g = tc_test_spec("uniring(1,5)");
  int64_t map[5];
  tc_error err;
  expect_error(tci_graph_map_arcs(g, g, NULL, 1, NULL, map, &err), TC_EINPUT, &err, "no free counterpart 1 -> 0");
  tc_graph_destroy(g);
}

/* Def. 5 / Thm 1: A^T is a reduce-scatter on G^T with T_L, T_B and the per-step loads
   (mirrored) of A; reversing twice gives A back. */
static void reverse_schedule(void **state) {
  (void)state;
  for (size_t i = 0; i < NGRAPHS; i++) {
    tc_graph *g = tc_test_spec(graphs[i].spec), *gt = NULL;
    tc_error err;
    assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
    tc_schedule ag, rs, back;
    equal_split_bfb(g, &ag);
    assert_verified(g, &ag, TC_COLL_ALLGATHER);
    assert_int_equal(tc_schedule_reverse(g, &ag, gt, &rs, &err), TC_OK);
    assert_verified(gt, &rs, TC_COLL_REDUCE_SCATTER);
    tc_cost ca = cost_of(g, &ag), cr = cost_of(gt, &rs);
    assert_same_cost(&ca, &cr);
    for (int t = 1; t <= ca.steps; t++)
      assert_int_equal(tc_rat_cmp(ca.step_load[t - 1], cr.step_load[ca.steps - t]), 0);
    assert_int_equal(tc_schedule_reverse(gt, &rs, g, &back, &err), TC_OK);
    assert_verified(g, &back, TC_COLL_ALLGATHER);
    tc_schedule_sort(&ag);
    tc_schedule_sort(&back);
    assert_int_equal(back.count, ag.count);
    assert_memory_equal(back.xfer, ag.xfer, (size_t)ag.count * sizeof *ag.xfer);
    tc_cost_destroy(&ca);
    tc_cost_destroy(&cr);
    tc_schedule_destroy(&ag);
    tc_schedule_destroy(&rs);
    tc_schedule_destroy(&back);
    tc_graph_destroy(gt);
    tc_graph_destroy(g);
  }
}

/* Tuples (shard, from, to, step, lo, hi), sorted: compares schedules up to parallel-arc ids. */
typedef struct tuple { int64_t f[6]; } tuple;
static int cmp_tuple(const void *pa, const void *pb) {
  const tuple *a = pa, *b = pb;
  for (int i = 0; i < 6; i++)
    if (a->f[i] != b->f[i]) return a->f[i] < b->f[i] ? -1 : 1;
  return 0;
}

/* Thm 2 on reverse-symmetric G: f(A^T) is a reduce-scatter on G itself with A's T_L and
   T_B, and it is exactly the paper's tuple set
   ((f(v),C),(f(w),f(u)), t_max - t + 1) for every ((v,C),(u,w),t) ∈ A. */
static void theorem2_reduce_scatter(void **state) {
  (void)state;
  /* Why Π_{2,12} is in the reverse-symmetric group: it is K(2,2) (Imase-Itoh, m = (d+1)d^k). */
  tc_graph *pi = tc_test_spec("genkautz(2,12)"), *kz = tc_test_spec("kautz(2,2)");
  int same = 0;
  assert_int_equal(tc_graph_isomorphism(pi, kz, &same, NULL, NULL), TC_OK);
  assert_true(same);
  tc_graph_destroy(pi);
  tc_graph_destroy(kz);
  for (size_t i = 0; i < NGRAPHS; i++) {
    tc_graph *g = tc_test_spec(graphs[i].spec);
    tc_error err;
    int found = 0;
    int32_t *f = malloc((size_t)g->n * sizeof *f);
    assert_int_equal(tc_graph_reverse_symmetry(g, &found, f, &err), TC_OK);
    assert_int_equal(found, graphs[i].rsym);
    if (!found) { free(f); tc_graph_destroy(g); continue; }
    tc_schedule ag, rs, rs2;
    equal_split_bfb(g, &ag);
    assert_int_equal(tc_schedule_reverse_symmetric(g, &ag, f, &rs, &err), TC_OK);
    assert_verified(g, &rs, TC_COLL_REDUCE_SCATTER);
    tc_cost ca = cost_of(g, &ag), cr = cost_of(g, &rs);
    assert_same_cost(&ca, &cr);
    tuple *want = malloc((size_t)ag.count * sizeof *want), *got = malloc((size_t)rs.count * sizeof *got);
    assert_int_equal(rs.count, ag.count);
    for (int64_t k = 0; k < ag.count; k++) {
      const tc_transfer *x = &ag.xfer[k], *y = &rs.xfer[k];
      want[k] = (tuple){{f[x->shard], f[g->dst[x->arc]], f[g->src[x->arc]], ag.steps - x->step + 1, x->lo, x->hi}};
      got[k] = (tuple){{y->shard, g->src[y->arc], g->dst[y->arc], y->step, y->lo, y->hi}};
    }
    qsort(want, (size_t)ag.count, sizeof *want, cmp_tuple);
    qsort(got, (size_t)ag.count, sizeof *got, cmp_tuple);
    assert_memory_equal(want, got, (size_t)ag.count * sizeof *want);
    /* With the map computed inside, and through the generator entry point. */
    tc_schedule_destroy(&rs);
    assert_int_equal(tc_schedule_reverse_symmetric(g, &ag, NULL, &rs, &err), TC_OK);
    assert_verified(g, &rs, TC_COLL_REDUCE_SCATTER);
    assert_int_equal(tc_schedule_reduce_scatter_by(g, NULL, equal_split_gen, NULL, &rs2, &err), TC_OK);
    assert_verified(g, &rs2, TC_COLL_REDUCE_SCATTER);
    tc_cost c2 = cost_of(g, &rs2);
    assert_same_cost(&ca, &c2);
    /* Thm 2 backwards: the reduce-scatter gives an allgather as good. */
    tc_schedule ag2;
    assert_int_equal(tc_schedule_reverse_symmetric(g, &rs, f, &ag2, &err), TC_OK);
    assert_verified(g, &ag2, TC_COLL_ALLGATHER);
    tc_cost c3 = cost_of(g, &ag2);
    assert_same_cost(&ca, &c3);
    tc_cost_destroy(&ca);
    tc_cost_destroy(&cr);
    tc_cost_destroy(&c2);
    tc_cost_destroy(&c3);
    free(want);
    free(got);
    free(f);
    tc_schedule_destroy(&ag);
    tc_schedule_destroy(&ag2);
    tc_schedule_destroy(&rs);
    tc_schedule_destroy(&rs2);
    tc_graph_destroy(g);
  }
}

/* Cor. 1.1 on generalized Kautz graphs that are not reverse-symmetric (paper 000 App. B
   after Thm 2): RS on G = reverse of the allgather on G^T, costing what that one costs. */
static void corollary_1_1_on_generalized_kautz(void **state) {
  (void)state;
  for (size_t i = 0; i < NGRAPHS; i++) {
    if (graphs[i].rsym) continue;
    tc_graph *g = tc_test_spec(graphs[i].spec), *gt = NULL;
    tc_error err;
    int found = 1;
    assert_int_equal(tc_graph_reverse_symmetry(g, &found, NULL, &err), TC_OK);
    assert_false(found);
    assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
    tc_schedule ag_t, rs, rs2;
    equal_split_bfb(gt, &ag_t);
    assert_verified(gt, &ag_t, TC_COLL_ALLGATHER);
    assert_int_equal(tc_schedule_reduce_scatter_from(g, equal_split_gen, NULL, &rs, &err), TC_OK);
    assert_verified(g, &rs, TC_COLL_REDUCE_SCATTER);
    tc_cost ct = cost_of(gt, &ag_t), cr = cost_of(g, &rs);
    assert_same_cost(&ct, &cr);
    /* The automatic choice takes the same path here. */
    assert_int_equal(tc_schedule_reduce_scatter_by(g, NULL, equal_split_gen, NULL, &rs2, &err), TC_OK);
    assert_verified(g, &rs2, TC_COLL_REDUCE_SCATTER);
    tc_schedule_sort(&rs);
    tc_schedule_sort(&rs2);
    assert_int_equal(rs.count, rs2.count);
    assert_memory_equal(rs.xfer, rs2.xfer, (size_t)rs.count * sizeof *rs.xfer);
    tc_cost_destroy(&ct);
    tc_cost_destroy(&cr);
    tc_schedule_destroy(&ag_t);
    tc_schedule_destroy(&rs);
    tc_schedule_destroy(&rs2);
    tc_graph_destroy(gt);
    tc_graph_destroy(g);
  }
}

/* Allreduce = RS then AG: verified as an allreduce, T_L and T_B add — 2 T_L and 2 tau on
   reverse-symmetric graphs (Thm 2), AG(G) + AG(G^T) on the generalized Kautz graph. */
static void allreduce_costs_add(void **state) {
  (void)state;
  for (size_t i = 0; i < NGRAPHS; i++) {
    tc_graph *g = tc_test_spec(graphs[i].spec), *gt = NULL;
    tc_error err;
    assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
    tc_schedule ag, ag_t, ar;
    equal_split_bfb(g, &ag);
    equal_split_bfb(gt, &ag_t);
    assert_int_equal(tc_schedule_allreduce_by(g, equal_split_gen, NULL, &ar, &err), TC_OK);
    assert_verified(g, &ar, TC_COLL_ALLREDUCE);
    tc_cost ca = cost_of(g, &ag), ct = cost_of(gt, &ag_t), cr = cost_of(g, &ar);
    const tc_cost *rs_half = graphs[i].rsym ? &ca : &ct;
    assert_int_equal(ar.rs_steps, rs_half->steps);
    assert_int_equal(cr.steps, rs_half->steps + ca.steps);
    tc_rat sum;
    assert_int_equal(tc_rat_add(rs_half->tau, ca.tau, &sum, &err), TC_OK);
    assert_int_equal(tc_rat_cmp(cr.tau, sum), 0);
    if (graphs[i].rsym) {
      assert_int_equal(cr.steps, 2 * ca.steps);
      assert_rat(cr.tau, 2 * ca.tau.num, ca.tau.den);
    }
    /* Def. 5 on an allreduce: an allreduce on G^T whose reduce-scatter half is the mirrored
       allgather half. */
    tc_schedule ar_t;
    assert_int_equal(tc_schedule_reverse(g, &ar, gt, &ar_t, &err), TC_OK);
    assert_verified(gt, &ar_t, TC_COLL_ALLREDUCE);
    assert_int_equal(ar_t.rs_steps, ca.steps);
    tc_cost crt = cost_of(gt, &ar_t);
    assert_same_cost(&cr, &crt);
    tc_cost_destroy(&crt);
    tc_schedule_destroy(&ar_t);
    tc_cost_destroy(&ca);
    tc_cost_destroy(&ct);
    tc_cost_destroy(&cr);
    tc_schedule_destroy(&ag);
    tc_schedule_destroy(&ag_t);
    tc_schedule_destroy(&ar);
    tc_graph_destroy(gt);
    tc_graph_destroy(g);
  }
}

/* Halves in different units are brought to their LCM: RS in 2·3 units, AG in 2·5. */
static void allreduce_in_common_units(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_error err;
  tc_schedule ag, rs, ar;
  equal_split_bfb(g, &ag);
  assert_int_equal(tc_schedule_reverse_symmetric(g, &ag, NULL, &rs, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&rs, 3, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&ag, 5, &err), TC_OK);
  assert_int_equal(tc_schedule_allreduce_compose(g, &rs, &ag, &ar, &err), TC_OK);
  assert_int_equal(ar.units, 30);
  assert_verified(g, &ar, TC_COLL_ALLREDUCE);
  tc_cost c = cost_of(g, &ar);
  assert_int_equal(c.steps, 4);
  assert_rat(c.tau, 3, 2); /* 2 x Fig. 1's 3/4 */
  assert_int_equal(tc_schedule_chunk_count(&ar), 2);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&ag);
  tc_schedule_destroy(&rs);
  tc_schedule_destroy(&ar);
  tc_graph_destroy(g);
}

/* A.6: on reverse-symmetric G, A' on G ∪ G^T (degree 2d) is an allgather with A's T_L and
   T_B; BW-optimality carries over. Reduce-scatters and allreduces convert the same way. */
static void unidirectional_to_bidirectional(void **state) {
  (void)state;
  for (size_t i = 0; i < NGRAPHS; i++) {
    if (!graphs[i].rsym) continue;
    tc_graph *g = tc_test_spec(graphs[i].spec), *gbi = NULL;
    tc_error err;
    assert_int_equal(tc_graph_bidir_closure(g, &gbi, &err), TC_OK);
    assert_true(gbi->bidirectional);
    assert_int_equal(tc_graph_out_regular(gbi), 2 * tc_graph_out_regular(g));
    tc_schedule ag, ar, bi, bi_ar;
    equal_split_bfb(g, &ag);
    assert_int_equal(tc_schedule_bidirectional(g, &ag, NULL, gbi, &bi, &err), TC_OK);
    assert_verified(gbi, &bi, TC_COLL_ALLGATHER);
    tc_cost ca = cost_of(g, &ag), cb = cost_of(gbi, &bi);
    assert_same_cost(&ca, &cb);
    assert_int_equal(cb.degree, 2 * ca.degree);
    assert_int_equal(cb.bw_optimal, ca.bw_optimal);
    assert_int_equal(tc_schedule_allreduce_by(g, equal_split_gen, NULL, &ar, &err), TC_OK);
    assert_int_equal(tc_schedule_bidirectional(g, &ar, NULL, gbi, &bi_ar, &err), TC_OK);
    assert_verified(gbi, &bi_ar, TC_COLL_ALLREDUCE);
    tc_cost cr = cost_of(g, &ar), cbr = cost_of(gbi, &bi_ar);
    assert_same_cost(&cr, &cbr);
    tc_cost_destroy(&ca);
    tc_cost_destroy(&cb);
    tc_cost_destroy(&cr);
    tc_cost_destroy(&cbr);
    tc_schedule_destroy(&ag);
    tc_schedule_destroy(&ar);
    tc_schedule_destroy(&bi);
    tc_schedule_destroy(&bi_ar);
    tc_graph_destroy(gbi);
    tc_graph_destroy(g);
  }
  /* The ring: UniRing(1,5) is BW-optimal (4, 4/5), and so is its conversion to degree 2. */
  tc_graph *g = tc_test_spec("uniring(1,5)"), *gbi = NULL;
  tc_error err;
  assert_int_equal(tc_graph_bidir_closure(g, &gbi, &err), TC_OK);
  tc_schedule ag, bi;
  equal_split_bfb(g, &ag);
  assert_int_equal(tc_schedule_bidirectional(g, &ag, NULL, gbi, &bi, &err), TC_OK);
  tc_cost cb = cost_of(gbi, &bi);
  assert_int_equal(cb.steps, 4);
  assert_rat(cb.tau, 4, 5);
  assert_true(cb.bw_optimal);
  tc_cost_destroy(&cb);
  tc_schedule_destroy(&ag);
  tc_schedule_destroy(&bi);
  tc_graph_destroy(gbi);
  tc_graph_destroy(g);
}

/* Least units: Fig. 1 needs halves (2), K_{3,3} thirds (3), the ring whole shards (1),
   whatever they were refined to. */
static void least_chunk_count(void **state) {
  (void)state;
  const struct { const char *spec; int64_t least; } rows[] = {
      {"bipartite(2)", 2}, {"bipartite(3)", 3}, {"uniring(1,5)", 1}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    tc_graph *g = tc_test_spec(rows[i].spec);
    tc_error err;
    tc_schedule s, orig;
    equal_split_bfb(g, &s);
    assert_int_equal(tc_schedule_chunk_count(&s), rows[i].least);
    assert_int_equal(tc_schedule_copy(&s, &orig, &err), TC_OK);
    assert_int_equal(tc_schedule_refine(&s, 4, &err), TC_OK);
    assert_int_equal(s.units, 4 * orig.units);
    assert_int_equal(tc_schedule_chunk_count(&s), rows[i].least);
    tc_schedule_normalize(&s);
    assert_int_equal(s.units, rows[i].least);
    assert_verified(g, &s, TC_COLL_ALLGATHER);
    tc_schedule_normalize(&orig);
    assert_int_equal(s.count, orig.count);
    assert_memory_equal(s.xfer, orig.xfer, (size_t)s.count * sizeof *s.xfer);
    tc_schedule_destroy(&s);
    tc_schedule_destroy(&orig);
    tc_graph_destroy(g);
  }
  /* Hand case on K_2: endpoints 0, 4, 8, 12 of 12 units are thirds. */
  tc_graph *k2 = tc_test_spec("complete(2)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 12, "hand", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 0, 1, 0, 4, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 0, 1, 4, 12, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 1, 1, 1, 0, 8, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 1, 1, 1, 8, 12, &err), TC_OK);
  assert_verified(k2, &s, TC_COLL_ALLGATHER);
  assert_int_equal(tc_schedule_chunk_count(&s), 3);
  tc_schedule_normalize(&s);
  assert_int_equal(s.units, 3);
  assert_int_equal(s.xfer[1].lo, 1);
  assert_int_equal(s.xfer[1].hi, 3);
  assert_int_equal(s.xfer[2].hi, 2);
  assert_verified(k2, &s, TC_COLL_ALLGATHER);
  tc_graph_destroy(k2);
  tc_schedule_destroy(&s);
}

/* d(d^D - 1)/((d-1) P N) = Σ_{t=1}^{D} d^t / (P N) (Thm 20; the sum form also covers d = 1). */
static tc_rat theorem20_extra(int64_t d, int32_t D, int64_t P, int32_t N) {
  int64_t sum = 0, pw = 1;
  for (int t = 1; t <= D; t++) { pw *= d; sum += pw; }
  tc_rat r;
  assert_int_equal(tc_rat_make(sum, P * N, &r, NULL), TC_OK);
  return r;
}

/* The rounding rule itself, per (receiver, shard) — one step each in these inputs: on each
   in-arc the rounded chunk count is floor(P·y) or floor(P·y) + 1 (y = the input's
   fraction), only fractional entries round up, they are the ones with the largest
   fractional parts (lower arc id first on ties), and the counts sum to P. */
static void assert_rounding_rule(const tc_graph *g, const tc_schedule *in, const tc_schedule *out, int64_t P) {
  int64_t m = g->m;
  int64_t *y = calloc((size_t)(in->nshards * m), sizeof *y), *z = calloc((size_t)(in->nshards * m), sizeof *z);
  for (int64_t i = 0; i < in->count; i++) y[in->xfer[i].shard * m + in->xfer[i].arc] += in->xfer[i].hi - in->xfer[i].lo;
  for (int64_t i = 0; i < out->count; i++)
    z[out->xfer[i].shard * m + out->xfer[i].arc] += out->xfer[i].hi - out->xfer[i].lo;
  for (int32_t k = 0; k < in->nshards; k++)
    for (int32_t u = 0; u < g->n; u++) {
      int64_t total = 0, lowest_up = INT64_MAX, lowest_up_arc = -1, highest_down = -1, highest_down_arc = -1;
      for (int64_t e = g->in_off[u]; e < g->in_off[u + 1]; e++) {
        int64_t a = g->in_arc[e], fl = (int64_t)((__int128)P * y[k * m + a] / in->units);
        int64_t frac = (int64_t)((__int128)P * y[k * m + a] % in->units), up = z[k * m + a] - fl;
        if (up != 0 && !(up == 1 && frac > 0))
          fail_msg("P = %lld, shard %d, arc %lld: %lld chunks from %lld/%lld of a shard", (long long)P, k, (long long)a,
                   (long long)z[k * m + a], (long long)y[k * m + a], (long long)in->units);
        /* in_arc lists ascending arc ids: keep the last tie among ups, the first among downs */
        if (up && frac <= lowest_up) { lowest_up = frac; lowest_up_arc = a; }
        if (!up && frac > 0 && frac > highest_down) { highest_down = frac; highest_down_arc = a; }
        total += z[k * m + a];
      }
      assert_true(total == 0 || total == P);
      /* Largest fractional parts first: every rounded-up entry beats every rounded-down one. */
      if (lowest_up_arc >= 0 && highest_down_arc >= 0)
        assert_true(lowest_up > highest_down || (lowest_up == highest_down && lowest_up_arc < highest_down_arc));
    }
  free(y);
  free(z);
}

/* E.2 / Theorem 20: the P-chunk schedule verifies, has units P and T_L unchanged, obeys the
   rounding rule, and tau <= tau_in + d(d^D - 1)/((d - 1) P N): the proof (each of the at
   most d^{t-1} sources on a link at step t rounds up by < 1 chunk) holds for any fractional
   BFB input, here equal and uneven (weighted) splits. */
static void chunk_rounding_respects_theorem20(void **state) {
  (void)state;
  const int64_t Ps[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000};
  for (size_t i = 0; i < NGRAPHS; i++)
    for (int weighted = 0; weighted < 2; weighted++) {
      tc_graph *g = tc_test_spec(graphs[i].spec);
      tc_schedule ag;
      split_bfb(g, weighted, &ag);
      assert_verified(g, &ag, TC_COLL_ALLGATHER);
      tc_cost ca = cost_of(g, &ag);
      for (size_t p = 0; p < sizeof Ps / sizeof Ps[0]; p++) {
        tc_error err;
        tc_schedule r;
        assert_int_equal(tc_schedule_round_chunks(g, &ag, Ps[p], &r, &err), TC_OK);
        assert_int_equal(r.units, Ps[p]);
        assert_verified(g, &r, TC_COLL_ALLGATHER);
        assert_rounding_rule(g, &ag, &r, Ps[p]);
        tc_cost cr = cost_of(g, &r);
        assert_int_equal(cr.steps, ca.steps);
        tc_rat bound;
        assert_int_equal(tc_rat_add(ca.tau, theorem20_extra(ca.degree, ca.steps, Ps[p], g->n), &bound, &err), TC_OK);
        if (tc_rat_cmp(cr.tau, bound) > 0)
          fail_msg("%s P=%lld: tau %lld/%lld above Thm 20 bound %lld/%lld", graphs[i].spec, (long long)Ps[p],
                   (long long)cr.tau.num, (long long)cr.tau.den, (long long)bound.num, (long long)bound.den);
        /* When P is a multiple of the exact chunk count nothing is lost. */
        if (Ps[p] % tc_schedule_chunk_count(&ag) == 0) assert_int_equal(tc_rat_cmp(cr.tau, ca.tau), 0);
        tc_cost_destroy(&cr);
        tc_schedule_destroy(&r);
      }
      tc_cost_destroy(&ca);
      tc_schedule_destroy(&ag);
      tc_graph_destroy(g);
    }
}

/* Fig. 1 rounded to P chunks: step 2 splits a shard over two links, so for odd P one link
   carries (P+1)/2 chunks: tau = (d/N)(1 + (P+1)/(2P)) = (3P+1)/(4P); even P keeps 3/4. */
static void rounded_figure1_closed_form(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_schedule ag;
  equal_split_bfb(g, &ag);
  for (int64_t P = 1; P <= 21; P++) {
    tc_error err;
    tc_schedule r;
    assert_int_equal(tc_schedule_round_chunks(g, &ag, P, &r, &err), TC_OK);
    assert_verified(g, &r, TC_COLL_ALLGATHER);
    tc_cost c = cost_of(g, &r);
    if (P % 2) assert_rat(c.tau, 3 * P + 1, 4 * P);
    else assert_rat(c.tau, 3, 4);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&r);
  }
  tc_schedule_destroy(&ag);
  tc_graph_destroy(g);
}

/* Rooted collectives: Fig. 1's tree from root 0 as a one-shard broadcast reverses (Def. 5)
   into a reduce to the same root and rounds to P chunks: step 2 splits the shard over two
   links, so tau = (d/1)(1 + ceil(P/2)/P) = 2 + 2 ceil(P/2)/P. */
static void rooted_collectives(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)"), *gt = NULL;
  tc_error err;
  assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
  int32_t root = 0;
  tc_schedule bc, rd, r;
  assert_int_equal(tc_schedule_init_owned(&bc, TC_COLL_BROADCAST, 4, 1, &root, 2, "tree", &err), TC_OK);
  for (int64_t a = g->out_off[0]; a < g->out_off[1]; a++) {
    assert_int_equal(tc_schedule_add(&bc, 0, a, 1, 0, 2, &err), TC_OK);
    int32_t w = g->dst[a];
    for (int64_t b = g->out_off[w]; b < g->out_off[w + 1]; b++)
      if (g->dst[b] != 0) assert_int_equal(tc_schedule_add(&bc, 0, b, 2, w == 2 ? 0 : 1, w == 2 ? 1 : 2, &err), TC_OK);
  }
  assert_verified(g, &bc, TC_COLL_BROADCAST);
  assert_int_equal(tc_schedule_reverse(g, &bc, gt, &rd, &err), TC_OK);
  assert_verified(gt, &rd, TC_COLL_REDUCE);
  assert_int_equal(tc_schedule_owner(&rd, 0), 0);
  tc_cost cb = cost_of(g, &bc), cd = cost_of(gt, &rd);
  assert_same_cost(&cb, &cd);
  assert_rat(cb.tau, 3, 1);
  for (int64_t P = 1; P <= 9; P++) {
    assert_int_equal(tc_schedule_round_chunks(g, &bc, P, &r, &err), TC_OK);
    assert_verified(g, &r, TC_COLL_BROADCAST);
    tc_cost c = cost_of(g, &r);
    assert_rat(c.tau, 2 * P + 2 * ((P + 1) / 2), P);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&r);
  }
  tc_cost_destroy(&cb);
  tc_cost_destroy(&cd);
  tc_schedule_destroy(&bc);
  tc_schedule_destroy(&rd);
  tc_graph_destroy(gt);
  tc_graph_destroy(g);
}

/* Thm 20 (App. E.2), second bound: on a Moore-optimal G the rounding adds at most
   (M/B) d/P, 0.004 M/B for P = 1000, d = 4. Π_{4,64}
   (Table 7 row N = 64) has T_L = 3 and N = 64 > M_{4,2} = 21, so it is Moore-optimal. */
static void theorem20_moore_optimal_example(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("genkautz(4,64)");
  tc_schedule ag, r;
  tc_error err;
  equal_split_bfb(g, &ag);
  assert_verified(g, &ag, TC_COLL_ALLGATHER);
  tc_cost ca = cost_of(g, &ag);
  assert_int_equal(ca.steps, 3);
  assert_int_equal(ca.degree, 4);
  assert_true(ca.moore_optimal);
  assert_int_equal(tc_schedule_round_chunks(g, &ag, 1000, &r, &err), TC_OK);
  assert_verified(g, &r, TC_COLL_ALLGATHER);
  tc_cost cr = cost_of(g, &r);
  tc_rat extra;
  assert_int_equal(tc_rat_sub(cr.tau, ca.tau, &extra, &err), TC_OK);
  assert_true(tc_rat_cmp(extra, (tc_rat){4, 1000}) <= 0);                   /* d/P */
  assert_true(tc_rat_cmp(extra, theorem20_extra(4, 3, 1000, 64)) <= 0);      /* 84/64000 */
  assert_true(tc_rat_cmp(theorem20_extra(4, 3, 1000, 64), (tc_rat){4, 1000}) < 0);
  tc_cost_destroy(&ca);
  tc_cost_destroy(&cr);
  tc_schedule_destroy(&ag);
  tc_schedule_destroy(&r);
  tc_graph_destroy(g);
}

/* The same transforms on optimal BFB allgathers (LP (1), bfb.h): reduce-scatter by Thm 2
   on reverse-symmetric graphs (same cost) or Cor. 1.1 on generalized Kautz graphs (the cost
   of BFB on G^T), allreduce costs adding, A.6 keeping the cost, and P-chunk rounding within
   Theorem 20 of the exact LP value tau_LP (tau_OPT >= tau_LP, so this is implied). */
static void transforms_of_bfb_schedules(void **state) {
  (void)state;
  const struct { const char *spec; int rsym; } rows[] = {
      {"torus(3,3)", 1},     {"torus(3,3,2)", 1},   {"torus(4,4)", 1},     {"circulant(16,3,4)", 1},
      {"kautz(2,2)", 1},     {"debruijn(2,4)", 1},  {"genkautz(2,10)", 0}, {"genkautz(3,20)", 0},
      {"line(circulant(16,3,4))", 1},
  };
  const int64_t Ps[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    tc_graph *g = tc_test_spec(rows[i].spec), *gt = NULL, *gbi = NULL;
    tc_error err;
    int found = -1;
    assert_int_equal(tc_graph_reverse_symmetry(g, &found, NULL, &err), TC_OK);
    assert_int_equal(found, rows[i].rsym);
    assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
    tc_schedule ag, ag_t, rs, ar;
    assert_int_equal(tc_bfb_allgather(g, &ag, NULL, &err), TC_OK);
    assert_int_equal(tc_bfb_allgather(gt, &ag_t, NULL, &err), TC_OK);
    assert_verified(g, &ag, TC_COLL_ALLGATHER);
    tc_cost ca = cost_of(g, &ag), ct = cost_of(gt, &ag_t);
    assert_int_equal(tc_schedule_reduce_scatter_by(g, &ag, bfb_gen, NULL, &rs, &err), TC_OK);
    assert_verified(g, &rs, TC_COLL_REDUCE_SCATTER);
    tc_cost cr = cost_of(g, &rs);
    assert_same_cost(rows[i].rsym ? &ca : &ct, &cr);
    assert_int_equal(tc_schedule_allreduce_by(g, bfb_gen, NULL, &ar, &err), TC_OK);
    assert_verified(g, &ar, TC_COLL_ALLREDUCE);
    tc_cost car = cost_of(g, &ar);
    tc_rat sum;
    assert_int_equal(tc_rat_add(cr.tau, ca.tau, &sum, &err), TC_OK);
    assert_int_equal(car.steps, cr.steps + ca.steps);
    assert_int_equal(tc_rat_cmp(car.tau, sum), 0);
    if (rows[i].rsym) {
      tc_schedule bi;
      assert_int_equal(tc_graph_bidir_closure(g, &gbi, &err), TC_OK);
      assert_int_equal(tc_schedule_bidirectional(g, &ag, NULL, gbi, &bi, &err), TC_OK);
      assert_verified(gbi, &bi, TC_COLL_ALLGATHER);
      tc_cost cb = cost_of(gbi, &bi);
      assert_same_cost(&ca, &cb);
      tc_cost_destroy(&cb);
      tc_schedule_destroy(&bi);
    }
    for (size_t p = 0; p < sizeof Ps / sizeof Ps[0]; p++) {
      tc_schedule r;
      assert_int_equal(tc_schedule_round_chunks(g, &ag, Ps[p], &r, &err), TC_OK);
      assert_verified(g, &r, TC_COLL_ALLGATHER);
      assert_rounding_rule(g, &ag, &r, Ps[p]);
      tc_cost c = cost_of(g, &r);
      tc_rat bound;
      assert_int_equal(tc_rat_add(ca.tau, theorem20_extra(ca.degree, ca.steps, Ps[p], g->n), &bound, &err), TC_OK);
      assert_int_equal(c.steps, ca.steps);
      assert_true(tc_rat_cmp(c.tau, bound) <= 0);
      assert_true(tc_rat_cmp(c.tau, ca.tau) >= 0); /* LP (1) is optimal among BFB schedules (Thm 16) */
      tc_cost_destroy(&c);
      tc_schedule_destroy(&r);
    }
    tc_cost_destroy(&ca);
    tc_cost_destroy(&ct);
    tc_cost_destroy(&cr);
    tc_cost_destroy(&car);
    tc_schedule_destroy(&ag);
    tc_schedule_destroy(&ag_t);
    tc_schedule_destroy(&rs);
    tc_schedule_destroy(&ar);
    tc_graph_destroy(gbi);
    tc_graph_destroy(gt);
    tc_graph_destroy(g);
  }
}

/* A pipelined ring on UniRing(1,3): every shard moves in two halves, so a node receives a
   shard in two steps — a valid allgather that P-chunk rounding must refuse. */
static void pipelined_ring(const tc_graph *g, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLGATHER, 3, 2, "pipelined", &err), TC_OK);
  for (int v = 0; v < 3; v++)
    for (int hop = 0; hop < 2; hop++)
      for (int half = 0; half < 2; half++) {
        int from = (v + hop) % 3;
        assert_int_equal(tc_schedule_add(s, v, g->out_off[from], 1 + hop + half, half, half + 1, &err), TC_OK);
      }
}

static void error_paths(void **state) {
  (void)state;
  tc_graph *k22 = tc_test_spec("bipartite(2)"), *ring = tc_test_spec("uniring(1,5)");
  tc_graph *ring3 = tc_test_spec("uniring(1,3)");
  tc_graph *gk = tc_test_spec("genkautz(2,10)"), *gkt = NULL, *ringbi = NULL;
  tc_error err;
  assert_int_equal(tc_graph_transpose(gk, &gkt, &err), TC_OK);
  assert_int_equal(tc_graph_bidir_closure(ring, &ringbi, &err), TC_OK);
  tc_schedule ag4, ag5, agk, pipe, out, rs4;
  equal_split_bfb(k22, &ag4);
  equal_split_bfb(ring, &ag5);
  equal_split_bfb(gk, &agk);
  pipelined_ring(ring3, &pipe);
  assert_verified(ring3, &pipe, TC_COLL_ALLGATHER);
  assert_int_equal(tc_schedule_reverse_symmetric(k22, &ag4, NULL, &rs4, &err), TC_OK);

  /* Mismatched graph sizes. */
  expect_error(tc_schedule_reverse(ring, &ag4, ring, &out, &err), TC_EINPUT, &err, "4 nodes but the graph has 5");
  assert_empty(&out);
  expect_error(tc_schedule_reverse(k22, &ag4, ring, &out, &err), TC_EINPUT, &err, "not the transpose");
  /* A graph that is not the transpose (UniRing(1,5) is not its own transpose arc for arc). */
  expect_error(tc_schedule_reverse(ring, &ag5, ring, &out, &err), TC_EINPUT, &err, "not the transpose");
  assert_empty(&out);
  /* Theorem 2 needs reverse symmetry; a wrong map is caught. */
  expect_error(tc_schedule_reverse_symmetric(gk, &agk, NULL, &out, &err), TC_EINPUT, &err, "not reverse-symmetric");
  assert_empty(&out);
  int32_t ident[5] = {0, 1, 2, 3, 4}, twice[5] = {0, 0, 1, 2, 3};
  expect_error(tc_schedule_reverse_symmetric(ring, &ag5, ident, &out, &err), TC_EINPUT, &err, "not an isomorphism");
  expect_error(tc_schedule_relabel(ring, &ag5, ring, twice, &out, &err), TC_EINPUT, &err, "both to 0");
  assert_empty(&out);
  /* Composition wants RS then AG on one layout, in representable units. */
  expect_error(tc_schedule_allreduce_compose(k22, &ag4, &ag4, &out, &err), TC_EINPUT, &err, "reduce-scatter then");
  expect_error(tc_schedule_allreduce_compose(ring, &rs4, &ag5, &out, &err), TC_EINPUT, &err, "4 nodes");
  tc_schedule big_rs, big_ag;
  assert_int_equal(tc_schedule_copy(&rs4, &big_rs, &err), TC_OK);
  assert_int_equal(tc_schedule_copy(&ag4, &big_ag, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&big_rs, 1000000007LL * 3, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&big_ag, 998244353LL * 5, &err), TC_OK);
  expect_error(tc_schedule_allreduce_compose(k22, &big_rs, &big_ag, &out, &err), TC_ERANGE, &err, "overflows");
  assert_empty(&out);
  /* A.6 needs reverse symmetry and the closure. */
  tc_graph *gkbi = NULL;
  assert_int_equal(tc_graph_bidir_closure(gk, &gkbi, &err), TC_OK);
  expect_error(tc_schedule_bidirectional(gk, &agk, NULL, gkbi, &out, &err), TC_EINPUT, &err, "not reverse-symmetric");
  expect_error(tc_schedule_bidirectional(ring, &ag5, NULL, ring, &out, &err), TC_EINPUT, &err, "not G ∪ G^T");
  expect_error(tc_schedule_bidirectional(ring, &ag5, ident, ringbi, &out, &err), TC_EINPUT, &err, "not an isomorphism");
  assert_empty(&out);
  tc_graph_destroy(gkbi);
  /* Rounding: P >= 1, copy semantics, one whole shard per (receiver, step). */
  expect_error(tc_schedule_round_chunks(k22, &ag4, 0, &out, &err), TC_EINPUT, &err, "P must be >= 1");
  expect_error(tc_schedule_round_chunks(k22, &ag4, -3, &out, &err), TC_EINPUT, &err, "P must be >= 1");
  expect_error(tc_schedule_round_chunks(k22, &rs4, 4, &out, &err), TC_EINPUT, &err, "allgather or broadcast");
  expect_error(tc_schedule_round_chunks(ring3, &pipe, 4, &out, &err), TC_EINPUT, &err,
               "node 0 receives shard 1 in steps 2 and 3");
  expect_error(tc_schedule_round_chunks(ring, &ag4, 4, &out, &err), TC_EINPUT, &err, "4 nodes but the graph has 5");
  assert_empty(&out);
  /* Cor. 1.1 with a generator that does not build an allgather. */
  expect_error(tc_schedule_reduce_scatter_from(gk, NULL, NULL, &out, &err), TC_EINPUT, &err, "no allgather generator");
  assert_empty(&out);

  tc_schedule_destroy(&big_rs);
  tc_schedule_destroy(&big_ag);
  tc_schedule_destroy(&ag4);
  tc_schedule_destroy(&ag5);
  tc_schedule_destroy(&agk);
  tc_schedule_destroy(&pipe);
  tc_schedule_destroy(&rs4);
  tc_graph_destroy(k22);
  tc_graph_destroy(ring);
  tc_graph_destroy(ring3);
  tc_graph_destroy(gk);
  tc_graph_destroy(gkt);
  tc_graph_destroy(ringbi);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(inputs_match_the_paper),
      cmocka_unit_test(arc_map_into_transpose),
      cmocka_unit_test(reverse_schedule),
      cmocka_unit_test(theorem2_reduce_scatter),
      cmocka_unit_test(corollary_1_1_on_generalized_kautz),
      cmocka_unit_test(allreduce_costs_add),
      cmocka_unit_test(allreduce_in_common_units),
      cmocka_unit_test(unidirectional_to_bidirectional),
      cmocka_unit_test(least_chunk_count),
      cmocka_unit_test(chunk_rounding_respects_theorem20),
      cmocka_unit_test(rounded_figure1_closed_form),
      cmocka_unit_test(rooted_collectives),
      cmocka_unit_test(theorem20_moore_optimal_example),
      cmocka_unit_test(transforms_of_bfb_schedules),
      cmocka_unit_test(error_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
