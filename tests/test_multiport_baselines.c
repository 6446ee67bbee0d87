/*
** test_multiport_baselines.c — the contention check (contention.h) and the topology-unaware
** baselines of paper 002 (baselines.h: fc-direct, binomial, pairwise, bruck) built through
** tc_collective_build, so each schedule is verified and costed.
**
** Oracles: closed forms of the α-β model on complete(N) (d = N - 1, B = d·b, so tau·M/B =
** tau/d · M·β per link), counted here, not read off the schedules:
**   fc-direct: 1 step (allreduce 2); broadcast, reduce, p2p: M β (tau = d); scatter,
**     gather, allgather, reduce-scatter, alltoall: (N-1)/N M β; allreduce twice that;
**   binomial (L = ceil(log2 N) steps): broadcast, reduce L·M β; scatter, gather: the root's
**     blocks, Σ over m = 2^(L-1) .. 1 of min(m, N - m), of M/N each;
**   pairwise: N - 1 steps of M/N; bruck: L steps, allgather (N-1)/N M β in all, alltoall
**     Σ_{j=1}^{N-1} popcount(j) blocks of M/N (the blocks with digit k set in round k).
** The contention check: hand-made messages and routes on complete(4), one mutation per
** clause (a shared link in one round fails naming it; combined and other-round messages
** pass; broken routes are refused), and the baselines off their home: routed, combined
** where messages share a link, refused where a partial would be relayed.
*/
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/baselines.h"
#include "topocoll/collective.h"
#include "topocoll/contention.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

static void contention_check(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(4)");
  tc_error err;
  /* round 1: 0 -> 1 and 2 -> 1 and a repeat of 0 -> 1 (combined); round 2: 2 -> 1 again */
  tc_message m[4] = {{1, 0, 1}, {1, 2, 1}, {1, 0, 1}, {2, 2, 1}};
  tc_routes r;
  assert_int_equal(tc_routes_shortest(g, m, 4, &r, &err), TC_OK);
  for (int i = 0; i < 4; i++) assert_int_equal(r.off[i + 1] - r.off[i], 1); /* one arc each on K4 */
  assert_int_equal(r.arc[0], tc_test_arc_id(g, 0, 1));
  assert_int_equal(tc_contention_check(g, m, 4, &r, &err), TC_OK);
  /* mutation: 0 -> 1 detours over 2, sharing link 2 -> 1 with 2 -> 1 in round 1 */
  int64_t off[5] = {0, 2, 3, 5, 6};
  int64_t arcs[6] = {tc_test_arc_id(g, 0, 2), tc_test_arc_id(g, 2, 1), tc_test_arc_id(g, 2, 1),
                     tc_test_arc_id(g, 0, 2), tc_test_arc_id(g, 2, 1), tc_test_arc_id(g, 2, 1)};
  tc_routes bad = {4, off, arcs};
  assert_int_equal(tc_contention_check(g, m, 4, &bad, &err), TC_EFAIL);
  assert_string_equal(err.msg, "round 1: link 2 -> 1 (arc 7) carries two messages, 0 -> 1 and 2 -> 1 (one message "
                               "per link and round)");
  /* the same detour in another round than 2 -> 1 is fine */
  m[1].round = 3;
  assert_int_equal(tc_contention_check(g, m, 4, &bad, &err), TC_OK);
  /* broken routes */
  arcs[1] = tc_test_arc_id(g, 1, 2);
  assert_int_equal(tc_contention_check(g, m, 4, &bad, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the route of message #0 (0 -> 1) breaks at hop 2");
  arcs[1] = tc_test_arc_id(g, 2, 3);
  assert_int_equal(tc_contention_check(g, m, 4, &bad, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the route of message #0 (0 -> 1) ends at node 3");
  tc_message self = {1, 2, 2};
  tc_routes none;
  assert_int_equal(tc_routes_shortest(g, &self, 1, &none, &err), TC_EINPUT);
  assert_string_equal(err.msg, "message #0 goes from node 2 to itself");
  tc_routes_destroy(&r);
  tc_graph_destroy(g);
  /* no route at all: a one-way ring has one, a graph of two islands none */
  static const int arcs2[][2] = {{0, 1}, {1, 0}, {2, 3}, {3, 2}};
  g = tc_test_from_arcs(4, arcs2, 4);
  tc_message far = {1, 0, 3};
  assert_int_equal(tc_routes_shortest(g, &far, 1, &none, &err), TC_EINPUT);
  assert_string_equal(err.msg, "no route from 0 to 3");
  tc_graph_destroy(g);
}

/* tc_collective_build on complete(n): steps and tau exactly (num/den). */
static void expect_cost(const tc_graph *g, const char *algo, tc_collective coll, int32_t root, int32_t dst,
                        int32_t steps, int64_t num, int64_t den) {
  tc_collective_opts o = {.root = root, .dst = dst};
  tc_schedule s;
  tc_cost c;
  tc_error err;
  int rc = tc_collective_build(g, algo, coll, &o, &s, &c, &err);
  if (rc) fail_msg("%s %s on %d nodes: %s", algo, tc_collective_name(coll), g->n, err.msg);
  tc_rat want;
  assert_int_equal(tc_rat_make(num, den, &want, &err), TC_OK);
  if (c.steps != steps || tc_rat_cmp(c.tau, want))
    fail_msg("%s %s on %d nodes: %d steps, tau %lld/%lld; expected %d, %lld/%lld", algo, tc_collective_name(coll),
             g->n, c.steps, (long long)c.tau.num, (long long)c.tau.den, steps, (long long)want.num,
             (long long)want.den);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
}

static int popcount_sum(int n) {
  int sum = 0;
  for (int j = 1; j < n; j++) sum += __builtin_popcount((unsigned)j);
  return sum;
}

static void closed_forms_on_complete(void **state) {
  (void)state;
  static const int sizes[] = {2, 5, 8, 12};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    int n = sizes[i], d = n - 1, L = 0, root = n / 2;
    while ((1 << L) < n) L++;
    char spec[32];
    snprintf(spec, sizeof spec, "complete(%d)", n);
    tc_graph *g = tc_test_spec(spec);
    /* fc-direct */
    expect_cost(g, "fc-direct", TC_COLL_BROADCAST, root, -1, 1, d, 1);
    expect_cost(g, "fc-direct", TC_COLL_REDUCE, root, -1, 1, d, 1);
    expect_cost(g, "fc-direct", TC_COLL_P2P, root, (root + 1) % n, 1, d, 1);
    expect_cost(g, "fc-direct", TC_COLL_SCATTER, root, -1, 1, d, n);
    expect_cost(g, "fc-direct", TC_COLL_GATHER, root, -1, 1, d, n);
    expect_cost(g, "fc-direct", TC_COLL_ALLGATHER, 0, -1, 1, d, n);
    expect_cost(g, "fc-direct", TC_COLL_REDUCE_SCATTER, 0, -1, 1, d, n);
    expect_cost(g, "fc-direct", TC_COLL_ALLTOALL, 0, -1, 1, d, n);
    expect_cost(g, "fc-direct", TC_COLL_ALLREDUCE, 0, -1, 2, 2 * d, n);
    /* binomial */
    int blocks = 0;
    for (int m = 1 << (L ? L - 1 : 0); m >= 1 && L; m >>= 1) blocks += m < n - m ? m : n - m;
    expect_cost(g, "binomial", TC_COLL_BROADCAST, root, -1, L, (int64_t)L * d, 1);
    expect_cost(g, "binomial", TC_COLL_REDUCE, root, -1, L, (int64_t)L * d, 1);
    expect_cost(g, "binomial", TC_COLL_SCATTER, root, -1, L, (int64_t)blocks * d, n);
    expect_cost(g, "binomial", TC_COLL_GATHER, root, -1, L, (int64_t)blocks * d, n);
    /* pairwise, bruck */
    expect_cost(g, "pairwise", TC_COLL_ALLGATHER, 0, -1, n - 1, (int64_t)d * d, n);
    expect_cost(g, "pairwise", TC_COLL_ALLTOALL, 0, -1, n - 1, (int64_t)d * d, n);
    expect_cost(g, "bruck", TC_COLL_ALLGATHER, 0, -1, L, (int64_t)d * d, n);
    expect_cost(g, "bruck", TC_COLL_ALLTOALL, 0, -1, L, (int64_t)d * popcount_sum(n), n);
    tc_graph_destroy(g);
  }
}

/* Bruck's allgather on complete(8): messages that wrap around the buffer are packed and
   reordered — nodes 0 (round 2) and 0, 1, 2 (round 3) send wrapped runs: 2 + 4 units of
   M/8. Pairwise moves one block per message: nothing to reorder. */
static void bruck_reorders(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(8)");
  tc_collective_opts o = {0};
  tc_schedule s;
  tc_cost c;
  tc_error err;
  assert_int_equal(tc_collective_build(g, "bruck", TC_COLL_ALLGATHER, &o, &s, &c, &err), TC_OK);
  assert_int_equal(c.local_copy.num, 3);
  assert_int_equal(c.local_copy.den, 4);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_collective_build(g, "pairwise", TC_COLL_ALLTOALL, &o, &s, &c, &err), TC_OK);
  assert_int_equal(c.local_copy.num, 0);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Off complete(n): routed; messages of a round that share a link are combined there (the
   contention check names the first such link), and a partial that would be relayed through
   a compute node is refused. */
static void off_home(void **state) {
  (void)state;
  tc_error err;
  tc_schedule s;
  tc_cost c;
  tc_collective_opts o = {0};
  tc_graph *ring = tc_test_spec("uniring(1,4)");
  /* pairwise (XOR) alltoall around the one-way ring: rounds of 3, 2 and 3 hops, every arc
     one block per step (d = 1, C = 4: tau = 8/4), though round 1's 1 -> 0 (over 2, 3) and
     2 -> 3 share the link 2 -> 3 */
  assert_int_equal(tc_collective_build(ring, "pairwise", TC_COLL_ALLTOALL, &o, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 8);
  assert_int_equal(c.tau.num, 2);
  assert_int_equal(c.tau.den, 1);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_message m[2] = {{1, 1, 0}, {1, 2, 3}};
  tc_routes r;
  assert_int_equal(tc_routes_shortest(ring, m, 2, &r, &err), TC_OK);
  assert_int_equal(tc_contention_check(ring, m, 2, &r, &err), TC_EFAIL);
  assert_string_equal(err.msg, "round 1: link 2 -> 3 (arc 2) carries two messages, 1 -> 0 and 2 -> 3 (one message "
                               "per link and round)");
  tc_routes_destroy(&r);
  /* a scatter around the ring from 0 is one message per round: routed, 3 hops in one round */
  assert_int_equal(tc_baseline_fc_direct(ring, TC_COLL_P2P, 0, 3, &s, &err), TC_OK);
  assert_int_equal(s.steps, 3);
  assert_int_equal(tc_schedule_verify(ring, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_baseline_binomial(ring, TC_COLL_REDUCE, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "binomial reduce: node 0 is 2 hops from node 2, and a partial cannot be relayed through "
                               "a compute node (it would add its own)");
  tc_graph_destroy(ring);
  /* a path 0 - 1 - 2: the reduce's partial from 2 would have to pass through 1 */
  static const int path[][2] = {{0, 1}, {1, 0}, {1, 2}, {2, 1}};
  tc_graph *p = tc_test_from_arcs(3, path, 4);
  assert_int_equal(tc_baseline_fc_direct(p, TC_COLL_REDUCE, 1, -1, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_baseline_fc_direct(p, TC_COLL_REDUCE_SCATTER, 0, -1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "fc-direct reduce-scatter: node 2 is 2 hops from node 0, and a partial cannot be "
                               "relayed through a compute node (it would add its own)");
  /* Bruck's alltoall on the path 0 - 1 - 2 - 3: round 1's 3 -> 0 carries block (3,2), whose
     destination 2 lies on the only route (flow semantics: it would arrive, then go on) */
  static const int path4[][2] = {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}};
  tc_graph *p4 = tc_test_from_arcs(4, path4, 6);
  assert_int_equal(tc_baseline_bruck(p4, TC_COLL_ALLTOALL, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "bruck alltoall: no route 3 -> 0 (round 1) avoids node 2, where a block it carries ends "
                               "(a unit reaches its destination once, and is not sent on)");
  tc_graph_destroy(p4);
  /* on the torus the blocks that would pass their destination go round it: verified */
  tc_graph *t44 = tc_test_spec("torus(4,4)");
  assert_int_equal(tc_collective_build(t44, "bruck", TC_COLL_ALLTOALL, &o, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 8);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(t44);
  /* binomial reduce to 0: round 1 is 2 -> 0 alone — no contention, but two hops through 1 */
  assert_int_equal(tc_baseline_binomial(p, TC_COLL_REDUCE, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "binomial reduce: node 0 is 2 hops from node 2, and a partial cannot be relayed through "
                               "a compute node (it would add its own)");
  /* its broadcast is a copy: round 1 is 0 -> 1 (step 1), round 2 is 0 -> 2 relayed through
     1 (steps 2 and 3) */
  assert_int_equal(tc_baseline_binomial(p, TC_COLL_BROADCAST, 0, &s, &err), TC_OK);
  assert_int_equal(s.steps, 3);
  assert_int_equal(tc_schedule_verify(p, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(p);
  /* the hypercube: binomial broadcast sends along dimensions, one hop each */
  tc_graph *h = tc_test_spec("hypercube(3)");
  o.root = 0;
  assert_int_equal(tc_collective_build(h, "binomial", TC_COLL_BROADCAST, &o, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 3);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contention_check),
      cmocka_unit_test(closed_forms_on_complete),
      cmocka_unit_test(bruck_reorders),
      cmocka_unit_test(off_home),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
