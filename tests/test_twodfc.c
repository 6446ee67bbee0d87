/*
** test_twodfc.c — the 2dfc collectives and MULTITREE (twodfc.h, multitree.h; paper 002
** Ch. 4, §2.2.3).
**
** Every schedule is built through the registry (do, md, multitree on SPEC), verified, and
** costed by tc_schedule_cost; the tests compare the measured per-step loads (max over arcs,
** in blocks b = one node's block, since every arc has unit capacity) with the closed forms:
** Table 4.2 / Eqs. 4.5, 4.6 (alltoall DO m2 + m1, MD max(m1,m2), MULTITREE's construction
** (m/2+1) then 1 per step), the derived allgather / reduce-scatter costs, Eq. 4.1 = 4.2 (DO
** sends the minimum volume), Eq. 4.7 (t_dics = |m2 - m1| b beta), Eq. 4.4 (MULTITREE's step
** bound, met by the parity construction and by the greedy on the 2dfc and on K(d,2)). The
** Table 4.2 MULTITREE row printed as (m2/2) alpha + m2 b beta disagrees with the
** construction it describes (6x6 example: 4 = m/2+1 steps); the tests hold the schedule to
** the construction, (m/2+1) alpha + (m+1) b beta (docs/multiport.md).
*/
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/cost.h"
#include "topocoll/multitree.h"
#include "topocoll/twodfc.h"
#include "topocoll/verify.h"

/* Build coll by algo on spec through the registry, verify and cost. */
static tc_graph *build(const char *algo, const char *spec, tc_collective coll, tc_schedule *s, tc_cost *c) {
  tc_graph *g = tc_test_spec(spec);
  tc_error err;
  if (tc_test_generate(algo, spec, g, coll, 0, 0, s, &err))
    fail_msg("%s %s on %s: %s", algo, tc_collective_name(coll), spec, err.msg);
  if (tc_schedule_verify(g, s, &err)) fail_msg("%s %s on %s: verifier: %s", algo, tc_collective_name(coll), spec, err.msg);
  if (tc_schedule_cost(g, s, c, &err)) fail_msg("cost: %s", err.msg);
  return g;
}

/* The measured step loads equal num[t]/den (blocks per link), steps == k. */
static void assert_loads(const tc_cost *c, int k, const int64_t *num, int64_t den, const char *what) {
  if (c->steps != k) fail_msg("%s: %d steps, expected %d", what, c->steps, k);
  for (int t = 0; t < k; t++) {
    tc_rat want;
    tc_error err;
    assert_int_equal(tc_rat_make(num[t], den, &want, &err), TC_OK);
    if (tc_rat_cmp(c->step_load[t], want)) {
      char got[64];
      tc_rat_format(c->step_load[t], got, sizeof got);
      fail_msg("%s: step %d load %s, expected %lld/%lld", what, t + 1, got, (long long)num[t], (long long)den);
    }
  }
}

/* tau == (d/N) * num/den exactly: the b beta coefficient num/den of the closed form. */
static void assert_coefficient(const tc_cost *c, int32_t n, int64_t num, int64_t den, const char *what) {
  tc_rat want;
  tc_error err;
  assert_int_equal(tc_rat_make(num * c->degree, den * n, &want, &err), TC_OK);
  if (tc_rat_cmp(c->tau, want)) fail_msg("%s: tau is not (d/N) %lld/%lld", what, (long long)num, (long long)den);
}

static void done(tc_graph *g, tc_schedule *s, tc_cost *c) {
  tc_cost_destroy(c);
  tc_schedule_destroy(s);
  tc_graph_destroy(g);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The 2dfc shapes every closed form is checked on: hyperx(m2,m1), square and not. */
static const int64_t SHAPES[][2] = {{4, 4}, {8, 8}, {4, 2}, {2, 4}, {5, 3}, {6, 4}};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

/* Table 4.2 / Eq. 4.5: DO alltoall loads m2 then m1; Eq. 4.6: MD max(m1,m2) over 2 steps,
   split x = m1/(m1+m2): step 1 balanced at m1 m2/(m1+m2), step 2 max(m1,m2)^2/(m1+m2). */
static void alltoall_table_4_2(void **state) {
  (void)state;
  for (size_t i = 0; i < NSHAPES; i++) {
    int64_t m2 = SHAPES[i][0], m1 = SHAPES[i][1], big = max64(m1, m2);
    char spec[64], what[96];
    snprintf(spec, sizeof spec, "hyperx(%lld,%lld)", (long long)m2, (long long)m1);
    tc_schedule s;
    tc_cost c;
    tc_graph *g = build("do", spec, TC_COLL_ALLTOALL, &s, &c);
    snprintf(what, sizeof what, "DO alltoall %s", spec);
    assert_loads(&c, 2, (int64_t[]){m2, m1}, 1, what);
    assert_coefficient(&c, g->n, m1 + m2, 1, what);
    assert_int_equal(c.degree, m1 + m2 - 2);
    done(g, &s, &c);
    g = build("md", spec, TC_COLL_ALLTOALL, &s, &c);
    snprintf(what, sizeof what, "MD alltoall %s", spec);
    assert_loads(&c, 2, (int64_t[]){m1 * m2, big * big}, m1 + m2, what);
    assert_coefficient(&c, g->n, big, 1, what);
    if (m1 == m2) assert_true(c.bw_optimal); /* the injection bound (Eq. 4.2 volume / degree) */
    done(g, &s, &c);
  }
}

/* Eq. 4.1 = 4.2: every node sends (2 m1 m2 - (m1+m2)) blocks in DO and in MD, the sum of
   its distances to all nodes: the minimum. */
static void volume_is_minimum(void **state) {
  (void)state;
  const char *algos[] = {"do", "md"};
  for (size_t i = 0; i < NSHAPES; i++)
    for (int k = 0; k < 2; k++) {
      int64_t m2 = SHAPES[i][0], m1 = SHAPES[i][1];
      char spec[64];
      snprintf(spec, sizeof spec, "hyperx(%lld,%lld)", (long long)m2, (long long)m1);
      tc_schedule s;
      tc_cost c;
      tc_graph *g = build(algos[k], spec, TC_COLL_ALLTOALL, &s, &c);
      int *dist = tc_test_floyd(g);
      for (int32_t u = 0; u < g->n; u++) {
        int64_t sent = 0, minimum = 0; /* in units */
        for (int64_t x = 0; x < s.count; x++)
          if (g->src[s.xfer[x].arc] == u) sent += s.xfer[x].hi - s.xfer[x].lo;
        for (int32_t v = 0; v < g->n; v++) minimum += dist[u * g->n + v];
        assert_int_equal(minimum, 2 * m1 * m2 - (m1 + m2));
        if (sent != minimum * s.units)
          fail_msg("%s %s: node %d sends %lld/%lld blocks, the minimum is %lld", algos[k], spec, u, (long long)sent,
                   (long long)s.units, (long long)minimum);
      }
      free(dist);
      done(g, &s, &c);
    }
}

/* Equal up to the rounding of a few double operations. */
static void assert_close(double got, double want) {
  double diff = got > want ? got - want : want - got;
  if (diff > 1e-12 * want) fail_msg("%.17g, expected %.17g", got, want);
}

/* §12 item 7: t_DO = 2 alpha + (m1+m2) b beta and t_MD = 2 alpha + max(m1,m2) b beta as
   predicted times; DO/MD -> 2 on square 2dfc for large b. alpha = 1 us, 100 Gbps. */
static void predicted_times(void **state) {
  (void)state;
  const double alpha = 1e-6, bw = 12.5e9, b = 64.0 * 1024 * 1024;
  tc_schedule s;
  tc_cost c;
  tc_graph *g = build("do", "hyperx(16,16)", TC_COLL_ALLTOALL, &s, &c);
  double t_do = tc_cost_time(&c, alpha, bw, b * 256);
  assert_close(t_do, 2 * alpha + 32 * b / bw);
  done(g, &s, &c);
  g = build("md", "hyperx(16,16)", TC_COLL_ALLTOALL, &s, &c);
  double t_md = tc_cost_time(&c, alpha, bw, b * 256);
  assert_close(t_md, 2 * alpha + 16 * b / bw);
  assert_true(t_do / t_md > 1.9999 && t_do / t_md < 2.0);
  done(g, &s, &c);
}

/* §12 item 9, Eq. 4.7: in MD's second step the two dimension orders' messages differ by
   t_dics = |m2 - m1| b: the largest X-link load and the largest Y-link load of step 2. */
static void md_discrepancy(void **state) {
  (void)state;
  for (size_t i = 0; i < NSHAPES; i++) {
    int64_t m2 = SHAPES[i][0], m1 = SHAPES[i][1];
    char spec[64];
    snprintf(spec, sizeof spec, "hyperx(%lld,%lld)", (long long)m2, (long long)m1);
    tc_schedule s;
    tc_cost c;
    tc_graph *g = build("md", spec, TC_COLL_ALLTOALL, &s, &c);
    int64_t *load = calloc((size_t)g->m, sizeof *load), worst[2] = {0, 0};
    assert_non_null(load);
    for (int64_t x = 0; x < s.count; x++)
      if (s.xfer[x].step == 2) load[s.xfer[x].arc] += s.xfer[x].hi - s.xfer[x].lo;
    for (int64_t a = 0; a < g->m; a++) {
      int y_link = g->src[a] % m1 == g->dst[a] % m1; /* same column */
      worst[y_link] = max64(worst[y_link], load[a]);
    }
    int64_t gap = worst[0] > worst[1] ? worst[0] - worst[1] : worst[1] - worst[0];
    if (gap != (m2 > m1 ? m2 - m1 : m1 - m2) * s.units)
      fail_msg("md %s: step 2 X/Y loads %lld and %lld units of %lld", spec, (long long)worst[0],
               (long long)worst[1], (long long)s.units);
    free(load);
    done(g, &s, &c);
  }
}

/* Allgather DO: 1 then m1; MD: split m2/(m1+m2), max(m1,m2)/(m1+m2) then m1 m2/(m1+m2)
   ((1+m)/2 square: BW-optimal); reduce-scatter DO: m2 then 1; allreduce = DO-RS + DO/MD-AG. */
static void allgather_reduce_scatter_allreduce(void **state) {
  (void)state;
  for (size_t i = 0; i < NSHAPES; i++) {
    int64_t m2 = SHAPES[i][0], m1 = SHAPES[i][1], big = max64(m1, m2);
    char spec[64], what[96];
    snprintf(spec, sizeof spec, "hyperx(%lld,%lld)", (long long)m2, (long long)m1);
    tc_schedule s;
    tc_cost c;
    tc_graph *g = build("do", spec, TC_COLL_ALLGATHER, &s, &c);
    snprintf(what, sizeof what, "DO allgather %s", spec);
    assert_loads(&c, 2, (int64_t[]){1, m1}, 1, what);
    done(g, &s, &c);
    g = build("md", spec, TC_COLL_ALLGATHER, &s, &c);
    snprintf(what, sizeof what, "MD allgather %s", spec);
    assert_loads(&c, 2, (int64_t[]){big, m1 * m2}, m1 + m2, what);
    if (m1 == m2) assert_true(c.bw_optimal);
    done(g, &s, &c);
    g = build("do", spec, TC_COLL_REDUCE_SCATTER, &s, &c);
    snprintf(what, sizeof what, "DO reduce-scatter %s", spec);
    assert_loads(&c, 2, (int64_t[]){m2, 1}, 1, what);
    done(g, &s, &c);
    g = build("do", spec, TC_COLL_ALLREDUCE, &s, &c);
    snprintf(what, sizeof what, "DO allreduce %s", spec);
    assert_loads(&c, 4, (int64_t[]){m2, 1, 1, m1}, 1, what);
    assert_int_equal(s.rs_steps, 2);
    done(g, &s, &c);
    g = build("md", spec, TC_COLL_ALLREDUCE, &s, &c);
    snprintf(what, sizeof what, "MD allreduce %s", spec);
    assert_loads(&c, 4, (int64_t[]){m2 * (m1 + m2), m1 + m2, big, m1 * m2}, m1 + m2, what);
    done(g, &s, &c);
  }
}

/* Arcs carrying something in each step of s, into used[0..steps-1]. */
static void arcs_per_step(const tc_graph *g, const tc_schedule *s, int64_t *used) {
  uint8_t *seen = calloc((size_t)g->m * (size_t)s->steps, 1);
  assert_non_null(seen);
  for (int32_t t = 0; t < s->steps; t++) used[t] = 0;
  for (int64_t x = 0; x < s->count; x++) {
    size_t i = (size_t)(s->xfer[x].step - 1) * (size_t)g->m + (size_t)s->xfer[x].arc;
    if (!seen[i]) used[s->xfer[x].step - 1]++;
    seen[i] = 1;
  }
  free(seen);
}

/* §12 item 8: the parity construction takes ceil((m^2-1)/(2m-2)) = m/2 + 1 steps (3/5/9 for
   4/8/16); allgather: one block per link and step (no link shared by two trees), every
   link busy but in the half-used last step; alltoall: (m/2+1) b in step 1, then b. */
static void multitree_parity(void **state) {
  (void)state;
  const int64_t sizes[] = {4, 6, 8, 16}, want_steps[] = {3, 4, 5, 9};
  for (int i = 0; i < 4; i++) {
    int64_t m = sizes[i], links = m * m * (2 * m - 2);
    int32_t k = (int32_t)want_steps[i];
    assert_int_equal(k, (m * m - 1 + 2 * m - 3) / (2 * m - 2)); /* Eq. 4.4 */
    char spec[64], what[96];
    snprintf(spec, sizeof spec, "hyperx(%lld,%lld)", (long long)m, (long long)m);
    int64_t ones[16], first[16], used[16];
    for (int t = 0; t < 16; t++) ones[t] = first[t] = 1;
    first[0] = m / 2 + 1;
    tc_schedule s;
    tc_cost c;
    tc_graph *g = build("multitree", spec, TC_COLL_ALLGATHER, &s, &c);
    snprintf(what, sizeof what, "MULTITREE allgather %s", spec);
    assert_loads(&c, k, ones, 1, what);
    arcs_per_step(g, &s, used);
    for (int t = 0; t < k - 1; t++) assert_int_equal(used[t], links);
    assert_int_equal(used[k - 1], links / 2);
    done(g, &s, &c);
    g = build("multitree", spec, TC_COLL_ALLTOALL, &s, &c);
    snprintf(what, sizeof what, "MULTITREE alltoall %s", spec);
    assert_loads(&c, k, first, 1, what);
    assert_coefficient(&c, g->n, m + 1, 1, what); /* (m/2+1) alpha + (m+1) b beta */
    done(g, &s, &c);
  }
}

/* The greedy MULTITREE on the registry's fallback (any graph) and directly: the Eq. 4.4
   bound ceil(N(N-1)/|E|) on the 2dfc (m = 4, 6, 8 as hamming(2,m), not written hyperx, so
   the registry takes the greedy) and d+1 steps on K(d,2) = kautz(d,1), with K(2,2)'s
   links per step 12, 12, 6 (Fig. 3.1); one block per link and step everywhere. */
static void multitree_greedy(void **state) {
  (void)state;
  const struct {
    const char *spec;
    int32_t steps;
  } cases[] = {{"hamming(2,4)", 3}, {"hamming(2,6)", 4}, {"hamming(2,8)", 5}, {"kautz(2,1)", 3},
               {"kautz(3,1)", 4},   {"kautz(4,1)", 5},   {"uniring(1,5)", 4}, {"hyperx(5,3)", 3}};
  int64_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_schedule s;
    tc_cost c;
    tc_graph *g = build("multitree", cases[i].spec, TC_COLL_ALLGATHER, &s, &c);
    int64_t n = g->n, bound = (n * (n - 1) + g->m - 1) / g->m;
    assert_int_equal(cases[i].steps, bound);
    assert_loads(&c, cases[i].steps, ones, 1, cases[i].spec);
    if (i == 3) {
      int64_t used[3];
      arcs_per_step(g, &s, used);
      assert_int_equal(used[0], 12);
      assert_int_equal(used[1], 12);
      assert_int_equal(used[2], 6);
    }
    done(g, &s, &c);
    g = build("multitree", cases[i].spec, TC_COLL_ALLTOALL, &s, &c);
    assert_int_equal(c.steps, cases[i].steps);
    done(g, &s, &c);
  }
  /* the greedy's alltoall on K(2,2): measured once, exactly (subtree sizes 3, 1, 1) */
  tc_schedule s;
  tc_cost c;
  tc_graph *g = build("multitree", "kautz(2,1)", TC_COLL_ALLTOALL, &s, &c);
  assert_loads(&c, 3, (int64_t[]){3, 1, 1}, 1, "greedy alltoall kautz(2,1)");
  done(g, &s, &c);
}

/* Wrong graphs and collectives: one line naming the problem. */
static void refusals(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("hyperx(4,4)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_twodfc_do(g, 2, 8, TC_COLL_ALLTOALL, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "do: node 0 has an arc to 12, which is not in its row or column of hyperx(2,8)");
  assert_int_equal(tc_twodfc_md(g, 4, 5, TC_COLL_ALLTOALL, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "md: hyperx(4,5) has 20 nodes but the graph has 16");
  assert_int_equal(tc_twodfc_md(g, 4, 4, TC_COLL_REDUCE_SCATTER, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "md: builds alltoall, allgather and allreduce (not reduce-scatter)");
  assert_int_equal(tc_twodfc_multitree(g, 4, TC_COLL_ALLREDUCE, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "multitree: builds allgather and alltoall (not allreduce)");
  assert_int_equal(tc_test_generate("do", "hamming(2,4)", g, TC_COLL_ALLTOALL, 0, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "do needs SPEC written as hyperx(m2,m1) (the m2 x m1 2dfc) to know its rows and columns");
  tc_graph_destroy(g);
  g = tc_test_spec("hyperx(3,3)");
  assert_int_equal(tc_twodfc_multitree(g, 3, TC_COLL_ALLGATHER, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "multitree: the parity construction needs an even m x m 2dfc (got hyperx(3,3))");
  tc_graph_destroy(g);
  g = tc_test_spec("torus(4,4)");
  assert_int_equal(tc_twodfc_do(g, 4, 4, TC_COLL_ALLGATHER, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "do: node 0 has 4 links, not the 6 of hyperx(4,4)");
  tc_graph_destroy(g);
  const int arcs[][2] = {{0, 1}, {1, 2}, {2, 1}};
  g = tc_test_from_arcs(3, arcs, 3);
  assert_int_equal(tc_multitree_greedy(g, TC_COLL_ALLGATHER, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "multitree: the graph is not strongly connected");
  tc_graph_destroy(g);
}

/* The checks above can fail: dropping any one transfer of small schedules breaks them. */
static void dropping_a_transfer_fails(void **state) {
  (void)state;
  const char *algos[] = {"do", "md", "multitree"};
  const tc_collective colls[] = {TC_COLL_ALLTOALL, TC_COLL_ALLGATHER};
  for (int a = 0; a < 3; a++)
    for (int k = 0; k < 2; k++) {
      tc_schedule s;
      tc_cost c;
      tc_graph *g = build(algos[a], "hyperx(2,4)", colls[k], &s, &c);
      for (int64_t x = 0; x < s.count; x++) {
        tc_transfer keep = s.xfer[x]; /* move it to the end, then leave the end out */
        s.xfer[x] = s.xfer[s.count - 1];
        s.xfer[s.count - 1] = keep;
        s.count--;
        tc_error err;
        if (tc_schedule_verify(g, &s, &err) == TC_OK)
          fail_msg("%s %s: dropping transfer %lld still verifies", algos[a], tc_collective_name(colls[k]),
                   (long long)x);
        s.count++;
        s.xfer[s.count - 1] = s.xfer[x];
        s.xfer[x] = keep;
      }
      done(g, &s, &c);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(alltoall_table_4_2),
      cmocka_unit_test(volume_is_minimum),
      cmocka_unit_test(predicted_times),
      cmocka_unit_test(md_discrepancy),
      cmocka_unit_test(allgather_reduce_scatter_allreduce),
      cmocka_unit_test(multitree_parity),
      cmocka_unit_test(multitree_greedy),
      cmocka_unit_test(refusals),
      cmocka_unit_test(dropping_a_transfer_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
