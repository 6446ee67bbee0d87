/*
** test_program.c — per-rank programs (program.h) executed by two independent interpreters
** on real integer buffers and compared with the collective's definition:
**   - step-synchronous, as the MPI executor runs them (pre-copies, sends, receives, then
**     reductions and copies in array order), out of place and in place;
**   - asynchronous, as MSCCL runs them: any op whose dependencies are done and whose
**     connection (ordered rank pair) has reached it may run next, chosen at random, many
**     seeds; a missing dependency shows up as a wrong buffer or a deadlock.
** Plus the matching rule, the buffer layouts, hand-derived programs, the redundant-receive
** path, the interval set against a bitmap, and the errors.
** Fabrics (tc_fabric.h): ranks are the compute nodes (also with the switch as node 0), and
** the messages every rank's program sends and receives are exactly the switch relays
** collapsed by hand — a star, two islands with direct links and a switch (reduce-scatter,
** allgather, allreduce), a ring on fig2toy(1) through w0, a ring on dgx_a100(2) through
** NVSwitches and NIC-IB-NIC chains — each then run by both interpreters; a replicating
** switch and a partial that changes while it crosses the switches are refused with their
** exact lines (a partial meeting another in a switch is lost, and the verifier says so), an
** empty reduce-phase partial sends nothing, and a switch send of units that entered the
** switches in different steps is one message per entry. Reduce phases that cross one switch
** many times: by hand (a unit relayed twice, ties broken by arc), and ForestColl's
** reduce-scatter and allreduce on fig2toy() and dgx_a100(2), whose messages are checked
** chunk by chunk against the relay rule traced literally with one queue per switch and unit.
*/
#include <stdio.h>

#include "tc_test.h"
#include "tc_fabric.h"
#include "tc_redundant.h"
#include "lower/interval_set.h"
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/collective.h"
#include "topocoll/expand.h"
#include "topocoll/expand_sched.h"
#include "topocoll/program.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched_io.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

/* ---- interval set vs a bitmap ---------------------------------------------------------- */

static void interval_set_random(void **state) {
  (void)state;
  enum { W = 64 };
  uint64_t seed = 12345;
  for (int round = 0; round < 300; round++) {
    tc_interval_set s;
    tci_interval_set_init(&s);
    uint8_t bit[W] = {0};
    tc_error err;
    for (int op = 0; op < 12; op++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      int lo = (int)((seed >> 33) % W), len = 1 + (int)((seed >> 45) % 9);
      int hi = lo + len > W ? W : lo + len;
      if ((seed >> 20) & 1) {
        assert_int_equal(tci_interval_set_add(&s, lo, hi, &err), TC_OK);
        for (int i = lo; i < hi; i++) bit[i] = 1;
      }
      int any = 0, all = 1;
      for (int i = lo; i < hi; i++) any |= bit[i], all &= bit[i];
      assert_int_equal(tci_interval_set_overlaps(&s, lo, hi), any);
      assert_int_equal(tci_interval_set_covers(&s, lo, hi), all);
      tc_interval *gaps = NULL;
      int64_t n = 0, room = 0;
      assert_int_equal(tci_interval_set_gaps(&s, lo, hi, &gaps, &n, &room, &err), TC_OK);
      uint8_t gap[W] = {0};
      for (int64_t g = 0; g < n; g++) {
        assert_true(gaps[g].lo < gaps[g].hi);
        if (g) assert_true(gaps[g - 1].hi < gaps[g].lo); /* maximal: separated */
        for (int64_t i = gaps[g].lo; i < gaps[g].hi; i++) gap[i] = 1;
      }
      for (int i = 0; i < W; i++) assert_int_equal(gap[i], i >= lo && i < hi && !bit[i]);
      free(gaps);
      /* The representation is canonical: sorted, disjoint, not adjacent. */
      for (int64_t i = 1; i < s.count; i++) assert_true(s.iv[i - 1].hi < s.iv[i].lo);
    }
    tci_interval_set_destroy(&s);
  }
}

/* ---- building schedules ----------------------------------------------------------------- */

static int bfb_gen(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err) {
  (void)ctx;
  return tc_bfb_allgather(g, out, NULL, err);
}

/* BFB allgather / reduce-scatter / allreduce on g. */
static void build_bfb(const tc_graph *g, tc_collective coll, tc_schedule *s) {
  tc_error err;
  int rc;
  if (coll == TC_COLL_ALLGATHER) rc = tc_bfb_allgather(g, s, NULL, &err);
  else if (coll == TC_COLL_REDUCE_SCATTER) rc = tc_schedule_reduce_scatter_by(g, NULL, bfb_gen, NULL, s, &err);
  else rc = tc_schedule_allreduce_by(g, bfb_gen, NULL, s, &err);
  if (rc) fail_msg("bfb %s: %s", tc_collective_name(coll), err.msg);
  if (tc_schedule_verify(g, s, &err)) fail_msg("bfb %s: verifier: %s", tc_collective_name(coll), err.msg);
}

/* ---- the interpreters --------------------------------------------------------------------- */

typedef struct rank_state {
  tc_program p;
  int64_t *in, *out, *scratch; /* one int64 per chunk; in == out (or an offset) in place */
  int64_t *in_own, *out_own;   /* what was allocated */
} rank_state;

static int64_t input_value(int32_t rank, int64_t c) { return (int64_t)rank * 1000003 + c * 7 + 1; }

static int64_t *buf(rank_state *r, tc_buffer b) { return b == TC_BUF_INPUT ? r->in : b == TC_BUF_OUTPUT ? r->out : r->scratch; }

/* Lower every rank and set up buffers; in place aliases as program.h says. */
static rank_state *setup(const tc_graph *g, const tc_schedule *s, unsigned flags, int in_place) {
  int32_t n = tc_rank_count(g); /* rank r plays the r-th compute node */
  rank_state *R = calloc((size_t)(uint32_t)n, sizeof *R);
  tc_error err;
  for (int32_t r = 0; r < n; r++) {
    if (tc_program_lower(g, s, r, flags, &R[r].p, &err)) fail_msg("lower rank %d: %s", r, err.msg);
    tc_program *p = &R[r].p;
    int64_t nchunks = (int64_t)s->nshards * s->units, own = (int64_t)r * s->units;
    R[r].scratch = calloc((size_t)(p->scratch_chunks + 1), sizeof(int64_t));
    if (s->coll == TC_COLL_ALLTOALL) { /* block t of rank r is global chunks (r*C + t)*units...; never in place */
      int64_t row = p->input_chunks;
      assert_false(in_place);
      R[r].in = R[r].in_own = calloc((size_t)row, sizeof(int64_t));
      R[r].out = R[r].out_own = calloc((size_t)row, sizeof(int64_t));
      for (int64_t j = 0; j < row; j++) R[r].in[j] = input_value(r, r * row + j);
    } else if (s->coll == TC_COLL_ALLGATHER) {
      R[r].out = R[r].out_own = calloc((size_t)nchunks, sizeof(int64_t));
      R[r].in = in_place ? R[r].out + own : (R[r].in_own = calloc((size_t)s->units, sizeof(int64_t)));
      for (int64_t j = 0; j < s->units; j++) R[r].in[j] = input_value(r, own + j);
    } else if (s->coll == TC_COLL_REDUCE_SCATTER) {
      R[r].in = R[r].in_own = calloc((size_t)nchunks, sizeof(int64_t));
      R[r].out = in_place ? R[r].in + own : (R[r].out_own = calloc((size_t)s->units, sizeof(int64_t)));
      for (int64_t c = 0; c < nchunks; c++) R[r].in[c] = input_value(r, c);
    } else if (s->coll >= TC_COLL_BROADCAST && s->coll != TC_COLL_ALLREDUCE) {
      /* Rooted: the buffers the rank has (program.h); in place as MPI's: broadcast one
         buffer, reduce's root input == output, scatter's root output = its block of the
         input, gather's root input = its block of the output. Chunk ids as the program's:
         nshards * units (scatter, gather: one shard per rank). */
      int64_t n_in = p->input_chunks, n_out = p->output_chunks, first = s->coll == TC_COLL_GATHER ? own : 0;
      int root = r == p->root, alias = in_place && (s->coll == TC_COLL_BROADCAST || root);
      R[r].in = R[r].in_own = calloc((size_t)n_in + 1, sizeof(int64_t));
      R[r].out = R[r].out_own = calloc((size_t)n_out + 1, sizeof(int64_t));
      if (alias && (s->coll == TC_COLL_BROADCAST || s->coll == TC_COLL_REDUCE)) R[r].out = R[r].in;
      if (alias && s->coll == TC_COLL_SCATTER) R[r].out = R[r].in + own;
      if (alias && s->coll == TC_COLL_GATHER) R[r].in = R[r].out + own;
      for (int64_t j = 0; j < n_in; j++) R[r].in[j] = input_value(r, first + j);
      if (alias) continue;
    } else {
      R[r].in = R[r].in_own = calloc((size_t)nchunks, sizeof(int64_t));
      R[r].out = in_place ? R[r].in : (R[r].out_own = calloc((size_t)nchunks, sizeof(int64_t)));
      for (int64_t c = 0; c < nchunks; c++) R[r].in[c] = input_value(r, c);
    }
    if (!in_place)
      for (int64_t c = 0; c < p->output_chunks; c++) R[r].out[c] = -777; /* garbage to be overwritten */
  }
  return R;
}

static void teardown(rank_state *R, int32_t n) {
  for (int32_t r = 0; r < n; r++) {
    tc_program_destroy(&R[r].p);
    free(R[r].in_own);
    free(R[r].out_own);
    free(R[r].scratch);
  }
  free(R);
}

/* The collective's definition, checked on every rank's output. */
static void check_result(const tc_schedule *s, rank_state *R, const char *what) {
  int32_t n = R[0].p.ranks;
  int64_t nchunks = (int64_t)s->nshards * s->units;
  for (int32_t r = 0; r < n; r++) {
    int32_t root = R[r].p.root;
    int64_t expected = s->coll == TC_COLL_REDUCE || s->coll == TC_COLL_GATHER || s->coll == TC_COLL_P2P
                           ? (r == (s->coll == TC_COLL_P2P ? R[r].p.dest : root) ? R[r].p.nshards * s->units : 0)
                           : R[r].p.output_chunks; /* every result chunk is checked; none where there is none */
    assert_int_equal(R[r].p.output_chunks, expected);
    for (int64_t j = 0; j < R[r].p.output_chunks; j++) {
      int64_t c = s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_SCATTER ? (int64_t)r * s->units + j : j;
      int64_t want = 0;
      if (s->coll == TC_COLL_BROADCAST || s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_P2P)
        want = input_value(root, c);
      else if (s->coll == TC_COLL_GATHER) want = input_value((int32_t)(c / s->units), c);
      else if (s->coll == TC_COLL_ALLTOALL) { /* block u of r's output: u's block for r */
        int32_t u = (int32_t)(j / s->units);
        want = input_value(u, ((int64_t)u * n + r) * s->units + j % s->units);
      } else if (s->coll == TC_COLL_ALLGATHER) want = input_value((int32_t)(c / s->units), c);
      else
        for (int32_t u = 0; u < n; u++) want += input_value(u, c);
      if (R[r].out[j] != want)
        fail_msg("%s: rank %d output chunk %lld is %lld, expected %lld (of %lld chunks)", what, r, (long long)j,
                 (long long)R[r].out[j], (long long)want, (long long)nchunks);
    }
  }
}

/* A local copy op. Kept apart from apply_received: a copy has no message, and one function
   taking msg == NULL for copies let GCC -O3 specialize it for NULL and warn (-Wnonnull) on
   the receive path's memcpy, which no copy ever reaches. */
static void apply_copy(rank_state *r, const tc_op *op) {
  int64_t *dst = buf(r, op->dst) + op->dst_off;
  memmove(dst, buf(r, op->src) + op->src_off, sizeof *dst * (size_t)op->cnt);
}

/* A receive or receive-reduce op, with the payload the peer sent. */
static void apply_received(rank_state *r, const tc_op *op, const int64_t *msg) {
  int64_t *dst = buf(r, op->dst) + op->dst_off;
  if (op->kind == TC_OP_RECV) {
    memcpy(dst, msg, sizeof *dst * (size_t)op->cnt);
  } else {
    const int64_t *src = buf(r, op->src) + op->src_off;
    for (int64_t i = 0; i < op->cnt; i++) dst[i] = src[i] + msg[i];
  }
}

/* Messages of one step: sent[u][w] is a FIFO of payloads. */
typedef struct fifo {
  int64_t **msg;
  int64_t *cnt;
  int64_t head, n, room;
} fifo;

static void fifo_push(fifo *f, const int64_t *data, int64_t cnt) {
  if (f->n == f->room) {
    f->room = f->room ? 2 * f->room : 8;
    f->msg = realloc(f->msg, sizeof *f->msg * (size_t)f->room);
    f->cnt = realloc(f->cnt, sizeof *f->cnt * (size_t)f->room);
  }
  f->msg[f->n] = malloc(sizeof(int64_t) * (size_t)cnt);
  memcpy(f->msg[f->n], data, sizeof(int64_t) * (size_t)cnt);
  f->cnt[f->n++] = cnt;
}

static void fifo_free(fifo *f) {
  for (int64_t i = 0; i < f->n; i++) free(f->msg[i]);
  free(f->msg);
  free(f->cnt);
  memset(f, 0, sizeof *f);
}

/* MPI-executor semantics. */
static void run_sync(const tc_schedule *s, rank_state *R, const char *what) {
  int32_t n = R[0].p.ranks;
  size_t nn = (size_t)(uint32_t)n;
  fifo *q = calloc(nn * nn, sizeof *q);
  int64_t *at = calloc(nn, sizeof *at);
  for (int32_t t = 0; t <= s->steps + 1; t++) {
    /* Copies before the step's messages. */
    for (int32_t r = 0; r < n; r++)
      for (; at[r] < R[r].p.nops && R[r].p.ops[at[r]].step == t && R[r].p.ops[at[r]].kind == TC_OP_COPY; at[r]++)
        apply_copy(&R[r], &R[r].p.ops[at[r]]);
    /* Sends read the state at the start of the step. */
    for (int32_t r = 0; r < n; r++)
      for (int64_t i = at[r]; i < R[r].p.nops && R[r].p.ops[i].step == t; i++) {
        const tc_op *op = &R[r].p.ops[i];
        if (op->kind == TC_OP_SEND) fifo_push(&q[(size_t)r * n + op->peer], buf(&R[r], op->src) + op->src_off, op->cnt);
      }
    /* Receives, reductions and the copies after them, in array order. */
    for (int32_t r = 0; r < n; r++)
      for (; at[r] < R[r].p.nops && R[r].p.ops[at[r]].step == t; at[r]++) {
        const tc_op *op = &R[r].p.ops[at[r]];
        if (op->kind == TC_OP_SEND) continue;
        if (op->kind == TC_OP_COPY) {
          apply_copy(&R[r], op);
          continue;
        }
        fifo *f = &q[(size_t)op->peer * n + r];
        if (f->head >= f->n) fail_msg("%s: step %d: rank %d receives from %d, nothing was sent", what, t, r, op->peer);
        if (f->cnt[f->head] != op->cnt)
          fail_msg("%s: step %d: rank %d receives %lld chunks from %d, %lld were sent", what, t, r,
                   (long long)op->cnt, op->peer, (long long)f->cnt[f->head]);
        apply_received(&R[r], op, f->msg[f->head++]);
      }
    for (int32_t i = 0; i < n * n; i++) {
      if (q[i].head != q[i].n) fail_msg("%s: step %d: %d -> %d sent more than received", what, t, i / n, i % n);
      fifo_free(&q[i]);
    }
  }
  for (int32_t r = 0; r < n; r++) assert_int_equal(at[r], R[r].p.nops);
  free(q);
  free(at);
}

/* MSCCL-like semantics: ops run in any order their dependencies and connections allow. */
static void run_async(rank_state *R, uint64_t seed, const char *what) {
  int32_t n = R[0].p.ranks;
  int64_t total = 0;
  for (int32_t r = 0; r < n; r++) total += R[r].p.nops;
  size_t nn = (size_t)(uint32_t)n;
  uint8_t **done = calloc(nn, sizeof *done);
  fifo *q = calloc(nn * nn, sizeof *q);
  for (int32_t r = 0; r < n; r++) done[r] = calloc((size_t)R[r].p.nops + 1, 1);
  typedef struct { int32_t r; int64_t i; } cand;
  cand *c = malloc(sizeof *c * (size_t)(total + 1));
  for (int64_t finished = 0; finished < total;) {
    int64_t nc = 0;
    for (int32_t r = 0; r < n; r++) {
      tc_program *p = &R[r].p;
      for (int64_t i = 0; i < p->nops; i++) {
        if (done[r][i]) continue;
        const tc_op *op = &p->ops[i];
        int ready = 1;
        for (int32_t d = 0; d < op->ndeps && ready; d++) ready = done[r][p->deps[op->dep_first + d]];
        if (!ready) continue;
        if (op->kind == TC_OP_SEND || op->kind == TC_OP_RECV || op->kind == TC_OP_RECV_REDUCE) {
          /* Connection order: every earlier op of this rank on the same connection is done. */
          for (int64_t j = 0; j < i && ready; j++) {
            const tc_op *o = &p->ops[j];
            int same = o->peer == op->peer && ((op->kind == TC_OP_SEND) == (o->kind == TC_OP_SEND)) &&
                       o->kind != TC_OP_COPY;
            if (same && !done[r][j]) ready = 0;
          }
          if (ready && op->kind != TC_OP_SEND) {
            fifo *f = &q[(size_t)op->peer * n + r];
            ready = f->head < f->n;
          }
        }
        if (ready) c[nc++] = (cand){r, i};
      }
    }
    if (nc == 0) fail_msg("%s: deadlock with %lld of %lld ops done", what, (long long)finished, (long long)total);
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    cand pick = c[(seed >> 33) % (uint64_t)nc];
    rank_state *rs = &R[pick.r];
    const tc_op *op = &rs->p.ops[pick.i];
    if (op->kind == TC_OP_SEND) {
      fifo_push(&q[(size_t)pick.r * n + op->peer], buf(rs, op->src) + op->src_off, op->cnt);
    } else if (op->kind == TC_OP_COPY) {
      apply_copy(rs, op);
    } else {
      fifo *f = &q[(size_t)op->peer * n + pick.r];
      assert_int_equal(f->cnt[f->head], op->cnt);
      apply_received(rs, op, f->msg[f->head++]);
    }
    done[pick.r][pick.i] = 1;
    finished++;
  }
  for (int32_t i = 0; i < n * n; i++) {
    assert_int_equal(q[i].head, q[i].n);
    fifo_free(&q[i]);
  }
  for (int32_t r = 0; r < n; r++) free(done[r]);
  free(done);
  free(q);
  free(c);
}

/* Structure: ops sorted by step, offsets inside the buffers, deps point backwards. */
static void check_structure(rank_state *R, const char *what) {
  for (int32_t r = 0; r < R[0].p.ranks; r++) {
    const tc_program *p = &R[r].p;
    int64_t size[3] = {p->input_chunks, p->output_chunks, p->scratch_chunks};
    for (int64_t i = 0; i < p->nops; i++) {
      const tc_op *op = &p->ops[i];
      if (i) assert_true(p->ops[i - 1].step <= op->step);
      assert_true(op->cnt >= 1);
      if (op->kind != TC_OP_RECV && (op->src_off < 0 || op->src_off + op->cnt > size[op->src]))
        fail_msg("%s: rank %d op %lld reads %s[%lld,+%lld) outside %lld", what, r, (long long)i,
                 tc_buffer_name(op->src), (long long)op->src_off, (long long)op->cnt, (long long)size[op->src]);
      if (op->kind != TC_OP_SEND && (op->dst_off < 0 || op->dst_off + op->cnt > size[op->dst]))
        fail_msg("%s: rank %d op %lld writes %s[%lld,+%lld) outside %lld", what, r, (long long)i,
                 tc_buffer_name(op->dst), (long long)op->dst_off, (long long)op->cnt, (long long)size[op->dst]);
      for (int32_t d = 0; d < op->ndeps; d++) assert_true(p->deps[op->dep_first + d] < i);
    }
  }
}

/* Both interpreters, out of place and in place (alltoall: out of place only, the executors
   copy its input away first); the asynchronous one with seeds 1..seeds (it rescans every
   op per step it takes: big programs run with few seeds or none). */
static void run_seeds(const tc_graph *g, const tc_schedule *s, const char *what, uint64_t seeds) {
  char label[160];
  for (int in_place = 0; in_place <= (s->coll != TC_COLL_ALLTOALL); in_place++) {
    snprintf(label, sizeof label, "%s %s%s sync", what, tc_collective_name(s->coll), in_place ? " in place" : "");
    rank_state *R = setup(g, s, 0, in_place);
    check_structure(R, label);
    run_sync(s, R, label);
    check_result(s, R, label);
    teardown(R, tc_rank_count(g));
    for (uint64_t seed = 1; seed <= seeds; seed++) {
      snprintf(label, sizeof label, "%s %s%s async seed %llu", what, tc_collective_name(s->coll),
               in_place ? " in place" : "", (unsigned long long)seed);
      R = setup(g, s, TC_LOWER_DEPS, in_place);
      check_structure(R, label);
      run_async(R, seed * 0x9E3779B97F4A7C15ULL, label);
      check_result(s, R, label);
      teardown(R, tc_rank_count(g));
    }
  }
}

static void run_all(const tc_graph *g, const tc_schedule *s, const char *what) { run_seeds(g, s, what, 8); }

/* ---- the tests ------------------------------------------------------------------------------ */

static void bfb_programs(void **state) {
  (void)state;
  const char *specs[] = {"torus(3,3)", "circulant(8,1,3)", "kautz(2,2)", "genkautz(2,10)", "hypercube(3)",
                         "complete(4)", "genkautz(3,12)", "debruijn(2,3)", "uniring(1,5)"};
  const tc_collective colls[] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    for (size_t k = 0; k < 3; k++) {
      tc_schedule s;
      build_bfb(g, colls[k], &s);
      run_all(g, &s, specs[i]);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
}

static void line_graph_programs(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(3)"), *lg = tc_test_spec("line(complete(3))");
  tc_schedule ag, lag;
  tc_error err;
  build_bfb(g, TC_COLL_ALLGATHER, &ag);
  assert_int_equal(tc_schedule_line(g, &ag, lg, &lag, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(lg, &lag, &err), TC_OK);
  run_all(lg, &lag, "line(complete(3))");
  tc_schedule_destroy(&ag);
  tc_schedule_destroy(&lag);
  tc_graph_destroy(g);
  tc_graph_destroy(lg);
}

static void baseline_programs(void **state) {
  (void)state;
  struct {
    const char *algo, *spec;
    int32_t chunks;
  } cases[] = {
      {"ring", "uniring(1,5)", 0},       {"biring", "biring(2,5)", 0},
      {"bfbring", "biring(2,6)", 0},     {"shiftedring", "circulant(7,1,3)", 0},
      {"rhd", "hypercube(3)", 0},        {"torus-dor", "torus(2,3)", 0},
      {"dbt", "complete(7)", 2},
  };
  const tc_collective colls[] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    for (size_t k = 0; k < 3; k++) {
      if (!strcmp(cases[i].algo, "dbt") && colls[k] != TC_COLL_ALLREDUCE) continue;
      tc_schedule s;
      tc_error err;
      if (tc_test_generate(cases[i].algo, cases[i].spec, g, colls[k], -1, cases[i].chunks, &s, &err))
        fail_msg("%s on %s: %s", cases[i].algo, cases[i].spec, err.msg);
      assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
      run_all(g, &s, cases[i].algo);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
}

/* The rooted collectives and p2p (paper 002's Kautz-C / Kautz-M, the binomial, FC direct
   and double binary tree baselines, multi- and single-path P2P) compute their collective
   under both interpreters, out of place and in place, at two roots each; the programs file
   names the root (and p2p's destination) of its collective. */
static void rooted_programs(void **state) {
  (void)state;
  struct {
    const char *algo, *spec;
    tc_collective coll;
    int32_t root, dst, chunks;
  } cases[] = {
      {"kautz-c", "kautz(2,1)", TC_COLL_BROADCAST, 0, -1, 0}, {"kautz-c", "kautz(2,1)", TC_COLL_REDUCE, 4, -1, 0},
      {"kautz-c", "kautz(2,1)", TC_COLL_SCATTER, 1, -1, 0},   {"kautz-c", "kautz(3,1)", TC_COLL_GATHER, 7, -1, 0},
      {"kautz-m", "kautz(2,1)", TC_COLL_BROADCAST, 5, -1, 2}, {"kautz-m", "kautz(3,1)", TC_COLL_REDUCE, 0, -1, 0},
      {"kautz-m", "kautz(2,1)", TC_COLL_SCATTER, 3, -1, 0},   {"kautz-m", "kautz(2,1)", TC_COLL_GATHER, 2, -1, 0},
      {"binomial", "complete(8)", TC_COLL_BROADCAST, 0, -1, 3}, {"binomial", "complete(6)", TC_COLL_REDUCE, 5, -1, 0},
      {"binomial", "complete(8)", TC_COLL_SCATTER, 3, -1, 0}, {"binomial", "complete(5)", TC_COLL_GATHER, 2, -1, 0},
      {"fc-direct", "complete(5)", TC_COLL_BROADCAST, 1, -1, 0}, {"fc-direct", "complete(5)", TC_COLL_REDUCE, 0, -1, 0},
      {"fc-direct", "complete(5)", TC_COLL_SCATTER, 4, -1, 0}, {"fc-direct", "complete(5)", TC_COLL_GATHER, 3, -1, 0},
      {"fc-direct", "complete(5)", TC_COLL_P2P, 1, 3, 0},     {"dbt", "complete(7)", TC_COLL_BROADCAST, 2, -1, 2},
      {"dbt", "complete(7)", TC_COLL_REDUCE, 6, -1, 2},       {"kautz-mp", "kautz(2,1)", TC_COLL_P2P, 0, 5, 0},
      {"kautz-mp", "kautz(3,1)", TC_COLL_P2P, 2, 9, 0},       {"kautz-sp", "kautz(2,1)", TC_COLL_P2P, 4, 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_spec *parsed = NULL;
    tc_error err;
    tc_schedule s;
    char what[96];
    snprintf(what, sizeof what, "%s on %s, root %d", cases[i].algo, cases[i].spec, cases[i].root);
    assert_int_equal(tc_spec_parse(cases[i].spec, &parsed, &err), TC_OK);
    tc_collective_opts opts = {.root = cases[i].root, .dst = cases[i].dst, .chunks = cases[i].chunks, .spec = parsed};
    if (tc_algorithm_generate(g, cases[i].algo, cases[i].coll, &opts, &s, &err)) fail_msg("%s: %s", what, err.msg);
    if (tc_schedule_verify(g, &s, &err)) fail_msg("%s: %s", what, err.msg);
    assert_int_equal(tc_program_check(g, &s, &err), TC_OK);
    run_seeds(g, &s, what, 2);
    tc_program p;
    assert_int_equal(tc_program_lower(g, &s, cases[i].root, 0, &p, &err), TC_OK);
    assert_int_equal(p.root, cases[i].root);
    assert_int_equal(p.dest, cases[i].coll == TC_COLL_P2P ? cases[i].dst : -1);
    tc_program_destroy(&p);
    tc_schedule_destroy(&s);
    tc_spec_destroy(parsed);
    tc_graph_destroy(g);
  }
}

/* p's ops are exactly want[0..n) (the fields an op uses; deps checked separately). */
static void assert_ops(const tc_program *p, const tc_op *want, int64_t n) {
  assert_int_equal(p->nops, n);
  for (int64_t i = 0; i < n; i++) {
    const tc_op *o = &p->ops[i];
    assert_int_equal(o->kind, want[i].kind);
    assert_int_equal(o->step, want[i].step);
    assert_int_equal(o->peer, want[i].peer);
    assert_int_equal(o->arc, want[i].arc);
    assert_int_equal(o->cnt, want[i].cnt);
    if (o->kind != TC_OP_RECV) assert_int_equal(o->src, want[i].src), assert_int_equal(o->src_off, want[i].src_off);
    if (o->kind != TC_OP_SEND) assert_int_equal(o->dst, want[i].dst), assert_int_equal(o->dst_off, want[i].dst_off);
  }
}

/* Ring allgather on uniring(1,3) (arcs i -> i+1), one unit per shard, rank 0, by hand:
   step 0 copy own block; step 1 send own block to 1, receive shard 2 from 2; step 2 send
   shard 2 on to 1, receive shard 1 from 2. */
static void ring_program_by_hand(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,3)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_test_generate("ring", NULL, g, TC_COLL_ALLGATHER, -1, 0, &s, &err), TC_OK);
  assert_int_equal(s.units, 1);
  tc_program p;
  assert_int_equal(tc_program_lower(g, &s, 0, TC_LOWER_DEPS, &p, &err), TC_OK);
  assert_int_equal(p.input_chunks, 1);
  assert_int_equal(p.output_chunks, 3);
  assert_int_equal(p.scratch_chunks, 0);
  const tc_op want[] = {
      {TC_OP_COPY, 0, -1, -1, TC_BUF_INPUT, 0, TC_BUF_OUTPUT, 0, 1, 0, 0},
      {TC_OP_SEND, 1, 1, 0, TC_BUF_INPUT, 0, TC_BUF_INPUT, -1, 1, 0, 0},
      {TC_OP_RECV, 1, 2, 2, TC_BUF_INPUT, -1, TC_BUF_OUTPUT, 2, 1, 0, 0},
      {TC_OP_SEND, 2, 1, 0, TC_BUF_OUTPUT, 2, TC_BUF_INPUT, -1, 1, 0, 0},
      {TC_OP_RECV, 2, 2, 2, TC_BUF_INPUT, -1, TC_BUF_OUTPUT, 1, 1, 0, 0},
  };
  assert_ops(&p, want, 5);
  /* Dependencies (in-place aliasing: input 0 is output 0): the send of step 1 reads the
     input, which the copy of step 0 wrote through the alias -> depends on op 0; the step-2
     send reads output 2, written by the receive of step 1 (op 2). */
  assert_int_equal(p.ops[1].ndeps, 1);
  assert_int_equal(p.deps[p.ops[1].dep_first], 0);
  assert_int_equal(p.ops[3].ndeps, 1);
  assert_int_equal(p.deps[p.ops[3].dep_first], 2);
  assert_int_equal(p.ops[2].ndeps, 0);
  assert_int_equal(p.ops[4].ndeps, 0);
  tc_program_destroy(&p);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Redundant receives on complete(3), units 2, seen by rank 2. Step 1: shard 1 arrives as
   [0,1) and again as [0,2) from node 1 — the second lands in the redundant area and only
   its new unit [1,2) is copied on. Step 2: shard 0 arrives whole from 0 and again from 1 —
   the second is wholly redundant and reuses the area, so it must wait (write after read)
   for the step-1 copy out of it. The schedule is verified first: such waste is legal. */
static void redundant_receives(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(3)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 3, 2, "hand", &err), TC_OK);
  /* arc ids of complete(3): 0->1 = 0, 0->2 = 1, 1->0 = 2, 1->2 = 3, 2->0 = 4, 2->1 = 5 */
  assert_int_equal(g->src[3], 1);
  assert_int_equal(g->dst[3], 2);
  int64_t x[][5] = {
      /* shard, step, arc, lo, hi */
      {0, 1, 0, 0, 2}, {0, 2, 1, 0, 2}, {0, 2, 3, 0, 2},
      {1, 1, 3, 0, 1}, {1, 1, 3, 0, 2}, {1, 1, 2, 0, 2},
      {2, 1, 4, 0, 2}, {2, 1, 5, 0, 2},
  };
  for (size_t i = 0; i < sizeof x / sizeof *x; i++)
    assert_int_equal(tc_schedule_add(&s, (int32_t)x[i][0], x[i][2], (int32_t)x[i][1], x[i][3], x[i][4], &err), TC_OK);
  if (tc_schedule_verify(g, &s, &err)) fail_msg("%s", err.msg);
  tc_program p;
  assert_int_equal(tc_program_lower(g, &s, 2, TC_LOWER_DEPS, &p, &err), TC_OK);
  const tc_op want[] = {
      /* kind, step, peer, arc, src, src_off, dst, dst_off, cnt */
      {TC_OP_COPY, 0, -1, -1, TC_BUF_INPUT, 0, TC_BUF_OUTPUT, 4, 2, 0, 0},
      {TC_OP_SEND, 1, 0, 4, TC_BUF_INPUT, 0, TC_BUF_INPUT, -1, 2, 0, 0},
      {TC_OP_SEND, 1, 1, 5, TC_BUF_INPUT, 0, TC_BUF_INPUT, -1, 2, 0, 0},
      {TC_OP_RECV, 1, 1, 3, TC_BUF_INPUT, -1, TC_BUF_OUTPUT, 2, 1, 0, 0},
      {TC_OP_RECV, 1, 1, 3, TC_BUF_INPUT, -1, TC_BUF_SCRATCH, 0, 2, 0, 0},
      {TC_OP_COPY, 1, -1, -1, TC_BUF_SCRATCH, 1, TC_BUF_OUTPUT, 3, 1, 0, 0},
      {TC_OP_RECV, 2, 0, 1, TC_BUF_INPUT, -1, TC_BUF_OUTPUT, 0, 2, 0, 0},
      {TC_OP_RECV, 2, 1, 3, TC_BUF_INPUT, -1, TC_BUF_SCRATCH, 0, 2, 0, 0},
  };
  assert_ops(&p, want, 8);
  assert_int_equal(p.scratch_chunks, 2);
  /* op 7 rewrites the area op 4 wrote (WAW) and op 5 read (WAR) */
  assert_int_equal(p.ops[7].ndeps, 2);
  assert_int_equal(p.deps[p.ops[7].dep_first], 4);
  assert_int_equal(p.deps[p.ops[7].dep_first + 1], 5);
  /* the copy reads what op 4 received (RAW) and writes output 3, untouched before */
  assert_int_equal(p.ops[5].ndeps, 1);
  assert_int_equal(p.deps[p.ops[5].dep_first], 4);
  tc_program_destroy(&p);
  run_all(g, &s, "redundant");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Field by field, every field of tc_op (keep in step with program.h): memcmp would also
   compare the struct's padding, which is indeterminate (the lowering builds ops as compound
   literals; clang -O3 leaves different bytes there in the two lowerings). */
static int op_equal(const tc_op *a, const tc_op *b) {
  return a->kind == b->kind && a->step == b->step && a->peer == b->peer && a->arc == b->arc && a->src == b->src &&
         a->src_off == b->src_off && a->dst == b->dst && a->dst_off == b->dst_off && a->cnt == b->cnt &&
         a->dep_first == b->dep_first && a->ndeps == b->ndeps;
}

/* Lowering every rank at once gives exactly the per-rank programs. */
static void lower_all_equals_each(void **state) {
  (void)state;
  const char *specs[] = {"genkautz(2,10)", "torus(3,3)", "debruijn(2,3)"};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_schedule s;
    build_bfb(g, TC_COLL_ALLREDUCE, &s);
    tc_program *all = calloc((size_t)s.nodes, sizeof *all);
    tc_error err;
    assert_int_equal(tc_program_lower_all(g, &s, TC_LOWER_DEPS, all, &err), TC_OK);
    for (int32_t r = 0; r < s.nodes; r++) {
      tc_program one;
      assert_int_equal(tc_program_lower(g, &s, r, TC_LOWER_DEPS, &one, &err), TC_OK);
      assert_int_equal(one.nops, all[r].nops);
      assert_int_equal(one.ndeps, all[r].ndeps);
      assert_int_equal(one.scratch_chunks, all[r].scratch_chunks);
      for (int64_t k = 0; k < one.nops; k++)
        if (!op_equal(&one.ops[k], &all[r].ops[k]))
          fail_msg("%s: rank %d: op %lld differs between tc_program_lower and tc_program_lower_all", specs[i], r,
                   (long long)k);
      if (one.ndeps) assert_memory_equal(one.deps, all[r].deps, sizeof *one.deps * (size_t)one.ndeps);
      tc_program_destroy(&one);
      tc_program_destroy(&all[r]);
    }
    free(all);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* The fuzzer's reproducers (fuzz/regressions/msccl/): a redundant receive-reduce made the
   receiver's same-step send read its accumulator before anything was in it (garbage), and
   made a receive wait for a send of its own step (a deadlock under rendezvous sends). Both
   interpreters give the exact result, and in the asynchronous lowering no receive depends
   on a send of its own step; the garbage case's rank 3 sends its input as its partial. */
static void no_receive_waits_for_its_steps_send(const tc_program *p, const char *what) {
  for (int64_t i = 0; i < p->nops; i++) {
    const tc_op *op = &p->ops[i];
    if (op->kind == TC_OP_SEND) continue;
    for (int32_t d = 0; d < op->ndeps; d++) {
      const tc_op *on = &p->ops[p->deps[op->dep_first + d]];
      if (on->kind == TC_OP_SEND && on->step == op->step)
        fail_msg("%s: rank %d op %lld (%s, step %d) waits for a send of its own step", what, p->rank, (long long)i,
                 tc_op_kind_name(op->kind), op->step);
    }
  }
}

static void fuzz_regressions(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof tc_redundant_regressions / sizeof *tc_redundant_regressions; i++) {
    char path[1024];
    tc_redundant_regression_path(tc_redundant_regressions[i], path, sizeof path);
    tc_schedule_doc doc;
    tc_error err;
    if (tc_schedule_read_json(path, NULL, &doc, &err)) fail_msg("%s: %s", path, err.msg);
    if (tc_schedule_verify(doc.graph, &doc.sched, &err)) fail_msg("%s: verifier: %s", path, err.msg);
    run_all(doc.graph, &doc.sched, tc_redundant_regressions[i]);
    for (int32_t r = 0; r < doc.sched.nodes; r++) {
      tc_program p;
      assert_int_equal(tc_program_lower(doc.graph, &doc.sched, r, TC_LOWER_DEPS, &p, &err), TC_OK);
      no_receive_waits_for_its_steps_send(&p, tc_redundant_regressions[i]);
      tc_program_destroy(&p);
    }
    if (i == 0) {
      /* torus(3,3): at step 2 rank 3 sends its partial of chunk 0 to rank 0 (arc 12) and
         receives rank 0's (arc 2); it holds nothing of chunk 0 but its input then. */
      tc_program p;
      assert_int_equal(tc_program_lower(doc.graph, &doc.sched, 3, 0, &p, &err), TC_OK);
      int found = 0;
      for (int64_t k = 0; k < p.nops; k++)
        if (p.ops[k].kind == TC_OP_SEND && p.ops[k].arc == 12 && p.ops[k].step == 2) {
          assert_int_equal(p.ops[k].src, TC_BUF_INPUT);
          assert_int_equal(p.ops[k].src_off, 0);
          found++;
        }
      assert_int_equal(found, 1);
      tc_program_destroy(&p);
    }
    tc_schedule_doc_destroy(&doc);
  }
}

/* Redundant transfers added at random to verified schedules (tc_redundant.h): every kept
   one still lowers to programs both interpreters run to the exact result, and the
   asynchronous ones never make a receive wait for a send of its step. Staged sends (a send
   reading the per-step area because a receive of its step reduces into its chunks) and
   plain redundant sends must both have occurred, or the test did not test the fix. */
static void redundant_transfers_random(void **state) {
  (void)state;
  const tc_collective colls[] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  uint64_t seed = 20240611;
  int kept = 0, staged = 0;
  for (size_t i = 0; i < sizeof tc_redundant_cases / sizeof *tc_redundant_cases; i++)
    for (size_t k = 0; k < 3; k++)
      for (int round = 0; round < 4; round++) {
        tc_graph *g;
        tc_schedule s;
        tc_redundant_base(i, colls[k], &g, &s);
        kept += tc_redundant_add(g, &s, 3, 40, &seed);
        char what[128];
        snprintf(what, sizeof what, "%s + redundant (round %d)", tc_redundant_cases[i].spec, round);
        run_all(g, &s, what);
        for (int32_t r = 0; r < s.nodes; r++) {
          tc_program p;
          tc_error err;
          assert_int_equal(tc_program_lower(g, &s, r, TC_LOWER_DEPS, &p, &err), TC_OK);
          no_receive_waits_for_its_steps_send(&p, what);
          for (int64_t x = 0; x < p.nops; x++)
            staged += p.ops[x].kind == TC_OP_SEND && p.ops[x].src == TC_BUF_SCRATCH && p.ops[x].src_off >= p.redundant_off;
          tc_program_destroy(&p);
        }
        tc_schedule_destroy(&s);
        tc_graph_destroy(g);
      }
  /* The counts are the seed's (no paper gives them): they pin that the run exercised both
     cases; the results above are checked against the independent interpreters. */
  assert_int_equal(kept, 108);
  assert_int_equal(staged, 50);
}

static void errors(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(7)");
  tc_schedule s;
  tc_program p;
  tc_error err;
  int32_t owner[2] = {1, 0};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLGATHER, 7, 2, owner, 1, "x", &err), TC_OK);
  assert_int_equal(tc_program_lower(g, &s, 0, 0, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "allgather schedule must have one shard per node, shard k owned by node k");
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLREDUCE, 7, 1, "x", &err), TC_OK);
  assert_int_equal(tc_program_lower(g, &s, 7, 0, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "rank 7 outside 0..6");
  tc_schedule_destroy(&s);
  /* Dependency tracking refuses more than 2^24 chunks per rank (7 * 2^22 here). */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLREDUCE, 7, INT64_C(1) << 22, "x", &err), TC_OK);
  assert_int_equal(tc_program_lower(g, &s, 0, TC_LOWER_DEPS, &p, &err), TC_ERANGE);
  assert_string_equal(err.msg, "rank 0 has 29360128 chunks of buffers: dependencies are tracked for at most 16777216");
  assert_int_equal(tc_program_lower(g, &s, 0, 0, &p, &err), TC_OK); /* without deps it is fine */
  assert_int_equal(p.input_chunks, INT64_C(7) << 22);
  tc_program_destroy(&p);
  tc_schedule_destroy(&s);
  tc_graph *h = tc_test_spec("complete(3)");
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLREDUCE, 7, 1, "x", &err), TC_OK);
  assert_int_equal(tc_program_lower(h, &s, 0, 0, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "schedule has 7 nodes but the graph has 3");
  tc_schedule_destroy(&s);
  tc_graph_destroy(h);
  tc_graph_destroy(g);
}

/* ---- fabrics: switch hops collapsed into messages between ranks (tc_fabric.h) ------------- */

/* A message as the programs show it: step, sending and receiving rank, first chunk, chunks. */
typedef struct message {
  int32_t step, from, to;
  int64_t chunk, cnt;
} message;

static int cmp_message(const void *a, const void *b) {
  const message *x = a, *y = b;
  int64_t kx[] = {x->step, x->from, x->to, x->chunk, x->cnt}, ky[] = {y->step, y->from, y->to, y->chunk, y->cnt};
  for (int i = 0; i < 5; i++)
    if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
  return 0;
}

/* The collective's chunk that (buffer, offset) of rank p's program holds (program.h's
   layouts, alltoall's mirror included; the redundant area does not arise in these
   schedules and fails the test). */
static int64_t chunk_of(const tc_program *p, tc_buffer b, int64_t off) {
  int64_t own = (int64_t)p->rank * p->units, nchunks = (int64_t)p->nshards * p->units;
  if (p->coll == TC_COLL_ALLTOALL && b != TC_BUF_SCRATCH) { /* rank pairs: input row r, output column r */
    int64_t blk = off / p->units, j = off % p->units;
    return (b == TC_BUF_INPUT ? (int64_t)p->rank * p->ranks + blk : blk * p->ranks + p->rank) * p->units + j;
  }
  int mirror = p->coll != TC_COLL_ALLGATHER && p->coll != TC_COLL_ALLREDUCE && p->coll != TC_COLL_BROADCAST;
  if (b == TC_BUF_SCRATCH && (!mirror || off >= nchunks))
    fail_msg("rank %d uses the redundant area (scratch %lld)", p->rank, (long long)off);
  if ((p->coll == TC_COLL_ALLGATHER || p->coll == TC_COLL_GATHER) && b == TC_BUF_INPUT) return own + off;
  if ((p->coll == TC_COLL_REDUCE_SCATTER || p->coll == TC_COLL_SCATTER) && b == TC_BUF_OUTPUT) return own + off;
  return off;
}

static void assert_messages(const char *what, const char *side, message *got, int64_t n, const message *want,
                            int64_t nwant) {
  qsort(got, (size_t)n, sizeof *got, cmp_message);
  for (int64_t i = 0; i < n && i < nwant; i++)
    if (cmp_message(&got[i], &want[i]))
      fail_msg("%s: %s #%lld is step %d, rank %d -> %d, chunks [%lld,+%lld); expected step %d, %d -> %d, [%lld,+%lld)",
               what, side, (long long)i, got[i].step, got[i].from, got[i].to, (long long)got[i].chunk,
               (long long)got[i].cnt, want[i].step, want[i].from, want[i].to, (long long)want[i].chunk,
               (long long)want[i].cnt);
  if (n != nwant) fail_msg("%s: %lld %s, expected %lld", what, (long long)n, side, (long long)nwant);
}

/* Every rank's sends, and every rank's receives, are exactly the messages want[0..n); with
   `units`, each op counts as one message per chunk it carries (want holds cnt 1 each). */
static void expect_messages_as(const tc_graph *g, const tc_schedule *s, const message *want, int64_t nwant,
                               int units, const char *what) {
  int32_t ranks = tc_rank_count(g);
  tc_program *p = calloc((size_t)ranks, sizeof *p);
  tc_error err;
  if (tc_program_lower_all(g, s, 0, p, &err)) fail_msg("%s: %s", what, err.msg);
  int64_t total = 0;
  for (int32_t r = 0; r < ranks; r++)
    for (int64_t i = 0; i < p[r].nops; i++) total += units ? p[r].ops[i].cnt : 1;
  message *sent = calloc((size_t)total + 1, sizeof *sent), *got = calloc((size_t)total + 1, sizeof *got);
  message *expected = malloc(sizeof *expected * (size_t)(nwant + 1));
  memcpy(expected, want, sizeof *want * (size_t)nwant);
  qsort(expected, (size_t)nwant, sizeof *expected, cmp_message);
  int64_t nsent = 0, ngot = 0;
  for (int32_t r = 0; r < ranks; r++) {
    assert_int_equal(p[r].ranks, ranks);
    for (int64_t i = 0; i < p[r].nops; i++) {
      const tc_op *o = &p[r].ops[i];
      for (int64_t c = 0; c < (units ? o->cnt : 1); c++) {
        int64_t cnt = units ? 1 : o->cnt;
        if (o->kind == TC_OP_SEND) sent[nsent++] = (message){o->step, r, o->peer, chunk_of(&p[r], o->src, o->src_off + c), cnt};
        else if (o->kind != TC_OP_COPY) got[ngot++] = (message){o->step, o->peer, r, chunk_of(&p[r], o->dst, o->dst_off + c), cnt};
      }
    }
    tc_program_destroy(&p[r]);
  }
  assert_messages(what, "sends", sent, nsent, expected, nwant);
  assert_messages(what, "receives", got, ngot, expected, nwant);
  free(sent);
  free(got);
  free(expected);
  free(p);
}

static void expect_messages(const tc_graph *g, const tc_schedule *s, const message *want, int64_t nwant,
                            const char *what) {
  expect_messages_as(g, s, want, nwant, 0, what);
}

/* Ranks are the compute nodes in id order, wherever the switches are. */
static void fabric_rank_map(void **state) {
  (void)state;
  tc_error err;
  tc_rank_map m;
  tc_graph *g = tc_fabric_star(3, 1); /* the switch is node 0 */
  assert_int_equal(tc_rank_count(g), 3);
  assert_int_equal(tc_rank_map_init(&m, g, &err), TC_OK);
  assert_int_equal(m.ranks, 3);
  assert_int_equal(m.nodes, 4);
  const int32_t node[] = {1, 2, 3}, rank[] = {-1, 0, 1, 2};
  assert_memory_equal(m.node, node, sizeof node);
  assert_memory_equal(m.rank, rank, sizeof rank);
  tc_rank_map_destroy(&m);
  assert_null(m.node);
  tc_graph_destroy(g);
  g = tc_test_spec("dgx_a100(2)"); /* 16 GPUs first, then 20 switches */
  assert_int_equal(tc_rank_map_init(&m, g, &err), TC_OK);
  assert_int_equal(m.ranks, 16);
  for (int32_t u = 0; u < 36; u++) assert_int_equal(m.rank[u], u < 16 ? u : -1);
  for (int32_t r = 0; r < 16; r++) assert_int_equal(m.node[r], r);
  tc_rank_map_destroy(&m);
  tc_graph_destroy(g);
  g = tc_test_spec("complete(5)"); /* no switch: rank r is node r */
  assert_int_equal(tc_rank_map_init(&m, g, &err), TC_OK);
  assert_int_equal(m.ranks, 5);
  for (int32_t u = 0; u < 5; u++) assert_int_equal(m.rank[u], u), assert_int_equal(m.node[u], u);
  tc_rank_map_destroy(&m);
  tc_graph_destroy(g);
}

/* Star of 4 (switch 4): in step 1 rank k sends 3 copies of its shard into the switch, in
   step 2 the switch sends one to each other rank: 12 messages k -> j of chunk k in step 2.
   The same with the switch as node 0: peers are ranks (node - 1), not nodes. */
static void fabric_star_allgather(void **state) {
  (void)state;
  for (int first = 0; first <= 1; first++) {
    tc_graph *g = tc_fabric_star(4, first);
    tc_schedule s;
    tc_fabric_direct_ag(g, &s);
    assert_int_equal(s.count, 24);
    assert_int_equal(s.steps, 2);
    message want[12];
    int n = 0;
    for (int32_t k = 0; k < 4; k++)
      for (int32_t j = 0; j < 4; j++)
        if (j != k) want[n++] = (message){2, k, j, k, 1};
    expect_messages(g, &s, want, n, first ? "star(4), switch first" : "star(4)");
    run_all(g, &s, first ? "star(4), switch first" : "star(4)");
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* The rooted collectives through a switch, by hand on star(3) (ranks 0..2): rank 1 the
   root, every shard crossing the switch in steps 1 and 2 — scatter and broadcast from the
   root, gather into it, p2p from 1 to 2 — collapse to one message per shard from its
   origin's rank at step 2, and the programs compute each collective. A switch as root is
   refused. */
static void fabric_rooted(void **state) {
  (void)state;
  for (int first = 0; first <= 1; first++) {
    tc_graph *g = tc_fabric_star(3, first);
    int32_t sw = first ? 0 : 3, node[3] = {first, first + 1, first + 2}, root = node[1];
    const tc_collective colls[] = {TC_COLL_BROADCAST, TC_COLL_SCATTER, TC_COLL_GATHER, TC_COLL_P2P};
    tc_error err;
    for (int c = 0; c < 4; c++) {
      tc_collective coll = colls[c];
      tc_schedule s;
      char what[64];
      snprintf(what, sizeof what, "star(3) %s%s", tc_collective_name(coll), first ? ", switch first" : "");
      assert_int_equal(tc_schedule_init_rooted(&s, coll, 4, root, node[2], 1, "hand", &err), TC_OK);
      message want[2];
      int n = 0;
      for (int r = 0; r < 3; r++) {
        if (r == 1 || (coll == TC_COLL_P2P && r != 2)) continue;
        int from = coll == TC_COLL_GATHER ? r : 1, to = coll == TC_COLL_GATHER ? 1 : r;
        int32_t shard = coll == TC_COLL_SCATTER || coll == TC_COLL_GATHER ? node[r] : 0;
        assert_int_equal(tc_schedule_add(&s, shard, tc_test_arc_id(g, node[from], sw), 1, 0, 1, &err), TC_OK);
        assert_int_equal(tc_schedule_add(&s, shard, tc_test_arc_id(g, sw, node[to]), 2, 0, 1, &err), TC_OK);
        want[n++] = (message){2, from, to, coll == TC_COLL_SCATTER || coll == TC_COLL_GATHER ? r : 0, 1};
      }
      if (tc_schedule_verify(g, &s, &err)) fail_msg("%s: %s", what, err.msg);
      expect_messages(g, &s, want, n, what);
      run_all(g, &s, what);
      tc_schedule_destroy(&s);
    }
    tc_schedule s;
    tc_program p;
    assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_BROADCAST, 4, sw, -1, 1, "hand", &err), TC_OK);
    assert_int_equal(tc_program_check(g, &s, &err), TC_EINPUT);
    char msg[128];
    snprintf(msg, sizeof msg, "broadcast schedule's root is node %d, a switch (switches hold no data)", sw);
    assert_string_equal(err.msg, msg);
    tc_schedule_destroy(&s);
    assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_P2P, 4, node[0], sw, 1, "hand", &err), TC_OK);
    assert_int_equal(tc_program_lower(g, &s, 0, 0, &p, &err), TC_EINPUT);
    snprintf(msg, sizeof msg, "p2p schedule's destination is node %d, a switch (switches hold no data)", sw);
    assert_string_equal(err.msg, msg);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* islands(2): nodes 0 1 | 2 3, switch 4, partner(k) = k + 2 mod 4. By hand: reduce-scatter
   step 1 direct into k and into its partner, step 3 the partner's island sum relayed to k
   (it entered the switch at step 2); allgather step 1 k to its island mate, step 2 k to its
   partner (relayed), step 3 the partner to its mate; allreduce both, the allgather 3 later. */
static void fabric_islands(void **state) {
  (void)state;
  static const message rs[] = {
      {1, 1, 0, 0, 1}, {1, 3, 2, 0, 1}, {3, 2, 0, 0, 1}, {1, 0, 1, 1, 1}, {1, 2, 3, 1, 1}, {3, 3, 1, 1, 1},
      {1, 3, 2, 2, 1}, {1, 1, 0, 2, 1}, {3, 0, 2, 2, 1}, {1, 2, 3, 3, 1}, {1, 0, 1, 3, 1}, {3, 1, 3, 3, 1},
  };
  static const message ag[] = {
      {1, 0, 1, 0, 1}, {2, 0, 2, 0, 1}, {3, 2, 3, 0, 1}, {1, 1, 0, 1, 1}, {2, 1, 3, 1, 1}, {3, 3, 2, 1, 1},
      {1, 2, 3, 2, 1}, {2, 2, 0, 2, 1}, {3, 0, 1, 2, 1}, {1, 3, 2, 3, 1}, {2, 3, 1, 3, 1}, {3, 1, 0, 3, 1},
  };
  message ar[24];
  for (int i = 0; i < 12; i++) {
    ar[i] = rs[i];
    ar[12 + i] = ag[i];
    ar[12 + i].step += 3;
  }
  tc_graph *g = tc_fabric_islands(2);
  const tc_collective colls[] = {TC_COLL_REDUCE_SCATTER, TC_COLL_ALLGATHER, TC_COLL_ALLREDUCE};
  const message *want[] = {rs, ag, ar};
  const int nwant[] = {12, 12, 24};
  for (int c = 0; c < 3; c++) {
    tc_schedule s;
    tc_fabric_islands_sched(g, 2, colls[c], &s);
    expect_messages(g, &s, want[c], nwant[c], tc_collective_name(colls[c]));
    run_all(g, &s, "islands(2)");
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
  g = tc_fabric_islands(3); /* bigger islands: the interpreters only */
  for (int c = 0; c < 3; c++) {
    tc_schedule s;
    tc_fabric_islands_sched(g, 3, colls[c], &s);
    run_all(g, &s, "islands(3)");
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
}

/* fig2toy(1): a ring 0 -> 1 -> ... -> 7 -> 0, every hop through w0 (the first switch a
   breadth-first search meets), 2 units per shard: round r (steps 2r+1, 2r+2) ends with
   messages p -> p+1 of shard p - r, chunks [2(p-r), +2), at step 2r+2 — w0 holds several
   copies of a shard from earlier rounds, forwarded earliest first. */
static void fabric_fig2toy_ring(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("fig2toy(1)");
  const int32_t ring[] = {0, 1, 2, 3, 4, 5, 6, 7};
  tc_schedule s;
  tc_fabric_ring_ag(g, ring, 8, 2, &s);
  assert_int_equal(s.steps, 14);
  message want[56];
  int n = 0;
  for (int32_t r = 0; r < 7; r++)
    for (int32_t p = 0; p < 8; p++) want[n++] = (message){2 * r + 2, p, (p + 1) % 8, 2 * ((p - r + 8) % 8), 2};
  expect_messages(g, &s, want, n, "fig2toy(1) ring");
  run_all(g, &s, "fig2toy(1) ring");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* dgx_a100(2): the ring 0..7, 15..8 of GPUs. A hop inside a box crosses its NVSwitch (2
   steps); 7 -> 15 and 8 -> 0 cross a NIC, an IB switch and a NIC (4 steps: a chain of 3
   switches). Round r takes steps 4r+1 .. 4r+4: the message of position p arrives at step
   4r + 2 or 4r + 4. */
static void fabric_dgx_ring(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("dgx_a100(2)");
  const int32_t ring[] = {0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8};
  tc_schedule s;
  tc_fabric_ring_ag(g, ring, 16, 1, &s);
  assert_int_equal(s.steps, 60);
  assert_int_equal(s.count, 15 * (14 * 2 + 2 * 4));
  message want[15 * 16];
  int n = 0;
  for (int32_t r = 0; r < 15; r++)
    for (int32_t p = 0; p < 16; p++) {
      int32_t from = ring[p], to = ring[(p + 1) % 16], hops = (from == 7 || from == 8) ? 4 : 2;
      want[n++] = (message){4 * r + hops, from, to, ring[(p - r + 16) % 16], 1};
    }
  expect_messages(g, &s, want, n, "dgx_a100(2) ring");
  run_all(g, &s, "dgx_a100(2) ring");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- ForestColl on fabrics: the relays worked out unit by unit --------------------------- */

static int cmp_relay_order(const void *a, const void *b) {
  const tc_transfer *x = a, *y = b;
  int64_t kx[] = {x->step, x->arc, x->lo, x->hi}, ky[] = {y->step, y->arc, y->lo, y->hi};
  for (int i = 0; i < 4; i++)
    if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
  return 0;
}

/* The messages of s on g, one per chunk, from the relay rule (verify.h) applied literally:
   one FIFO of origins per (switch, shard, unit); step by step, transfers in (arc, lo, hi)
   order, a switch's send pops the oldest origin that arrived in an earlier step (none: in
   a reduce phase it carries nothing, in a copy phase the test fails), and what reaches a
   compute node is a message from that origin at this step. It shares nothing with
   relay.c's segments, receipt table and joined intervals. *out is malloc'd. */
static int64_t trace_units(const tc_graph *g, const tc_schedule *s, message **out) {
  int64_t keys = (int64_t)g->n * s->nshards * s->units, n = s->count;
  int32_t *fifo_origin = malloc(sizeof(int32_t) * (size_t)(n * s->units + 1));
  int64_t *next = malloc(sizeof(int64_t) * (size_t)(n * s->units + 1)), nentries = 0;
  int64_t *head = malloc(sizeof(int64_t) * (size_t)keys), *tail = malloc(sizeof(int64_t) * (size_t)keys);
  int64_t(*pending)[2] = malloc(sizeof *pending * (size_t)(n * s->units + 1)); /* key, origin */
  tc_transfer *x = malloc(sizeof *x * (size_t)(n + 1));
  message *msg = malloc(sizeof *msg * (size_t)(n * s->units + 1));
  int64_t nmsg = 0;
  int32_t *rank = malloc(sizeof(int32_t) * (size_t)g->n);
  for (int32_t u = 0, r = 0; u < g->n; u++) rank[u] = g->kind[u] == TC_NODE_COMPUTE ? r++ : -1;
  memcpy(x, s->xfer, sizeof *x * (size_t)n);
  qsort(x, (size_t)n, sizeof *x, cmp_relay_order);
  int phase = -1;
  for (int64_t a = 0, b; a < n; a = b) {
    int32_t t = x[a].step;
    int reduce = s->coll == TC_COLL_REDUCE_SCATTER || (s->coll == TC_COLL_ALLREDUCE && t <= s->rs_steps);
    if (reduce != phase) { /* each phase starts with empty switches */
      for (int64_t k = 0; k < keys; k++) head[k] = tail[k] = -1;
      phase = reduce;
    }
    int64_t npending = 0;
    for (b = a; b < n && x[b].step == t; b++) {
      int32_t from = g->src[x[b].arc], to = g->dst[x[b].arc];
      for (int64_t j = x[b].lo; j < x[b].hi; j++) {
        int32_t origin = from;
        if (g->kind[from] != TC_NODE_COMPUTE) {
          int64_t key = ((int64_t)from * s->nshards + x[b].shard) * s->units + j;
          if (head[key] < 0) {
            if (!reduce) fail_msg("switch %d sends shard %d unit %lld at step %d, holding no copy", from, x[b].shard,
                                  (long long)j, t);
            continue;
          }
          origin = fifo_origin[head[key]];
          head[key] = next[head[key]];
          if (head[key] < 0) tail[key] = -1;
        }
        if (g->kind[to] == TC_NODE_COMPUTE)
          msg[nmsg++] = (message){t, rank[origin], rank[to], (int64_t)x[b].shard * s->units + j, 1};
        else {
          pending[npending][0] = ((int64_t)to * s->nshards + x[b].shard) * s->units + j;
          pending[npending++][1] = origin;
        }
      }
    }
    for (int64_t i = 0; i < npending; i++) { /* they arrive at the end of the step */
      int64_t key = pending[i][0];
      fifo_origin[nentries] = (int32_t)pending[i][1];
      next[nentries] = -1;
      if (tail[key] >= 0) next[tail[key]] = nentries;
      else head[key] = nentries;
      tail[key] = nentries++;
    }
  }
  free(fifo_origin);
  free(next);
  free(head);
  free(tail);
  free(pending);
  free(x);
  free(rank);
  *out = msg;
  return nmsg;
}

/* A reduce phase may cross one switch many times: star(3), switch 3, one unit per shard.
   Shard 0 goes 2 -> 3 -> 1 (steps 1, 2), then 1 -> 3 -> 0 (steps 3, 4): the switch relays
   the unit twice, node 2's partial and then node 1's (which holds 2's). Shard 1: nodes 0
   and 2 send into the switch at step 1, and two sends on 3 -> 1 at step 2 carry one each.
   Shard 2: 0's partial through the switch at steps 1, 2, 1's at steps 2, 3. The allreduce
   adds an allgather half (steps 5, 6). */
static void fabric_reduce_relays(void **state) {
  (void)state;
  tc_error err;
  tc_graph *g = tc_fabric_star(3, 0);
  static const int hops[][4] = {{0, 2, 3, 1}, {0, 3, 1, 2}, {0, 1, 3, 3}, {0, 3, 0, 4}, {1, 0, 3, 1}, {1, 2, 3, 1},
                                {1, 3, 1, 2}, {1, 3, 1, 2}, {2, 0, 3, 1}, {2, 3, 2, 2}, {2, 1, 3, 2}, {2, 3, 2, 3}};
  static const message want[] = {{2, 2, 1, 0, 1}, {4, 1, 0, 0, 1}, {2, 0, 1, 1, 1},
                                 {2, 2, 1, 1, 1}, {2, 0, 2, 2, 1}, {3, 1, 2, 2, 1}};
  for (int c = 0; c < 2; c++) {
    tc_schedule s;
    tc_fabric_init(g, c ? TC_COLL_ALLREDUCE : TC_COLL_REDUCE_SCATTER, 1, &s);
    for (int i = 0; i < 12; i++)
      assert_int_equal(tc_schedule_add(&s, hops[i][0], tc_test_arc_id(g, hops[i][1], hops[i][2]), hops[i][3], 0, 1,
                                       &err), TC_OK);
    message ar[12];
    memcpy(ar, want, sizeof want);
    if (c) { /* the allreduce: then every shard's owner sends it through the switch to both others */
      s.rs_steps = 4;
      for (int32_t k = 0; k < 3; k++)
        for (int32_t j = 0; j < 3; j++)
          if (j != k) {
            tc_fabric_send(g, &s, k, k, j, 5, 0, 1);
            ar[6 + 2 * k + (j > k ? j - 1 : j)] = (message){6, k, j, k, 1};
          }
    }
    tc_schedule_sort(&s);
    tc_fabric_verified(g, &s);
    expect_messages(g, &s, c ? ar : want, c ? 12 : 6, c ? "relayed twice, allreduce" : "relayed twice");
    run_all(g, &s, "relayed twice");
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
  /* Ties: star(4), switch 4. Shard 0: nodes 2 and 3 send into the switch at step 1; at step
     2 it sends to 0 and to 1: the send on the lower arc (4 -> 0) takes the receipt on the
     lower arc (2 -> 4, node 2's partial), the other 3's; 1 passes its sum on to 0 (steps
     3, 4). Either matching gives 0 the right sum: only the messages tell them apart. The
     other shards go straight through the switch. */
  g = tc_fabric_star(4, 0);
  assert_true(tc_test_arc_id(g, 2, 4) < tc_test_arc_id(g, 3, 4));
  assert_true(tc_test_arc_id(g, 4, 0) < tc_test_arc_id(g, 4, 1));
  tc_schedule s;
  tc_fabric_init(g, TC_COLL_REDUCE_SCATTER, 1, &s);
  static const int tie[][3] = {{2, 4, 1}, {3, 4, 1}, {4, 1, 2}, {4, 0, 2}, {1, 4, 3}, {4, 0, 4}};
  for (int i = 0; i < 6; i++)
    assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, tie[i][0], tie[i][1]), tie[i][2], 0, 1, &err), TC_OK);
  message ties[3 + 9] = {{2, 2, 0, 0, 1}, {2, 3, 1, 0, 1}, {4, 1, 0, 0, 1}};
  int n = 3;
  for (int32_t k = 1; k < 4; k++)
    for (int32_t j = 0; j < 4; j++)
      if (j != k) {
        tc_fabric_send(g, &s, k, j, k, 1, 0, 1);
        ties[n++] = (message){2, j, k, k, 1};
      }
  tc_schedule_sort(&s);
  tc_fabric_verified(g, &s);
  expect_messages(g, &s, ties, n, "ties");
  run_all(g, &s, "ties");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ForestColl's reduce-scatter and allreduce (sched --algo forestcoll) on fig2toy() (P = 1,
   2) and dgx_a100(2) (P = 2): in-trees whose edges cross the switches many times. Every
   rank lowers, the collapsed messages are exactly those of trace_units, chunk by chunk,
   and the programs compute the collective under both interpreters (the asynchronous one
   with fewer seeds on dgx_a100(2), whose programs are large; test_msccl.c runs them in the
   MSCCL checker too). */
static void fabric_forestcoll(void **state) {
  (void)state;
  static const struct {
    const char *spec;
    int64_t P;
    uint64_t seeds;
  } cases[] = {{"fig2toy()", 1, 8}, {"fig2toy()", 2, 8}, {"dgx_a100(2)", 2, 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    for (int c = 0; c < 2; c++) {
      tc_collective coll = c ? TC_COLL_ALLREDUCE : TC_COLL_REDUCE_SCATTER;
      tc_collective_opts o = {.chunks = cases[i].P};
      tc_schedule s;
      tc_error err;
      char what[128];
      snprintf(what, sizeof what, "forestcoll %s on %s P=%lld", tc_collective_name(coll), cases[i].spec,
               (long long)cases[i].P);
      if (tc_collective_build(g, "forestcoll", coll, &o, &s, NULL, &err)) fail_msg("%s: %s", what, err.msg);
      assert_int_equal(tc_program_check(g, &s, &err), TC_OK);
      message *want;
      int64_t nwant = trace_units(g, &s, &want);
      expect_messages_as(g, &s, want, nwant, 1, what);
      free(want);
      run_seeds(g, &s, what, cases[i].seeds);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
}

static void expect_refusal(const tc_graph *g, const tc_schedule *s, const char *msg) {
  tc_error err;
  tc_program p, all[16];
  tc_fabric_verified(g, s); /* the verifier accepts it: only the executors cannot run it */
  assert_int_equal(tc_program_check(g, s, &err), TC_EINPUT);
  assert_string_equal(err.msg, msg);
  assert_int_equal(tc_program_lower(g, s, 0, 0, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, msg);
  assert_null(p.ops);
  assert_true(tc_rank_count(g) <= 16);
  assert_int_equal(tc_program_lower_all(g, s, TC_LOWER_DEPS, all, &err), TC_EINPUT);
  assert_string_equal(err.msg, msg);
}

/* Switches only relay: replication, reduction in the switch, and a partial that changes on
   its way through the switches are refused, naming the switch (or node), shard, units, step. */
static void fabric_refusals(void **state) {
  (void)state;
  tc_error err;
  /* star(3), switch 3: each shard enters once and leaves twice */
  tc_graph *g = tc_fabric_star(3, 0);
  tc_schedule s;
  tc_fabric_init(g, TC_COLL_ALLGATHER, 1, &s);
  for (int32_t k = 0; k < 3; k++) {
    assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, k, 3), 1, 0, 1, &err), TC_OK);
    for (int32_t j = 0; j < 3; j++)
      if (j != k) assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, 3, j), 2, 0, 1, &err), TC_OK);
  }
  expect_refusal(g, &s, "switch 3 replicates shard 0 units [0,1) at step 2: it sends them on more often than it "
                        "received them, and in the executors switches only relay (one send per chunk received)");
  tc_schedule_destroy(&s);
  /* star(3): the others' partials of shard k meet in the switch, which would have to send
     their sum; the verifier's switches relay too (verify.h: shard 2's send forwards node
     0's partial, the first in arc order), so node 1's is lost before any executor sees it */
  tc_fabric_init(g, TC_COLL_REDUCE_SCATTER, 1, &s);
  for (int32_t k = 0; k < 3; k++) {
    for (int32_t j = 0; j < 3; j++)
      if (j != k) assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, j, 3), 1, 0, 1, &err), TC_OK);
    assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, 3, k), 2, 0, 1, &err), TC_OK);
  }
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_EFAIL);
  assert_string_equal(err.msg, "the contribution of node 1 to units [0,1) of shard 2 reaches its owner 2 never");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  /* fig2toy(1): the direct allgather with one copy of shard 0's unit [1,2) fewer, labels */
  g = tc_test_spec("fig2toy(1)");
  tc_fabric_init(g, TC_COLL_ALLGATHER, 2, &s);
  for (int32_t k = 0; k < 8; k++)
    for (int32_t j = 0; j < 8; j++)
      if (j != k) {
        assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, k, 8), 1, 0, k || j != 1 ? 2 : 1, &err), TC_OK);
        assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, 8, j), 2, 0, 2, &err), TC_OK);
      }
  tc_schedule_sort(&s);
  expect_refusal(g, &s, "switch 8 (w0) replicates shard 0 units [1,2) at step 2: it sends them on more often than it "
                        "received them, and in the executors switches only relay (one send per chunk received)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  /* Nodes 0 1 2, switch 3; links 0-3, 1-3, 0-2, 1-2. An allreduce of one shard owned by 0:
     1's partial goes to 0 through the switch (steps 1, 2), 2's directly (step 1); 2 also
     sends its partial to 1 in step 1, where it goes no further (the verifier accepts this
     waste). Relayed as one send at step 2, node 1's message would carry 2's partial too. */
  const int links[][3] = {{0, 3, 1}, {3, 0, 1}, {1, 3, 1}, {3, 1, 1}, {0, 2, 1}, {2, 0, 1}, {1, 2, 1}, {2, 1, 1}};
  const int sw[] = {3};
  g = tc_test_graph(4, links, 8, sw, 1);
  const int32_t owner[] = {0};
  for (int changing = 1; changing >= 0; changing--) {
    assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLREDUCE, 4, 1, owner, 1, "hand", &err), TC_OK);
    const int hops[][3] = {{1, 3, 1}, {2, 0, 1}, {3, 0, 2}, {0, 2, 3}, {0, 3, 3}, {3, 1, 4}};
    for (int i = 0; i < 6; i++)
      assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, hops[i][0], hops[i][1]), hops[i][2], 0, 1, &err), TC_OK);
    if (changing) assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 2, 1), 1, 0, 1, &err), TC_OK);
    /* the switch sends an empty partial to 0 in step 1: no message */
    else assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 3, 0), 1, 0, 1, &err), TC_OK);
    s.rs_steps = 2;
    tc_schedule_sort(&s);
    if (changing) {
      expect_refusal(g, &s, "node 1 receives into shard 0 units [0,1) at step 1 while its partial of them crosses "
                            "the switches (sent at step 1, it leaves switch 3 at step 2): a direct send cannot carry "
                            "the partial it sent");
    } else {
      tc_fabric_verified(g, &s);
      const message want[] = {{1, 2, 0, 0, 1}, {2, 1, 0, 0, 1}, {3, 0, 2, 0, 1}, {4, 0, 1, 0, 1}};
      expect_messages(g, &s, want, 4, "empty partial");
      run_all(g, &s, "empty partial");
    }
    tc_schedule_destroy(&s);
  }
  tc_graph_destroy(g);
}

/* One switch send made of units that entered the switches at different steps: one message
   per origin and entry step. star(3), 2 units: node 0 sends all of shard 0 into the switch
   at step 1 (for node 2) and, for node 1, unit 0 at step 1 and unit 1 at step 2; the switch
   forwards them, earliest first, whole to 2 at step 2 and whole to 1 at step 3. Shards 1
   and 2 go straight through the switch. */
static void fabric_pieces(void **state) {
  (void)state;
  tc_graph *g = tc_fabric_star(3, 0);
  tc_schedule s;
  tc_error err;
  tc_fabric_init(g, TC_COLL_ALLGATHER, 2, &s);
  const int hops[][5] = {{0, 3, 1, 0, 1}, {0, 3, 1, 0, 2}, {0, 3, 2, 1, 2}, {3, 2, 2, 0, 2}, {3, 1, 3, 0, 2}};
  for (int i = 0; i < 5; i++)
    assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, hops[i][0], hops[i][1]), hops[i][2], hops[i][3],
                                      hops[i][4], &err), TC_OK);
  for (int32_t k = 1; k < 3; k++)
    for (int32_t j = 0; j < 3; j++)
      if (j != k) tc_fabric_send(g, &s, k, k, j, 1, 0, 2);
  tc_fabric_verified(g, &s);
  const message want[] = {{2, 0, 2, 0, 2}, {3, 0, 1, 0, 1}, {3, 0, 1, 1, 1}, {2, 1, 0, 2, 2},
                          {2, 1, 2, 2, 2}, {2, 2, 0, 4, 2}, {2, 2, 1, 4, 2}};
  expect_messages(g, &s, want, 7, "pieces");
  run_all(g, &s, "pieces");
  tc_schedule_destroy(&s);
  /* Unverified: the switch sends what it never received (the lowering is not the verifier,
     but it does not guess). */
  tc_fabric_init(g, TC_COLL_ALLGATHER, 1, &s);
  assert_int_equal(tc_schedule_add(&s, 0, tc_test_arc_id(g, 3, 1), 1, 0, 1, &err), TC_OK);
  assert_int_equal(tc_program_check(g, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "switch 3 sends shard 0 units [0,1) at step 1 before receiving them");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* What the executors ask of a fabric schedule's layout. */
static void fabric_layout_errors(void **state) {
  (void)state;
  tc_error err;
  tc_program p;
  tc_graph *g = tc_fabric_star(3, 1); /* ranks 0 1 2 play nodes 1 2 3 */
  tc_schedule s;
  tc_fabric_direct_ag(g, &s);
  assert_int_equal(tc_program_check(g, &s, &err), TC_OK);
  assert_int_equal(tc_program_lower(g, &s, 3, 0, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "rank 3 outside 0..2");
  s.owner[0] = 2, s.owner[1] = 1; /* shard 0 on rank 1's node */
  assert_int_equal(tc_program_check(g, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "allgather schedule must have one shard per compute node, shard k owned by the node "
                               "of rank k (the k-th compute node)");
  s.owner[0] = 0; /* the switch */
  assert_int_equal(tc_program_lower(g, &s, 0, 0, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "shard 0 is owned by node 0, a switch (switches hold no data)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  /* only switches */
  const int arcs[][3] = {{0, 1, 1}, {1, 0, 1}};
  const int sw[] = {0, 1};
  g = tc_test_graph(2, arcs, 2, sw, 2);
  const int32_t owner[] = {0};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLREDUCE, 2, 1, owner, 1, "x", &err), TC_OK);
  assert_int_equal(tc_program_check(g, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the graph has no compute node: there is no rank to run the schedule");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- alltoall ------------------------------------------------------------------------------ */

/* Alltoall by sssp on uniring(1,3) (arcs i -> i+1), one unit per shard, rank 1, by hand.
   Step 1: rank 1 sends its blocks for 0 and 2 (shards 3 and 5) to 2 from its input, and
   receives shard 1 (0 -> 1) into its output block 0 and shard 2 (0 -> 2, relayed) into
   its mirror at chunk 2; step 2: it sends shard 2 on from the mirror and receives shard 7
   (2 -> 1, relayed by 0) into output block 2. Its own block is copied in step 0. */
static void alltoall_program_by_hand(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,3)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_test_generate("sssp", NULL, g, TC_COLL_ALLTOALL, -1, 0, &s, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  assert_int_equal(s.units, 1);
  assert_int_equal(s.steps, 2);
  tc_program p;
  assert_int_equal(tc_program_lower(g, &s, 1, TC_LOWER_DEPS, &p, &err), TC_OK);
  assert_int_equal(p.nshards, 9);
  assert_int_equal(p.input_chunks, 3);
  assert_int_equal(p.output_chunks, 3);
  assert_int_equal(p.scratch_chunks, 9);
  assert_int_equal(p.redundant_off, 9);
  const tc_op want[] = {
      {TC_OP_COPY, 0, -1, -1, TC_BUF_INPUT, 1, TC_BUF_OUTPUT, 1, 1, 0, 0},
      {TC_OP_SEND, 1, 2, 1, TC_BUF_INPUT, 0, TC_BUF_INPUT, -1, 1, 0, 0},
      {TC_OP_SEND, 1, 2, 1, TC_BUF_INPUT, 2, TC_BUF_INPUT, -1, 1, 0, 0},
      {TC_OP_RECV, 1, 0, 0, TC_BUF_INPUT, -1, TC_BUF_OUTPUT, 0, 1, 0, 0},
      {TC_OP_RECV, 1, 0, 0, TC_BUF_INPUT, -1, TC_BUF_SCRATCH, 2, 1, 0, 0},
      {TC_OP_SEND, 2, 2, 1, TC_BUF_SCRATCH, 2, TC_BUF_INPUT, -1, 1, 0, 0},
      {TC_OP_RECV, 2, 0, 0, TC_BUF_INPUT, -1, TC_BUF_OUTPUT, 2, 1, 0, 0},
  };
  assert_ops(&p, want, 7);
  /* The relay's send waits for the receive into the mirror (op 4), nothing else waits. */
  for (int64_t i = 0; i < p.nops; i++) assert_int_equal(p.ops[i].ndeps, i == 5);
  assert_int_equal(p.deps[p.ops[5].dep_first], 4);
  tc_program_destroy(&p);
  tc_schedule_destroy(&s);
  /* ranks^2 * units chunks must fit 64 bits */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLTOALL, 3, INT64_MAX / 4, "huge", &err), TC_OK);
  assert_int_equal(tc_program_check(g, &s, &err), TC_ERANGE);
  assert_string_equal(err.msg, "schedule has too many chunks (3 ranks squared x 2305843009213693951 units)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* The routing baselines' alltoall schedules (direct hops, multi-hop sssp and ewsp with
   split weights, dimension order) compute the alltoall under both interpreters, and
   lowering all ranks at once gives each rank's own program. */
static void alltoall_programs(void **state) {
  (void)state;
  struct {
    const char *algo, *spec;
  } cases[] = {
      {"direct", "complete(4)"},   {"direct", "hypercube(3)"}, {"sssp", "hypercube(3)"}, {"ewsp", "hypercube(3)"},
      {"sssp", "torus(3,3)"},      {"ewsp", "torus(3,3)"},     {"dor", "torus(3,3)"},    {"sssp", "genkautz(2,10)"},
      {"ewsp", "genkautz(2,10)"},  {"sssp", "uniring(1,5)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_schedule s;
    tc_error err;
    char what[96];
    snprintf(what, sizeof what, "%s on %s", cases[i].algo, cases[i].spec);
    if (tc_test_generate(cases[i].algo, cases[i].spec, g, TC_COLL_ALLTOALL, -1, 0, &s, &err))
      fail_msg("%s: %s", what, err.msg);
    if (tc_schedule_verify(g, &s, &err)) fail_msg("%s: %s", what, err.msg);
    assert_int_equal(tc_program_check(g, &s, &err), TC_OK);
    run_seeds(g, &s, what, 2);
    tc_program *all = calloc((size_t)s.nodes, sizeof *all);
    assert_int_equal(tc_program_lower_all(g, &s, TC_LOWER_DEPS, all, &err), TC_OK);
    for (int32_t r = 0; r < s.nodes; r++) {
      tc_program one;
      assert_int_equal(tc_program_lower(g, &s, r, TC_LOWER_DEPS, &one, &err), TC_OK);
      assert_int_equal(one.nops, all[r].nops);
      for (int64_t k = 0; k < one.nops; k++)
        if (!op_equal(&one.ops[k], &all[r].ops[k])) fail_msg("%s: rank %d op %lld differs", what, r, (long long)k);
      tc_program_destroy(&one);
      tc_program_destroy(&all[r]);
    }
    free(all);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

/* Alltoall on a star of 4 behind a switch (node 0 or 4): every shard crosses the switch, so
   every message is collapsed to one from its owner's rank, at step 2, straight into the
   destination's output; the program's shards are rank pairs (the graph has 5 nodes, 4
   ranks: 16 shards, not 25). */
static void fabric_alltoall(void **state) {
  (void)state;
  for (int first = 0; first <= 1; first++) {
    tc_graph *g = tc_fabric_star(4, first);
    tc_schedule s;
    tc_error err;
    const char *what = first ? "alltoall on star(4), switch first" : "alltoall on star(4)";
    if (tc_test_generate("sssp", NULL, g, TC_COLL_ALLTOALL, -1, 0, &s, &err)) fail_msg("%s: %s", what, err.msg);
    assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
    assert_int_equal(s.steps, 2);
    assert_int_equal(s.units, 1);
    message want[12];
    int n = 0;
    for (int32_t k = 0; k < 4; k++)
      for (int32_t j = 0; j < 4; j++)
        if (j != k) want[n++] = (message){2, k, j, k * 4 + j, 1};
    expect_messages(g, &s, want, n, what);
    tc_program p;
    assert_int_equal(tc_program_lower(g, &s, 2, 0, &p, &err), TC_OK);
    assert_int_equal(p.nshards, 16);
    assert_int_equal(p.input_chunks, 4);
    assert_int_equal(p.scratch_chunks, 16);
    tc_program_destroy(&p);
    run_seeds(g, &s, what, 2);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(interval_set_random), cmocka_unit_test(ring_program_by_hand),
      cmocka_unit_test(redundant_receives),  cmocka_unit_test(bfb_programs),
      cmocka_unit_test(line_graph_programs), cmocka_unit_test(baseline_programs),
      cmocka_unit_test(lower_all_equals_each), cmocka_unit_test(errors), cmocka_unit_test(fuzz_regressions), cmocka_unit_test(redundant_transfers_random),
      cmocka_unit_test(fabric_rank_map), cmocka_unit_test(fabric_star_allgather), cmocka_unit_test(fabric_islands),
      cmocka_unit_test(fabric_fig2toy_ring), cmocka_unit_test(fabric_dgx_ring), cmocka_unit_test(fabric_refusals),
      cmocka_unit_test(fabric_pieces), cmocka_unit_test(fabric_layout_errors),
      cmocka_unit_test(fabric_reduce_relays), cmocka_unit_test(fabric_forestcoll),
      cmocka_unit_test(alltoall_program_by_hand), cmocka_unit_test(alltoall_programs),
      cmocka_unit_test(rooted_programs), cmocka_unit_test(fabric_rooted),
      cmocka_unit_test(fabric_alltoall),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
