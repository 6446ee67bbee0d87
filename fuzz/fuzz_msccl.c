/*
** fuzz_msccl.c — schedule file -> verifier -> MSCCL XML (lower/msccl*.c), and the written
** XML run by the tests' independent MSCCL executor (tests/msccl_exec.h).
**
** Invariants: the error contract (harness.h) of the reader, the verifier (which accepts
** or fails with TC_EFAIL, nothing else) and the export (TC_EINPUT only for collectives
** MSCCL has no name for, TC_ERANGE for its runtime limits); every exported file loads and
** executes correctly under MSCCL's semantics (in and out of place, sum and max, round
** robin, rendezvous and one random order), with no race between threadblocks.
** Bounded work: only schedules of at most 16 nodes, 64 shards, 1024 units per shard and
** 2048 transfers are verified and exported (the verifier's and the executor's work grows
** with all four; the reader alone is fuzz_sched_json's target).
*/
#include "harness.h"
#include "msccl_exec.h"
#include "topocoll/msccl.h"
#include "topocoll/sched_io.h"
#include "topocoll/verify.h"

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
    if (rc == TC_EINPUT && tc_msccl_coll_name(s->coll)) tcf_fail("export of a verified %s refused: %s", tc_msccl_coll_name(s->coll), err.msg);
    if (rc && rc != TC_EINPUT && rc != TC_ERANGE) tcf_fail("tc_msccl_export returned %d: %s", rc, err.msg);
    if (!rc) {
      char msg[512];
      int mx = mx_check(xml, TC_MSCCL_DEFAULT_MAX_STEPS, 1, 1, msg, sizeof msg);
      if (mx != MX_OK) tcf_fail("the exported MSCCL XML fails the executor (%d): %s", mx, msg);
    }
  }
  tc_schedule_doc_destroy(&doc);
  return 0;
}
