/*
** fuzz_sched_json.c — the schedule file reader (sched/sched_io.c) on any bytes, and its
** writer on whatever it accepts.
**
** Invariants: the error contract (harness.h); an accepted document's graph is well formed
** and its schedule fits it; writing the document succeeds, reading the written file gives
** the same spec, graph and schedule (every field, transfers in order), and reading it
** again against the first graph (the `expect` argument) accepts it.
*/
#include <string.h>

#include "harness.h"
#include "topocoll/sched_io.h"

static void check_same_schedule(const tc_schedule *a, const tc_schedule *b) {
  if (a->coll != b->coll || a->nodes != b->nodes || a->nshards != b->nshards || a->units != b->units ||
      a->steps != b->steps || a->rs_steps != b->rs_steps || a->count != b->count ||
      strcmp(a->algorithm, b->algorithm) || (a->owner == NULL) != (b->owner == NULL))
    tcf_fail("schedule round trip: the header changed");
  for (int32_t k = 0; a->owner && k < a->nshards; k++)
    if (a->owner[k] != b->owner[k]) tcf_fail("schedule round trip: owner of shard %d changed", k);
  for (int64_t i = 0; i < a->count; i++) {
    const tc_transfer *x = &a->xfer[i], *y = &b->xfer[i];
    if (x->shard != y->shard || x->step != y->step || x->arc != y->arc || x->lo != y->lo || x->hi != y->hi)
      tcf_fail("schedule round trip: transfer %lld changed", (long long)i);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.json"), *out = tcf_path("out.json");
  tcf_write_file(in, data, size);
  tc_schedule_doc doc, back, again;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_schedule_read_json(in, NULL, &doc, &err);
  tcf_check_result("tc_schedule_read_json", rc, &err);
  if (rc) {
    if (doc.graph || doc.spec || doc.sched.xfer || doc.sched.owner) tcf_fail("a failed read left something to free");
    return 0;
  }
  tcf_check_graph("tc_schedule_read_json", doc.graph);
  const tc_schedule *s = &doc.sched;
  if (s->nodes != doc.graph->n) tcf_fail("schedule of %d nodes on a graph of %d", s->nodes, doc.graph->n);
  for (int64_t i = 0; i < s->count; i++)
    if (s->xfer[i].arc < 0 || s->xfer[i].arc >= doc.graph->m) tcf_fail("transfer %lld names no arc", (long long)i);

  rc = tc_schedule_write_json(doc.graph, doc.spec, s, out, &err);
  if (rc) tcf_fail("cannot write back an accepted schedule: %s", err.msg);
  rc = tc_schedule_read_json(out, NULL, &back, &err);
  if (rc) tcf_fail("cannot read back the written schedule: %s", err.msg);
  if ((doc.spec == NULL) != (back.spec == NULL) || (doc.spec && strcmp(doc.spec, back.spec)))
    tcf_fail("schedule round trip: the spec changed");
  tcf_check_same_graph("schedule round trip", doc.graph, back.graph, 1);
  check_same_schedule(s, &back.sched);
  rc = tc_schedule_read_json(out, doc.graph, &again, &err);
  if (rc) tcf_fail("the written schedule does not match its own graph: %s", err.msg);
  tc_schedule_doc_destroy(&again);
  tc_schedule_doc_destroy(&back);
  tc_schedule_doc_destroy(&doc);
  return 0;
}
