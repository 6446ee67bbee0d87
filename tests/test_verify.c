/*
** test_verify.c — the schedule verifier and the cost model.
**
** Oracles: (1) paper 000 Fig. 1 (K_{2,2} allgather: T_L = 2, tau = 3/4) built by hand, and
** its reverse (Def. 5) as a reduce-scatter; (2) an explicit simulator written here that
** moves real per-unit state (held bits for copies, contribution count vectors for
** reductions) step by step — the verifier's segment/path-count method must agree with it
** on thousands of random schedules, valid and invalid, as generated and in canonical
** order (which verify and cost read in place), with the same costs in both orders;
** (3) mutations that each break one clause of Def. 4 (drop a transfer, shrink a chunk, move to a non-arc, to
** an earlier step, duplicate a contribution) must each be rejected.
*/
#include <math.h>
#include <omp.h>

#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/bfb.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

/* Def. 5 on a bidirectional graph: step t -> T - t + 1, arc -> its reverse. */
static void reverse_into(const tc_graph *g, const tc_schedule *ag, tc_collective coll, tc_schedule *rs) {
  tc_error err;
  assert_int_equal(tc_schedule_init(rs, coll, ag->nodes, ag->units, "rev", &err), TC_OK);
  for (int64_t i = 0; i < ag->count; i++) {
    const tc_transfer *x = &ag->xfer[i];
    assert_int_equal(tc_schedule_add(rs, x->shard, g->rev[x->arc], ag->steps - x->step + 1, x->lo, x->hi, &err), TC_OK);
  }
}

static void expect_invalid(const tc_graph *g, const tc_schedule *s, const char *frag) {
  tc_error err;
  int rc = tc_schedule_verify(g, s, &err);
  if (rc != TC_EFAIL) fail_msg("mutated schedule accepted (rc %d)", rc);
  if (frag && !strstr(err.msg, frag)) fail_msg("message '%s' lacks '%s'", err.msg, frag);
}

static void figure1_valid_and_costed(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_schedule s;
  tc_error err;
  tc_test_fig1_allgather(g, &s);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 2);
  assert_int_equal(c.tau.num, 3); /* Fig. 1: T_B = (M/B) 3/4 */
  assert_int_equal(c.tau.den, 4);
  assert_true(c.bw_optimal);
  assert_true(c.moore_optimal); /* N = 4 > M_{2,1} = 3 */
  assert_int_equal(c.step_load[0].num, 1);
  assert_int_equal(c.step_load[1].num, 1);
  assert_int_equal(c.step_load[1].den, 2);
  /* alpha = 10us, link 1 B/s, M = 8 B: 2*1e-5 + 3/4 * 8 / (2 * 1) */
  assert_true(fabs(tc_cost_time(&c, 1e-5, 1.0, 8.0) - (2e-5 + 3.0)) < 1e-12);
  tc_cost_destroy(&c);
  /* the reverse is a reduce-scatter with the same costs (Def. 5 / Thm 1) */
  tc_schedule rs;
  reverse_into(g, &s, TC_COLL_REDUCE_SCATTER, &rs);
  assert_int_equal(tc_schedule_verify(g, &rs, &err), TC_OK);
  assert_int_equal(tc_schedule_cost(g, &rs, &c, &err), TC_OK);
  assert_int_equal(c.tau.num * 4, c.tau.den * 3);
  tc_cost_destroy(&c);
  /* the allgather run as a reduce-scatter is wrong: owners receive nothing */
  s.coll = TC_COLL_REDUCE_SCATTER;
  expect_invalid(g, &s, "reaches its owner");
  s.coll = TC_COLL_ALLGATHER;
  tc_schedule_destroy(&rs);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void mutations_are_rejected(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_schedule s, m;
  tc_error err;
  tc_test_fig1_allgather(g, &s);
  for (int64_t i = 0; i < s.count; i++) { /* drop each transfer in turn */
    assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
    memmove(&m.xfer[i], &m.xfer[i + 1], (size_t)(m.count - i - 1) * sizeof *m.xfer);
    m.count--;
    expect_invalid(g, &m, NULL); /* "never receives" or, for a first hop, "before holding" */
    tc_schedule_destroy(&m);
  }
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK); /* shrink a chunk */
  m.xfer[2].hi = m.xfer[2].lo + 0;
  expect_invalid(g, &m, "empty or out-of-range chunk");
  m.xfer[2].hi = 1;
  m.units = 4; /* same endpoints, finer units: now [1,2) of 4 is missing */
  for (int64_t i = 0; i < m.count; i++)
    if (m.xfer[i].hi == 2 && m.xfer[i].lo == 0) m.xfer[i].hi = 4;
  expect_invalid(g, &m, "never receives");
  tc_schedule_destroy(&m);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK); /* to a non-arc */
  m.xfer[0].arc = g->m;
  expect_invalid(g, &m, "not in the graph");
  tc_schedule_destroy(&m);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK); /* to an arc whose tail does not hold the data */
  assert_int_equal(m.xfer[2].shard, 0); /* 1 is 0's twin: it has nothing of shard 0 before step 2 */
  m.xfer[2].arc = tc_test_arc_id(g, 1, 2);
  expect_invalid(g, &m, "node 1 sends");
  tc_schedule_destroy(&m);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK); /* to an earlier step */
  m.xfer[2].step = 1;
  expect_invalid(g, &m, "before holding");
  tc_schedule_destroy(&m);
  tc_schedule rs; /* duplicate a contribution in the reduce-scatter */
  reverse_into(g, &s, TC_COLL_REDUCE_SCATTER, &rs);
  assert_int_equal(tc_schedule_add(&rs, rs.xfer[0].shard, rs.xfer[0].arc, rs.xfer[0].step, rs.xfer[0].lo, rs.xfer[0].hi, &err), TC_OK);
  expect_invalid(g, &rs, "more than once");
  tc_schedule_destroy(&rs);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK); /* two faults: the earliest step is named */
  m.xfer[m.count - 1].arc = tc_test_arc_id(g, 2, 0); /* shard 3 sent at step 2 by its twin 2, which lacks it */
  m.xfer[1].arc = tc_test_arc_id(g, 1, 3);           /* shard 0 sent by node 1 at step 1 */
  expect_invalid(g, &m, "transfer #1 ");
  tc_schedule_destroy(&m);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK); /* wrong node count */
  m.nodes = 5;
  expect_invalid(g, &m, "5 nodes");
  tc_schedule_destroy(&m);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- independent explicit simulator (small N, units) ---- */

typedef struct sim {
  int n, k, u;             /* nodes, shards, units */
  uint8_t *held;           /* n * k * u */
  int *part;               /* n * k * u * n contribution counts */
} sim;

static int oracle(const tc_graph *g, const tc_schedule *s) {
  int n = g->n, k = s->nshards, u = (int)s->units;
  size_t cells = (size_t)n * k * u;
  int *part = calloc(cells * n, sizeof *part), *snap = malloc(cells * n * sizeof *snap);
  uint8_t *held = calloc(cells, 1), *hsnap = malloc(cells);
  int ok = 1;
  for (int x = 0; x < n; x++)
    for (int sh = 0; sh < k; sh++)
      for (int j = 0; j < u; j++) part[(((size_t)x * k + sh) * u + j) * n + x] = 1;
  int rs_end = s->coll == TC_COLL_ALLREDUCE ? s->rs_steps : s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE ? s->steps : 0;
  int copy = s->coll == TC_COLL_ALLGATHER || s->coll == TC_COLL_BROADCAST || s->coll == TC_COLL_ALLREDUCE;
  if (s->coll == TC_COLL_ALLGATHER || s->coll == TC_COLL_BROADCAST)
    for (int sh = 0; sh < k; sh++)
      for (int j = 0; j < u; j++) held[((size_t)tc_schedule_owner(s, sh) * k + sh) * u + j] = 1;
  for (int t = 1; t <= s->steps && ok; t++) {
    if (t == rs_end + 1 && s->coll == TC_COLL_ALLREDUCE) /* owners now hold their (checked) shard */
      for (int sh = 0; sh < k; sh++)
        for (int j = 0; j < u; j++) held[((size_t)tc_schedule_owner(s, sh) * k + sh) * u + j] = 1;
    memcpy(snap, part, cells * n * sizeof *snap);
    memcpy(hsnap, held, cells);
    for (int64_t i = 0; i < s->count && ok; i++) {
      const tc_transfer *x = &s->xfer[i];
      if (x->step != t) continue;
      int from = g->src[x->arc], to = g->dst[x->arc];
      for (int64_t j = x->lo; j < x->hi; j++) {
        size_t cf = ((size_t)from * k + x->shard) * u + j, ct = ((size_t)to * k + x->shard) * u + j;
        if (t <= rs_end) {
          for (int a = 0; a < n; a++) part[ct * n + a] += snap[cf * n + a];
        } else {
          if (!hsnap[cf]) ok = 0;
          held[ct] = 1;
        }
      }
    }
  }
  for (int sh = 0; sh < k && ok && rs_end > 0; sh++) {
    int o = tc_schedule_owner(s, sh);
    for (int j = 0; j < u; j++)
      for (int a = 0; a < n; a++)
        if (part[(((size_t)o * k + sh) * u + j) * n + a] != 1) ok = 0;
  }
  if (copy)
    for (size_t c = 0; c < cells && ok; c++) ok = held[c];
  free(part); free(snap); free(held); free(hsnap);
  return ok;
}

/* Random copy schedule on h: at each step every arc may carry a random unit range of a
   random shard, kept only if the sender holds it and the receiver holds none of it, so
   each node receives each unit at most once (its reverse is then duplicate-free). With
   few steps some nodes miss data, so both verdicts occur. */
typedef struct gen_xfer { int shard, step; int64_t arc, lo, hi; } gen_xfer;

static int gen_copy(tc_rng *r, const tc_graph *h, int steps, int units, gen_xfer *out) {
  int n = h->n, count = 0;
  int held[8][8][4]; /* [node][shard][unit]: step at which it arrived, -1 never */
  for (int x = 0; x < n; x++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < units; j++) held[x][k][j] = x == k ? 0 : -1;
  for (int t = 1; t <= steps; t++)
    for (int64_t a = 0; a < h->m; a++)
      for (int k = 0; k < n; k++) {
        int from = h->src[a], to = h->dst[a];
        int lo = (int)tci_rng_below(r, units), hi = lo + 1 + (int)tci_rng_below(r, units - lo), ok = 1;
        for (int j = lo; j < hi; j++) ok &= held[from][k][j] >= 0 && held[from][k][j] < t && held[to][k][j] < 0;
        if (!ok || tci_rng_below(r, 6) == 0) continue;
        for (int j = lo; j < hi; j++) held[to][k][j] = t;
        out[count++] = (gen_xfer){k, t, a, lo, hi};
      }
  return count;
}

/* Arc of g that is the reverse of arc a of its transpose gt (k-th parallel copy to k-th). */
static int64_t untranspose(const tc_graph *g, const tc_graph *gt, int64_t a) {
  int u = gt->dst[a], v = gt->src[a];
  int64_t first = a;
  while (first > gt->out_off[v] && gt->dst[first - 1] == gt->dst[a]) first--;
  int64_t k = a - first;
  for (int64_t b = g->out_off[u]; b < g->out_off[u + 1]; b++)
    if (g->dst[b] == v && k-- == 0) return b;
  fail_msg("no reverse arc");
  return -1;
}

/* A random schedule of the collective, then with probability 1/3 one random corruption. */
static void random_schedule(tc_rng *r, const tc_graph *g, const tc_graph *gt, tc_collective coll, tc_schedule *s) {
  tc_error err;
  int units = 1 + (int)tci_rng_below(r, 3), steps = 1 + (int)tci_rng_below(r, 4);
  gen_xfer buf[4096];
  assert_int_equal(tc_schedule_init(s, coll, g->n, units, "random", &err), TC_OK);
  int base = 0;
  if (coll != TC_COLL_ALLGATHER) { /* reduce half: reverse of a copy schedule on G^T */
    int c = gen_copy(r, gt, steps, units, buf);
    for (int i = 0; i < c; i++)
      assert_int_equal(tc_schedule_add(s, buf[i].shard, untranspose(g, gt, buf[i].arc), steps - buf[i].step + 1, buf[i].lo,
                                       buf[i].hi, &err), TC_OK);
    base = steps;
    if (coll == TC_COLL_ALLREDUCE) s->rs_steps = steps;
  }
  if (coll != TC_COLL_REDUCE_SCATTER) {
    int c = gen_copy(r, g, steps, units, buf);
    for (int i = 0; i < c; i++)
      assert_int_equal(tc_schedule_add(s, buf[i].shard, buf[i].arc, base + buf[i].step, buf[i].lo, buf[i].hi, &err), TC_OK);
  }
  s->steps = base + (coll == TC_COLL_REDUCE_SCATTER ? 0 : steps);
  if (s->count && tci_rng_below(r, 3) == 0) {
    tc_transfer *x = &s->xfer[tci_rng_below(r, (uint64_t)s->count)];
    switch (tci_rng_below(r, 4)) {
      case 0: x->step = 1 + (int)tci_rng_below(r, (uint64_t)s->steps); break;
      case 1: x->arc = (int64_t)tci_rng_below(r, (uint64_t)g->m); break;
      case 2: x->shard = (int)tci_rng_below(r, (uint64_t)g->n); break;
      default: *x = s->xfer[tci_rng_below(r, (uint64_t)s->count)]; break; /* duplicate another */
    }
  }
}

static void verifier_agrees_with_simulation(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 11);
  const char *specs[] = {"complete(3)", "uniring(1,3)", "bipartite(2)", "genkautz(2,4)", "biring(4,3)"};
  const tc_collective colls[] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  int valid = 0, total = 0;
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]), *gt = NULL;
    tc_error err;
    assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
    for (int rep = 0; rep < 600; rep++) {
      tc_schedule s;
      random_schedule(&r, g, gt, colls[rep % 3], &s);
      int want = oracle(g, &s);
      int rc = tc_schedule_verify(g, &s, &err);
      if ((rc == TC_OK) != want) fail_msg("%s rep %d: verifier says %s, simulation says %s (%s)", specs[i], rep,
                                          rc ? "invalid" : "valid", want ? "valid" : "invalid", rc ? err.msg : "");
      /* The same schedule in canonical order, which verify and cost read in place (the
         random order above takes their general path): same verdict, same costs. */
      tc_schedule sorted;
      assert_int_equal(tc_schedule_copy(&s, &sorted, &err), TC_OK);
      tc_schedule_sort(&sorted);
      int rc_sorted = tc_schedule_verify(g, &sorted, &err);
      if ((rc_sorted == TC_OK) != want)
        fail_msg("%s rep %d: in canonical order the verifier says %s, simulation says %s (%s)", specs[i], rep,
                 rc_sorted ? "invalid" : "valid", want ? "valid" : "invalid", rc_sorted ? err.msg : "");
      if (want) {
        tc_cost c1, c2;
        assert_int_equal(tc_schedule_cost(g, &s, &c1, &err), TC_OK);
        assert_int_equal(tc_schedule_cost(g, &sorted, &c2, &err), TC_OK);
        assert_int_equal(tc_rat_cmp(c1.tau, c2.tau), 0);
        for (int32_t t = 0; t < s.steps; t++) assert_int_equal(tc_rat_cmp(c1.step_load[t], c2.step_load[t]), 0);
        tc_cost_destroy(&c1);
        tc_cost_destroy(&c2);
      }
      tc_schedule_destroy(&sorted);
      valid += want;
      total++;
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
    tc_graph_destroy(gt);
  }
  /* the generator must exercise both verdicts, or this test proves nothing */
  print_message("random schedules: %d valid of %d\n", valid, total);
  assert_true(valid > total / 50);
  assert_true(valid < total - total / 50);
}

/* A schedule large enough for the multi-threaded passes (160 000 transfers), in the order
   BFB writes it, in canonical order and shuffled: the same verdict and costs in every
   order, valid as generated and invalid once one transfer leaves a step early. */
static void large_schedule_in_every_order(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(20,20)");
  tc_error err;
  tc_schedule s[3];
  assert_int_equal(tc_bfb_allgather(g, &s[0], NULL, &err), TC_OK);
  assert_true(s[0].count > 100000);
  assert_int_equal(tc_schedule_copy(&s[0], &s[1], &err), TC_OK);
  tc_schedule_sort(&s[1]);
  assert_int_equal(tc_schedule_copy(&s[0], &s[2], &err), TC_OK);
  tc_rng r;
  tci_rng_seed(&r, 3);
  for (int64_t i = s[2].count - 1; i > 0; i--) {
    int64_t j = (int64_t)tci_rng_below(&r, (uint64_t)i + 1);
    tc_transfer t = s[2].xfer[i];
    s[2].xfer[i] = s[2].xfer[j];
    s[2].xfer[j] = t;
  }
  tc_cost c[3];
  for (int k = 0; k < 3; k++) {
    assert_int_equal(tc_schedule_verify(g, &s[k], &err), TC_OK);
    assert_int_equal(tc_schedule_cost(g, &s[k], &c[k], &err), TC_OK);
    assert_int_equal(tc_rat_cmp(c[k].tau, c[0].tau), 0);
    for (int32_t t = 0; t < s[0].steps; t++) assert_int_equal(tc_rat_cmp(c[k].step_load[t], c[0].step_load[t]), 0);
  }
  for (int k = 0; k < 3; k++) tc_cost_destroy(&c[k]);
  /* and from inside a parallel region, where its own regions get a team of one */
  int nested_rc[3], threads_before = omp_get_max_threads();
  omp_set_num_threads(2);
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    for (int k = 0; k < 3; k++) nested_rc[k] = tc_schedule_verify(g, &s[k], NULL);
  }
  for (int k = 0; k < 3; k++) assert_int_equal(nested_rc[k], TC_OK);
  for (int k = 0; k < 3; k++) { /* the same late transfer, moved one step early, in each order */
    for (int64_t i = 0; i < s[k].count; i++)
      if (s[k].xfer[i].shard == 57 && s[k].xfer[i].step == 6) {
        s[k].xfer[i].step = 5;
        break;
      }
    assert_int_equal(tc_schedule_verify(g, &s[k], &err), TC_EFAIL);
    assert_non_null(strstr(err.msg, "of shard 57 before holding them"));
    tc_error nested_err;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      nested_rc[0] = tc_schedule_verify(g, &s[k], &nested_err);
    }
    assert_int_equal(nested_rc[0], TC_EFAIL);
    assert_string_equal(nested_err.msg, err.msg);
    tc_schedule_destroy(&s[k]);
  }
  omp_set_num_threads(threads_before);
  tc_graph_destroy(g);
}

static void structural_errors(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_schedule s;
  tc_error err;
  tc_test_fig1_allgather(g, &s);
  s.xfer[1].step = 0;
  expect_invalid(g, &s, "step outside");
  s.xfer[1].step = 1;
  s.xfer[1].shard = 7;
  expect_invalid(g, &s, "shard that does not exist");
  s.xfer[1].shard = 0;
  s.rs_steps = 1;
  expect_invalid(g, &s, "rs_steps");
  s.rs_steps = 0;
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  /* a switch holds no data: it cannot own a shard, however the transfers go */
  static const int star[][3] = {{0, 2, 1}, {1, 2, 1}, {2, 0, 1}, {2, 1, 1}};
  static const int hub[] = {2};
  g = tc_test_graph(3, star, 4, hub, 1);
  int32_t owned[2] = {0, 2};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_BROADCAST, 3, 1, (int32_t[]){2}, 1, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 2, 0), 1, 0, 1, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 2, 1), 1, 0, 1, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_EFAIL);
  assert_string_equal(err.msg, "shard 0 is owned by node 2, a switch (switches hold no data)");
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLREDUCE, 3, 2, owned, 1, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_EFAIL);
  assert_string_equal(err.msg, "shard 1 is owned by node 2, a switch (switches hold no data)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  /* init rejects bad parameters */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 0, 1, "x", &err), TC_EINPUT);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 3, 0, "x", &err), TC_EINPUT);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_BROADCAST, 3, 1, "x", &err), TC_EINPUT);
  int32_t owners[2] = {0, 1};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_BROADCAST, 3, 2, owners, 1, "x", &err), TC_EINPUT);
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLGATHER, 3, 2, NULL, 1, "x", &err), TC_EINPUT);
  assert_int_equal(tc_collective_parse("reduce-scatter"), TC_COLL_REDUCE_SCATTER);
  assert_int_equal(tc_collective_parse("gather"), -1);
}

/* Broadcast from a root on a directed 3-cycle: a chain; tau* = 1 (every node must receive M). */
static void broadcast_and_reduce(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,3)");
  int32_t root[1] = {0};
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_BROADCAST, 3, 1, root, 1, "chain", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 0, 1), 1, 0, 1, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 1, 2), 2, 0, 1, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.tau.num, 2); /* two steps of one whole buffer each, d = 1 */
  assert_int_equal(c.tau_optimal.num, 1);
  assert_false(c.bw_optimal);
  tc_cost_destroy(&c);
  /* reduce into node 2 along the same chain */
  s.coll = TC_COLL_REDUCE;
  s.owner[0] = 2;
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  s.owner[0] = 1;
  expect_invalid(g, &s, "reaches its owner 1");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(figure1_valid_and_costed),
      cmocka_unit_test(mutations_are_rejected),
      cmocka_unit_test(verifier_agrees_with_simulation),
      cmocka_unit_test(large_schedule_in_every_order),
      cmocka_unit_test(structural_errors),
      cmocka_unit_test(broadcast_and_reduce),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
