/*
** test_kautz_coll.c — Kautz-C and Kautz-M on K(d,2) (kautz.h; paper 002 Ch. 3).
**
** Paper 002's K(d,2) is our kautz(d,1). Checked here:
**   - the graph's numbers (§2.1.3, Eq. 2.2/2.3): (d+1)d^(k-1) nodes, (d+1)d^k arcs, K(8,4)
**     = 4608 nodes against the Moore bound 4681, and K(d,2) one node short of it;
**   - the out-BFS trees (§3.1): depth-1 subtree sizes d+1 (d-1 times) and d (once), every
**     node reached once; the allgather's step-2 load (Eq. 3.5): d blocks on every arc,
**     d-1 on the arcs (a,b) -> (b,a);
**   - MULTITREE (Fig. 3.1): d+1 steps, every arc at most one block per step, arcs used
**     per step nd, ..., nd, n(d-1) — 12, 12, 6 on K(2,2);
**   - every Kautz entry of Table 3.2 (bcast/reduce, scatter/gather, allgather/RS,
**     allreduce, alltoall), for d = 2, 3, 4, 8, both variants and several roots: the schedule
**     (verified by tc_collective_build) has the table's number of steps and its β
**     coefficient exactly, as tc_schedule_cost measures it;
**   - the size switch of §3.2.2 (the `kautz` row): where Kautz-M's predicted time, with
**     the local reorder of combined messages, crosses Kautz-C's;
**   - refusals: another graph, d = 1, a root outside the graph; a dropped transfer fails
**     the verifier (the schedules are not accepted by construction).
*/
#include <math.h>
#include <stdio.h>

#include "synth/kautz_common.h"
#include "tc_test.h"
#include "topocoll/cost.h"
#include "topocoll/kautz.h"
#include "topocoll/metrics.h"
#include "topocoll/verify.h"

static const int32_t DS[] = {2, 3, 4, 8};
#define NDS 4

static tc_graph *k2(int32_t d) {
  char spec[32];
  snprintf(spec, sizeof spec, "kautz(%d,1)", d);
  return tc_test_spec(spec);
}

/* ---- the graph ---- */

static void sizes_and_moore(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("kautz(2,1)");
  assert_int_equal(g->n, 6);
  assert_int_equal(g->m, 12);
  tc_graph_destroy(g);
  g = tc_test_spec("kautz(8,3)"); /* paper 002's K(8,4) */
  assert_int_equal(g->n, 4608);
  assert_int_equal(g->m, 4608 * 8);
  tc_graph_destroy(g);
  assert_int_equal(tc_moore_directed(8, 4), 4681); /* 4608 / 4681 = 98.4% */
  for (int i = 0; i < NDS; i++) /* Eq. 2.3: (d^2+d) / (d^2+d+1) */
    assert_int_equal(tc_moore_directed(DS[i], 2), DS[i] * (DS[i] + 1) + 1);
}

/* ---- the trees ---- */

static void bfs_subtree_sizes(void **state) {
  (void)state;
  for (int i = 0; i < NDS; i++) {
    int32_t d = DS[i], n = d * (d + 1);
    tci_kautz2_edge *e = malloc((size_t)n * sizeof *e);
    int32_t *seen = malloc((size_t)n * sizeof *seen);
    for (int32_t r = 0; r < n; r++) {
      assert_int_equal(tci_kautz2_out_tree(d, r, e), n - 1);
      memset(seen, 0, (size_t)n * sizeof *seen);
      seen[r] = 1;
      int32_t big = 0, small = 0;
      for (int32_t j = 0; j < d; j++) {
        assert_int_equal(e[j].parent, r);
        assert_int_equal(e[j].depth, 1);
        int32_t size = 1;
        for (int32_t k = d; k < n - 1; k++) size += e[k].parent == e[j].child;
        big += size == d + 1;
        small += size == d;
      }
      assert_int_equal(big, d - 1);
      assert_int_equal(small, 1);
      for (int32_t k = 0; k < n - 1; k++) seen[e[k].child]++;
      for (int32_t v = 0; v < n; v++) assert_int_equal(seen[v], 1);
    }
    free(e);
    free(seen);
  }
}

/* Transfers per (arc, step) of s, into load[(step-1) * m + arc]. */
static int32_t *arc_step_counts(const tc_graph *g, const tc_schedule *s) {
  int32_t *load = calloc((size_t)s->steps * (size_t)g->m, sizeof *load);
  for (int64_t i = 0; i < s->count; i++) load[(int64_t)(s->xfer[i].step - 1) * g->m + s->xfer[i].arc]++;
  return load;
}

static tc_schedule build(const tc_graph *g, const char *algo, tc_collective coll, int32_t root, tc_cost *c) {
  tc_schedule s;
  tc_error err;
  tc_collective_opts o = {.root = root};
  if (tc_collective_build(g, algo, coll, &o, &s, c, &err)) fail_msg("%s %s: %s", algo, tc_collective_name(coll), err.msg);
  return s;
}

/* Eq. 3.5 / §4.2 of the text: in Kautz-C's allgather step 2 the arc (a,b) -> (b,c) carries
   d blocks, d-1 when c == a; step 1 carries one block on every arc. */
static void combine_step2_load(void **state) {
  (void)state;
  for (int i = 0; i < NDS; i++) {
    int32_t d = DS[i];
    tc_graph *g = k2(d);
    tc_schedule s = build(g, "kautz-c", TC_COLL_ALLGATHER, 0, NULL);
    assert_int_equal(s.steps, 2);
    int32_t *load = arc_step_counts(g, &s);
    for (int64_t a = 0; a < g->m; a++) {
      int32_t ua, ub, va, vb;
      tci_kautz2_letters(d, g->src[a], &ua, &ub);
      tci_kautz2_letters(d, g->dst[a], &va, &vb);
      assert_int_equal(load[a], 1);
      assert_int_equal(load[g->m + a], vb == ua ? d - 1 : d);
    }
    free(load);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* Fig. 3.1: MULTITREE on K(2,2) uses 12, 12 and 6 of the 12 links; in general nd per step
   but the last, n(d-1), and never two blocks on an arc in a step. The reduce-scatter (the
   incoming trees) is the same in reverse. */
static void multitree_link_counts(void **state) {
  (void)state;
  for (int i = 0; i < NDS; i++) {
    int32_t d = DS[i], n = d * (d + 1);
    tc_graph *g = k2(d);
    for (int rs = 0; rs < 2; rs++) {
      tc_schedule s = build(g, "kautz-m", rs ? TC_COLL_REDUCE_SCATTER : TC_COLL_ALLGATHER, 0, NULL);
      assert_int_equal(s.steps, d + 1);
      int32_t *load = arc_step_counts(g, &s);
      for (int32_t t = 1; t <= d + 1; t++) {
        int64_t used = 0;
        for (int64_t a = 0; a < g->m; a++) {
          int32_t l = load[(int64_t)(t - 1) * g->m + a];
          assert_true(l <= 1);
          used += l;
        }
        int32_t last = rs ? 1 : d + 1;
        assert_int_equal(used, t == last ? n * (d - 1) : n * d);
      }
      if (d == 2) assert_int_equal(s.count, 30); /* 12 + 12 + 6 */
      free(load);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
}

/* ---- Table 3.2 ---- */

/* One Kautz entry of Table 3.2: steps a (+ as * d) and the β coefficient (bn / bd) in the
   table's M, which is (ratio) times the IR's M: T_B = tau * M_ir / (d b), so the table's
   coefficient is tau * ratio / d. */
static void assert_entry(const tc_cost *c, int32_t d, int32_t steps, int64_t ratio_num, int64_t ratio_den,
                         int64_t bn, int64_t bd, const char *what) {
  tc_rat coef, want, r, dd;
  tc_error err;
  assert_int_equal(tc_rat_make(ratio_num, ratio_den, &r, &err), TC_OK);
  assert_int_equal(tc_rat_make(1, d, &dd, &err), TC_OK);
  assert_int_equal(tc_rat_mul(c->tau, r, &coef, &err), TC_OK);
  assert_int_equal(tc_rat_mul(coef, dd, &coef, &err), TC_OK);
  assert_int_equal(tc_rat_make(bn, bd, &want, &err), TC_OK);
  char got[64], exp[64];
  tc_rat_format(coef, got, sizeof got);
  tc_rat_format(want, exp, sizeof exp);
  if (c->steps != steps || tc_rat_cmp(coef, want))
    fail_msg("%s: %d steps, beta coefficient %s; Table 3.2 says %d steps, %s", what, c->steps, got, steps, exp);
}

static void table_3_2(void **state) {
  (void)state;
  for (int i = 0; i < NDS; i++) {
    int32_t d = DS[i], n = d * (d + 1);
    tc_graph *g = k2(d);
    for (int m = 0; m < 2; m++) {
      const char *algo = m ? "kautz-m" : "kautz-c";
      char what[96];
      tc_cost c;
      tc_schedule s;
      /* Bcast / Reduce: 2(α + Mβ), from several roots */
      for (int32_t root = 0; root < n; root += d + 1) {
        for (int red = 0; red < 2; red++) {
          tc_collective coll = red ? TC_COLL_REDUCE : TC_COLL_BROADCAST;
          snprintf(what, sizeof what, "%s K(%d,2) %s root %d", algo, d, tc_collective_name(coll), root);
          s = build(g, algo, coll, root, &c);
          assert_int_equal(tc_schedule_owner(&s, 0), root);
          assert_entry(&c, d, 2, 1, 1, 2, 1, what);
          tc_schedule_destroy(&s);
          tc_cost_destroy(&c);
        }
      }
      /* Scatter / Gather: 2α + (d+2)M/(d(d+1))β, M the root's buffer */
      for (int32_t root = 1; root < n; root += d + 2) {
        for (int ga = 0; ga < 2; ga++) {
          tc_collective coll = ga ? TC_COLL_GATHER : TC_COLL_SCATTER;
          snprintf(what, sizeof what, "%s K(%d,2) %s root %d", algo, d, tc_collective_name(coll), root);
          s = build(g, algo, coll, root, &c);
          assert_int_equal(tc_schedule_root(&s), root);
          assert_entry(&c, d, 2, 1, 1, d + 2, (int64_t)d * (d + 1), what);
          tc_schedule_destroy(&s);
          tc_cost_destroy(&c);
        }
      }
      /* Allgather / Reduce-Scatter: 2α + (d+1)Mβ or (d+1)(α + Mβ); M per node, IR's M = nM */
      for (int rs = 0; rs < 2; rs++) {
        tc_collective coll = rs ? TC_COLL_REDUCE_SCATTER : TC_COLL_ALLGATHER;
        snprintf(what, sizeof what, "%s K(%d,2) %s", algo, d, tc_collective_name(coll));
        s = build(g, algo, coll, 0, &c);
        assert_entry(&c, d, m ? d + 1 : 2, n, 1, d + 1, 1, what);
        tc_schedule_destroy(&s);
        tc_cost_destroy(&c);
      }
      /* Allreduce: 4α + 2(M/d)β or 2(d+1)α + 2(M/d)β */
      snprintf(what, sizeof what, "%s K(%d,2) allreduce", algo, d);
      s = build(g, algo, TC_COLL_ALLREDUCE, 0, &c);
      assert_int_equal(s.rs_steps, m ? d + 1 : 2);
      assert_entry(&c, d, m ? 2 * (d + 1) : 4, 1, 1, 2, d, what);
      tc_schedule_destroy(&s);
      tc_cost_destroy(&c);
      /* Alltoall: 2α or (d+1)α, + (2d+1)M/(d(d+1))β; M is each node's buffer */
      snprintf(what, sizeof what, "%s K(%d,2) alltoall", algo, d);
      s = build(g, algo, TC_COLL_ALLTOALL, 0, &c);
      assert_entry(&c, d, m ? d + 1 : 2, 1, 1, 2 * d + 1, (int64_t)d * (d + 1), what);
      tc_schedule_destroy(&s);
      tc_cost_destroy(&c);
    }
    tc_graph_destroy(g);
  }
}

/* ---- the size switch (§3.2.2) ---- */

/* On K(4,2) with α = 1 us, 100 Gbps links and local copies at 10 GB/s: Kautz-C's allgather
   reorders 3/2 M at its busiest nodes and Kautz-M none, both have tau = 1, and Kautz-M
   takes 3 more steps, so the predicted times cross at 3 α / (3/2 / 10 GB/s) = 20 KB (of
   the whole n-block result). The `kautz` row takes Kautz-C below, Kautz-M from there. */
static void size_switch(void **state) {
  (void)state;
  tc_graph *g = k2(4);
  tc_error err;
  tc_cost c, m;
  tc_schedule s = build(g, "kautz-c", TC_COLL_ALLGATHER, 0, &c);
  tc_schedule_destroy(&s);
  s = build(g, "kautz-m", TC_COLL_ALLGATHER, 0, &m);
  tc_schedule_destroy(&s);
  tc_rat want;
  assert_int_equal(tc_rat_make(3, 2, &want, &err), TC_OK);
  assert_int_equal(tc_rat_cmp(c.local_copy, want), 0);
  assert_int_equal(m.local_copy.num, 0);
  double at = 0;
  assert_int_equal(tc_kautz_switch_size(g, TC_COLL_ALLGATHER, 0, 1e-6, 12.5e9, 10e9, &at, &err), TC_OK);
  assert_true(fabs(at - 20000) < 1e-6);
  /* just below the crossing Kautz-C is predicted faster, just above Kautz-M */
  assert_true(tc_cost_time_copy(&c, 1e-6, 12.5e9, 19990, 10e9) < tc_cost_time_copy(&m, 1e-6, 12.5e9, 19990, 10e9));
  assert_true(tc_cost_time_copy(&c, 1e-6, 12.5e9, 20010, 10e9) > tc_cost_time_copy(&m, 1e-6, 12.5e9, 20010, 10e9));
  char chosen[TC_ERRMSG_MAX];
  tc_collective_opts o = {.alpha_s = 1e-6, .link_bw = 12.5e9, .bytes = 19990, .copy_bw = 10e9, .chosen = chosen,
                          .chosen_size = sizeof chosen};
  assert_int_equal(tc_collective_build(g, "kautz", TC_COLL_ALLGATHER, &o, &s, NULL, &err), TC_OK);
  assert_string_equal(s.algorithm, "kautz-c");
  assert_int_equal(s.steps, 2);
  assert_string_equal(chosen, "kautz-c: 19990 B is below the switch size 20 KB (Kautz-M predicted faster from it on)");
  tc_schedule_destroy(&s);
  o.bytes = 20010;
  assert_int_equal(tc_collective_build(g, "kautz", TC_COLL_ALLGATHER, &o, &s, NULL, &err), TC_OK);
  assert_string_equal(s.algorithm, "kautz-m");
  assert_int_equal(s.steps, 5);
  tc_schedule_destroy(&s);
  /* no local-copy term, or one tree: Kautz-C at every size */
  assert_int_equal(tc_kautz_switch_size(g, TC_COLL_ALLGATHER, 0, 1e-6, 12.5e9, 0, &at, &err), TC_OK);
  assert_true(isinf(at));
  assert_int_equal(tc_kautz_switch_size(g, TC_COLL_SCATTER, 3, 1e-6, 12.5e9, 10e9, &at, &err), TC_OK);
  assert_true(isinf(at));
  o.copy_bw = 0;
  o.bytes = 1e9;
  assert_int_equal(tc_collective_build(g, "kautz", TC_COLL_ALLGATHER, &o, &s, NULL, &err), TC_OK);
  assert_string_equal(s.algorithm, "kautz-c");
  assert_string_equal(chosen, "kautz-c: predicted faster at every size (no local-copy term: give --copy-bw)");
  tc_schedule_destroy(&s);
  tc_collective_opts none = {.root = 0};
  assert_int_equal(tc_collective_build(g, "kautz", TC_COLL_ALLGATHER, &none, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "kautz picks Kautz-C or Kautz-M by the predicted time at the message size: give "
                               "--alpha, --link-bw and --size (and --copy-bw for the local reorder, paper 002 §3.2.2)");
  tc_cost_destroy(&c);
  tc_cost_destroy(&m);
  tc_graph_destroy(g);
}

/* ---- refusals and a failing mutation ---- */

static void refusals(void **state) {
  (void)state;
  tc_error err;
  tc_schedule s;
  tc_graph *g = tc_test_spec("kautz(2,2)");
  assert_int_equal(tc_kautz_collective(g, TC_KAUTZ_COMBINE, TC_COLL_ALLGATHER, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "kautz-c: needs paper 002's K(d,2), written kautz(d,1), with d >= 2 (a graph of "
                               "d(d+1) nodes, each of out-degree d; got 12 nodes)");
  tc_graph_destroy(g);
  g = tc_test_spec("kautz(1,1)");
  assert_int_equal(tc_kautz_collective(g, TC_KAUTZ_MULTITREE, TC_COLL_ALLGATHER, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "kautz-m: needs paper 002's K(d,2), written kautz(d,1), with d >= 2 (a graph of "
                               "d(d+1) nodes, each of out-degree d; got 2 nodes)");
  tc_graph_destroy(g);
  g = tc_test_spec("genkautz(2,6)"); /* 6 nodes of degree 2, but not numbered as K(2,2) */
  assert_int_equal(tc_kautz_collective(g, TC_KAUTZ_COMBINE, TC_COLL_ALLGATHER, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "kautz-c: needs paper 002's K(2,2), written kautz(2,1): node 0 (0,1) should have "
                               "a unit arc to 2 (1,0)");
  tc_graph_destroy(g);
  g = k2(2);
  assert_int_equal(tc_kautz_collective(g, TC_KAUTZ_COMBINE, TC_COLL_BROADCAST, 6, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "kautz-c: root 6 is not a node (0..5)");
  assert_int_equal(s.count, 0);
  tc_graph_destroy(g);
}

/* Dropping any one transfer of a small schedule of each kind makes the verifier fail. */
static void dropped_transfer_fails(void **state) {
  (void)state;
  tc_graph *g = k2(2);
  const tc_collective colls[] = {TC_COLL_BROADCAST, TC_COLL_REDUCE,    TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER,
                                 TC_COLL_ALLREDUCE, TC_COLL_ALLTOALL, TC_COLL_SCATTER,   TC_COLL_GATHER};
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 8; k++) {
      tc_schedule s = build(g, m ? "kautz-m" : "kautz-c", colls[k], 3, NULL);
      for (int64_t i = 0; i < s.count; i++) {
        tc_transfer kept = s.xfer[i];
        s.xfer[i] = s.xfer[s.count - 1];
        s.count--;
        tc_error err;
        if (tc_schedule_verify(g, &s, &err) == TC_OK)
          fail_msg("%s without transfer %lld still verifies", tc_collective_name(colls[k]), (long long)i);
        s.count++;
        s.xfer[s.count - 1] = s.xfer[i];
        s.xfer[i] = kept;
      }
      tc_schedule_destroy(&s);
    }
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sizes_and_moore),      cmocka_unit_test(bfs_subtree_sizes),
      cmocka_unit_test(combine_step2_load),   cmocka_unit_test(multitree_link_counts),
      cmocka_unit_test(table_3_2),            cmocka_unit_test(refusals),
      cmocka_unit_test(dropped_transfer_fails), cmocka_unit_test(size_switch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
