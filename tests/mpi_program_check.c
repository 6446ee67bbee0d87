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
**     offsets), a dropped one has none (its layout is refused) until its sender's record
**     gives it one (tci_run_plan_apply_records), after which it is cut into messages like
**     any receive; records that do not pair with the receives are TC_EFAIL naming why;
**   - one message per (step, peer): the groups, and their element layout — pieces end to
**     end in a buffer go straight from / into it, others through staging, in order;
**   - alltoall, rank 1 of 3 (one unit per shard, relaying shard 2 = 0 -> 2): input block t,
**     output block s and the one relayed shard are `count` elements each (scratch holds 5
**     elements for count 5, not the 9 x 5 of every shard); an op crossing two shards of
**     scratch is TC_EFAIL;
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
                      .root = -1, .dest = -1, .input_chunks = 2, .output_chunks = 4, .scratch_chunks = redundant,
                      .redundant_off = 0, .nops = nops, .ops = ops};
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
  free(plan->a2a_relayed);
  free(plan->ops);
  free(plan->step_first);
  free(plan->groups);
  free(plan->group_ops);
  free(plan->group_first);
  free(plan->layout.span);
  free(plan->layout.gspan);
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
  /* Roots: an allgather has none; a broadcast's must be a rank (here 0, holding input and
     output of every chunk); p2p's destination differs from its source. */
  wrong = program(i, 1, 0);
  wrong.root = 0;
  annotate(plan, "allgather root", wrong, "allgather program of rank 0 has root 0 and destination -1");
  plan_clear(plan);
  tc_op j[] = {send_op(1, TC_BUF_OUTPUT, 0, 4)};
  tc_program bc = {.coll = TC_COLL_BROADCAST, .rank = 0, .ranks = 2, .nshards = 2, .units = 2, .steps = 1,
                   .root = 0, .dest = -1, .input_chunks = 4, .output_chunks = 4, .nops = 1, .ops = j};
  annotate(plan, "broadcast", bc, NULL);
  plan_clear(plan);
  bc.root = 2;
  annotate(plan, "broadcast root", bc, "broadcast program of rank 0 has root 2 and destination -1");
  plan_clear(plan);
  tc_program p2p = {.coll = TC_COLL_P2P, .rank = 0, .ranks = 2, .nshards = 1, .units = 2, .steps = 1, .root = 0,
                    .dest = 0, .input_chunks = 2, .output_chunks = 2, .scratch_chunks = 2, .redundant_off = 2,
                    .nops = 1, .ops = j};
  annotate(plan, "p2p destination", p2p, "p2p program of rank 0 has root 0 and destination 0");
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
  /* Dropped whole: no chunk until rank 1's record says chunks 2, 3 (5 elements at slot 0);
     then cut into messages of at most 2 elements like any other. */
  tc_op dropped[] = {send_op(1, TC_BUF_INPUT, 0, 2), recv_op(1, TC_BUF_SCRATCH, 0, 2)};
  if (!annotate(plan, "dropped", program(dropped, 2, 2), NULL)) {
    CHECK(plan->ops[1].chunk == -1, "dropped receive: chunk %lld", (long long)plan->ops[1].chunk);
    CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_EFAIL &&
              !strcmp(err.msg, "rank 0, step 1: a receive from rank 1 carries unknown chunks"),
          "dropped receive unmatched: %s", err.msg);
    const int64_t first[] = {0, 0, 1};
    const run_send_record rec[] = {{1, 2, 2}};
    CHECK(tci_run_plan_apply_records(plan, first, rec, &err) == TC_OK, "records: %s", err.msg);
    CHECK(plan->ops[1].chunk == 2, "dropped receive matched: chunk %lld", (long long)plan->ops[1].chunk);
    tci_run_plan_set_msg_max(plan, 2);
    CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_OK, "layout: %s", err.msg);
    expect_span(plan, 1, -1, 0, 5);
    CHECK(plan->layout.gspan[0].len == 5 && plan->layout.gspan[0].pieces == 3 && plan->layout.max_requests == 6,
          "dropped receive: %lld elements in %lld pieces, %lld requests; expected 5 in 3, 6 (3 + 3 for the send)",
          (long long)plan->layout.gspan[0].len, (long long)plan->layout.gspan[0].pieces,
          (long long)plan->layout.max_requests);
  }
  plan_clear(plan);
}

/* Records of rank 1's sends that do not pair with rank 0's receives. */
static void mismatched_records(tc_mpi_plan *plan) {
  tc_error err;
  tc_op part[] = {send_op(1, TC_BUF_INPUT, 0, 2), recv_op(1, TC_BUF_SCRATCH, 0, 2),
                  copy_op(1, TC_BUF_SCRATCH, 1, TC_BUF_OUTPUT, 3, 1)};
  const int64_t one[] = {0, 0, 1}, two[] = {0, 0, 2}, none[] = {0, 0, 0};
  const struct {
    const char *name;
    const int64_t *first;
    run_send_record rec[2];
    const char *msg;
  } cases[] = {
      {"cnt", one, {{1, 1, 2}}, "program of rank 0, op 1 (recv, step 1) from rank 1: the matching send is at step 1 "
                                "with 1 chunks"},
      {"chunk", one, {{1, 2, 1}}, "program of rank 0, op 1 (recv, step 1) from rank 1: the matching send carries "
                                  "chunk 1, the receive chunk 2"},
      {"missing", none, {{0, 0, 0}}, "program of rank 0, op 1 (recv, step 1) from rank 1: no matching send: rank 1 "
                                     "sends 0 transfers to this rank"},
      {"extra", two, {{1, 2, 2}, {1, 1, 0}}, "program of rank 0 receives 1 transfers from rank 1, which sends it 2"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    if (annotate(plan, cases[k].name, program(part, 3, 2), NULL)) continue;
    tc_error_clear(&err);
    int rc = tci_run_plan_apply_records(plan, cases[k].first, cases[k].rec, &err);
    CHECK(rc == TC_EFAIL && !strcmp(err.msg, cases[k].msg), "%s records: got %d: %s", cases[k].name, rc, err.msg);
    plan_clear(plan);
  }
}

/* Two sends to rank 1 out of element order (staged: packed in program order) and two
   receives from it end to end (straight into the output): one message each way. */
static void grouped_messages(tc_mpi_plan *plan) {
  tc_error err;
  tc_op ops[] = {send_op(1, TC_BUF_INPUT, 1, 1), send_op(1, TC_BUF_INPUT, 0, 1), recv_op(1, TC_BUF_OUTPUT, 2, 1),
                 recv_op(1, TC_BUF_OUTPUT, 3, 1)};
  if (annotate(plan, "grouped", program(ops, 4, 0), NULL)) return;
  CHECK(plan->ngroups == 2 && plan->group_first[1] == 0 && plan->group_first[2] == 2, "%lld groups",
        (long long)plan->ngroups);
  const run_group *r = &plan->groups[0], *s = &plan->groups[1];
  CHECK(!r->send && r->peer == 1 && r->nops == 2 && plan->group_ops[r->first] == 2 &&
            plan->group_ops[r->first + 1] == 3, "receive group");
  CHECK(s->send && s->peer == 1 && s->nops == 2 && plan->group_ops[s->first] == 0 && plan->group_ops[s->first + 1] == 1,
        "send group");
  CHECK(tci_run_layout_prepare(plan, 5, &err) == TC_OK, "layout: %s", err.msg);
  const run_gspan *rg = &plan->layout.gspan[0], *sg = &plan->layout.gspan[1];
  CHECK(rg->direct && rg->buf == TC_BUF_OUTPUT && rg->off == 5 && rg->len == 5 && rg->pieces == 1,
        "receive message: direct %d, buffer %d, at %lld, %lld elements", rg->direct, (int)rg->buf, (long long)rg->off,
        (long long)rg->len);
  CHECK(!sg->direct && sg->stage == 0 && sg->len == 5 && plan->layout.span[0].stage == 0 &&
            plan->layout.span[1].stage == 3 && plan->layout.staging_elems == 5 && plan->layout.max_requests == 2,
        "send message: direct %d, staged at %lld (%lld, %lld), %lld elements, staging %lld, requests %lld",
        sg->direct, (long long)sg->stage, (long long)plan->layout.span[0].stage, (long long)plan->layout.span[1].stage,
        (long long)sg->len, (long long)plan->layout.staging_elems, (long long)plan->layout.max_requests);
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

/* Rank 1 of a 3-rank alltoall by sssp on uniring(1,3) (test_program.c's by-hand program):
   it sends its blocks for 0 and 2, receives 0's block and relays 0's block for 2. */
static void alltoall_program(tc_mpi_plan *plan) {
  tc_op ops[] = {copy_op(0, TC_BUF_INPUT, 1, TC_BUF_OUTPUT, 1, 1), send_op(1, TC_BUF_INPUT, 0, 1),
                 send_op(1, TC_BUF_INPUT, 2, 1),  recv_op(1, TC_BUF_OUTPUT, 0, 1),
                 recv_op(1, TC_BUF_SCRATCH, 2, 1), send_op(2, TC_BUF_SCRATCH, 2, 1),
                 recv_op(2, TC_BUF_OUTPUT, 2, 1)};
  for (int i = 1; i < 7; i++) ops[i].peer = ops[i].kind == TC_OP_SEND ? 2 : 0;
  tc_program p = {.coll = TC_COLL_ALLTOALL, .rank = 1, .ranks = 3, .nshards = 9, .units = 1, .steps = 2,
                  .root = -1, .dest = -1, .input_chunks = 3, .output_chunks = 3, .scratch_chunks = 9, .redundant_off = 9, .nops = 7,
                  .ops = ops};
  tc_error err;
  plan_init(plan);
  plan->rank = 1;
  plan->ranks = 3;
  plan->coll = TC_COLL_ALLTOALL;
  int rc = tci_run_plan_annotate(plan, &p, &err);
  CHECK(rc == TC_OK, "alltoall: annotate: %s", err.msg);
  if (!rc) {
    CHECK(plan->a2a_nrelayed == 1 && plan->a2a_relayed[0] == 2, "alltoall: %lld relayed shards",
          (long long)plan->a2a_nrelayed);
    rc = tci_run_layout_prepare(plan, 5, &err);
    CHECK(rc == TC_OK, "alltoall: layout: %s", err.msg);
  }
  if (!rc) {
    CHECK(plan->layout.total == 45 && plan->layout.scratch_elems == 5, "alltoall: total %lld, scratch %lld",
          (long long)plan->layout.total, (long long)plan->layout.scratch_elems);
    expect_span(plan, 0, 5, 5, 5);   /* own block: input 1 -> output 1 */
    expect_span(plan, 1, 0, -1, 5);  /* block for 0 */
    expect_span(plan, 2, 10, -1, 5); /* block for 2 */
    expect_span(plan, 3, -1, 0, 5);  /* 0's block for 1: output block 0 */
    expect_span(plan, 4, -1, 0, 5);  /* 0's block for 2: scratch slot 0 */
    expect_span(plan, 5, 0, -1, 5);  /* ... sent on from there */
    expect_span(plan, 6, -1, 10, 5); /* 2's block for 1 (relayed by 0): output block 2 */
  }
  plan_clear(plan);
  ops[4].dst_off = ops[5].src_off = 1;
  ops[4].cnt = ops[5].cnt = 2;
  plan_init(plan);
  plan->rank = 1;
  plan->ranks = 3;
  plan->coll = TC_COLL_ALLTOALL;
  rc = tci_run_plan_annotate(plan, &p, &err);
  CHECK(rc == TC_EFAIL && strstr(err.msg, "an alltoall op crosses shards in scratch"),
        "alltoall: a scratch op over two shards: %d %s", rc, err.msg);
  plan_clear(plan);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tc_mpi_plan plan;
  plan_init(&plan);
  valid_programs(&plan);
  broken_programs(&plan);
  redundant_receives(&plan);
  mismatched_records(&plan);
  grouped_messages(&plan);
  alltoall_program(&plan);
  chunk_starts();
  if (!failures) printf("mpi_program_check: all checks passed\n");
  MPI_Finalize();
  return failures ? 1 : 0;
}
