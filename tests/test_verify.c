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
** an earlier step, duplicate a contribution) must each be rejected; (4) switches in the reduce
** phase: hand-written relays (the same units through one switch twice, two partials into one
** send, parallel relays in one step, a send of nothing) with exact verdicts, and an explicit
** relay simulator (a queue of received partials per switch and unit) that must agree with
** the verifier on random reduce-scatters over a small fabric, as generated and sorted.
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
  assert_int_equal(tc_collective_parse("gather"), TC_COLL_GATHER);
  assert_int_equal(tc_collective_parse("bcast"), -1);
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

/* ---- switches relay in the reduce phase ---- */

/* Compute nodes 0, 1, 2 around switch 3 (capacity 1 each way). */
static tc_graph *star3(void) {
  static const int arcs[][3] = {{0, 3, 1}, {1, 3, 1}, {2, 3, 1}, {3, 0, 1}, {3, 1, 1}, {3, 2, 1}};
  static const int hub[] = {3};
  return tc_test_graph(4, arcs, 6, hub, 1);
}

/* A reduce-scatter of star3 from (shard, from, to, step) rows, one unit each. */
static void star_rs(const tc_graph *g, const int (*rows)[4], int count, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init_owned(s, TC_COLL_REDUCE_SCATTER, 4, 3, (int32_t[]){0, 1, 2}, 1, "relay", &err),
                   TC_OK);
  for (int i = 0; i < count; i++)
    assert_int_equal(tc_schedule_add(s, rows[i][0], tc_test_arc_id(g, rows[i][1], rows[i][2]), rows[i][3], 0, 1, &err),
                     TC_OK);
}

static void switch_relays(void **state) {
  (void)state;
  tc_graph *g = star3();
  tc_schedule s;
  tc_error err;
  /* Chains a -> b -> owner, both hops through the switch: it relays each shard's unit twice,
     first a's partial, then b's (which holds a's): each counts once. */
  static const int chains[][4] = {{0, 1, 3, 1}, {0, 3, 2, 2}, {0, 2, 3, 3}, {0, 3, 0, 4},
                                  {1, 2, 3, 1}, {1, 3, 0, 2}, {1, 0, 3, 3}, {1, 3, 1, 4},
                                  {2, 0, 3, 1}, {2, 3, 1, 2}, {2, 1, 3, 3}, {2, 3, 2, 4}};
  star_rs(g, chains, 12, &s);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  /* Without the relay to 2 in step 2, the switch's step-4 send forwards 1's partial, the
     earliest it holds, and 2's partial of step 3 stays in the switch. */
  static const int dropped[][4] = {{0, 1, 3, 1}, {0, 2, 3, 3}, {0, 3, 0, 4}};
  star_rs(g, dropped, 3, &s);
  s.nshards = 1; /* shard 0 alone */
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_EFAIL);
  assert_string_equal(err.msg, "the contribution of node 2 to units [0,1) of shard 0 reaches its owner 0 never");
  tc_schedule_destroy(&s);
  /* Two partials in, one send out: a switch does not add up; the send forwards the first
     receipt in canonical order (arc 1 -> 3 before 2 -> 3) and 2's is lost. */
  static const int merged[][4] = {{0, 1, 3, 1}, {0, 2, 3, 1}, {0, 3, 0, 2}};
  star_rs(g, merged, 3, &s);
  s.nshards = 1;
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_EFAIL);
  assert_string_equal(err.msg, "the contribution of node 2 to units [0,1) of shard 0 reaches its owner 0 never");
  tc_schedule_destroy(&s);
  /* Two in and two out in the same steps (two transfers on the arc 3 -> 0): each partial
     relayed once; the same with the rows listed the other way round. An early send of
     nothing changes nothing. */
  static const int parallel[][4] = {{0, 1, 3, 1}, {0, 2, 3, 1}, {0, 3, 0, 2}, {0, 3, 0, 2}};
  static const int reversed[][4] = {{0, 3, 0, 2}, {0, 3, 0, 2}, {0, 2, 3, 1}, {0, 1, 3, 1}, {0, 3, 0, 1}};
  for (int v = 0; v < 2; v++) {
    star_rs(g, v ? reversed : parallel, v ? 5 : 4, &s);
    s.nshards = 1;
    assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
    tc_schedule_destroy(&s);
  }
  /* One partial in, two out: the second send carries nothing, so 1's partial counts once,
     and 2's, relayed later, once too (a switch that kept what it sent would count 1 thrice). */
  static const int twice[][4] = {{0, 1, 3, 1}, {0, 3, 0, 2}, {0, 3, 0, 2}, {0, 2, 3, 3}, {0, 3, 0, 4}};
  star_rs(g, twice, 5, &s);
  s.nshards = 1;
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* The explicit relay simulator for the reduce-scatter of a graph with switches: compute
   nodes hold contribution vectors; a switch holds, per (shard, unit), a queue of the
   vectors it received, and each of its sends takes the earliest one received in an
   earlier step (same step: by arc, lo, hi), or sends nothing. Transfers run in canonical
   order within a step; compute senders send their vector as of the step's start. */
static int relay_oracle(const tc_graph *g, const tc_schedule *s) {
  int n = g->n, k = s->nshards, u = (int)s->units;
  tc_schedule c;
  tc_error err;
  assert_int_equal(tc_schedule_copy(s, &c, &err), TC_OK);
  tc_schedule_sort(&c);
  size_t cells = (size_t)n * k * u;
  int *part = calloc(cells * n, sizeof *part), *snap = malloc(cells * n * sizeof *snap);
  /* queues: per cell, up to c.count packets of n counts, with their arrival step */
  size_t qcap = (size_t)c.count + 1;
  int *packet = calloc(cells * qcap * n, sizeof *packet), *arrived = calloc(cells * qcap, sizeof *arrived);
  int *head = calloc(cells, sizeof *head), *tail = calloc(cells, sizeof *tail);
  assert_true(part && snap && packet && arrived && head && tail);
  for (int x = 0; x < n; x++)
    for (int sh = 0; sh < k; sh++)
      for (int j = 0; j < u && g->kind[x] == TC_NODE_COMPUTE; j++) part[(((size_t)x * k + sh) * u + j) * n + x] = 1;
  int *carry = malloc((size_t)n * sizeof *carry);
  for (int t = 1; t <= c.steps; t++) {
    memcpy(snap, part, cells * n * sizeof *snap);
    int64_t first = 0;
    while (first < c.count && c.xfer[first].step < t) first++;
    int64_t end = first;
    while (end < c.count && c.xfer[end].step == t) end++;
    /* sends first (a switch forwards what arrived before t), receipts after */
    int *got = calloc((size_t)(end - first) * u * n, sizeof *got);
    for (int64_t i = first; i < end; i++) {
      const tc_transfer *x = &c.xfer[i];
      int from = g->src[x->arc];
      for (int64_t j = x->lo; j < x->hi; j++) {
        size_t cf = ((size_t)from * k + x->shard) * u + j;
        int *out = got + ((size_t)(i - first) * u + j) * n;
        if (g->kind[from] == TC_NODE_COMPUTE) {
          memcpy(out, snap + cf * n, (size_t)n * sizeof *out);
        } else if (head[cf] < tail[cf] && arrived[cf * qcap + head[cf]] < t) {
          memcpy(out, packet + (cf * qcap + head[cf]) * n, (size_t)n * sizeof *out);
          head[cf]++;
        }
      }
    }
    for (int64_t i = first; i < end; i++) {
      const tc_transfer *x = &c.xfer[i];
      int to = g->dst[x->arc];
      for (int64_t j = x->lo; j < x->hi; j++) {
        size_t ct = ((size_t)to * k + x->shard) * u + j;
        const int *in = got + ((size_t)(i - first) * u + j) * n;
        if (g->kind[to] == TC_NODE_COMPUTE) {
          for (int a = 0; a < n; a++) part[ct * n + a] += in[a];
        } else {
          memcpy(packet + (ct * qcap + tail[ct]) * n, in, (size_t)n * sizeof *in);
          arrived[ct * qcap + tail[ct]++] = t;
        }
      }
    }
    free(got);
  }
  int ok = 1;
  for (int sh = 0; sh < k && ok; sh++) {
    int o = tc_schedule_owner(s, sh);
    for (int j = 0; j < u; j++)
      for (int a = 0; a < n; a++)
        if (g->kind[a] == TC_NODE_COMPUTE && part[(((size_t)o * k + sh) * u + j) * n + a] != 1) ok = 0;
  }
  free(part); free(snap); free(packet); free(arrived); free(head); free(tail); free(carry);
  tc_schedule_destroy(&c);
  return ok;
}

/* The fabric of the random test: compute 0, 1, 2, switches 3 and 4; every compute node on
   switch 3, nodes 0 and 1 also on switch 4, the switches joined, and a direct link 0 - 1. */
static tc_graph *fabric5(void) {
  static const int arcs[][3] = {{0, 3, 1}, {3, 0, 1}, {1, 3, 1}, {3, 1, 1}, {2, 3, 1}, {3, 2, 1}, {0, 4, 1},
                                {4, 0, 1}, {1, 4, 1}, {4, 1, 1}, {3, 4, 1}, {4, 3, 1}, {0, 1, 1}, {1, 0, 1}};
  static const int sw[] = {3, 4};
  return tc_test_graph(5, arcs, 14, sw, 2);
}

/* A random path c -> ... -> p of fabric5 with switches only inside, as its nodes. */
static int random_route(tc_rng *r, const tc_graph *g, int c, int p, int *path) {
  int len;
  for (;;) {
    path[0] = c;
    len = 1;
    switch (tci_rng_below(r, 4)) {
      case 0: break;
      case 1: path[len++] = 3; break;
      case 2: path[len++] = 4; break;
      default:
        path[len++] = tci_rng_below(r, 2) ? 3 : 4;
        path[len] = path[len - 1] == 3 ? 4 : 3;
        len++;
    }
    path[len++] = p;
    int ok = 1;
    for (int i = 0; i + 1 < len && ok; i++) {
      ok = 0;
      for (int64_t a = g->out_off[path[i]]; a < g->out_off[path[i] + 1]; a++) ok |= g->dst[a] == path[i + 1];
    }
    if (ok) return len;
  }
}

/* A random reduce-scatter on fabric5: per shard, a random in-tree of the compute nodes
   towards the owner, every edge's units split over random routes through the switches, a
   child sending after its last arrival, the hops of a route in consecutive or gapped
   steps; then with probability 1/2 one corruption (a transfer dropped, duplicated, moved
   to a random step or sent over another arc). */
static void random_relay_schedule(tc_rng *r, const tc_graph *g, tc_schedule *s) {
  tc_error err;
  int units = 1 + (int)tci_rng_below(r, 3);
  assert_int_equal(tc_schedule_init_owned(s, TC_COLL_REDUCE_SCATTER, 5, 3, (int32_t[]){0, 1, 2}, units, "relay", &err),
                   TC_OK);
  for (int sh = 0; sh < 3; sh++) {
    int order[3] = {sh, (sh + 1) % 3, (sh + 2) % 3}, parent[3], ready[3] = {0, 0, 0};
    if (tci_rng_below(r, 2)) order[1] = (sh + 2) % 3, order[2] = (sh + 1) % 3;
    for (int i = 1; i < 3; i++) parent[order[i]] = order[tci_rng_below(r, (uint64_t)i)];
    for (int i = 2; i >= 1; i--) { /* children before parents */
      int c = order[i], p = parent[c];
      for (int lo = 0; lo < units;) {
        int hi = lo + 1 + (int)tci_rng_below(r, (uint64_t)(units - lo)), path[4];
        int len = random_route(r, g, c, p, path), t = ready[c] + 1 + (int)tci_rng_below(r, 2);
        for (int h = 0; h + 1 < len; h++, t += 1 + (int)tci_rng_below(r, 2))
          assert_int_equal(tc_schedule_add(s, sh, tc_test_arc_id(g, path[h], path[h + 1]), t, lo, hi, &err), TC_OK);
        if (t - 1 > ready[p]) ready[p] = t - 1;
        lo = hi;
      }
    }
  }
  if (tci_rng_below(r, 2)) {
    tc_transfer *x = &s->xfer[tci_rng_below(r, (uint64_t)s->count)];
    switch (tci_rng_below(r, 4)) {
      case 0: *x = s->xfer[--s->count]; break;
      case 1: assert_int_equal(tc_schedule_add(s, x->shard, x->arc, x->step, x->lo, x->hi, &err), TC_OK); break;
      case 2: x->step = 1 + (int)tci_rng_below(r, (uint64_t)s->steps); break;
      default: x->arc = (int64_t)tci_rng_below(r, (uint64_t)g->m); break;
    }
  }
}

static void switch_relays_agree_with_simulation(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 5);
  tc_graph *g = fabric5();
  tc_error err;
  int valid = 0, total = 1500;
  for (int rep = 0; rep < total; rep++) {
    tc_schedule s, sorted;
    random_relay_schedule(&r, g, &s);
    int want = relay_oracle(g, &s);
    assert_int_equal(tc_schedule_copy(&s, &sorted, &err), TC_OK);
    tc_schedule_sort(&sorted);
    for (int v = 0; v < 2; v++) { /* as generated (the general path) and in canonical order */
      int rc = tc_schedule_verify(g, v ? &sorted : &s, &err);
      if ((rc == TC_OK) != want)
        fail_msg("rep %d%s: verifier says %s, relay simulation says %s (%s)", rep, v ? " sorted" : "",
                 rc ? "invalid" : "valid", want ? "valid" : "invalid", rc ? err.msg : "");
    }
    valid += want;
    tc_schedule_destroy(&sorted);
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
  print_message("random relay schedules: %d valid of %d\n", valid, total);
  assert_true(valid > total / 5);
  assert_true(valid < total - total / 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(figure1_valid_and_costed),
      cmocka_unit_test(mutations_are_rejected),
      cmocka_unit_test(verifier_agrees_with_simulation),
      cmocka_unit_test(large_schedule_in_every_order),
      cmocka_unit_test(structural_errors),
      cmocka_unit_test(broadcast_and_reduce),
      cmocka_unit_test(switch_relays),
      cmocka_unit_test(switch_relays_agree_with_simulation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
