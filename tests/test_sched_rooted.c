/*
** test_sched_rooted.c — scatter, gather and p2p in the IR (sched.h): their fixed layouts,
** the verifier's semantics (copy to one destination; flow for p2p), the cost model's
** bounds, the schedule file, and the transforms (reverse maps scatter <-> gather and p2p
** S -> T to T -> S; relabel refuses them).
**
** Oracles: schedules written out by hand on complete(4) and uniring(1,4), whose costs are
** counted here on paper, and one mutation per clause of the semantics, each rejected with
** its exact message.
*/
#include "tc_files.h"
#include "tc_test.h"
#include "topocoll/cost.h"
#include "topocoll/graph.h"
#include "topocoll/sched_io.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

static void expect_fail(const tc_graph *g, const tc_schedule *s, const char *msg) {
  tc_error err;
  int rc = tc_schedule_verify(g, s, &err);
  if (rc != TC_EFAIL) fail_msg("mutated schedule accepted (rc %d)", rc);
  assert_string_equal(err.msg, msg);
}

static void add(tc_schedule *s, const tc_graph *g, int shard, int u, int v, int step, int64_t lo, int64_t hi) {
  tc_error err;
  assert_int_equal(tc_schedule_add(s, shard, tc_test_arc_id(g, u, v), step, lo, hi, &err), TC_OK);
}

/* Scatter from 0 around the ring 0 -> 1 -> 2 -> 3 -> 0: shards 1..3 leave in step 1, 2..3
   go on in step 2, 3 in step 3. */
static void ring_scatter(const tc_graph *g, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init_rooted(s, TC_COLL_SCATTER, 4, 0, -1, 1, "hand", &err), TC_OK);
  for (int k = 1; k <= 3; k++) add(s, g, k, 0, 1, 1, 0, 1);
  for (int k = 2; k <= 3; k++) add(s, g, k, 1, 2, 2, 0, 1);
  add(s, g, 3, 2, 3, 3, 0, 1);
}

static void layouts(void **state) {
  (void)state;
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_SCATTER, 5, 2, -1, 1, "x", &err), TC_OK);
  assert_int_equal(s.nshards, 5);
  assert_int_equal(tc_schedule_owner(&s, 4), 2);
  assert_int_equal(tc_schedule_dest(&s, 4), 4);
  assert_int_equal(tc_schedule_root(&s), 2);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_GATHER, 5, 3, -1, 1, "x", &err), TC_OK);
  assert_null(s.owner);
  assert_int_equal(tc_schedule_owner(&s, 1), 1);
  assert_int_equal(tc_schedule_dest(&s, 1), 3);
  assert_int_equal(tc_schedule_root(&s), 3);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_P2P, 5, 1, 4, 6, "x", &err), TC_OK);
  assert_int_equal(s.nshards, 1);
  assert_int_equal(tc_schedule_owner(&s, 0), 1);
  assert_int_equal(tc_schedule_dest(&s, 0), 4);
  assert_true(tc_collective_flows(TC_COLL_P2P));
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_BROADCAST, 5, 1, -1, 2, "x", &err), TC_OK);
  assert_int_equal(s.nshards, 1);
  assert_int_equal(tc_schedule_root(&s), 1);
  assert_int_equal(s.dest, -1);
  tc_schedule_destroy(&s);
  /* refusals, one line each */
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_P2P, 5, 2, 2, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "p2p source and destination are both node 2");
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_P2P, 5, 2, 5, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "p2p destination 5 outside 0..4");
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_GATHER, 5, -1, -1, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "gather root -1 outside 0..4");
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_ALLGATHER, 5, 0, -1, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "allgather has no root");
  assert_int_equal(tc_schedule_init(&s, TC_COLL_SCATTER, 5, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "scatter has a fixed layout: start it with tc_schedule_init_rooted");
  assert_int_equal(tc_collective_parse("scatter"), TC_COLL_SCATTER);
  assert_int_equal(tc_collective_parse("gather"), TC_COLL_GATHER);
  assert_int_equal(tc_collective_parse("p2p"), TC_COLL_P2P);
  assert_string_equal(tc_collective_name(TC_COLL_P2P), "p2p");
}

static void scatter_verified_and_costed(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,4)");
  tc_schedule s;
  tc_error err;
  ring_scatter(g, &s);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 3);
  /* d = 1, C = 4 shards of M/4: loads 3, 2, 1 shards -> tau = 6/4 */
  assert_int_equal(c.tau.num, 3);
  assert_int_equal(c.tau.den, 2);
  /* the root sends 3/4 of M over its one link */
  assert_int_equal(c.tau_optimal.num, 3);
  assert_int_equal(c.tau_optimal.den, 4);
  assert_false(c.bw_optimal);
  tc_cost_destroy(&c);

  /* mutations: the last hop dropped; a relay sends before it holds; the root's own shard moved */
  tc_schedule m;
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  m.count--;
  expect_fail(g, &m, "node 3 never receives units [0,1) of shard 3 (owner 0), whose destination it is");
  tc_schedule_destroy(&m);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  m.xfer[3].step = 1; /* 1 -> 2 of shard 2 in step 1 */
  expect_fail(g, &m, "transfer #3 (shard 2, 1 -> 2, step 1, units [0,1) of 1): node 1 sends units [0,1) of shard "
                     "2 before holding them");
  tc_schedule_destroy(&m);
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  add(&m, g, 0, 0, 1, 1, 0, 1);
  expect_fail(g, &m, "transfer #6 (shard 0, 0 -> 1, step 1, units [0,1) of 1) moves a local shard (its owner is its "
                     "destination: never transferred)");
  tc_schedule_destroy(&m);
  /* too few transfers: counted before any replay */
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  m.count = 2;
  m.steps = 1;
  expect_fail(g, &m, "scatter among 4 compute nodes needs at least 3 transfers (one into the destination of each "
                     "shard that moves), but the schedule has 2");
  /* the layout itself: a shard not owned by the root */
  m.count = s.count;
  m.steps = s.steps;
  m.owner[2] = 1;
  expect_fail(g, &m, "scatter shard 2 belongs to node 1, not the root 0");
  tc_schedule_destroy(&m);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void gather_is_the_reverse(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,4)");
  tc_graph *gt = NULL;
  tc_error err;
  assert_int_equal(tc_graph_transpose(g, &gt, &err), TC_OK);
  tc_schedule s, r;
  ring_scatter(g, &s);
  assert_int_equal(tc_schedule_reverse(g, &s, gt, &r, &err), TC_OK);
  assert_int_equal(r.coll, TC_COLL_GATHER);
  assert_int_equal(tc_schedule_root(&r), 0);
  assert_null(r.owner);
  assert_int_equal(tc_schedule_verify(gt, &r, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(gt, &r, &c, &err), TC_OK);
  assert_int_equal(c.steps, 3);
  assert_int_equal(c.tau.num, 3);
  assert_int_equal(c.tau.den, 2);
  assert_int_equal(c.tau_optimal.num, 3); /* the root receives 3/4 of M over one link */
  assert_int_equal(c.tau_optimal.den, 4);
  tc_cost_destroy(&c);
  /* and back: a scatter again, equal to the original transfer for transfer */
  tc_schedule back;
  assert_int_equal(tc_schedule_reverse(gt, &r, g, &back, &err), TC_OK);
  assert_int_equal(back.coll, TC_COLL_SCATTER);
  assert_int_equal(tc_schedule_verify(g, &back, &err), TC_OK);
  tc_schedule_sort(&back);
  tc_schedule_sort(&s);
  assert_int_equal(back.count, s.count);
  assert_memory_equal(back.xfer, s.xfer, (size_t)s.count * sizeof *s.xfer);
  /* a gather whose shard 2 stops one hop short of the root */
  for (int64_t i = 0; i < r.count; i++)
    if (r.xfer[i].shard == 2 && gt->dst[r.xfer[i].arc] == 0) r.xfer[i] = r.xfer[--r.count];
  expect_fail(gt, &r, "node 0 never receives units [0,1) of shard 2 (owner 2), whose destination it is");
  /* relabel through the rotation u -> u+1 (an automorphism of the graph): a scatter from
     node 1, shard k+1 on each image of shard k's transfers, verified */
  int32_t rot[4] = {1, 2, 3, 0};
  tc_schedule out;
  assert_int_equal(tc_schedule_relabel(g, &s, g, rot, &out, &err), TC_OK);
  assert_int_equal(out.coll, TC_COLL_SCATTER);
  assert_int_equal(tc_schedule_root(&out), 1);
  assert_int_equal(out.count, s.count);
  for (int64_t i = 0; i < s.count; i++) {
    assert_int_equal(out.xfer[i].shard, rot[s.xfer[i].shard]);
    assert_int_equal(g->src[out.xfer[i].arc], rot[g->src[s.xfer[i].arc]]);
    assert_int_equal(g->dst[out.xfer[i].arc], rot[g->dst[s.xfer[i].arc]]);
  }
  assert_int_equal(tc_schedule_verify(g, &out, &err), TC_OK);
  tc_schedule_destroy(&out);
  /* and a gather (the reverse, on the transpose, where the rotation is an automorphism too):
     its root moves with it, shard k (node k's) becomes shard k+1 */
  tc_schedule r2;
  assert_int_equal(tc_schedule_reverse(g, &s, gt, &r2, &err), TC_OK);
  assert_int_equal(tc_schedule_relabel(gt, &r2, gt, rot, &out, &err), TC_OK);
  assert_int_equal(out.coll, TC_COLL_GATHER);
  assert_int_equal(tc_schedule_root(&out), 1);
  for (int64_t i = 0; i < r2.count; i++) assert_int_equal(out.xfer[i].shard, rot[r2.xfer[i].shard]);
  assert_int_equal(tc_schedule_verify(gt, &out, &err), TC_OK);
  tc_schedule_destroy(&out);
  tc_schedule_destroy(&r2);
  tc_schedule_destroy(&back);
  tc_schedule_destroy(&r);
  tc_schedule_destroy(&s);
  tc_graph_destroy(gt);
  tc_graph_destroy(g);
}

/* P2P 0 -> 3 on complete(4) over three paths, a third each: direct, via 1, via 2. */
static void three_paths(const tc_graph *g, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init_rooted(s, TC_COLL_P2P, 4, 0, 3, 3, "hand", &err), TC_OK);
  add(s, g, 0, 0, 3, 1, 0, 1);
  add(s, g, 0, 0, 1, 1, 1, 2);
  add(s, g, 0, 0, 2, 1, 2, 3);
  add(s, g, 0, 1, 3, 2, 1, 2);
  add(s, g, 0, 2, 3, 2, 2, 3);
}

static void p2p_flows(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(4)");
  tc_schedule s, m;
  tc_error err;
  three_paths(g, &s);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 2);
  /* d = 3, one shard: 1/3 of M per step on the busiest link, two steps -> tau = 3 * 2/3 */
  assert_int_equal(c.tau.num, 2);
  assert_int_equal(c.tau.den, 1);
  assert_int_equal(c.tau_optimal.num, 1); /* d / maxflow(0, 3) = 3/3 */
  assert_int_equal(c.tau_optimal.den, 1);
  assert_int_equal(c.moore_steps, 1); /* the distance 0 -> 3 */
  assert_false(c.moore_optimal);
  tc_cost_destroy(&c);
  /* a relay sends one third twice: flow semantics hand a unit on once */
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  add(&m, g, 0, 1, 2, 2, 1, 2);
  expect_fail(g, &m, "transfer #5 (shard 0, 1 -> 2, step 2, units [1,2) of 3): node 1 has already sent on every "
                     "copy of units [1,2) of shard 0 (0 -> 3) it held");
  tc_schedule_destroy(&m);
  /* the destination passes a unit on */
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  add(&m, g, 0, 3, 1, 3, 0, 1);
  expect_fail(g, &m, "transfer #5 (shard 0, 3 -> 1, step 3, units [0,1) of 3): node 3 sends on units [0,1) of "
                     "shard 0 (0 -> 3), whose destination it is");
  tc_schedule_destroy(&m);
  /* a third stranded at its relay */
  assert_int_equal(tc_schedule_copy(&s, &m, &err), TC_OK);
  m.count--;
  expect_fail(g, &m, "node 3 never receives units [2,3) of shard 0 (owner 0)");
  tc_schedule_destroy(&m);
  /* reversed: p2p 3 -> 0 on the transpose (complete(4) is its own) */
  tc_schedule r;
  assert_int_equal(tc_schedule_reverse(g, &s, g, &r, &err), TC_OK);
  assert_int_equal(r.coll, TC_COLL_P2P);
  assert_int_equal(tc_schedule_root(&r), 3);
  assert_int_equal(r.dest, 0);
  assert_int_equal(tc_schedule_verify(g, &r, &err), TC_OK);
  tc_schedule_destroy(&r);
  /* relabelled by the swap of 0 and 2 (complete(4)'s automorphism): p2p 2 -> 3, verified */
  int32_t swap[4] = {2, 1, 0, 3};
  assert_int_equal(tc_schedule_relabel(g, &s, g, swap, &r, &err), TC_OK);
  assert_int_equal(tc_schedule_root(&r), 2);
  assert_int_equal(r.dest, 3);
  assert_int_equal(tc_schedule_verify(g, &r, &err), TC_OK);
  tc_schedule_destroy(&r);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Message-combine and the local reorder term (cost.h): a scatter around uniring(1,4) whose
   first message combines shards 1 and 3 — not adjacent in either buffer, so node 0 packs
   and node 1 unpacks two shards of M/4 in step 1; every other message is one shard. */
static void local_copy_of_combined_messages(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,4)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init_rooted(&s, TC_COLL_SCATTER, 4, 0, -1, 1, "hand", &err), TC_OK);
  add(&s, g, 1, 0, 1, 1, 0, 1);
  add(&s, g, 3, 0, 1, 1, 0, 1);
  add(&s, g, 2, 0, 1, 2, 0, 1);
  add(&s, g, 3, 1, 2, 2, 0, 1);
  add(&s, g, 2, 1, 2, 3, 0, 1);
  add(&s, g, 3, 2, 3, 3, 0, 1);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, 3);
  assert_int_equal(c.tau.num, 1); /* loads 2, 1, 1 shards of M/4 */
  assert_int_equal(c.tau.den, 1);
  assert_int_equal(c.local_copy.num, 1); /* 2 shards of M/4 in step 1, nothing after */
  assert_int_equal(c.local_copy.den, 2);
  /* alpha 1 s, 1 B/s links, M = 8 B: 3 + 1 * 8 = 11 s; copies at 2 B/s add 1/2 * 8 / 2 */
  assert_true(tc_cost_time(&c, 1, 1, 8) == 11.0);
  assert_true(tc_cost_time_copy(&c, 1, 1, 8, 2) == 13.0);
  assert_true(tc_cost_time_copy(&c, 1, 1, 8, 0) == 11.0);
  tc_cost_destroy(&c);
  /* in step order or not, the same */
  tc_transfer t = s.xfer[0];
  s.xfer[0] = s.xfer[5];
  s.xfer[5] = t;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.local_copy.num, 1);
  assert_int_equal(c.local_copy.den, 2);
  tc_cost_destroy(&c);
  /* the shards in order (1, 2, 3 in step 1): one contiguous range at both ends, no copy */
  tc_schedule_destroy(&s);
  ring_scatter(g, &s);
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.local_copy.num, 0);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void files_round_trip(void **state) {
  tc_tmpdir *f = *state;
  tc_graph *g = tc_test_spec("complete(4)");
  char path[PATH_MAX];
  tc_error err;
  tc_schedule s;
  three_paths(g, &s);
  tc_tmpdir_path(f, "p2p.json", path, sizeof path);
  assert_int_equal(tc_schedule_write_json(g, "complete(4)", &s, path, &err), TC_OK);
  char *text = tc_files_slurp(path);
  assert_non_null(strstr(text, "\"source\": 0,\n    \"destination\": 3,"));
  assert_null(strstr(text, "owners"));
  free(text);
  tc_schedule_doc doc;
  assert_int_equal(tc_schedule_read_json(path, g, &doc, &err), TC_OK);
  assert_int_equal(doc.sched.coll, TC_COLL_P2P);
  assert_int_equal(tc_schedule_root(&doc.sched), 0);
  assert_int_equal(doc.sched.dest, 3);
  assert_int_equal(doc.sched.count, s.count);
  assert_int_equal(tc_schedule_verify(doc.graph, &doc.sched, &err), TC_OK);
  tc_schedule_doc_destroy(&doc);
  tc_schedule_destroy(&s);

  tc_graph *ring = tc_test_spec("uniring(1,4)");
  ring_scatter(ring, &s);
  assert_int_equal(tc_schedule_write_json(ring, NULL, &s, path, &err), TC_OK);
  text = tc_files_slurp(path);
  assert_non_null(strstr(text, "\"root\": 0,"));
  free(text);
  assert_int_equal(tc_schedule_read_json(path, ring, &doc, &err), TC_OK);
  assert_int_equal(doc.sched.coll, TC_COLL_SCATTER);
  assert_int_equal(tc_schedule_root(&doc.sched), 0);
  assert_int_equal(tc_schedule_verify(doc.graph, &doc.sched, &err), TC_OK);
  tc_schedule_doc_destroy(&doc);
  tc_schedule_destroy(&s);

  /* refusals: one line naming the JSON path */
  static const struct {
    const char *sched, *msg;
  } bad[] = {
      {"\"collective\": \"gather\", \"algorithm\": \"x\", \"nodes\": 4, \"nshards\": 4, \"owners\": [0, 1, 2, 3], "
       "\"root\": 0,",
       "schedule.owners: gather takes no owners (its layout is fixed by schedule.root)"},
      {"\"collective\": \"scatter\", \"algorithm\": \"x\", \"nodes\": 4, \"nshards\": 2, \"root\": 0,",
       "schedule.nshards: 2, but scatter on 4 nodes has 4"},
      {"\"collective\": \"scatter\", \"algorithm\": \"x\", \"nodes\": 4, \"nshards\": 4,",
       "schedule.root: missing"},
      {"\"collective\": \"p2p\", \"algorithm\": \"x\", \"nodes\": 4, \"nshards\": 1, \"source\": 2, "
       "\"destination\": 2,",
       "schedule.destination: 2, the source too (p2p needs two nodes)"},
      {"\"collective\": \"p2p\", \"algorithm\": \"x\", \"nodes\": 4, \"nshards\": 1, \"root\": 2,",
       "schedule.root: p2p has no root (it has source and destination)"},
      {"\"collective\": \"allgather\", \"algorithm\": \"x\", \"nodes\": 4, \"nshards\": 4, \"root\": 1,",
       "schedule.root: only scatter and gather have one (allgather has owners)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char doc_text[2048], want[PATH_MAX + 512];
    snprintf(doc_text, sizeof doc_text,
             "{\"format\": \"topocoll-schedule\", \"version\": 1, \"graph\": {\"nodes\": 4, \"arcs\": [[0, 1], [1, 2], "
             "[2, 3], [3, 0]]}, \"schedule\": {%s \"units\": 1, \"steps\": 1, \"rs_steps\": 0, \"transfers\": "
             "[[1, 1, 0, 0, 1]]}}",
             bad[i].sched);
    tc_files_spill(path, doc_text, strlen(doc_text));
    assert_int_equal(tc_schedule_read_json(path, NULL, &doc, &err), TC_EINPUT);
    snprintf(want, sizeof want, "%s: %s", path, bad[i].msg);
    assert_string_equal(err.msg, want);
  }
  tc_graph_destroy(ring);
  tc_graph_destroy(g);
}

static int setup(void **state) { return tc_tmpdir_setup(state, "tc-rooted"); }
static int teardown(void **state) { return tc_tmpdir_teardown(state); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(layouts),
      cmocka_unit_test(scatter_verified_and_costed),
      cmocka_unit_test(gather_is_the_reverse),
      cmocka_unit_test(p2p_flows),
      cmocka_unit_test(local_copy_of_combined_messages),
      cmocka_unit_test_setup_teardown(files_round_trip, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
