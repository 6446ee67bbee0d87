/*
** fuzz_msccl.c — schedule file -> verifier -> MSCCL XML (lower/msccl*.c), and the written
** XML run by the tests' independent MSCCL executor (tests/msccl_exec.h).
**
** Invariants: the error contract (harness.h) of the reader, the verifier (which accepts
** or fails with TC_EFAIL, nothing else) and the export (TC_EINPUT only for collectives
** MSCCL has no name for and, on a graph with switches, for a switch that does more than
** relay (program.h), TC_ERANGE for its runtime limits); every exported file loads and
** executes correctly under MSCCL's semantics (in and out of place, sum and max, round
** robin, one random order, rendezvous sends), with no race between threadblocks.
** Redundant transfers (a receive-reduce whose data reaches no owner, a copy-receive of held
** data, an owner sending its own shard) are verified and executed like any other: the
** lowering once got them wrong (garbage, rendezvous deadlock); the inputs are in
** fuzz/regressions/msccl/.
** Bounded work: only schedules of at most 16 nodes, 64 shards, 1024 units per shard and
** 2048 transfers are verified and exported (the verifier's and the executor's work grows
** with all four; the reader alone is fuzz_sched_json's target).
*/
#include "harness.h"
#include "msccl_exec.h"
#include "topocoll/msccl.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched_io.h"
#include "topocoll/verify.h"

/* Run the exported file as tests/msccl_exec.h's mx_check does: in and out of place, sum
   and max, round robin, a random order and (sum) round robin with rendezvous sends. */
static void execute(const char *xml) {
  char msg[512];
  mx_algo *a;
  if (mx_load(xml, TC_MSCCL_DEFAULT_MAX_STEPS, &a, msg, sizeof msg)) tcf_fail("the exported MSCCL XML does not load: %s", msg);
  for (int inplace = 0; inplace < 2; inplace++) {
    if (inplace ? !a->inplace : !a->outofplace) continue;
    for (int op = 0; op < (a->coll == MX_COLL_ALLGATHER || a->coll == MX_COLL_ALLTOALL ? 1 : 2); op++)
      for (int how = 0; how < (op ? 2 : 3); how++) {
        mx_run_opts o = {.inplace = inplace, .op = op, .elems = 2, .random = how == 1, .seed = 1, .rendezvous = how == 2};
        if (mx_run(a, &o, msg, sizeof msg))
          tcf_fail("the exported MSCCL XML fails the executor (%s, %s, %s): %s", inplace ? "in place" : "out of place",
                   op ? "max" : "sum", how == 0 ? "round robin" : how == 1 ? "random order" : "rendezvous", msg);
      }
  }
  mx_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.json"), *xml = tcf_path("algo.xml");
  tcf_write_file(in, data, size);
  tc_schedule_doc doc;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_schedule_read_json(in, NULL, &doc, &err);
  tcf_check_result("tc_schedule_read_json", rc, &err);
  if (rc) return 0;
  const tc_schedule *s = &doc.sched;
  if (s->nodes > 16 || s->nshards > 64 || s->units > 1024 || s->count > 2048) {
    tc_schedule_doc_destroy(&doc);
    return 0;
  }
  rc = tc_schedule_verify(doc.graph, s, &err);
  tcf_check_result("tc_schedule_verify", rc, &err);
  if (rc && rc != TC_EFAIL) tcf_fail("tc_schedule_verify returned %d, not TC_EFAIL: %s", rc, err.msg);
  if (!rc) {
    tc_msccl_stats st;
    rc = tc_msccl_export(doc.graph, s, NULL, xml, &st, &err);
    tcf_check_result("tc_msccl_export", rc, &err);
    if (rc == TC_EINPUT && tc_msccl_coll_name(s->coll) && tc_rank_count(doc.graph) == doc.graph->n)
      tcf_fail("export of a verified %s refused: %s", tc_msccl_coll_name(s->coll), err.msg);
    if (rc && rc != TC_EINPUT && rc != TC_ERANGE) tcf_fail("tc_msccl_export returned %d: %s", rc, err.msg);
    if (!rc) execute(xml);
  }
  tc_schedule_doc_destroy(&doc);
  return 0;
}
