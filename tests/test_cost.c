/*
** test_cost.c — the α-β cost model of cost.h (paper 000 §3.2, App. C.1–C.3): every field of
** tc_cost on schedules small enough to cost by hand, and closed forms on generated ones.
**
** The model: load(a,t) = shards on arc a in step t / cap(a); d = the largest Σ cap over a
** node's out-arcs; tau = (d / nshards) Σ_t max_a load(a,t); tau* = (N-1)/N for allgather
** and reduce-scatter (paper 000 Thm 4), twice that for allreduce (App. C.3), 1 for
** broadcast and reduce (a non-root node must receive all M bytes through its bandwidth B);
** T_L* = min{k : N <= M_{d,k}} (Def. 10), doubled for allreduce. Each hand-built case
** below also derives T_B in bytes from the link speed b = B/d, so the expected tau is
** checked against §3.2's definition, not only against cost.h's formula.
**
** Every schedule costed here first passes tc_schedule_verify (so the numbers belong to
** correct collectives); an idle step, a capacity-3 port, parallel arcs, owned shards
** (broadcast, reduce) and allreduce each get a case. tc_cost_time and
** tc_schedule_time_hetero are compared with the arithmetic written out.
*/
#include <math.h>
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"


static void add(tc_schedule *s, int shard, int64_t arc, int step, int64_t lo, int64_t hi) {
  tc_error err;
  assert_int_equal(tc_schedule_add(s, shard, arc, step, lo, hi, &err), TC_OK);
}

static void verify_and_cost(const tc_graph *g, const tc_schedule *s, tc_cost *c) {
  tc_error err;
  if (tc_schedule_verify(g, s, &err)) fail_msg("%s %s: verifier: %s", s->algorithm, tc_collective_name(s->coll), err.msg);
  if (tc_schedule_cost(g, s, c, &err)) fail_msg("%s: cost: %s", s->algorithm, err.msg);
}

static void assert_rat(tc_rat got, int64_t num, int64_t den, const char *what) {
  tc_rat want;
  tc_error err;
  assert_int_equal(tc_rat_make(num, den, &want, &err), TC_OK);
  /* compare the stored fields: the cost model must hand out reduced rationals */
  if (got.num != want.num || got.den != want.den)
    fail_msg("%s = %lld/%lld, want %lld/%lld", what, (long long)got.num, (long long)got.den, (long long)want.num,
             (long long)want.den);
}

/* Every field of c. loads[2t], loads[2t+1] is step t+1's max load as a fraction. */
static void assert_cost(const tc_cost *c, int32_t steps, int64_t degree, int64_t tau_n, int64_t tau_d,
                        int64_t opt_n, int64_t opt_d, int32_t moore_steps, const int64_t *loads, const char *what) {
  char label[160];
  if (c->steps != steps) fail_msg("%s: steps %d, want %d", what, c->steps, steps);
  if (c->degree != degree) fail_msg("%s: degree %lld, want %lld", what, (long long)c->degree, (long long)degree);
  snprintf(label, sizeof label, "%s: tau", what);
  assert_rat(c->tau, tau_n, tau_d, label);
  snprintf(label, sizeof label, "%s: tau*", what);
  assert_rat(c->tau_optimal, opt_n, opt_d, label);
  assert_int_equal(c->bw_optimal, tau_n * opt_d == opt_n * tau_d);
  if (c->moore_steps != moore_steps) fail_msg("%s: moore_steps %d, want %d", what, c->moore_steps, moore_steps);
  assert_int_equal(c->moore_optimal, steps == moore_steps);
  for (int32_t t = 0; loads && t < steps; t++) {
    snprintf(label, sizeof label, "%s: step_load[%d]", what, t);
    assert_rat(c->step_load[t], loads[2 * t], loads[2 * t + 1], label);
  }
}

/* ---- hand-built schedules ---- */

/* K_3, units = 2. Node u sends its whole shard to u+1 and the first half to u+2 in step 1;
   u+1 forwards the second half to u+2 in step 2. Loads: step 1, the arc u -> u+1 carries
   one shard (the largest), u -> u+2 half; step 2, u+1 -> u+2 carries half. By hand with
   b = B/2 and shards of M/3: step 1 (M/3)/(B/2) = 2M/(3B), step 2 M/(3B), so T_B = M/B,
   tau = 1 against tau* = 2/3; T_L = 2 against T_L*(3,2) = 1 (3 <= M_{2,1} = 3). */
static void build_k3_split(const tc_graph *g, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLGATHER, 3, 2, "k3-split", &err), TC_OK);
  for (int u = 0; u < 3; u++) {
    int next = (u + 1) % 3, far = (u + 2) % 3;
    add(s, u, tc_test_arc_id(g, u, next), 1, 0, 2);
    add(s, u, tc_test_arc_id(g, u, far), 1, 0, 1);
    add(s, u, tc_test_arc_id(g, next, far), 2, 1, 2);
  }
}

static void hand_k3_split(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(3)");
  tc_schedule s;
  tc_cost c;
  build_k3_split(g, &s);
  verify_and_cost(g, &s, &c);
  static const int64_t loads[] = {1, 1, 1, 2};
  assert_cost(&c, 2, 2, 1, 1, 2, 3, 1, loads, "K_3 split");
  assert_false(c.bw_optimal);
  assert_false(c.moore_optimal);
  /* steps*α + tau*M/(d*b): α = 10 µs, b = 1e9 B/s, M = 6 MB -> 2e-5 + 6e6/2e9 = 3.02 ms.
     The same operations in the same order give the same double. */
  double t = tc_cost_time(&c, 1e-5, 1e9, 6e6);
  assert_true(t == 2 * 1e-5 + 1.0 * 6e6 / (2.0 * 1e9));
  assert_true(fabs(t - 3.02e-3) <= 1e-18);
  /* α = 0 and M = 0 leave one term each */
  assert_true(tc_cost_time(&c, 0.0, 1e9, 6e6) == 3e-3);
  assert_true(tc_cost_time(&c, 1e-5, 1e9, 0.0) == 2e-5);
  tc_cost_destroy(&c);
  assert_null(c.step_load); /* destroy leaves nothing to free twice */
  /* the same schedule with every step shifted by one: an idle first step costs α and no
     bandwidth (step_load 0), so T_L = 3 and tau is unchanged */
  for (int64_t i = 0; i < s.count; i++) s.xfer[i].step++;
  s.steps = 3;
  verify_and_cost(g, &s, &c);
  static const int64_t idle[] = {0, 1, 1, 1, 1, 2};
  assert_cost(&c, 3, 2, 1, 1, 2, 3, 1, idle, "K_3 split, idle step 1");
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Two nodes, 0 -> 1 of capacity 3 and 1 -> 0 of capacity 1: d = 3 (node 0's ports), and
   one shard on each arc in one step loads them 1/3 and 1. By hand: b = B/3, shard M/2 over
   the capacity-1 arc takes (M/2)/(B/3) = 3M/(2B): tau = 3/2 against tau* = 1/2. */
static void hand_capacity(void **state) {
  (void)state;
  tc_graph_builder b;
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, 0, 1, 3, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, 1, 0, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  tc_schedule s;
  tc_cost c;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 1, "caps", &err), TC_OK);
  add(&s, 0, tc_test_arc_id(g, 0, 1), 1, 0, 1);
  add(&s, 1, tc_test_arc_id(g, 1, 0), 1, 0, 1);
  verify_and_cost(g, &s, &c);
  /* tau* = 3/2 too: node 0 must learn half of M over its one link of capacity 1, which
     takes 3/2 M/B with B = 3 links; the schedule is optimal. */
  static const int64_t loads[] = {1, 1};
  assert_cost(&c, 1, 3, 3, 2, 3, 2, 1, loads, "caps 3 and 1");
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Capacities reach 2^63-1. K_3 with every arc of capacity 2^62: each node's out-capacity
   2^63 does not fit a node bandwidth, and the cost says so rather than wrapping; with
   2^62 - 1 it is 2^63 - 2 exactly and tau = (1 / (2^62-1)) (2^63-2) / 3 = 2/3. */
static void node_bandwidth_overflow(void **state) {
  (void)state;
  for (int fits = 0; fits < 2; fits++) {
    const int64_t cap = (INT64_C(1) << 62) - fits;
    const int arcs[][3] = {{0, 1, 1}, {0, 2, 1}, {1, 0, 1}, {1, 2, 1}, {2, 0, 1}, {2, 1, 1}};
    tc_graph_builder b;
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_graph_builder_init(&b, 3, &err), TC_OK);
    for (int i = 0; i < 6; i++) assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], cap, &err), TC_OK);
    assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
    tc_schedule s;
    tc_cost c;
    assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 3, 1, "big", &err), TC_OK);
    for (int i = 0; i < 6; i++) add(&s, arcs[i][0], tc_test_arc_id(g, arcs[i][0], arcs[i][1]), 1, 0, 1);
    assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
    if (fits) {
      assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
      assert_int_equal(c.degree, INT64_MAX - 1);
      assert_int_equal(c.tau.num, 2);
      assert_int_equal(c.tau.den, 3);
      tc_cost_destroy(&c);
    } else {
      assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_ERANGE);
      assert_string_equal(err.msg, "the out-capacities of node 0 sum beyond 2^63-1 (arc 1 has 4611686018427387904)");
      assert_null(c.step_load);
      assert_int_equal(c.degree, 0);
    }
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* Two parallel unit arcs 0 -> 1 and one arc 1 -> 0 of capacity 2: d = 2 at both nodes.
   Shard 0 split over the two parallel arcs and shard 1 on the capacity-2 arc load every
   port half a shard: tau = (2/2)(1/2) = 1/2 = tau*. Sending shard 0 whole over one of the
   parallel arcs loads it 1 (a parallel arc is a port of its own, not extra capacity of the
   first): tau = 1. */
static void hand_parallel_arcs(void **state) {
  (void)state;
  tc_graph_builder b;
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, 0, 1, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, 0, 1, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, 1, 0, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  assert_int_equal(g->dst[0], 1); /* arcs sorted by (src, dst, cap): 0, 1 parallel; 2 back */
  assert_int_equal(g->dst[1], 1);
  assert_int_equal(g->cap[2], 2);
  tc_schedule s;
  tc_cost c;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 2, "parallel", &err), TC_OK);
  add(&s, 0, 0, 1, 0, 1);
  add(&s, 0, 1, 1, 1, 2);
  add(&s, 1, 2, 1, 0, 2);
  verify_and_cost(g, &s, &c);
  static const int64_t half[] = {1, 2};
  assert_cost(&c, 1, 2, 1, 2, 1, 2, 1, half, "split over parallel arcs");
  assert_true(c.bw_optimal);
  tc_cost_destroy(&c);
  s.xfer[1].arc = 0; /* both halves of shard 0 on arc 0 */
  verify_and_cost(g, &s, &c);
  static const int64_t one[] = {1, 1};
  assert_cost(&c, 1, 2, 1, 1, 1, 2, 1, one, "one parallel arc");
  assert_false(c.bw_optimal);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Broadcast from root 0 on K_3, two shards of M/2, both owned by the root: step 1 shard 0 to
   node 1 and shard 1 to node 2, step 2 they swap. Every used arc carries one shard per step:
   Σ max load = 2, tau = (2/2) 2 = 2; by hand each step moves M/2 over a link of B/2, M/B per
   step. tau* = 1: node 1 owns nothing and must receive all of M through B. The reverse
   (step t -> 3 - t, every arc reversed) is a reduce to the root and costs the same. */
static void hand_broadcast_and_reduce(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(3)");
  static const int32_t owner[2] = {0, 0};
  tc_schedule s, r;
  tc_cost c;
  tc_error err;
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_BROADCAST, 3, 2, owner, 1, "bcast", &err), TC_OK);
  add(&s, 0, tc_test_arc_id(g, 0, 1), 1, 0, 1);
  add(&s, 1, tc_test_arc_id(g, 0, 2), 1, 0, 1);
  add(&s, 0, tc_test_arc_id(g, 1, 2), 2, 0, 1);
  add(&s, 1, tc_test_arc_id(g, 2, 1), 2, 0, 1);
  verify_and_cost(g, &s, &c);
  static const int64_t loads[] = {1, 1, 1, 1};
  assert_cost(&c, 2, 2, 2, 1, 1, 1, 1, loads, "broadcast");
  tc_cost_destroy(&c);
  assert_int_equal(tc_schedule_init_owned(&r, TC_COLL_REDUCE, 3, 2, owner, 1, "reduce", &err), TC_OK);
  for (int64_t i = 0; i < s.count; i++) add(&r, s.xfer[i].shard, g->rev[s.xfer[i].arc], 3 - s.xfer[i].step, 0, 1);
  verify_and_cost(g, &r, &c);
  assert_cost(&c, 2, 2, 2, 1, 1, 1, 1, loads, "reduce");
  tc_cost_destroy(&c);
  tc_schedule_destroy(&r);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Allreduce on K_2: step 1 (reduce-scatter) each node sends its contribution to the other's
   shard, step 2 (allgather) each sends its reduced shard back. One shard per arc per step,
   d = 1, N = 2: tau = (1/2)(1 + 1) = 1 = 2(N-1)/N; T_L = 2 = 2 T_L*(2,1). */
static void hand_allreduce(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(2)");
  tc_schedule s;
  tc_cost c;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLREDUCE, 2, 1, "k2-ar", &err), TC_OK);
  add(&s, 1, tc_test_arc_id(g, 0, 1), 1, 0, 1);
  add(&s, 0, tc_test_arc_id(g, 1, 0), 1, 0, 1);
  add(&s, 0, tc_test_arc_id(g, 0, 1), 2, 0, 1);
  add(&s, 1, tc_test_arc_id(g, 1, 0), 2, 0, 1);
  s.rs_steps = 1;
  verify_and_cost(g, &s, &c);
  static const int64_t loads[] = {1, 1, 1, 1};
  assert_cost(&c, 2, 1, 1, 1, 1, 1, 2, loads, "K_2 allreduce");
  assert_true(c.bw_optimal);
  assert_true(c.moore_optimal);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void node_count_mismatch(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(2)");
  tc_schedule s;
  tc_cost c;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 3, 1, "wrong", &err), TC_OK);
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_EINPUT);
  assert_string_equal(err.msg, "schedule is for 3 nodes but the graph has 2");
  double t = -1;
  double one[2] = {1, 1};
  assert_int_equal(tc_schedule_time_hetero(g, &s, one, one, 1.0, &t, &err), TC_EINPUT);
  assert_string_equal(err.msg, "schedule is for 3 nodes but the graph has 2");
  assert_true(t == -1); /* untouched on failure */
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* tc_schedule_time_hetero on the K_3 split schedule, by hand (shard = M/3 = 2 MB, half a
   shard 1 MB, α = 10 µs everywhere): with b = 1 GB/s on every arc, step 1's slowest arc moves
   2 MB (1e-5 + 2e-3) and step 2's 1 MB (1e-5 + 1e-3) — the homogeneous model's 3.02 ms. One
   slow arc, 0 -> 2 at 100 MB/s, carries 1 MB in step 1 (1e-5 + 1e-2) and nothing in step
   2, so only step 1 slows down. An idle arc's α is not paid: arc 1 -> 0 (node 1's far arc,
   1 MB in step 1, idle in step 2) with an α of 1 s raises step 1 to 1 + 1e-3 and leaves
   step 2 at 1e-5 + 1e-3. */
static void hetero_by_hand(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(3)");
  tc_schedule s;
  tc_error err;
  build_k3_split(g, &s);
  double alpha[6], bw[6], t = 0;
  for (int a = 0; a < 6; a++) alpha[a] = 1e-5, bw[a] = 1e9;
  assert_int_equal(tc_schedule_time_hetero(g, &s, alpha, bw, 6e6, &t, &err), TC_OK);
  assert_true(t == (1e-5 + 2e6 / 1e9) + (1e-5 + 1e6 / 1e9));
  bw[tc_test_arc_id(g, 0, 2)] = 1e8;
  assert_int_equal(tc_schedule_time_hetero(g, &s, alpha, bw, 6e6, &t, &err), TC_OK);
  assert_true(t == (1e-5 + 1e6 / 1e8) + (1e-5 + 1e6 / 1e9));
  bw[tc_test_arc_id(g, 0, 2)] = 1e9;
  /* arc 1 -> 0 is node 1's "far" arc: used in step 1 only */
  alpha[tc_test_arc_id(g, 1, 0)] = 1.0;
  assert_int_equal(tc_schedule_time_hetero(g, &s, alpha, bw, 6e6, &t, &err), TC_OK);
  assert_true(t == (1.0 + 1e6 / 1e9) + (1e-5 + 1e6 / 1e9));
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- closed forms on generated schedules ---- */

/* BFB on K_n: one step in which every arc carries its tail's shard (load 1); d = n-1, so
   tau = ((n-1)/n) 1 = (n-1)/n = tau*, and T_L = 1 = T_L*(n, n-1) since n <= M_{n-1,1} = n. */
static void bfb_on_complete(void **state) {
  (void)state;
  char spec[32];
  for (int n = 2; n <= 9; n++) {
    snprintf(spec, sizeof spec, "complete(%d)", n);
    tc_graph *g = tc_test_spec(spec);
    tc_schedule s;
    tc_cost c;
    tc_error err;
    assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_OK);
    verify_and_cost(g, &s, &c);
    static const int64_t one[] = {1, 1};
    assert_cost(&c, 1, n - 1, n - 1, n, n - 1, n, 1, one, spec);
    assert_true(c.bw_optimal && c.moore_optimal);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* The ring on UniRing(1,m): m-1 steps of one shard per arc, tau = (1/m)(m-1) = (m-1)/m, and
   with d = 1 the Moore bound M_{1,k} = k+1 makes T_L*(m,1) = m-1: both optimal. On
   UniRing(2,m) every port carries half a shard (step_load 1/2), d = 2, tau still (m-1)/m,
   but T_L*(m,2) = min{k : m <= 2^(k+1) - 1} is below m-1 for every m >= 3. Allreduce: twice
   the steps, tau and T_L*; step_load 1 (d = 1) throughout. */
static void ring_on_uniring(void **state) {
  (void)state;
  char spec[32];
  for (int d = 1; d <= 2; d++)
    for (int m = 2; m <= 9; m++) {
      snprintf(spec, sizeof spec, "uniring(%d,%d)", d, m);
      tc_graph *g = tc_test_spec(spec);
      int32_t moore = 0;
      if (d == 1) moore = m - 1;
      else
        while ((INT64_C(1) << (moore + 1)) - 1 < m) moore++;
      int64_t *loads = malloc(sizeof *loads * 4 * (size_t)m);
      for (int t = 0; t < 2 * (m - 1); t++) loads[2 * t] = 1, loads[2 * t + 1] = d;
      for (int k = 0; k < 2; k++) {
        tc_collective coll = k ? TC_COLL_ALLREDUCE : TC_COLL_ALLGATHER;
        tc_schedule s;
        tc_cost c;
        tc_error err;
        assert_int_equal(tc_baseline_ring(g, coll, &s, &err), TC_OK);
        verify_and_cost(g, &s, &c);
        int f = k ? 2 : 1;
        assert_cost(&c, f * (m - 1), d, f * (m - 1), m, f * (m - 1), m, f * moore, loads, spec);
        assert_true(c.bw_optimal);
        assert_int_equal(c.moore_optimal, d == 1 || m == 2);
        tc_cost_destroy(&c);
        tc_schedule_destroy(&s);
      }
      free(loads);
      tc_graph_destroy(g);
    }
}

/* BFB on Q_3 and on the twisted 3-cube (paper 000 App. A.1: "a variant of hypercube with a
   lower diameter"). Both are BW-optimal with 3 ports, so by Thm 17 every in-link carries
   |N_t^-(u)|/3 shards in step t: Q_3 has layers 3, 3, 1 (loads 1, 1, 1/3), the twisted cube
   3, 4 (loads 1, 4/3); either way Σ = 7/3 and tau = (3/8)(7/3) = 7/8. T_L*(8,3) = 2
   (M_{3,1} = 4 < 8 <= 13): the twisted cube is Moore-optimal, Q_3 one step above. */
static void bfb_on_cubes(void **state) {
  (void)state;
  static const char *const specs[2] = {"hypercube(3)", "twistedhypercube(3)"};
  static const int64_t q3[] = {1, 1, 1, 1, 1, 3}, twisted[] = {1, 1, 4, 3};
  for (int i = 0; i < 2; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_schedule s;
    tc_cost c;
    tc_error err;
    assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_OK);
    verify_and_cost(g, &s, &c);
    int32_t steps = i ? 2 : 3;
    assert_int_equal(steps, tc_test_floyd_diameter(g)); /* BFB takes D(G) steps (Thm 15) */
    assert_cost(&c, steps, 3, 7, 8, 7, 8, 2, i ? twisted : q3, specs[i]);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hand_k3_split),       cmocka_unit_test(hand_capacity),
      cmocka_unit_test(node_bandwidth_overflow),
      cmocka_unit_test(hand_parallel_arcs),  cmocka_unit_test(hand_broadcast_and_reduce),
      cmocka_unit_test(hand_allreduce),      cmocka_unit_test(node_count_mismatch),
      cmocka_unit_test(hetero_by_hand),      cmocka_unit_test(bfb_on_complete),
      cmocka_unit_test(ring_on_uniring),     cmocka_unit_test(bfb_on_cubes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
