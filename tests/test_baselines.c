/*
** test_baselines.c — the classical baseline schedules the papers compare against
** (baselines.h; paper 000 §3.2, §6.2, §8.2, App. A.1, A.2, F.1).
**
** Every schedule built here passes tc_schedule_verify, and its T_L and exact tau come from
** tc_schedule_cost; the tests compare them with closed forms derived in the comments (the
** paper's numbers where it prints them: paper 000 §6.2, App. A.1, A.2, C.2, F.1, Table 9). Per collective: allgather (AG) and reduce-scatter (RS) cost the same, allreduce
** (AR) is RS then AG, twice both. Also: each topology check rejects the wrong graph with
** TC_EINPUT naming the algorithm, and for one schedule of every algorithm dropping any
** single transfer makes the verifier fail (so these tests can fail).
*/
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/baselines.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

static const tc_collective RS_AG[] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER};

/* Verify s on g (failing with the verifier's message) and compute its cost. */
static void verify_and_cost(const tc_graph *g, const tc_schedule *s, tc_cost *c, const char *what) {
  tc_error err;
  if (tc_schedule_verify(g, s, &err)) fail_msg("%s %s: verifier: %s", what, tc_collective_name(s->coll), err.msg);
  if (tc_schedule_cost(g, s, c, &err)) fail_msg("%s: cost: %s", what, err.msg);
}

/* steps == T_L and tau == num/den exactly. */
static void assert_cost(const tc_cost *c, int32_t steps, int64_t num, int64_t den, const char *what) {
  tc_rat want;
  tc_error err;
  assert_int_equal(tc_rat_make(num, den, &want, &err), TC_OK);
  char got[64], exp[64];
  tc_rat_format(c->tau, got, sizeof got);
  tc_rat_format(want, exp, sizeof exp);
  if (c->steps != steps || tc_rat_cmp(c->tau, want) != 0)
    fail_msg("%s: T_L %d tau %s, expected T_L %d tau %s", what, c->steps, got, steps, exp);
}

typedef int (*simple_baseline)(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);

/* Build coll with gen on spec, verify, and check (steps, tau) — AR must be (2 steps, 2 tau)
   when called with the RS/AG values. Returns whether the schedule is BW-optimal. */
static int check_one(simple_baseline gen, const char *spec, tc_collective coll, int32_t steps, int64_t num,
                     int64_t den) {
  tc_graph *g = tc_test_spec(spec);
  tc_schedule s;
  tc_error err;
  char what[128];
  snprintf(what, sizeof what, "%s %s", spec, tc_collective_name(coll));
  if (gen(g, coll, &s, &err)) fail_msg("%s: %s", what, err.msg);
  assert_int_equal(s.coll, coll);
  tc_cost c;
  verify_and_cost(g, &s, &c, what);
  if (coll == TC_COLL_ALLREDUCE) {
    assert_cost(&c, 2 * steps, 2 * num, den, what);
    assert_int_equal(s.rs_steps, steps);
  } else {
    assert_cost(&c, steps, num, den, what);
  }
  int bw = c.bw_optimal;
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  return bw;
}

/* All three collectives with the same per-half (steps, tau). */
static int check_all(simple_baseline gen, const char *spec, int32_t steps, int64_t num, int64_t den) {
  int bw = check_one(gen, spec, TC_COLL_ALLGATHER, steps, num, den);
  assert_int_equal(check_one(gen, spec, TC_COLL_REDUCE_SCATTER, steps, num, den), bw);
  assert_int_equal(check_one(gen, spec, TC_COLL_ALLREDUCE, steps, num, den), bw);
  return bw;
}

/* Dropping any one transfer must make the verifier fail: none of these schedules sends a
   byte twice (Thm 5's condition 2 for the BW-optimal ones; trees for DBT). */
static void assert_every_drop_fails(const tc_graph *g, const tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_verify(g, s, &err), TC_OK);
  assert_true(s->count > 0);
  for (int64_t i = 0; i < s->count; i++) {
    tc_schedule m;
    assert_int_equal(tc_schedule_copy(s, &m, &err), TC_OK);
    m.xfer[i] = m.xfer[m.count - 1];
    m.count--;
    if (tc_schedule_verify(g, &m, &err) != TC_EFAIL)
      fail_msg("%s %s without transfer %lld still verifies", s->algorithm, tc_collective_name(s->coll), (long long)i);
    tc_schedule_destroy(&m);
  }
}

static void expect_einput(int rc, const tc_error *err, const char *prefix) {
  if (rc != TC_EINPUT) fail_msg("expected TC_EINPUT for %s, got %d (%s)", prefix, rc, err->msg);
  if (strncmp(err->msg, prefix, strlen(prefix))) fail_msg("message '%s' does not start with '%s'", err->msg, prefix);
}

/* UniRing(d,m) ring (Table 9 row 9; App. C.2's ring of degree d): T_L = m-1, tau = (m-1)/m, BW-optimal; every
   arc carries one shard (1/d per port) in each of the m-1 steps, tau = (d/m)(m-1)(1/d). */
static void ring_on_uniring(void **state) {
  (void)state;
  char spec[64];
  for (int d = 1; d <= 3; d++)
    for (int m = 2; m <= 7; m++) {
      snprintf(spec, sizeof spec, "uniring(%d,%d)", d, m);
      assert_true(check_all(tc_baseline_ring, spec, m - 1, m - 1, m));
    }
}

/* Parallel arcs of capacities 1 and 2 to the successor: the chunk is split 1:2, every port
   carries 1/3 of a shard per unit capacity, d = 3, so still tau = (m-1)/m. */
static void ring_splits_by_capacity(void **state) {
  (void)state;
  const int m = 5;
  tc_graph_builder b;
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, m, &err), TC_OK);
  for (int i = 0; i < m; i++) {
    assert_int_equal(tc_graph_builder_add_arc(&b, i, (i + 1) % m, 1, &err), TC_OK);
    assert_int_equal(tc_graph_builder_add_arc(&b, i, (i + 1) % m, 2, &err), TC_OK);
  }
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  for (int c = 0; c < 3; c++) {
    tc_collective coll = c == 2 ? TC_COLL_ALLREDUCE : RS_AG[c];
    tc_schedule s;
    tc_cost cost;
    assert_int_equal(tc_baseline_ring(g, coll, &s, &err), TC_OK);
    assert_int_equal(s.units, 3);
    verify_and_cost(g, &s, &cost, "ring caps 1+2");
    assert_int_equal(cost.degree, 3);
    int f = coll == TC_COLL_ALLREDUCE ? 2 : 1;
    assert_cost(&cost, f * (m - 1), f * (m - 1), m, "ring caps 1+2");
    assert_true(cost.bw_optimal);
    tc_cost_destroy(&cost);
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
}

/* Traditional bidirectional ring (App. F.1, first paragraph): T_L = N-1, half a shard per
   arc per step over d = 2 (or 4 with doubled links), tau = (2/N)(N-1)(1/2) = (N-1)/N. */
static void biring_halves(void **state) {
  (void)state;
  char spec[64];
  for (int d = 2; d <= 4; d += 2)
    for (int n = 3; n <= 9; n++) {
      snprintf(spec, sizeof spec, "biring(%d,%d)", d, n);
      assert_true(check_all(tc_baseline_biring, spec, n - 1, n - 1, n));
    }
}

/* BFB ring (App. F.1, Fig. 17): T_L = floor(N/2), BW-optimal; N = 5..8 gives 2, 3, 3, 4;
   allreduce 2 floor(N/2) steps (A.2). */
static void bfb_ring(void **state) {
  (void)state;
  static const int printed[4] = {2, 3, 3, 4}; /* N = 5, 6, 7, 8 */
  char spec[64];
  for (int n = 5; n <= 8; n++) {
    snprintf(spec, sizeof spec, "biring(2,%d)", n);
    assert_true(check_all(tc_baseline_bfbring, spec, printed[n - 5], n - 1, n));
  }
  for (int d = 2; d <= 4; d += 2)
    for (int n = 3; n <= 12; n++) {
      snprintf(spec, sizeof spec, "biring(%d,%d)", d, n);
      assert_true(check_all(tc_baseline_bfbring, spec, n / 2, n - 1, n));
    }
}

static int shiftedring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  return tc_baseline_shiftedring(g, coll, 0, out, err);
}
static int shiftedbfbring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  return tc_baseline_shiftedring(g, coll, 1, out, err);
}

/* ShiftedRing (paper 000 §8.2): each of 4 ports carries a quarter shard per step for N-1
   steps, tau = (4/N)(N-1)(1/4) = (N-1)/N, allreduce 2(N-1) steps (A.2, Fig. 14a: "2(N-1)").
   ShiftedBFBRing: the BFB ring on each ring, 2 floor(N/2) allreduce steps (A.2), still
   BW-optimal. Offsets: TopoOpt's a = 1 with several shifts, a Boesch-Wang C(11,{2,3}), and
   the doubled ring biring(4,N). */
static void shifted_rings(void **state) {
  (void)state;
  static const char *const specs[] = {"circulant(7,1,2)",  "circulant(7,1,3)",  "circulant(8,1,3)", "circulant(9,1,4)",
                                      "circulant(12,1,5)", "circulant(11,2,3)", "circulant(5,1,2)", "biring(4,6)",
                                      "biring(4,7)"};
  static const int nodes[] = {7, 7, 8, 9, 12, 11, 5, 6, 7};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    int n = nodes[i];
    assert_true(check_all(shiftedring, specs[i], n - 1, n - 1, n));
    assert_true(check_all(shiftedbfbring, specs[i], n / 2, n - 1, n));
  }
}

/* Recursive halving / doubling on Q_n (paper 000 A.1): n steps; step t moves 2^(t-1) shards
   over one of the n ports, so tau = (n/N) Σ_t 2^(t-1) = n (N-1)/N — BW-optimal only for
   n = 1 (one port), n times the bound otherwise ("at most 1/3 of the bandwidth", n = 3). */
static void recursive_halving_doubling(void **state) {
  (void)state;
  char spec[64];
  for (int n = 1; n <= 5; n++) {
    int N = 1 << n;
    snprintf(spec, sizeof spec, "hypercube(%d)", n);
    assert_int_equal(check_all(tc_baseline_rhd, spec, n, (int64_t)n * (N - 1), N), n == 1);
  }
}

static int64_t g_dims[4];
static int g_ndims;
static int torus_dor(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  return tc_baseline_torus_dor(g, g_dims, g_ndims, coll, out, err);
}

static int torus_case(const char *spec, int k, const int64_t *dims, int32_t steps, int64_t num, int64_t den) {
  g_ndims = k;
  for (int i = 0; i < k; i++) g_dims[i] = dims[i];
  return check_all(torus_dor, spec, steps, num, den);
}

/* Traditional torus schedule (paper 000 §6.2: T_L = Σ (d_i - 1), so 3x3x2 -> 2+2+1 = 5).
   Equal dimensions: BW-optimal (Thm 12), tau = (N-1)/N. Unequal: not. Per-arc loads by hand
   (k sub-schedules with 1/k of a shard each; a phase on a ring of length >= 3 puts half the
   node's current bundle on each arc per step, on a length-2 dimension (K_2) the whole):
     2x4 (d = 3): A = dim0 then dim1, B = dim1 then dim0, 1/2 shard each.
       step 1: A on K_2 1/2, B on dim1 1/4 -> max 1/2; steps 2,3: A on dim1 (bundle 1) 1/2 +
       B 1/4 = 3/4; step 4: A 1/2, B on K_2 with bundle 4*(1/2) = 2 -> max 2.
       Σ = 4, tau = (3/8)*4 = 3/2 > 7/8.
     3x5 (d = 4): A = dim0 (2 steps) then dim1 (4), B = dim1 (4) then dim0 (2).
       steps 1,2: 1/4; steps 3,4: dim1 gets A 3/4 + B 1/4 = 1; steps 5,6: B on dim0 with
       bundle 5/2 -> 5/4. Σ = 5, tau = (4/15)*5 = 4/3 > 14/15.
     3x3x2 (d = 5), thirds: sub0 = 0,1,2 (steps 1-2, 3-4, 5), sub1 = 1,2,0 (1-2, 3, 4-5),
       sub2 = 2,0,1 (1, 2-3, 4-5). Maxima per step: 1/3 (sub2 on K_2), 1/2 (dim0: 1/6 + 1/3),
       1 (sub1 on K_2 with bundle 1), 3/2 (dim1: 1/2 + 1), 3 (sub0 on K_2 with bundle 3).
       Σ = 19/3, tau = (5/18)(19/3) = 95/54 > 51/54. */
static void torus_dimension_order(void **state) {
  (void)state;
  static const int64_t d33[] = {3, 3}, d44[] = {4, 4}, d333[] = {3, 3, 3}, d222[] = {2, 2, 2}, d5[] = {5},
                       d24[] = {2, 4}, d35[] = {3, 5}, d332[] = {3, 3, 2}, d53[] = {5, 3};
  assert_true(torus_case("torus(3,3)", 2, d33, 4, 8, 9));
  assert_true(torus_case("torus(4,4)", 2, d44, 6, 15, 16));
  assert_true(torus_case("torus(3,3,3)", 3, d333, 6, 26, 27)); /* §6.2: traditional T_L 2+2+2 = 6 */
  assert_true(torus_case("torus(2,2,2)", 3, d222, 3, 7, 8));
  assert_true(torus_case("torus(5)", 1, d5, 4, 4, 5));
  assert_false(torus_case("torus(2,4)", 2, d24, 4, 3, 2));
  assert_false(torus_case("torus(3,5)", 2, d35, 6, 4, 3));
  assert_false(torus_case("torus(5,3)", 2, d53, 6, 4, 3)); /* the same torus transposed */
  assert_false(torus_case("torus(3,3,2)", 3, d332, 5, 95, 54));
}

/* Parent of every node in the reduction half of a DBT schedule for shard k, read off the
   transfers (the test's own view of the trees); also checks one parent per node. */
static void parents_from_schedule(const tc_graph *g, const tc_schedule *s, int32_t k, int32_t last_step,
                                  int32_t *parent) {
  for (int32_t v = 0; v < g->n; v++) parent[v] = -1;
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    if (x->shard != k || x->step > last_step) continue;
    int32_t u = g->src[x->arc], w = g->dst[x->arc];
    if (parent[u] >= 0 && parent[u] != w) fail_msg("node %d sends shard %d to both %d and %d", u, k, parent[u], w);
    parent[u] = w;
  }
}

static int32_t tree_height(const int32_t *parent, int32_t n) {
  int32_t h = 0;
  for (int32_t v = 0; v < n; v++) {
    int32_t d = 0;
    for (int32_t u = v; parent[u] >= 0; u = parent[u]) {
      d++;
      if (d > n) fail_msg("the reduction edges contain a cycle");
    }
    if (d > h) h = d;
  }
  return h;
}

static int32_t floor_log2(int32_t x) {
  int32_t k = 0;
  while ((INT32_C(2) << k) <= x) k++;
  return k;
}

/* DBT allreduce (NCCL / Sanders et al.): each tree has height K = floor(log2 N) (its left
   spine 2^K, ..., 1); with P chunks a direction takes K+P-1 steps, so T_L = 2(K+P-1). Every
   used arc carries at most one 1/P chunk per step and every step is used, so with
   nshards = 2, tau = (d/2) * 2(K+P-1)/P = d(K+P-1)/P; d = 4 on the DBT's own topology from
   N = 4 on (node 1: parent and two children in tree 0, a parent in tree 1), 3 for N = 3, 2
   for N = 2 (two parallel links). On the complete graph d = N-1. Each node is interior
   (receives in the reduction) in at most one tree. */
static void double_binary_tree_allreduce(void **state) {
  (void)state;
  static const int sizes[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 31, 33};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    int32_t n = sizes[i], K = floor_log2(n);
    tc_graph *own = NULL;
    tc_error err;
    assert_int_equal(tc_baseline_dbt_topology(n, -1, &own, &err), TC_OK);
    char spec[32];
    snprintf(spec, sizeof spec, "complete(%d)", n);
    tc_graph *kn = tc_test_spec(spec);
    for (int32_t P = 1; P <= 3; P++)
      for (int which = 0; which < 2; which++) {
        const tc_graph *g = which ? kn : own;
        int64_t d = which ? n - 1 : (n >= 4 ? 4 : n);
        tc_schedule s;
        tc_cost c;
        char what[64];
        snprintf(what, sizeof what, "dbt N=%d P=%d on %s", n, P, which ? "K_N" : "own topology");
        if (tc_baseline_dbt(g, TC_COLL_ALLREDUCE, -1, P, &s, &err)) fail_msg("%s: %s", what, err.msg);
        verify_and_cost(g, &s, &c, what);
        assert_int_equal(c.degree, d);
        assert_cost(&c, 2 * (K + P - 1), d * (K + P - 1), P, what);
        assert_int_equal(s.rs_steps, K + P - 1);
        int32_t *par = malloc(2 * (size_t)n * sizeof *par);
        assert_non_null(par);
        for (int k = 0; k < 2; k++) {
          parents_from_schedule(g, &s, k, s.rs_steps, par + k * n);
          assert_int_equal(tree_height(par + k * n, n), K);
          assert_int_equal(par[k * n + tc_schedule_owner(&s, k)], -1);
        }
        for (int32_t v = 0; v < n; v++) { /* interior = some node sends to v */
          int interior[2] = {0, 0};
          for (int k = 0; k < 2; k++)
            for (int32_t u = 0; u < n; u++) interior[k] |= par[k * n + u] == v;
          if (interior[0] && interior[1]) fail_msg("%s: node %d is interior in both trees", what, v);
        }
        free(par);
        tc_cost_destroy(&c);
        tc_schedule_destroy(&s);
      }
    tc_graph_destroy(kn);
    tc_graph_destroy(own);
  }
}

/* DBT broadcast / reduce from R: the trees span the N-1 other nodes (height K' =
   floor(log2(N-1))) below R, so the depth is K'+1 and with P chunks T_L = K'+1+P-1 = K'+P;
   one 1/P chunk per arc per step: tau = (d/2)(K'+P)/P, d = 4 on the rooted DBT topology for
   N >= 5, against the broadcast bound 1 (R feeds only 2 of 4 ports). */
static void double_binary_tree_rooted(void **state) {
  (void)state;
  static const int sizes[] = {5, 6, 7, 8, 9, 12, 17};
  tc_error err;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int32_t root = 0; root < sizes[i]; root += 2) {
      int32_t n = sizes[i], K1 = floor_log2(n - 1);
      tc_graph *g = NULL;
      assert_int_equal(tc_baseline_dbt_topology(n, root, &g, &err), TC_OK);
      for (int32_t P = 1; P <= 2; P++)
        for (int b = 0; b < 2; b++) {
          tc_collective coll = b ? TC_COLL_REDUCE : TC_COLL_BROADCAST;
          tc_schedule s;
          tc_cost c;
          char what[64];
          snprintf(what, sizeof what, "dbt %s N=%d R=%d P=%d", tc_collective_name(coll), n, root, P);
          if (tc_baseline_dbt(g, coll, root, P, &s, &err)) fail_msg("%s: %s", what, err.msg);
          verify_and_cost(g, &s, &c, what);
          assert_int_equal(c.degree, 4);
          assert_cost(&c, K1 + P, 2 * (K1 + P), P, what);
          tc_cost_destroy(&c);
          tc_schedule_destroy(&s);
        }
      tc_graph_destroy(g);
    }
  /* and on the complete graph, where every tree link exists */
  tc_graph *kn = tc_test_spec("complete(6)");
  tc_schedule s;
  tc_cost c;
  assert_int_equal(tc_baseline_dbt(kn, TC_COLL_BROADCAST, 3, 4, &s, &err), TC_OK);
  verify_and_cost(kn, &s, &c, "dbt broadcast on K_6");
  assert_int_equal(c.steps, floor_log2(5) + 4);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(kn);
}

/* The trees themselves: a parent array with one root, no cycles, <= 2 children each. */
static void dbt_tree_shape(void **state) {
  (void)state;
  tc_error err;
  for (int32_t n = 2; n <= 40; n++) {
    int32_t *par = malloc(2 * (size_t)n * sizeof *par);
    assert_non_null(par);
    assert_int_equal(tc_baseline_dbt_trees(n, -1, par, &err), TC_OK);
    for (int k = 0; k < 2; k++) {
      int roots = 0;
      for (int32_t v = 0; v < n; v++) {
        int children = 0;
        for (int32_t u = 0; u < n; u++) children += par[k * n + u] == v;
        assert_true(children <= 2);
        roots += par[k * n + v] < 0;
      }
      assert_int_equal(roots, 1);
      assert_int_equal(tree_height(par + k * n, n), floor_log2(n));
    }
    free(par);
  }
}

/* Every algorithm refuses a graph that is not its topology, naming itself. */
static void wrong_topologies(void **state) {
  (void)state;
  struct {
    const char *algo, *spec, *prefix;
  } cases[] = {
      {"biring", "uniring(1,5)", "biring:"},
      {"biring", "circulant(7,1,2)", "biring:"},
      {"bfbring", "torus(3,3)", "bfbring:"},
      {"bfbring", "uniring(2,6)", "bfbring:"},
      {"shiftedring", "biring(2,7)", "shiftedring:"},
      {"shiftedring", "circulant(8,1,2)", "shiftedring:"},
      {"shiftedring", "circulant(7,1,2,3)", "shiftedring:"},
      {"shiftedbfbring", "torus(3,3)", "shiftedbfbring:"},
      {"dbt", "biring(2,8)", "dbt:"},
      {"torus-dor", "hypercube(4)", "torus-dor needs SPEC written as torus("},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_schedule s;
    tc_error err;
    tc_collective coll = strcmp(cases[i].algo, "dbt") ? TC_COLL_ALLGATHER : TC_COLL_ALLREDUCE;
    expect_einput(tc_test_generate(cases[i].algo, cases[i].spec, g, coll, -1, 0, &s, &err), &err, cases[i].prefix);
    assert_int_equal(s.count, 0);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
  /* dims that do not describe the graph's numbering */
  tc_graph *g = tc_test_spec("torus(3,4)");
  tc_schedule s;
  tc_error err;
  static const int64_t d43[] = {4, 3}, d34[] = {3, 4}, d35[] = {3, 5};
  expect_einput(tc_baseline_torus_dor(g, d43, 2, TC_COLL_ALLGATHER, &s, &err), &err, "torus-dor:");
  expect_einput(tc_baseline_torus_dor(g, d35, 2, TC_COLL_ALLGATHER, &s, &err), &err, "torus-dor:");
  expect_einput(tc_baseline_torus_dor(g, NULL, 0, TC_COLL_ALLGATHER, &s, &err), &err, "torus-dor:");
  assert_int_equal(tc_baseline_torus_dor(g, d34, 2, TC_COLL_ALLGATHER, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  /* unsupported collectives and bad arguments */
  expect_einput(tc_baseline_torus_dor(g, d34, 2, TC_COLL_BROADCAST, &s, &err), &err, "torus-dor:");
  tc_graph_destroy(g);
  g = tc_test_spec("complete(5)");
  expect_einput(tc_baseline_dbt(g, TC_COLL_ALLGATHER, -1, 1, &s, &err), &err, "dbt:");
  expect_einput(tc_baseline_dbt(g, TC_COLL_BROADCAST, -1, 1, &s, &err), &err, "dbt:");
  expect_einput(tc_baseline_dbt(g, TC_COLL_BROADCAST, 5, 1, &s, &err), &err, "dbt:");
  expect_einput(tc_baseline_dbt(g, TC_COLL_ALLREDUCE, 2, 1, &s, &err), &err, "dbt:");
  expect_einput(tc_baseline_dbt(g, TC_COLL_ALLREDUCE, -1, 0, &s, &err), &err, "dbt:");
  char list[1024], want[1200];
  snprintf(want, sizeof want, "unknown algorithm 'bogus' (%s)", tc_test_algos(-1, ", ", list, sizeof list));
  expect_einput(tc_test_generate("bogus", NULL, g, TC_COLL_ALLGATHER, -1, 0, &s, &err), &err, want);
  assert_string_equal(err.msg, want);
  snprintf(want, sizeof want, "ring builds allgather, reduce-scatter and allreduce, not broadcast (use --algo %s)",
           tc_test_algos(TC_COLL_BROADCAST, " or ", list, sizeof list));
  expect_einput(tc_test_generate("ring", NULL, g, TC_COLL_BROADCAST, 0, 0, &s, &err), &err, want);
  assert_string_equal(err.msg, want);
  tc_graph_destroy(g);
  g = tc_test_spec("uniring(1,4)");
  expect_einput(tc_baseline_ring(g, TC_COLL_REDUCE, &s, &err), &err, "ring:");
  tc_graph_destroy(g);
}

/* For one schedule of every algorithm, removing any single transfer breaks it. */
static void dropping_a_transfer_fails(void **state) {
  (void)state;
  struct {
    const char *algo, *spec;
    tc_collective coll;
    int32_t root, chunks;
  } cases[] = {
      {"ring", "uniring(2,5)", TC_COLL_ALLREDUCE, -1, 0},
      {"biring", "biring(2,5)", TC_COLL_ALLREDUCE, -1, 0},
      {"bfbring", "biring(2,6)", TC_COLL_ALLREDUCE, -1, 0},
      {"shiftedring", "circulant(7,1,3)", TC_COLL_ALLREDUCE, -1, 0},
      {"shiftedbfbring", "circulant(8,1,3)", TC_COLL_ALLREDUCE, -1, 0},
      {"rhd", "hypercube(3)", TC_COLL_ALLREDUCE, -1, 0},
      {"torus-dor", "torus(2,3)", TC_COLL_ALLREDUCE, -1, 0},
      {"dbt", "complete(7)", TC_COLL_ALLREDUCE, -1, 2},
      {"dbt", "complete(7)", TC_COLL_BROADCAST, 4, 2},
      {"dbt", "complete(7)", TC_COLL_REDUCE, 4, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_schedule s;
    tc_error err;
    if (tc_test_generate(cases[i].algo, cases[i].spec, g, cases[i].coll, cases[i].root, cases[i].chunks, &s, &err))
      fail_msg("%s on %s: %s", cases[i].algo, cases[i].spec, err.msg);
    assert_string_equal(s.algorithm, cases[i].algo);
    assert_every_drop_fails(g, &s);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* Schedules with more than 2^26 transfers are refused before anything is allocated. */
static void size_limits(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,10000)"); /* 10^4 * 9999 * 2 > 2^26 */
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_baseline_ring(g, TC_COLL_ALLGATHER, &s, &err), TC_ERANGE);
  assert_int_equal(s.count, 0);
  tc_graph_destroy(g);
  g = tc_test_spec("complete(8)");
  /* the bound counts 4 N P: P = 2^21 + 1 on 8 nodes is just over 2^26 */
  assert_int_equal(tc_baseline_dbt(g, TC_COLL_ALLREDUCE, -1, (1 << 21) + 1, &s, &err), TC_ERANGE);
  assert_int_equal(tc_baseline_dbt(g, TC_COLL_ALLREDUCE, -1, 1 << 10, &s, &err), TC_OK);
  assert_int_equal(s.count, 2 * 2 * 7 * (INT64_C(1) << 10)); /* 2 trees x 7 links x up and down x P */
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* The registry lists exactly these algorithms, in this order, each with the collectives its
   generator builds (every one exercised above or in test_collective.c). */
static void names(void **state) {
  (void)state;
  static const char *const want[] = {"bfb", "expand", "forestcoll", "ring", "biring", "bfbring", "shiftedring",
                                     "shiftedbfbring", "dbt", "rhd", "torus-dor", "mcf", "pmcf", "mcf-extp",
                                     "ilp-disjoint", "ilp-shortest", "direct", "sssp", "ewsp", "dor",
                                     "fc-direct", "binomial", "pairwise", "bruck", "do", "md", "multitree",
                                     "kautz-c", "kautz-m", "kautz", "kautz-mp", "kautz-sp"};
  assert_int_equal(tc_algorithm_count(), 32);
  for (int i = 0; i < 32; i++) {
    assert_string_equal(tc_algorithm_at(i)->name, want[i]);
    assert_ptr_equal(tc_algorithm_find(want[i]), tc_algorithm_at(i));
    uint32_t rs_ag_ar = TC_COLL_BIT(TC_COLL_ALLGATHER) | TC_COLL_BIT(TC_COLL_REDUCE_SCATTER) |
                        TC_COLL_BIT(TC_COLL_ALLREDUCE);
    uint32_t dbt = TC_COLL_BIT(TC_COLL_ALLREDUCE) | TC_COLL_BIT(TC_COLL_BROADCAST) | TC_COLL_BIT(TC_COLL_REDUCE);
    uint32_t a2a = TC_COLL_BIT(TC_COLL_ALLTOALL); /* the routings of test_a2a_route.c, the flows of test_a2a_flows.c */
    /* the multi-port baselines of paper 002 (test_multiport_baselines.c) */
    uint32_t rooted = TC_COLL_BIT(TC_COLL_BROADCAST) | TC_COLL_BIT(TC_COLL_REDUCE) | TC_COLL_BIT(TC_COLL_SCATTER) |
                      TC_COLL_BIT(TC_COLL_GATHER);
    uint32_t every = rs_ag_ar | rooted | a2a | TC_COLL_BIT(TC_COLL_P2P), a2a_ag = a2a | TC_COLL_BIT(TC_COLL_ALLGATHER);
    /* the 2dfc rows of test_twodfc.c: do builds all four, md no reduce-scatter, multitree
       allgather and alltoall */
    uint32_t twodfc[3] = {a2a | rs_ag_ar, a2a | TC_COLL_BIT(TC_COLL_ALLGATHER) | TC_COLL_BIT(TC_COLL_ALLREDUCE),
                          a2a | TC_COLL_BIT(TC_COLL_ALLGATHER)};
    uint32_t kautz = rs_ag_ar | dbt | a2a | TC_COLL_BIT(TC_COLL_SCATTER) | TC_COLL_BIT(TC_COLL_GATHER),
             p2p = TC_COLL_BIT(TC_COLL_P2P); /* test_kautz_coll.c, test_kautz_p2p.c */
    uint32_t want_colls = i >= 30   ? p2p
                          : i >= 27 ? kautz
                          : i >= 24 ? twodfc[i - 24]
                          : i >= 22 ? a2a_ag
                          : i == 21 ? rooted
                          : i == 20 ? every
                          : i >= 11 ? a2a
                          : strcmp(want[i], "dbt") ? rs_ag_ar
                                                   : dbt;
    assert_int_equal(tc_algorithm_at(i)->collectives, want_colls);
  }
  assert_null(tc_algorithm_at(32));
  assert_null(tc_algorithm_find("bogus"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ring_on_uniring),
      cmocka_unit_test(ring_splits_by_capacity),
      cmocka_unit_test(biring_halves),
      cmocka_unit_test(bfb_ring),
      cmocka_unit_test(shifted_rings),
      cmocka_unit_test(recursive_halving_doubling),
      cmocka_unit_test(torus_dimension_order),
      cmocka_unit_test(dbt_tree_shape),
      cmocka_unit_test(double_binary_tree_allreduce),
      cmocka_unit_test(double_binary_tree_rooted),
      cmocka_unit_test(wrong_topologies),
      cmocka_unit_test(dropping_a_transfer_fails),
      cmocka_unit_test(size_limits),
      cmocka_unit_test(names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
