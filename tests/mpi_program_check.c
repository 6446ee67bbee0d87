/*
** mpi_program_check.c — the MPI executor's reading of a program (tci_run_plan_annotate)
** and its element layout (tci_run_chunk_start, tci_run_layout_prepare), on hand-made
** programs of rank 0 of a 2-rank allgather with 2 units per shard (input 2 chunks, output
** 4). No messages are sent; run it with one process.
**   - a valid program: its element spans for count 5 (10 elements: chunks [0,2) [2,5)
**     [5,7) [7,10)) are exactly as computed by hand;
**   - leading COPYs of a step may touch what the step's receives land on (they run first);
**   - each broken rule is TC_EFAIL naming it: a receive landing on chunks a send of the
**     step reads, two receives on one chunk, a receive landing on chunks an earlier op of
**     the step touches, a copy from a redundant slot no receive filled, two copies that
**     disagree about their receive's chunks, a write to the input, a copy between
**     different chunks, ops out of step order, a range outside its buffer, a wrong shape;
**   - redundant receives: a partly new one gets its chunk from its COPYs (exact element
**     offsets), a dropped one room for cnt * maxc elements, and splitting that one into
**     several messages is refused;
**   - chunk boundaries: 10 elements in 3 shards of 2 units are 0 1 3 4 6 8 10, and a
**     boundary of 2^62 + 1 elements in 7 shards of 1000003 units is exact (128-bit).
** Prints the first failed check and exits 1.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"

static int failures;

#define CHECK(cond, ...)                                     \
  do {                                                       \
    if (!(cond)) {                                           \
      failures++;                                            \
      fprintf(stderr, "mpi_program_check: " __VA_ARGS__);    \
      fprintf(stderr, " (line %d)\n", __LINE__);             \
    }                                                        \
  } while (0)

static tc_op send_op(int step, tc_buffer src, int64_t off, int64_t cnt) {
  return (tc_op){.kind = TC_OP_SEND, .step = step, .peer = 1, .arc = 0, .src = src, .src_off = off,
                 .dst = TC_BUF_INPUT, .dst_off = -1, .cnt = cnt};
}
static tc_op recv_op(int step, tc_buffer dst, int64_t off, int64_t cnt) {
  return (tc_op){.kind = TC_OP_RECV, .step = step, .peer = 1, .arc = 1, .src = TC_BUF_INPUT, .src_off = -1,
                 .dst = dst, .dst_off = off, .cnt = cnt};
}
static tc_op copy_op(int step, tc_buffer src, int64_t soff, tc_buffer dst, int64_t doff, int64_t cnt) {
  return (tc_op){.kind = TC_OP_COPY, .step = step, .peer = -1, .arc = -1, .src = src, .src_off = soff, .dst = dst,
                 .dst_off = doff, .cnt = cnt};
}

/* Rank 0 of a 2-rank allgather, 2 units per shard, one comm step, `redundant` scratch chunks. */
static tc_program program(tc_op *ops, int64_t nops, int64_t redundant) {
  return (tc_program){.coll = TC_COLL_ALLGATHER, .rank = 0, .ranks = 2, .nshards = 2, .units = 2, .steps = 1,
                      .input_chunks = 2, .output_chunks = 4, .scratch_chunks = redundant, .redundant_off = 0,
                      .nops = nops, .ops = ops};
}

static void plan_init(tc_mpi_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->comm = MPI_COMM_NULL;
  plan->rank = 0;
  plan->ranks = 2;
  plan->coll = TC_COLL_ALLGATHER;
  plan->compute = 1;
  plan->msg_max = 1000;
}

static void plan_clear(tc_mpi_plan *plan) {
  free(plan->ops);
  free(plan->step_first);
  free(plan->layout.span);
  plan_init(plan);
}

/* Annotate; expect success (fragment NULL) or TC_EFAIL with the fragment. Leaves the plan
   annotated on success (the caller clears it). */
static int annotate(tc_mpi_plan *plan, const char *name, tc_program p, const char *fragment) {
  tc_error err;
  tc_error_clear(&err);
  plan_init(plan);
  int rc = tci_run_plan_annotate(plan, &p, &err);
  if (!fragment) CHECK(rc == TC_OK, "%s: expected success, got %d: %s", name, rc, err.msg);
  else CHECK(rc == TC_EFAIL && strstr(err.msg, fragment), "%s: expected TC_EFAIL '%s', got %d: %s", name, fragment, rc,
             err.msg);
  return rc;
}

static void expect_span(const tc_mpi_plan *plan, int64_t i, int64_t src, int64_t dst, int64_t len) {
  const run_span *s = &plan->layout.span[i];
  CHECK(s->src == src && s->dst == dst && s->len == len,
        "op %lld: span (%lld, %lld, %lld), expected (%lld, %lld, %lld)", (long long)i, (long long)s->src,
        (long long)s->dst, (long long)s->len, (long long)src, (long long)dst, (long long)len);
}

static void valid_programs(tc_mpi_plan *plan) {
  tc_error err;
  tc_op ok[] = {copy_op(0, TC_BUF_INPUT, 0, TC_BUF_OUTPUT, 0, 2), send_op(1, TC_BUF_INPUT, 0, 2),
                recv_op(1, TC_BUF_OUTPUT, 2, 2)};
  if (!annotate(plan, "valid", program(ok, 3, 0), NULL)) {
    CHECK(plan->step_first[0] == 0 && plan->step_first[1] == 1 && plan->step_first[2] == 3 && plan->step_first[3] == 3,
          "step boundaries %lld %lld %lld %lld", (long long)plan->step_first[0], (long long)plan->step_first[1],
          (long long)plan->step_first[2], (long long)plan->step_first[3]);
    CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_OK, "layout: %s", err.msg);
    CHECK(plan->layout.total == 10 && plan->layout.maxc == 3, "total %lld maxc %lld", (long long)plan->layout.total,
          (long long)plan->layout.maxc);
    expect_span(plan, 0, 0, 0, 5); /* own block: chunks 0, 1 = elements [0, 5) */
    expect_span(plan, 1, 0, -1, 5);
    expect_span(plan, 2, -1, 5, 5); /* chunks 2, 3 = elements [5, 10) */
  }
  plan_clear(plan);
  /* A COPY touching chunk 2 before the receive that lands there: fine when it leads the
     step (it runs before anything is posted), not after the step's send. */
  tc_op leading[] = {copy_op(1, TC_BUF_OUTPUT, 2, TC_BUF_OUTPUT, 2, 1), send_op(1, TC_BUF_INPUT, 0, 2),
                     recv_op(1, TC_BUF_OUTPUT, 2, 2)};
  annotate(plan, "leading copy", program(leading, 3, 0), NULL);
  plan_clear(plan);
  tc_op later[] = {send_op(1, TC_BUF_INPUT, 0, 2), copy_op(1, TC_BUF_OUTPUT, 2, TC_BUF_OUTPUT, 2, 1),
                   recv_op(1, TC_BUF_OUTPUT, 2, 2)};
  annotate(plan, "non-leading copy", program(later, 3, 0),
           "a receive lands on chunks an earlier op of the same step still needs");
  plan_clear(plan);
}

static void broken_programs(tc_mpi_plan *plan) {
  tc_op a[] = {send_op(1, TC_BUF_OUTPUT, 2, 1), recv_op(1, TC_BUF_OUTPUT, 2, 2)};
  annotate(plan, "send/recv", program(a, 2, 0), "a receive lands on chunks a send of the same step reads");
  plan_clear(plan);
  tc_op b[] = {recv_op(1, TC_BUF_OUTPUT, 2, 2), recv_op(1, TC_BUF_OUTPUT, 3, 1)};
  annotate(plan, "recv/recv", program(b, 2, 0), "two receives of one step land on the same chunks");
  plan_clear(plan);
  tc_op c[] = {send_op(1, TC_BUF_INPUT, 0, 2), recv_op(1, TC_BUF_SCRATCH, 0, 2),
               copy_op(1, TC_BUF_SCRATCH, 0, TC_BUF_OUTPUT, 2, 2), recv_op(1, TC_BUF_OUTPUT, 2, 2)};
  annotate(plan, "copy/recv", program(c, 4, 2), "a receive lands on chunks an earlier op of the same step still needs");
  plan_clear(plan);
  tc_op d[] = {send_op(1, TC_BUF_INPUT, 0, 2), copy_op(1, TC_BUF_SCRATCH, 0, TC_BUF_OUTPUT, 2, 1)};
  annotate(plan, "unfilled slot", program(d, 2, 1), "copies from a redundant slot no receive of its step filled");
  plan_clear(plan);
  tc_op e[] = {recv_op(1, TC_BUF_SCRATCH, 0, 2), copy_op(1, TC_BUF_SCRATCH, 0, TC_BUF_OUTPUT, 2, 1),
               copy_op(1, TC_BUF_SCRATCH, 1, TC_BUF_OUTPUT, 1, 1)};
  annotate(plan, "disagreeing copies", program(e, 3, 2), "disagrees about the chunks its receive carries");
  plan_clear(plan);
  tc_op f[] = {copy_op(0, TC_BUF_OUTPUT, 0, TC_BUF_INPUT, 0, 1)};
  annotate(plan, "input write", program(f, 1, 0), "writes the read-only input");
  plan_clear(plan);
  tc_op g[] = {copy_op(0, TC_BUF_INPUT, 0, TC_BUF_OUTPUT, 1, 1)};
  annotate(plan, "chunk change", program(g, 1, 0), "moves data between different chunks");
  plan_clear(plan);
  tc_op h[] = {copy_op(2, TC_BUF_INPUT, 0, TC_BUF_OUTPUT, 0, 2), send_op(1, TC_BUF_INPUT, 0, 2)};
  annotate(plan, "step order", program(h, 2, 0), "ops not in step order");
  plan_clear(plan);
  tc_op i[] = {recv_op(1, TC_BUF_OUTPUT, 3, 2)};
  annotate(plan, "range", program(i, 1, 0), "chunk range outside its buffer");
  plan_clear(plan);
  tc_program wrong = program(i, 1, 0);
  wrong.input_chunks = 4;
  annotate(plan, "shape", wrong, "has an unexpected shape");
  plan_clear(plan);
}

static void redundant_receives(tc_mpi_plan *plan) {
  tc_error err;
  /* Partly new: the receive carries chunks 2, 3 (its COPY moves slot 1 to chunk 3). */
  tc_op part[] = {send_op(1, TC_BUF_INPUT, 0, 2), recv_op(1, TC_BUF_SCRATCH, 0, 2),
                  copy_op(1, TC_BUF_SCRATCH, 1, TC_BUF_OUTPUT, 3, 1)};
  if (!annotate(plan, "partly new", program(part, 3, 2), NULL)) {
    CHECK(plan->ops[1].chunk == 2, "partly new receive: chunk %lld, expected 2", (long long)plan->ops[1].chunk);
    CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_OK, "layout: %s", err.msg);
    expect_span(plan, 1, -1, 0, 5);  /* chunks 2, 3 = 5 elements at slot 0 */
    expect_span(plan, 2, 2, 7, 3);   /* chunk 3 = elements [7, 10): 2 into the receive */
    CHECK(plan->layout.scratch_elems == 6, "scratch %lld elements, expected 2 slots of 3",
          (long long)plan->layout.scratch_elems);
  }
  plan_clear(plan);
  /* Dropped whole: room for 2 slots of maxc = 3 elements; one message of 6 > 5 is refused. */
  tc_op dropped[] = {send_op(1, TC_BUF_INPUT, 0, 2), recv_op(1, TC_BUF_SCRATCH, 0, 2)};
  if (!annotate(plan, "dropped", program(dropped, 2, 2), NULL)) {
    CHECK(plan->ops[1].chunk == -1, "dropped receive: chunk %lld", (long long)plan->ops[1].chunk);
    CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_OK, "layout: %s", err.msg);
    expect_span(plan, 1, -1, 0, 6);
    tci_run_plan_set_msg_max(plan, 5);
    CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_EINPUT && strstr(err.msg, "beyond MPI's int count"),
          "dropped receive split: %s", err.msg);
    CHECK(tci_run_layout_prepare(plan, 4, &err) == TC_OK, "count 4 (maxc 2, room 4): %s", err.msg);
  }
  plan_clear(plan);
}

static void chunk_starts(void) {
  tc_mpi_plan p;
  memset(&p, 0, sizeof p);
  p.nshards = 3;
  p.units = 2;
  const int64_t want[] = {0, 1, 3, 4, 6, 8, 10};
  for (int c = 0; c <= 6; c++)
    CHECK(tci_run_chunk_start(&p, 10, c) == want[c], "chunk %d of 10 elements starts at %lld, expected %lld", c,
          (long long)tci_run_chunk_start(&p, 10, c), (long long)want[c]);
  p.nshards = 7;
  p.units = 1000003;
  int64_t big = tci_run_chunk_start(&p, (INT64_C(1) << 62) + 1, 3 * INT64_C(1000003) + 999999);
  CHECK(big == INT64_C(2635246518145831138), "big chunk start %lld", (long long)big);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tc_mpi_plan plan;
  plan_init(&plan);
  valid_programs(&plan);
  broken_programs(&plan);
  redundant_receives(&plan);
  chunk_starts();
  if (!failures) printf("mpi_program_check: all checks passed\n");
  MPI_Finalize();
  return failures ? 1 : 0;
}
