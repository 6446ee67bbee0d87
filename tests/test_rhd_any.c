/*
** test_rhd_any.c — recursive doubling / halving (`rhd`, rhd.c) on any graph, built through
** tc_collective_build (so every schedule is verified and costed).
**
** Oracles, counted here, not read off the schedules:
**   complete(N), d = N - 1, tau = (d / N) Σ_t max link load in shards (cost.h). With
**   p = 2^⌊log2 N⌋, k = log2 p, r = N - p: N = p: round t moves 2^(t-1) shards over each
**   link in use, Σ = N - 1, T_L = k, tau = d (N-1)/N. N != p (MPICH's pairing): the fold
**   moves 1 shard, round t of the doubling 2^(t-1) + min(2^(t-1), r) (the block of virtual
**   ranks 0 .. 2^(t-1)-1, the first r of which hold two shards), the unfold N - 1; T_L =
**   k + 2. Reduce-scatter is the mirror (same loads); allreduce twice both.
**   Contention: every round's logical messages (the schedule's (step, src, dst) on
**   complete(N), one arc each) pass tc_contention_check, and no node sends to two partners
**   in a step.
**   hypercube(n): today's values, T_L = n and tau = n (N-1)/N, every transfer u -> u XOR
**   2^(t-1) in step t; hyperx(8,4), whose partners are row or column neighbours, likewise
**   one hop.
**   ring / torus: the allgather's cost equals a brute-force recount: the logical messages
**   enumerated here from the algorithm's definition, routed by tc_routes_shortest, hop h of
**   a round-r message in step base(r) + h (base = the longest routes of earlier rounds,
**   summed), per step the most shards on one arc. Reductions are refused there (a partial
**   cannot be relayed through a compute node), naming the first such message.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_test.h"
#include "topocoll/collective.h"
#include "topocoll/contention.h"
#include "topocoll/cost.h"

static void expect(const tc_graph *g, tc_collective coll, int32_t steps, int64_t num, int64_t den, tc_schedule *s) {
  tc_collective_opts o = {0};
  tc_cost c;
  tc_error err;
  int rc = tc_collective_build(g, "rhd", coll, &o, s, &c, &err);
  if (rc) fail_msg("rhd %s on %d nodes: %s", tc_collective_name(coll), g->n, err.msg);
  tc_rat want;
  assert_int_equal(tc_rat_make(num, den, &want, &err), TC_OK);
  if (c.steps != steps || tc_rat_cmp(c.tau, want))
    fail_msg("rhd %s on %d nodes: %d steps, tau %lld/%lld; expected %d, %lld/%lld", tc_collective_name(coll), g->n,
             c.steps, (long long)c.tau.num, (long long)c.tau.den, steps, (long long)want.num, (long long)want.den);
  tc_cost_destroy(&c);
}

/* One message per (step, src, dst) of s, each routed over its own arc: contention-free,
   and no node with two partners in one step. */
static void contention_free(const tc_graph *g, const tc_schedule *s) {
  tc_message *m = malloc((size_t)s->count * sizeof *m);
  int64_t *off = malloc((size_t)(s->count + 1) * sizeof *off), *arc = malloc((size_t)s->count * sizeof *arc);
  int32_t *partner = malloc((size_t)g->n * (size_t)(s->steps + 1) * sizeof *partner);
  assert_non_null(m);
  assert_non_null(off);
  assert_non_null(arc);
  assert_non_null(partner);
  for (int64_t i = 0; i < (int64_t)g->n * (s->steps + 1); i++) partner[i] = -1;
  off[0] = 0;
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int32_t u = g->src[x->arc], v = g->dst[x->arc];
    m[i] = (tc_message){x->step, u, v};
    arc[i] = x->arc;
    off[i + 1] = i + 1;
    int32_t *p = &partner[(int64_t)x->step * g->n + u];
    if (*p >= 0 && *p != v) fail_msg("node %d sends to %d and %d in step %d", u, *p, v, x->step);
    *p = v;
  }
  tc_routes r = {s->count, off, arc};
  tc_error err;
  assert_int_equal(tc_contention_check(g, m, s->count, &r, &err), TC_OK);
  free(m);
  free(off);
  free(arc);
  free(partner);
}

static void closed_forms_on_complete(void **state) {
  (void)state;
  static const int sizes[] = {2, 4, 8, 16, 32, 6, 12, 3};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    int n = sizes[i], d = n - 1, p = 1, k = 0;
    while (2 * p <= n) p *= 2, k++;
    int r = n - p;
    int64_t sum = p - 1; /* Σ_t max link load, in shards */
    if (r) {
      sum += 1 + (n - 1);
      for (int t = 1; t <= k; t++) sum += (1 << (t - 1)) < r ? (1 << (t - 1)) : r;
    }
    int32_t steps = k + (r ? 2 : 0);
    char spec[32];
    snprintf(spec, sizeof spec, "complete(%d)", n);
    tc_graph *g = tc_test_spec(spec);
    tc_schedule s;
    expect(g, TC_COLL_ALLGATHER, steps, d * sum, n, &s);
    contention_free(g, &s);
    tc_schedule_destroy(&s);
    expect(g, TC_COLL_REDUCE_SCATTER, steps, d * sum, n, &s);
    contention_free(g, &s);
    tc_schedule_destroy(&s);
    expect(g, TC_COLL_ALLREDUCE, 2 * steps, 2 * d * sum, n, &s);
    assert_int_equal(s.rs_steps, steps);
    contention_free(g, &s);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* Today's hypercube values, and every transfer over the dimension of its step. */
static void hypercube_as_before(void **state) {
  (void)state;
  for (int n = 1; n <= 5; n++) {
    int N = 1 << n;
    char spec[32];
    snprintf(spec, sizeof spec, "hypercube(%d)", n);
    tc_graph *g = tc_test_spec(spec);
    tc_schedule s;
    expect(g, TC_COLL_ALLGATHER, n, (int64_t)n * (N - 1), N, &s);
    for (int64_t i = 0; i < s.count; i++)
      assert_int_equal(g->src[s.xfer[i].arc] ^ g->dst[s.xfer[i].arc], 1 << (s.xfer[i].step - 1));
    tc_schedule_destroy(&s);
    expect(g, TC_COLL_REDUCE_SCATTER, n, (int64_t)n * (N - 1), N, &s);
    for (int64_t i = 0; i < s.count; i++)
      assert_int_equal(g->src[s.xfer[i].arc] ^ g->dst[s.xfer[i].arc], 1 << (n - s.xfer[i].step));
    tc_schedule_destroy(&s);
    expect(g, TC_COLL_ALLREDUCE, 2 * n, 2 * (int64_t)n * (N - 1), N, &s);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
  /* the 2dfc hyperx(8,4): partners share a row or a column, so it is one hop too — 10 steps,
     d = 7 + 3, tau = d 2 (N-1)/N with N = 32 */
  tc_graph *g = tc_test_spec("hyperx(8,4)");
  tc_schedule s;
  expect(g, TC_COLL_ALLREDUCE, 10, 10 * 2 * 31, 32, &s);
  for (int64_t i = 0; i < s.count; i++) {
    int32_t x = g->src[s.xfer[i].arc] ^ g->dst[s.xfer[i].arc];
    assert_int_equal(x & (x - 1), 0); /* one bit: the partner of its round */
  }
  contention_free(g, &s);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* The allgather's logical messages from the definition: (round, src, dst, shards carried). */
typedef struct lmsg {
  int32_t round, src, dst, shards;
} lmsg;

static int32_t vnode(int32_t v, int32_t r) { return v < r ? 2 * v + 1 : v + r; }

static int64_t rd_messages(int32_t n, lmsg *out, int32_t *rounds) {
  int32_t p = 1, k = 0;
  while (2 * p <= n) p *= 2, k++;
  int32_t r = n - p, fold = r > 0;
  int64_t c = 0;
  for (int32_t i = 0; i < r; i++) out[c++] = (lmsg){1, 2 * i, 2 * i + 1, 1};
  for (int32_t t = 1; t <= k; t++) {
    int32_t bit = 1 << (t - 1);
    for (int32_t v = 0; v < p; v++) {
      int32_t lo = v & ~(bit - 1), shards = 0;
      for (int32_t w = lo; w < lo + bit; w++) shards += w < r ? 2 : 1;
      out[c++] = (lmsg){fold + t, vnode(v, r), vnode(v ^ bit, r), shards};
    }
  }
  *rounds = k + 2 * fold;
  for (int32_t i = 0; i < r; i++) out[c++] = (lmsg){*rounds, 2 * i + 1, 2 * i, n - 1};
  return c;
}

/* steps and Σ_t max_a load(a,t) of the routed messages. */
static void recount(const tc_graph *g, int32_t *steps, int64_t *sum) {
  lmsg *lm = calloc((size_t)g->n * (size_t)g->n + 1, sizeof *lm); /* at most N + N log N + N messages */
  tc_message *m = calloc((size_t)g->n * (size_t)g->n + 1, sizeof *m);
  assert_non_null(lm);
  assert_non_null(m);
  int32_t rounds = 0;
  int64_t n = rd_messages(g->n, lm, &rounds);
  for (int64_t i = 0; i < n; i++) m[i] = (tc_message){lm[i].round, lm[i].src, lm[i].dst};
  tc_routes r;
  tc_error err;
  assert_int_equal(tc_routes_shortest(g, m, n, &r, &err), TC_OK);
  int64_t base[64] = {0};
  for (int64_t i = 0; i < n; i++) {
    int64_t len = r.off[i + 1] - r.off[i];
    if (len > base[lm[i].round]) base[lm[i].round] = len;
  }
  for (int32_t t = 1; t <= rounds; t++) base[t] += base[t - 1];
  *steps = (int32_t)base[rounds];
  int64_t *load = calloc((size_t)(*steps + 1) * (size_t)g->m, sizeof *load);
  assert_non_null(load);
  for (int64_t i = 0; i < n; i++)
    for (int64_t h = r.off[i]; h < r.off[i + 1]; h++)
      load[(base[lm[i].round - 1] + (h - r.off[i]) + 1) * g->m + r.arc[h]] += lm[i].shards;
  *sum = 0;
  for (int32_t t = 1; t <= *steps; t++) {
    int64_t most = 0;
    for (int64_t a = 0; a < g->m; a++)
      if (load[(int64_t)t * g->m + a] > most) most = load[(int64_t)t * g->m + a];
    *sum += most;
  }
  free(load);
  free(lm);
  free(m);
  tc_routes_destroy(&r);
}

static void routed_recount(void **state) {
  (void)state;
  static const char *const specs[] = {"torus(8)", "torus(6)", "torus(4,4)", "torus(3,4)", "uniring(1,5)",
                                      "torus(2,2,2)"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    int64_t d = 0, sum = 0;
    for (int32_t u = 0; u < g->n; u++)
      if (tc_graph_out_degree(g, u) > d) d = tc_graph_out_degree(g, u);
    int32_t steps = 0;
    recount(g, &steps, &sum);
    tc_schedule s;
    expect(g, TC_COLL_ALLGATHER, steps, d * sum, g->n, &s);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* A partial is never relayed: reductions off the one-hop graphs are refused, naming the
   first message that would need it (reduce-scatter round 1, the mirror of the last
   allgather round, listed from the top: 7 -> 15 over 11); on a hypercube written otherwise they run. */
static void reductions_refused_where_relayed(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(4,4)");
  tc_collective_opts o = {0};
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_collective_build(g, "rhd", TC_COLL_REDUCE_SCATTER, &o, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "rhd reduce-scatter: node 15 is 2 hops from node 7, and a partial cannot be relayed "
                               "through a compute node (it would add its own)");
  assert_int_equal(tc_collective_build(g, "rhd", TC_COLL_ALLREDUCE, &o, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "rhd allreduce: node 15 is 2 hops from node 7, and a partial cannot be relayed "
                               "through a compute node (it would add its own)");
  tc_graph_destroy(g);
  /* torus(2,2,2) is the hypercube Q_3 in another numbering: partners 4 apart are neighbours
     (node 4a+2b+c), so even the reductions are one hop */
  g = tc_test_spec("torus(2,2,2)");
  expect(g, TC_COLL_ALLREDUCE, 6, 2 * 3 * 7, 8, &s);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(closed_forms_on_complete),
      cmocka_unit_test(hypercube_as_before),
      cmocka_unit_test(routed_recount),
      cmocka_unit_test(reductions_refused_where_relayed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
