/*
** test_sched_alltoall.c — the alltoall collective of the schedule IR: its layout, the
** verifier's flow semantics (paper 003 §3.1.3), the cost model, the schedule file and the
** transforms.
**
** Oracles: (1) hand-built schedules on the directed 3-ring 0 -> 1 -> 2 -> 0 and on a
** one-switch star, whose verdicts and costs are worked out in the comments; (2) mutations
** that each break one clause (drop a transfer, deliver twice, send before holding, wrong
** arc, a destination that sends on, a local shard moved), each rejected with its exact
** message; (3) an explicit token simulator written here, which must agree with the
** verifier on thousands of random schedules, valid and invalid.
*/
#include <math.h>
#include <stdio.h>

#include "tc_test.h"
#include "tc_files.h"
#include "core/rng.h"
#include "topocoll/cost.h"
#include "topocoll/expand.h"
#include "topocoll/sched_io.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

/* The directed 3-ring: arc 0 = 0 -> 1, arc 1 = 1 -> 2, arc 2 = 2 -> 0. */
static tc_graph *ring3(void) {
  static const int arcs[3][2] = {{0, 1}, {1, 2}, {2, 0}};
  return tc_test_from_arcs(3, arcs, 3);
}

/* Shard (s, s+1) in one hop at step 1, shard (s, s+2) over s+1 at steps 1 and 2: every
   unit relays once. Transfers 0..5 in the order (s, hop). */
static void ring3_alltoall(tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLTOALL, 3, 1, "hand", &err), TC_OK);
  for (int v = 0; v < 3; v++) {
    int next = (v + 1) % 3, far = (v + 2) % 3;
    assert_int_equal(tc_schedule_add(s, v * 3 + next, v, 1, 0, 1, &err), TC_OK);
    assert_int_equal(tc_schedule_add(s, v * 3 + far, v, 1, 0, 1, &err), TC_OK);
    assert_int_equal(tc_schedule_add(s, v * 3 + far, next, 2, 0, 1, &err), TC_OK);
  }
}

static void expect_invalid(const tc_graph *g, const tc_schedule *s, const char *msg) {
  tc_error err;
  int rc = tc_schedule_verify(g, s, &err);
  if (rc != TC_EFAIL) fail_msg("schedule accepted (rc %d), expected: %s", rc, msg);
  assert_string_equal(err.msg, msg);
}

static void layout(void **state) {
  (void)state;
  assert_string_equal(tc_collective_name(TC_COLL_ALLTOALL), "alltoall");
  assert_int_equal(tc_collective_parse("alltoall"), TC_COLL_ALLTOALL);
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLTOALL, 4, 2, "x", &err), TC_OK);
  assert_int_equal(s.nshards, 16);
  assert_null(s.owner);
  assert_int_equal(tc_schedule_owner(&s, 7), 1); /* 7 = 1*4 + 3 */
  assert_int_equal(tc_schedule_dest(&s, 7), 3);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 4, 1, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_dest(&s, 2), -1);
  tc_schedule_destroy(&s);
  int32_t owner[4] = {0, 1, 2, 3};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLTOALL, 2, 4, owner, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "alltoall takes no owners (shard s*N + t belongs to node s)");
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLTOALL, 3, 3, NULL, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "alltoall on 3 nodes has 9 shards (N*N), not 3");
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLTOALL, TC_ALLTOALL_MAX_NODES + 1, 1, "x", &err), TC_ERANGE);
  assert_string_equal(err.msg, "alltoall on 46341 nodes needs 2147488281 shards, more than 2^31-1 (at most 46340 nodes)");
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLTOALL, TC_ALLTOALL_MAX_NODES, 1, "x", &err), TC_OK);
  assert_int_equal(s.nshards, 46340 * 46340);
  tc_schedule_destroy(&s);
}

/* On the 3-ring: step 1 loads every arc with 2 shards, step 2 with 1, so Σ_t max = 3
   shards; d = 1, C = 3: tau = (1/3) * 3 = 1. Bound: Σ dist = 3 * (1 + 2) = 9 over 3 arcs
   of capacity 1 is 3, above the injection bound (C-1)/1 = 2, so tau* = (1/3) * 3 = 1. */
static void ring_valid_and_costed(void **state) {
  (void)state;
  tc_graph *g = ring3();
  tc_schedule s;
  tc_error err;
  ring3_alltoall(&s);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 2);
  assert_int_equal(c.degree, 1);
  assert_true(c.tau.num == 1 && c.tau.den == 1);
  assert_true(c.tau_optimal.num == 1 && c.tau_optimal.den == 1);
  assert_true(c.bw_optimal);
  assert_true(c.step_load[0].num == 2 && c.step_load[0].den == 1);
  assert_true(c.step_load[1].num == 1 && c.step_load[1].den == 1);
  /* M = 3000 B, b = 1000 B/s: each shard is 1000 B, step 1 moves 2000 B on an arc, step 2
     1000 B: 3 s with alpha 0. */
  double t = 0, a[3] = {0, 0, 0}, bw[3] = {1000, 1000, 1000};
  assert_int_equal(tc_schedule_time_hetero(g, &s, a, bw, 3000, &t, &err), TC_OK);
  assert_true(t > 2.999999 && t < 3.000001);
  assert_true(fabs(tc_cost_time(&c, 0, 1000, 3000) - 3.0) < 1e-9);
  tc_cost_destroy(&c);
  /* the same in halves: two units per shard, each half on its own, still valid */
  assert_int_equal(tc_schedule_refine(&s, 2, &err), TC_OK);
  s.xfer[2].hi = 1; /* shard 2's relay carries only [0,1) ... */
  assert_int_equal(tc_schedule_add(&s, 2, 1, 2, 1, 2, &err), TC_OK); /* ... and [1,2) apart */
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Transfers of ring3_alltoall: #0 shard 1 (0 -> 1) on 0 -> 1, #1-#2 shard 2 (0 -> 2) on
   0 -> 1 then 1 -> 2; #3 shard 5 (1 -> 2), #4-#5 shard 3 (1 -> 0); #6 shard 6 (2 -> 0),
   #7-#8 shard 7 (2 -> 1). Each mutation breaks one clause. */
static void ring_mutations(void **state) {
  (void)state;
  tc_graph *g = ring3();
  tc_schedule s;
  tc_error err;

  ring3_alltoall(&s); /* drop a transfer: shard 2's unit strands at node 1 */
  s.xfer[2] = s.xfer[--s.count];
  expect_invalid(g, &s, "node 2 never receives units [0,1) of shard 2 (owner 0)");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* fewer transfers than pairs: refused before any replay */
  s.count = 5;
  expect_invalid(g, &s, "alltoall among 3 compute nodes needs at least 6 transfers (one per ordered pair of "
                 "distinct compute nodes), but the schedule has 5");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* duplicate delivery: the relay of shard 2 sent twice */
  assert_int_equal(tc_schedule_add(&s, 2, 1, 2, 0, 1, &err), TC_OK);
  expect_invalid(g, &s, "transfer #9 (shard 2, 1 -> 2, step 2, units [0,1) of 1): node 1 has already sent on every "
                 "copy of units [0,1) of shard 2 (0 -> 2) it held");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* the owner sends one unit twice */
  assert_int_equal(tc_schedule_add(&s, 1, 0, 2, 0, 1, &err), TC_OK);
  expect_invalid(g, &s, "transfer #9 (shard 1, 0 -> 1, step 2, units [0,1) of 1): node 0 has already sent on every "
                 "copy of units [0,1) of shard 1 (0 -> 1) it held");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* send before holding: the relay in the step it receives */
  s.xfer[2].step = 1;
  expect_invalid(g, &s, "transfer #2 (shard 2, 1 -> 2, step 1, units [0,1) of 1): node 1 sends units [0,1) of shard "
                 "2 (0 -> 2) before holding them");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* wrong arc: shard 6 (2 -> 0) leaves from node 1, which never had it */
  s.xfer[6].arc = 1;
  expect_invalid(g, &s, "transfer #6 (shard 6, 1 -> 2, step 1, units [0,1) of 1): node 1 sends units [0,1) of shard "
                 "6 (2 -> 0) before holding them");
  s.xfer[6].arc = 3; /* an arc that does not exist */
  expect_invalid(g, &s, "transfer #6 (shard 6, arc 3, step 1) uses an arc that is not in the graph");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* a destination that sends on: 1 forwards shard 1 (0 -> 1) to 2 */
  assert_int_equal(tc_schedule_add(&s, 1, 1, 2, 0, 1, &err), TC_OK);
  expect_invalid(g, &s, "transfer #9 (shard 1, 1 -> 2, step 2, units [0,1) of 1): node 1 sends on units [0,1) of "
                 "shard 1 (0 -> 1), whose destination it is");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* a local shard moved */
  assert_int_equal(tc_schedule_add(&s, 4, 1, 1, 0, 1, &err), TC_OK);
  expect_invalid(g, &s, "transfer #9 (shard 4, 1 -> 2, step 1, units [0,1) of 1) moves a local shard (its owner is "
                 "its destination: never transferred)");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* half a unit range never arrives */
  assert_int_equal(tc_schedule_refine(&s, 2, &err), TC_OK);
  s.xfer[2].hi = 1;
  expect_invalid(g, &s, "node 2 never receives units [1,2) of shard 2 (owner 0)");
  tc_schedule_destroy(&s);

  ring3_alltoall(&s); /* a broken layout */
  s.nshards = 3;
  expect_invalid(g, &s, "alltoall on 3 nodes needs 9 shards in its fixed layout (has 3)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Compute nodes 0, 1, 2 around switch 3 (arcs both ways, capacity 1): every shard goes
   s -> 3 at step 1 and 3 -> t at step 2. Each step loads every arc with 2 shards: Σ = 4;
   d = 3 (the switch's out-capacity), C = 3: tau = 4. Bound: Σ dist = 6 * 2 = 12 over 6
   arcs is 2 = the injection bound (C-1)/1, so tau* = 2: not proven optimal. */
static void through_a_switch(void **state) {
  (void)state;
  static const int arcs[6][3] = {{0, 3, 1}, {1, 3, 1}, {2, 3, 1}, {3, 0, 1}, {3, 1, 1}, {3, 2, 1}};
  static const int sw[1] = {3};
  tc_graph *g = tc_test_graph(4, arcs, 6, sw, 1);
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLTOALL, 4, 1, "star", &err), TC_OK);
  for (int u = 0; u < 3; u++)
    for (int t = 0; t < 3; t++) {
      if (u == t) continue;
      assert_int_equal(tc_schedule_add(&s, u * 4 + t, tc_test_arc_id(g, u, 3), 1, 0, 1, &err), TC_OK);
      assert_int_equal(tc_schedule_add(&s, u * 4 + t, tc_test_arc_id(g, 3, t), 2, 0, 1, &err), TC_OK);
    }
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_true(c.tau.num == 4 && c.tau.den == 1);
  assert_true(c.tau_optimal.num == 2 && c.tau_optimal.den == 1);
  assert_false(c.bw_optimal);
  tc_cost_destroy(&c);
  assert_int_equal(tc_schedule_add(&s, 0 * 4 + 3, tc_test_arc_id(g, 0, 3), 1, 0, 1, &err), TC_OK);
  expect_invalid(g, &s, "transfer #12 (shard 3, 0 -> 3, step 1, units [0,1) of 1) moves a shard with a switch end "
                 "(switches send and receive no data of their own)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- the token simulator ---- */

/* Every unit of every live shard as a token: copies held per node, the owner starting with
   one; per step, sends first (each takes a copy held before the step, the destination
   never sends), then receipts; at the end the destination must hold it. Returns 1 if the
   schedule performs the alltoall. Brute force over units, steps and transfers. */
static int simulate(const tc_graph *g, const tc_schedule *s) {
  int n = g->n;
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int from = tc_schedule_owner(s, x->shard), to = tc_schedule_dest(s, x->shard);
    if (from == to || g->kind[from] != TC_NODE_COMPUTE || g->kind[to] != TC_NODE_COMPUTE) return 0;
  }
  int *held = malloc((size_t)n * sizeof *held);
  int ok = 1;
  for (int32_t k = 0; k < s->nshards && ok; k++) {
    int from = tc_schedule_owner(s, k), to = tc_schedule_dest(s, k);
    if (from == to || g->kind[from] != TC_NODE_COMPUTE || g->kind[to] != TC_NODE_COMPUTE) continue;
    for (int64_t u = 0; u < s->units && ok; u++) {
      for (int v = 0; v < n; v++) held[v] = -1;
      held[from] = 1;
      for (int32_t t = 1; t <= s->steps && ok; t++) {
        for (int64_t i = 0; i < s->count && ok; i++) {
          const tc_transfer *x = &s->xfer[i];
          if (x->shard != k || x->step != t || u < x->lo || u >= x->hi) continue;
          int v = g->src[x->arc];
          if (v == to || held[v] < 1) ok = 0;
          else held[v]--;
        }
        for (int64_t i = 0; i < s->count && ok; i++) {
          const tc_transfer *x = &s->xfer[i];
          if (x->shard != k || x->step != t || u < x->lo || u >= x->hi) continue;
          int v = g->dst[x->arc];
          held[v] = held[v] < 0 ? 1 : held[v] + 1;
        }
      }
      if (held[to] < 1) ok = 0;
    }
  }
  free(held);
  return ok;
}

/* A random alltoall on g: each unit range of each shard walks from its owner along random
   arcs, one step at a time (with random waits), until it reaches its destination; then
   with probability 1/2 one random mutation. */
static void random_alltoall(const tc_graph *g, tc_rng *r, tc_schedule *s) {
  tc_error err;
  int n = g->n;
  int64_t units = 1 + (int64_t)tci_rng_below(r, 3);
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLTOALL, n, units, "random", &err), TC_OK);
  for (int from = 0; from < n; from++)
    for (int to = 0; to < n; to++) {
      if (from == to) continue;
      for (int64_t lo = 0; lo < units;) {
        int64_t hi = lo + 1 + (int64_t)tci_rng_below(r, (uint64_t)(units - lo));
        int at = from, step = 0;
        for (int hops = 0; at != to && hops < 3 * n; hops++) {
          int64_t deg = g->out_off[at + 1] - g->out_off[at];
          int64_t a = g->out_off[at] + (int64_t)tci_rng_below(r, (uint64_t)deg);
          if (g->dst[a] == from && tci_rng_below(r, 2)) continue; /* walks may revisit the owner, sometimes */
          step += 1 + (int)tci_rng_below(r, 2);
          assert_int_equal(tc_schedule_add(s, from * n + to, a, step, lo, hi, &err), TC_OK);
          at = g->dst[a];
        }
        lo = hi;
      }
    }
  if (tci_rng_below(r, 2) || !s->count) return;
  tc_transfer *x = &s->xfer[tci_rng_below(r, (uint64_t)s->count)];
  switch (tci_rng_below(r, 5)) {
  case 0: *x = s->xfer[--s->count]; break;                             /* drop */
  case 1: tc_schedule_add(s, x->shard, x->arc, x->step, x->lo, x->hi, &err); break; /* duplicate */
  case 2: if (x->step > 1) x->step--; break;                           /* earlier */
  case 3: x->arc = (int64_t)tci_rng_below(r, (uint64_t)g->m); break;   /* another arc */
  default: x->shard = (int32_t)tci_rng_below(r, (uint64_t)s->nshards); /* another shard */
  }
}

static void agrees_with_simulation(void **state) {
  (void)state;
  tc_graph *graphs[2] = {tc_test_spec("hypercube(2)"), ring3()};
  tc_rng r;
  tci_rng_seed(&r, 2003);
  int valid = 0, invalid = 0;
  for (int i = 0; i < 3000; i++) {
    const tc_graph *g = graphs[i % 2];
    tc_schedule s;
    tc_error err;
    random_alltoall(g, &r, &s);
    int want = simulate(g, &s);
    int rc = tc_schedule_verify(g, &s, &err);
    if (rc != (want ? TC_OK : TC_EFAIL)) fail_msg("schedule %d: verifier %d, simulator %d (%s)", i, rc, want, err.msg);
    tc_schedule_sort(&s); /* the canonical order is read in place: the same verdict */
    assert_int_equal(tc_schedule_verify(g, &s, &err), rc);
    valid += want;
    invalid += !want;
    tc_schedule_destroy(&s);
  }
  assert_true(valid > 1000 && invalid > 500); /* both verdicts exercised */
  tc_graph_destroy(graphs[0]);
  tc_graph_destroy(graphs[1]);
}

/* ---- the schedule file and the transforms ---- */

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-a2a-ir"); }

static void file_round_trip(void **state) {
  tc_tmpdir *f = *state;
  tc_graph *g = ring3();
  tc_schedule s;
  tc_error err;
  ring3_alltoall(&s);
  char path[PATH_MAX];
  tc_tmpdir_path(f, "a2a.json", path, sizeof path);
  assert_int_equal(tc_schedule_write_json(g, NULL, &s, path, &err), TC_OK);
  tc_schedule_doc doc;
  assert_int_equal(tc_schedule_read_json(path, g, &doc, &err), TC_OK);
  assert_int_equal(doc.sched.coll, TC_COLL_ALLTOALL);
  assert_int_equal(doc.sched.nshards, 9);
  assert_null(doc.sched.owner);
  assert_int_equal(doc.sched.count, s.count);
  assert_memory_equal(doc.sched.xfer, s.xfer, (size_t)s.count * sizeof *s.xfer);
  assert_int_equal(tc_schedule_verify(doc.graph, &doc.sched, &err), TC_OK);
  tc_schedule_doc_destroy(&doc);
  /* the reader holds the layout: N*N shards, no owners */
  char *text = tc_files_slurp(path);
  char *at = strstr(text, "\"nshards\": 9");
  assert_non_null(at);
  memcpy(at, "\"nshards\": 8", 12);
  tc_files_spill(path, text, strlen(text));
  free(text);
  assert_int_equal(tc_schedule_read_json(path, g, &doc, &err), TC_EINPUT);
  char want[PATH_MAX + 128];
  snprintf(want, sizeof want, "%s: schedule: alltoall on 3 nodes has 9 shards (N*N), not 8", path);
  assert_string_equal(err.msg, want);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void transforms(void **state) {
  (void)state;
  tc_graph *g = ring3(), *gt = NULL;
  tc_schedule s, out;
  tc_error err;
  ring3_alltoall(&s);
  /* reverse: the 3-ring backwards; shard (s,t) becomes (t,s) and still verifies */
  assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
  assert_int_equal(tc_schedule_reverse(g, &s, gt, &out, &err), TC_OK);
  assert_int_equal(out.coll, TC_COLL_ALLTOALL);
  assert_int_equal(out.xfer[2].shard, 2 * 3 + 0); /* shard 2 = (0,2) became (2,0) */
  assert_int_equal(out.xfer[2].step, 1);
  assert_int_equal(tc_schedule_verify(gt, &out, &err), TC_OK);
  tc_schedule_destroy(&out);
  /* relabel by the rotation v -> v+1: shard (0,2) -> (1,0) */
  int32_t rot[3] = {1, 2, 0};
  assert_int_equal(tc_schedule_relabel(g, &s, g, rot, &out, &err), TC_OK);
  assert_int_equal(out.xfer[2].shard, 1 * 3 + 0);
  assert_int_equal(tc_schedule_verify(g, &out, &err), TC_OK);
  tc_schedule_destroy(&out);
  /* transforms of other collectives refuse it with one line */
  assert_int_equal(tc_schedule_round_chunks(g, &s, 2, &out, &err), TC_EINPUT);
  assert_string_equal(err.msg, "chunk rounding: needs an allgather or broadcast (got alltoall; round the allgather, "
                      "then reverse or compose)");
  assert_int_equal(tc_schedule_allreduce_compose(g, &s, &s, &out, &err), TC_EINPUT);
  assert_string_equal(err.msg, "allreduce: needs a reduce-scatter then an allgather (got alltoall then alltoall)");
  tc_graph *bi = NULL;
  assert_int_equal(tc_graph_bidir_closure(g, &bi, &err), TC_OK);
  assert_int_equal(tc_schedule_bidirectional(g, &s, NULL, bi, &out, &err), TC_EINPUT);
  assert_string_equal(err.msg, "bidirectional: needs the N-shard layout (shard k owned by node k); this alltoall has "
                      "N*N shards");
  tc_graph_destroy(bi);
  tc_schedule_destroy(&s);
  tc_graph_destroy(gt);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(layout),
      cmocka_unit_test(ring_valid_and_costed),
      cmocka_unit_test(ring_mutations),
      cmocka_unit_test(through_a_switch),
      cmocka_unit_test(agrees_with_simulation),
      cmocka_unit_test_setup_teardown(file_round_trip, make_tmpdir, tc_tmpdir_teardown),
      cmocka_unit_test(transforms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
