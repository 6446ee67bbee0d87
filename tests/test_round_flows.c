/*
** test_round_flows.c — P-chunk rounding of all-to-all schedules (tc_schedule_round_flows,
** transform.h) and its use by `--chunks P` for the all-to-all algorithms.
**
** Oracles: (1) a hand schedule on the bidirectional 4-cycle whose rounding is worked out in
** the comments; (2) a unit-by-unit brute force written here: every unit of every shard is
** followed through the transfers that contain it (its walk), in the input and in the rounded
** schedule, and the walks' unit counts a (of U) and chunk counts b (of P) must satisfy the
** rounding's contract — the same walks, Σ b = P and ⌊aP/U⌋ <= b <= ⌈aP/U⌉ — on the exact
** tsMCF schedules of the 3x3x3 torus and K4,4 for P = 1..9; (3) the verifier on every result;
** (4) P a multiple of the least units gives exactly the refined input.
*/
#include <stdlib.h>
#include <string.h>

#include "tc_test.h"
#include "topocoll/a2a_flows.h"
#include "topocoll/collective.h"
#include "topocoll/cost.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

/* The bidirectional 4-cycle 0-1-2-3-0; A(u, v) is the arc u -> v. */
static tc_graph *cycle4(void) {
  static const int arcs[8][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 0}, {2, 1}, {3, 2}, {0, 3}};
  return tc_test_from_arcs(4, arcs, 8);
}
#define A(u, v) tc_test_arc_id(g, u, v)

/* Shard (0,2) = 2 in U = 3 units: [0,1) via 1, [1,3) via 3; every other pair over one
   shortest path (neighbours in step 1; the far pairs via the next node clockwise, steps 1
   and 2). */
static void cycle4_schedule(const tc_graph *g, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLTOALL, 4, 3, "hand", &err), TC_OK);
  for (int u = 0; u < 4; u++) {
    int cw = (u + 1) % 4, ccw = (u + 3) % 4, far = (u + 2) % 4;
    assert_int_equal(tc_schedule_add(s, u * 4 + cw, A(u, cw), 1, 0, 3, &err), TC_OK);
    assert_int_equal(tc_schedule_add(s, u * 4 + ccw, A(u, ccw), 1, 0, 3, &err), TC_OK);
    if (u == 0) {
      assert_int_equal(tc_schedule_add(s, 2, A(0, 1), 1, 0, 1, &err), TC_OK);
      assert_int_equal(tc_schedule_add(s, 2, A(1, 2), 2, 0, 1, &err), TC_OK);
      assert_int_equal(tc_schedule_add(s, 2, A(0, 3), 1, 1, 3, &err), TC_OK);
      assert_int_equal(tc_schedule_add(s, 2, A(3, 2), 2, 1, 3, &err), TC_OK);
    } else {
      assert_int_equal(tc_schedule_add(s, u * 4 + far, A(u, cw), 1, 0, 3, &err), TC_OK);
      assert_int_equal(tc_schedule_add(s, u * 4 + far, A(cw, far), 2, 0, 3, &err), TC_OK);
    }
  }
}

static void hand_rounding(void **state) {
  (void)state;
  tc_graph *g = cycle4();
  tc_schedule s, r;
  tc_error err;
  cycle4_schedule(g, &s);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  /* P = 2: shares 1/3 and 2/3 of 2 chunks are 2/3 and 4/3; floors 0 and 1, fractional parts
     2/3 and 1/3: the chunk left goes to the first walk: [0,1) via 1, [1,2) via 3. */
  assert_int_equal(tc_schedule_round_flows(g, &s, 2, &r, &err), TC_OK);
  assert_int_equal(r.units, 2);
  assert_int_equal(tc_schedule_verify(g, &r, &err), TC_OK);
  int seen = 0;
  for (int64_t i = 0; i < r.count; i++) {
    const tc_transfer *x = &r.xfer[i];
    if (x->shard != 2) continue;
    seen++;
    if (x->arc == A(0, 1) || x->arc == A(1, 2)) assert_true(x->lo == 0 && x->hi == 1);
    else assert_true((x->arc == A(0, 3) || x->arc == A(3, 2)) && x->lo == 1 && x->hi == 2);
  }
  assert_int_equal(seen, 4);
  tc_schedule_destroy(&r);
  /* P = 1: 1/3 and 2/3 of a chunk floor to 0; the chunk goes to the larger part (via 3) and
     the walk via 1 is dropped. */
  assert_int_equal(tc_schedule_round_flows(g, &s, 1, &r, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &r, &err), TC_OK);
  seen = 0;
  for (int64_t i = 0; i < r.count; i++)
    if (r.xfer[i].shard == 2) {
      seen++;
      assert_true((r.xfer[i].arc == A(0, 3) || r.xfer[i].arc == A(3, 2)) && r.xfer[i].lo == 0 && r.xfer[i].hi == 1);
    }
  assert_int_equal(seen, 2);
  /* Its cost: in step 1 arc 0 -> 3 carries (0,3) and (0,2), and every arc u -> u+1, u != 0,
     carries (u,u+1) and (u,u+2): 2 chunks, the most of any arc. */
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &r, &c, &err), TC_OK);
  assert_int_equal(c.steps, 2);
  assert_true(c.step_load[0].num == 2 && c.step_load[0].den == 1);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&r);
  /* Refusals. */
  assert_int_equal(tc_schedule_round_flows(g, &s, 0, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "chunk rounding: P must be >= 1 (got 0)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- the brute force ---- */

/* The walk of unit [c, c+1) of shard k: the transfers containing it, as a sorted list of
   (step, arc) codes; *len its length. */
static int walk_of(const tc_schedule *s, int32_t k, int64_t c, int64_t *codes, int64_t m) {
  int len = 0;
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    if (x->shard == k && x->lo <= c && c < x->hi) codes[len++] = (int64_t)x->step * m + x->arc;
  }
  for (int i = 1; i < len; i++) /* insertion sort */
    for (int j = i; j > 0 && codes[j - 1] > codes[j]; j--) {
      int64_t t = codes[j];
      codes[j] = codes[j - 1], codes[j - 1] = t;
    }
  return len;
}

#define MAXW 64
#define MAXH 16
typedef struct walk_count {
  int len;
  int64_t codes[MAXH];
  int64_t units, chunks;
} walk_count;

static int find_walk(walk_count *w, int *nw, const int64_t *codes, int len) {
  for (int i = 0; i < *nw; i++)
    if (w[i].len == len && !memcmp(w[i].codes, codes, sizeof *codes * (size_t)len)) return i;
  assert_true(*nw < MAXW && len <= MAXH);
  w[*nw] = (walk_count){.len = len};
  memcpy(w[*nw].codes, codes, sizeof *codes * (size_t)len);
  return (*nw)++;
}

static void check_contract(const tc_graph *g, const tc_schedule *s, const tc_schedule *r, int64_t P) {
  int64_t codes[MAXH * 4];
  for (int32_t k = 0; k < s->nshards; k++) {
    if (k / s->nodes == k % s->nodes) continue;
    walk_count w[MAXW];
    int nw = 0;
    for (int64_t c = 0; c < s->units; c++) w[find_walk(w, &nw, codes, walk_of(s, k, c, codes, g->m))].units++;
    int known = nw;
    for (int64_t c = 0; c < P; c++) w[find_walk(w, &nw, codes, walk_of(r, k, c, codes, g->m))].chunks++;
    assert_int_equal(nw, known); /* no walk the input does not have */
    int64_t total = 0;
    for (int i = 0; i < nw; i++) {
      int64_t lo = w[i].units * P / s->units, hi = (w[i].units * P + s->units - 1) / s->units;
      assert_true(w[i].len > 0); /* every unit travels */
      assert_true(lo <= w[i].chunks && w[i].chunks <= hi);
      total += w[i].chunks;
    }
    assert_int_equal(total, P);
  }
}

static void tsmcf_rounded(const char *spec) {
  tc_graph *g = tc_test_spec(spec);
  tc_a2a_flow_options fo;
  tc_a2a_flow_options_default(&fo);
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_a2a_tsmcf_schedule(g, &fo, &s, NULL, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_normalize(&s);
  tc_cost exact;
  assert_int_equal(tc_schedule_cost(g, &s, &exact, &err), TC_OK);
  for (int64_t P = 1; P <= 9; P++) {
    tc_schedule r;
    tc_cost c;
    assert_int_equal(tc_schedule_round_flows(g, &s, P, &r, &err), TC_OK);
    assert_int_equal(r.units, P);
    assert_int_equal(tc_schedule_verify(g, &r, &err), TC_OK);
    check_contract(g, &s, &r, P);
    assert_int_equal(tc_schedule_cost(g, &r, &c, &err), TC_OK);
    assert_int_equal(c.steps, exact.steps);
    assert_true(tc_rat_cmp(c.tau, exact.tau) >= 0); /* the exact schedule is the tsMCF optimum */
    tc_cost_destroy(&c);
    tc_schedule_destroy(&r);
  }
  /* a multiple of the least units: the refined schedule itself */
  tc_schedule r, refined;
  assert_int_equal(tc_schedule_round_flows(g, &s, 2 * s.units, &r, &err), TC_OK);
  assert_int_equal(tc_schedule_copy(&s, &refined, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&refined, 2, &err), TC_OK);
  tc_schedule_sort(&r), tc_schedule_sort(&refined);
  assert_int_equal(r.count, refined.count);
  assert_memory_equal(r.xfer, refined.xfer, sizeof *r.xfer * (size_t)r.count);
  tc_schedule_destroy(&r), tc_schedule_destroy(&refined);
  tc_cost_destroy(&exact);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void tsmcf_torus(void **state) {
  (void)state;
  tsmcf_rounded("torus(3,3,3)");
}

static void tsmcf_bipartite(void **state) {
  (void)state;
  tsmcf_rounded("bipartite(4)");
}

/* `--chunks P` through the pipeline: any P now, verified, units P. */
static void pipeline_chunks(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(3,3,3)");
  tc_schedule s;
  tc_error err;
  tc_collective_opts o = {.root = 0, .chunks = 7, .spec = NULL};
  assert_int_equal(tc_algorithm_generate(g, "mcf", TC_COLL_ALLTOALL, &o, &s, &err), TC_OK);
  assert_int_equal(s.units, 7);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hand_rounding),
      cmocka_unit_test(tsmcf_torus),
      cmocka_unit_test(tsmcf_bipartite),
      cmocka_unit_test(pipeline_chunks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
