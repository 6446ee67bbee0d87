/*
** test_plan.c — the plan at library level (plan.h): tc_workload_parse_sizes,
** tc_plan_make, tc_plan_time, tc_plan_baseline_time, tc_plan_check_dir, tc_plan_write,
** tc_plan_destroy. (tests/cli_plan.sh drives the same job through `topocoll plan` at
** N = 64; this file holds the library to exact values at N = 16, d = 4.)
**
** The cluster: N = 16, d = 4, α = 10 µs, one link 25 Gbit/s = 3.125e9 B/s, so the node
** bandwidth is B = 4 · 3.125e9 = 1.25e10 B/s and M/B = 80 µs at M = 1 MB.
**
** Expected numbers, each from an argument that does not run the code under test (the
** frontier members were found by running the finder once; everything said about them is
** then derived by hand and checked with the Floyd–Warshall oracle of tc_test.h):
**   - lower bounds: T_L >= T_L*(16,4) = 2 (paper 000 Def. 10: M_{4,1} = 5 < 16 <= M_{4,2} =
**     21) and tau >= 15/16 (Thm 4);
**   - unidirectional frontier, steps ascending: debruijn(4,2) at (2, 5/4) and
**     circulant(16,3,4) at (3, 15/16).
**       debruijn(4,2): 16 nodes xy -> yz, diameter 2 (two shifts reach any string), so
**       2 = T_L* steps. Its BFB tau: in step 1 every non-loop arc carries its tail's
**       shard (load 1: the tail is its only holder); in step 2 a node yy (one of its four
**       in-arcs is a self-loop) must get the 16 - 1 - 3 = 12 shards at distance 2 through
**       3 in-arcs, load >= 4.
**       tau = (d/N)(1 + 4) = (4/16) 5 = 5/4, the least any BFB schedule can have here.
**       circulant(16,3,4) = C(16,{3,4}) (paper 000 Thm 22, n = 16 -> m = 3): distance
**       layers 4 ({±3,±4}), 7 ({±1,±6,±7,8}), 4 ({±2,±5}), so diameter 3 and average
**       distance (4 + 14 + 12)/15 = 2; BW-optimal, tau = 15/16 (App. F.4: a degree-4 circulant
**       has a BW-optimal BFB schedule, and Thm 4's bound is (N-1)/N).
**   - the choice, 2(T_L α + tau M/B) per size (paper 000 §5.4, Table 4's column): at 1 MB
**     debruijn 2(20 + 100) = 240 µs, circulant 2(30 + 75) = 210 µs -> circulant; at 1 KB
**     (M/B = 0.08 µs) 40.2 µs against 60.15 µs -> debruijn; weighted 1KB:3,1MB:1 gives
**     (3·40.2 + 240)/4 = 90.15 against (3·60.15 + 210)/4 = 97.6125 -> debruijn. (The two
**     cross at M = 400 KB, where 10 µs of latency buys (5/4 - 15/16) M/B.)
**   - bidirectional only: C(16,{3,4}) alone at (3, 15/16). No undirected graph of maximum
**     degree 4 and diameter 2 has 16 = 4^2 nodes (Erdős, Fajtlowicz and Hoffman, 1980:
**     apart from C_4, none has the Moore bound d^2 + 1 minus one vertices), so every
**     bidirectional member takes >= 3 steps (Thm 3: T_L >= D(G)), and 15/16 is Thm 4's
**     bound: (3, 15/16) is the only Pareto point there is. The frontier's bound row is the
**     undirected Moore bound T_L**(16,4) = 2 (1 + 4 + 4·3 = 17 >= 16; paper 000 Table 8).
**   - measured costs of the chosen member: the allgather's own (3, 15/16) or (2, 5/4);
**     reduce-scatter the same (Theorem 2: C(16,{3,4}) is undirected and de Bruijn is
**     reverse-symmetric, Table 9 row 11, by string reversal); allreduce = RS + AG doubles
**     both (§3): (6, 15/8) or (4, 5/2).
**   - baselines on the same N, d (allreduce): the ring on UniRing(4,16) (or the
**     bidirectional ring on BiRing(4,16)) 2(N-1) = 30 steps, 2(N-1)/N = 15/8 (paper 000
**     App. C.2, F.1); the BFB ring 2⌊N/2⌋ = 16 steps, 15/8 (App. F.1, A.2); the double
**     binary tree with P chunks: K = ⌊log2 16⌋ = 4, 2(K+P-1) steps, tau = d(K+P-1)/P
**     (the derivation is in test_baselines.c), for P = 1, 2, ..., 64.
**   - times: tc_plan_time = steps α + tau M/(d b) from the measured allreduce: 6 · 10 µs +
**     (15/8) · 80 µs = 210 µs at 1 MB; ring 30 · 10 + 150 = 450 µs.
** Files: exactly the seven of plan.h and its marker; topology.json reads back arc for arc;
** each schedule file reads back (sched_io.h) and verifies; an occupied directory is refused
** with TC_EINPUT and left as it was; an empty one is filled; `force` replaces a plan
** directory and refuses any other occupied one, touching nothing; "-" is refused. Every plan lives
** in a fresh directory under $TMPDIR, removed afterwards (teardown fails if anything is
** left, e.g. a stray temporary directory).
*/
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "tc_files.h"
#include "tc_test.h"
#include "topocoll/graph_io.h"
#include "topocoll/metrics.h"
#include "topocoll/plan.h"
#include "topocoll/sched_io.h"
#include "topocoll/verify.h"

#define ALPHA 1e-5     /* 10us */
#define LINK_BW 3.125e9 /* 25Gbps */

#define NPLAN_FILES 8
static const char *const PLAN_FILES[NPLAN_FILES] = {
    TC_PLAN_MARKER, "allgather.json", "allreduce.json", "reduce-scatter.json", "summary.md",
    "topology.dot", "topology.json",  "wiring.csv"}; /* sorted */

/* ---- helpers ---- */

static void parse_ok(const char *text, tc_workload *w) {
  tc_error err;
  if (tc_workload_parse_sizes(text, w, &err)) fail_msg("sizes \"%s\": %s", text, err.msg);
}

static void parse_refused(const char *text, const char *msg) {
  tc_workload w;
  tc_error err;
  int rc = tc_workload_parse_sizes(text, &w, &err);
  if (rc != TC_EINPUT) fail_msg("sizes \"%s\": rc %d, want TC_EINPUT", text, rc);
  if (strcmp(err.msg, msg)) fail_msg("sizes \"%s\":\n  got  '%s'\n  want '%s'", text, err.msg, msg);
}

typedef struct progress_log {
  int calls;
  int begins, ends; /* of the counted phases: reports of done 0, of done == total */
} progress_log;

/* topocoll/progress.h: a phase in words on one line; 0 <= done <= total when counted. */
static void on_progress(void *ctx, const char *phase, double done, double total) {
  progress_log *log = ctx;
  assert_non_null(phase);
  assert_true(phase[0] != '\0');
  assert_null(strchr(phase, '\n'));
  assert_true(done >= 0 && total >= 0);
  if (total > 0) {
    assert_true(done <= total);
    log->begins += done == 0;
    log->ends += done == total;
  }
  log->calls++;
}

static void make_plan(int bidirectional, const char *sizes, tc_plan *p) {
  tc_find_options o = {.nodes = 16, .degree = 4, .bidirectional = bidirectional, .build = 0};
  tc_workload w;
  memset(&w, 0, sizeof w);
  parse_ok(sizes, &w);
  w.alpha_s = ALPHA;
  w.link_bw = LINK_BW;
  progress_log log = {0};
  tc_error err;
  if (tc_plan_make(&o, &w, on_progress, &log, p, &err)) fail_msg("plan N=16 d=4 %s: %s", sizes, err.msg);
  assert_true(log.calls >= 1);
  /* every counted phase that began ended: resilience, baselines, ForestColl's packing (at least) */
  assert_int_equal(log.begins, log.ends);
  assert_true(log.begins >= 3);
}

static void assert_rat(tc_rat got, int64_t num, int64_t den, const char *what) {
  if (got.num * den != num * got.den || got.den <= 0)
    fail_msg("%s = %lld/%lld, want %lld/%lld", what, (long long)got.num, (long long)got.den, (long long)num,
             (long long)den);
}

static void assert_member(const tc_candidate *c, const char *spec, int32_t steps, int64_t num, int64_t den) {
  assert_string_equal(c->spec, spec);
  assert_int_equal(c->nodes, 16);
  assert_int_equal(c->degree, 4);
  if (c->steps != steps) fail_msg("%s: predicted steps %d, want %d", spec, c->steps, steps);
  assert_rat(c->tau, num, den, spec);
  assert_false(c->tau_is_bound);
}

/* Every field of a measured cost the plan relies on. */
static void assert_measured(const tc_cost *c, int32_t steps, int64_t num, int64_t den, int bw_optimal,
                            int32_t moore_steps, const char *what) {
  if (c->steps != steps) fail_msg("%s: steps %d, want %d", what, c->steps, steps);
  assert_int_equal(c->degree, 4);
  assert_rat(c->tau, num, den, what);
  assert_int_equal(c->bw_optimal, bw_optimal);
  assert_int_equal(c->moore_steps, moore_steps);
  assert_int_equal(c->moore_optimal, steps == moore_steps);
}

/* The chosen member's schedules: verified, on the plan's graph, with the costs expected. */
static void assert_schedules(const tc_plan *p, int32_t ag_steps, int64_t num, int64_t den, int bw_optimal,
                             int allreduce_bw_optimal) {
  tc_error err;
  const tc_schedule *s[3] = {&p->allgather, &p->reduce_scatter, &p->allreduce};
  static const tc_collective coll[3] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(s[i]->coll, coll[i]);
    assert_int_equal(s[i]->nodes, 16);
    if (tc_schedule_verify(p->graph, s[i], &err)) fail_msg("%s: %s", tc_collective_name(coll[i]), err.msg);
  }
  assert_measured(&p->allgather_cost, ag_steps, num, den, bw_optimal, 2, "allgather");
  assert_measured(&p->reduce_scatter_cost, ag_steps, num, den, bw_optimal, 2, "reduce-scatter");
  assert_measured(&p->allreduce_cost, 2 * ag_steps, 2 * num, den, allreduce_bw_optimal, 4, "allreduce");
  assert_int_equal(p->allreduce.rs_steps, ag_steps);
}

/* The graph built for `spec` must be the plan's graph, arc for arc. */
static void assert_same_graph(const tc_graph *a, const tc_graph *b) {
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->m, b->m);
  for (int64_t i = 0; i < a->m; i++) {
    assert_int_equal(a->src[i], b->src[i]);
    assert_int_equal(a->dst[i], b->dst[i]);
    assert_int_equal(a->cap[i], b->cap[i]);
  }
  assert_int_equal(a->bidirectional, b->bidirectional);
}

/* The baselines, in the order plan.h's summary lists them: the ring the fabric allows, the
   BFB ring, the double binary tree at P = 1, 2, ..., 64. */
static void assert_baselines(const tc_plan *p, int bidirectional) {
  assert_int_equal(p->nbaselines, 9);
  const tc_plan_baseline *ring = &p->baseline[0], *bfb = &p->baseline[1];
  assert_string_equal(ring->name, bidirectional ? "biring" : "ring");
  assert_string_equal(ring->topology, bidirectional ? "biring(4,16)" : "uniring(4,16)");
  assert_string_equal(bfb->name, "bfbring");
  assert_string_equal(bfb->topology, "biring(4,16)");
  for (int i = 0; i < 2; i++) {
    const tc_plan_baseline *b = &p->baseline[i];
    assert_true(b->available);
    assert_int_equal(b->chunks, 1);
    assert_int_equal(b->degree, 4);
    assert_rat(b->tau, 15, 8, b->name); /* 2(N-1)/N */
  }
  assert_int_equal(ring->steps, 30); /* 2(N-1) */
  assert_int_equal(bfb->steps, 16);  /* 2 floor(N/2) */
  const int K = 4;
  for (int i = 0, P = 1; i < 7; i++, P *= 2) {
    const tc_plan_baseline *b = &p->baseline[2 + i];
    assert_string_equal(b->name, "dbt");
    assert_true(b->available);
    assert_int_equal(b->chunks, P);
    assert_int_equal(b->degree, 4);
    assert_int_equal(b->steps, 2 * (K + P - 1));
    assert_rat(b->tau, 4 * (K + P - 1), P, "dbt");
  }
  /* the times at 1 MB: ring 30·10 µs + (15/8)·80 µs = 450 µs; BFB ring 160 + 150 = 310 µs;
     the tree at P = 8: 22·10 + (11/2)·80 = 660 µs. Written as cost.h's formula, same order. */
  assert_true(tc_plan_baseline_time(p, ring, 1e6) == 30 * ALPHA + 1.875 * 1e6 / (4.0 * LINK_BW));
  assert_true(tc_plan_baseline_time(p, bfb, 1e6) == 16 * ALPHA + 1.875 * 1e6 / (4.0 * LINK_BW));
  assert_true(tc_plan_baseline_time(p, &p->baseline[5], 1e6) == 22 * ALPHA + 5.5 * 1e6 / (4.0 * LINK_BW));
  assert_true(fabs(tc_plan_baseline_time(p, ring, 1e6) - 450e-6) < 1e-15);
  assert_true(fabs(tc_plan_baseline_time(p, &p->baseline[5], 1e6) - 660e-6) < 1e-15);
}

/* Distance layers of node 0 by the oracle: counts[t] = nodes at distance t. */
static void assert_layers(const tc_graph *g, const int *want, int depth) {
  int *d = tc_test_floyd(g), counts[8] = {0};
  for (int v = 0; v < g->n; v++) {
    assert_true(d[v] >= 0 && d[v] < 8);
    counts[d[v]]++;
  }
  free(d);
  for (int t = 0; t <= depth; t++) assert_int_equal(counts[t], want[t]);
  assert_int_equal(tc_test_floyd_diameter(g), depth);
}

/* ---- tc_workload_parse_sizes ---- */

static void sizes_grammar(void **state) {
  (void)state;
  tc_workload w;
  memset(&w, 0, sizeof w);
  w.alpha_s = 7;
  w.link_bw = 9;
  parse_ok("1MB", &w);
  assert_int_equal(w.count, 1);
  assert_true(w.bytes[0] == 1e6 && w.weight[0] == 1);
  assert_true(w.alpha_s == 7 && w.link_bw == 9); /* left untouched */
  parse_ok("1MB,64MB", &w);
  assert_int_equal(w.count, 2);
  assert_true(w.bytes[0] == 1e6 && w.bytes[1] == 64e6);
  assert_true(w.weight[0] == 1 && w.weight[1] == 1); /* equal weights */
  parse_ok("1MB:3,64MB:1", &w);
  assert_int_equal(w.count, 2);
  assert_true(w.weight[0] == 3 && w.weight[1] == 1);
  parse_ok("1KiB:0.5,2GB,4MiB:2.25", &w); /* decimals; a missing weight is 1 */
  assert_int_equal(w.count, 3);
  assert_true(w.bytes[0] == 1024 && w.bytes[1] == 2e9 && w.bytes[2] == 4194304);
  assert_true(w.weight[0] == 0.5 && w.weight[1] == 1 && w.weight[2] == 2.25);
  parse_ok("1.5KB:10", &w);
  assert_int_equal(w.count, 1);
  assert_true(w.bytes[0] == 1500 && w.weight[0] == 10);
  /* at most 64 entries */
  char list[64 * 4 + 8] = "";
  for (int i = 1; i <= 64; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i > 1 ? "," : "", i);
  parse_ok(list, &w);
  assert_int_equal(w.count, 64);
  assert_true(w.bytes[63] == 64);
  strcat(list, ",65");
  char msg[512];
  snprintf(msg, sizeof msg, "more than 64 sizes in '%s'", list);
  parse_refused(list, msg);
}

static void sizes_refused(void **state) {
  (void)state;
  parse_refused("", "empty size list (e.g. 1MB or 1MB:3,64MB:1)");
  assert_int_equal(tc_workload_parse_sizes(NULL, &(tc_workload){0}, NULL), TC_EINPUT);
  parse_refused(",1MB", "item 1 of ',1MB' is empty");
  parse_refused("1MB,", "item 2 of '1MB,' is empty");
  parse_refused("1MB,,2MB", "item 2 of '1MB,,2MB' is empty");
  parse_refused("1MB:0", "item 1 ('1MB:0'): the weight after ':' must be a positive number");
  parse_refused("1MB:0.0", "item 1 ('1MB:0.0'): the weight after ':' must be a positive number");
  parse_refused("1MB:", "item 1 ('1MB:'): the weight after ':' must be a positive number");
  parse_refused("1MB:-1", "item 1 ('1MB:-1'): the weight after ':' must be a positive number");
  parse_refused("1MB:x", "item 1 ('1MB:x'): the weight after ':' must be a positive number");
  parse_refused("1MB:1e3", "item 1 ('1MB:1e3'): the weight after ':' must be a positive number");
  parse_refused("2KB,1MB:2:3", "item 2 ('1MB:2:3'): the weight after ':' must be a positive number");
  /* a bad size is the units.h message, prefixed with the item */
  parse_refused("1XB", "item 1: size \"1XB\": unknown unit \"XB\" (expected B, KB, MB, GB, K, M, G, KiB, MiB or GiB)");
  parse_refused("1MB,0:2", "item 2: size \"0\" must be positive");
  parse_refused("1MB,0.3B", "item 2: size \"0.3B\" is not a whole number of bytes");
  parse_refused(":3", "item 1: empty size (expected e.g. 1MB)");
  /* an item of 128 characters or more */
  char text[160];
  memset(text, '1', 130);
  text[130] = '\0';
  char msg[512];
  snprintf(msg, sizeof msg, "item 1 of '%s' is too long", text);
  parse_refused(text, msg);
}

/* ---- tc_plan_make ---- */

static void unidirectional_large_size(void **state) {
  (void)state;
  tc_plan p;
  make_plan(0, "1MB", &p);
  const tc_frontier *f = &p.frontier;
  assert_int_equal(f->count, 2);
  assert_int_equal(f->bound_steps, 2);
  assert_rat(f->bound_tau, 15, 16, "bound");
  assert_member(&f->member[0], "debruijn(4,2)", 2, 5, 4);
  assert_member(&f->member[1], "circulant(16,3,4)", 3, 15, 16);
  assert_int_equal(p.chosen, 1); /* 210 µs < 240 µs at 1 MB */
  const tc_candidate *c = &f->member[1];
  assert_true(c->built && c->verified);
  assert_int_equal(c->measured_steps, 3);
  assert_rat(c->measured_tau, 15, 16, "measured");
  assert_int_equal(c->diameter, 3);
  assert_true(c->avg_distance == 2.0);
  /* the graph is C(16,{3,4}): layers 1, 4, 7, 4 from node 0 */
  tc_graph *want = tc_test_spec("circulant(16,3,4)");
  assert_same_graph(p.graph, want);
  tc_graph_destroy(want);
  static const int layers[] = {1, 4, 7, 4};
  assert_layers(p.graph, layers, 3);
  assert_int_equal(tc_graph_out_regular(p.graph), 4);
  assert_true(p.graph->bidirectional);
  assert_int_equal(p.reverse_symmetric, 1);
  assert_schedules(&p, 3, 15, 16, 1, 1);
  /* tc_plan_time: 6·10 µs + (15/8)(1 MB)/(4 · 3.125e9 B/s) = 60 + 150 = 210 µs, the
     allreduce time the choice predicted; both written out in cost.h's order */
  double t = tc_plan_time(&p, 1e6);
  assert_true(t == 6 * ALPHA + 1.875 * 1e6 / (4.0 * LINK_BW));
  assert_true(fabs(t - 210e-6) < 1e-15);
  assert_true(fabs(tc_candidate_allreduce_time(c, &p.workload) - t) < 1e-15);
  assert_true(fabs(tc_candidate_allreduce_time(&f->member[0], &p.workload) - 240e-6) < 1e-15);
  /* 64 MB: 60 µs + (15/8)(64e6)/(1.25e10) = 60 µs + 9.6 ms */
  assert_true(tc_plan_time(&p, 64e6) == 6 * ALPHA + 1.875 * 64e6 / (4.0 * LINK_BW));
  assert_baselines(&p, 0);
  tc_plan_destroy(&p);
  assert_null(p.graph); /* destroy empties the plan */
  assert_int_equal(p.frontier.count, 0);
}

/* Small sizes favour few steps (paper 000 §5.4, Table 2): de Bruijn, Moore-optimal. */
static void unidirectional_small_sizes(void **state) {
  (void)state;
  static const char *const workloads[2] = {"1KB", "1KB:3,1MB:1"};
  static const double expected_us[2] = {40.2, 90.15};
  for (int k = 0; k < 2; k++) {
    tc_plan p;
    make_plan(0, workloads[k], &p);
    assert_int_equal(p.frontier.count, 2);
    assert_int_equal(p.chosen, 0);
    const tc_candidate *c = &p.frontier.member[0];
    assert_member(c, "debruijn(4,2)", 2, 5, 4);
    assert_true(fabs(tc_candidate_allreduce_time(c, &p.workload) - expected_us[k] * 1e-6) < 1e-15);
    assert_true(c->built && c->verified);
    assert_int_equal(c->diameter, 2);
    /* Σ distances: 12 nodes xy (x != y) with 4 neighbours + 11 at distance 2 = 26 each,
       4 nodes xx with 3 + 12 = 27 each; (12·26 + 4·27) / 240 = 420/240 = 1.75 */
    assert_true(c->avg_distance == 1.75);
    tc_graph *want = tc_test_spec("debruijn(4,2)");
    assert_same_graph(p.graph, want);
    tc_graph_destroy(want);
    assert_int_equal(tc_graph_count_self_loops(p.graph), 4);
    assert_int_equal(tc_test_floyd_diameter(p.graph), 2);
    assert_int_equal(p.reverse_symmetric, 1);
    /* 5/4 = (15/16)·(4/3): BW-optimal, the four looped nodes have three links from others;
       the allreduce's 5/2 is not: any allreduce needs only 2·15·4/60 = 2 (cost.h) */
    assert_schedules(&p, 2, 5, 4, 1, 0);
    assert_true(p.allgather_cost.moore_optimal);
    /* 4·10 µs + (5/2)·0.08 µs at 1 KB */
    assert_true(tc_plan_time(&p, 1e3) == 4 * ALPHA + 2.5 * 1e3 / (4.0 * LINK_BW));
    assert_true(fabs(tc_plan_time(&p, 1e3) - 40.2e-6) < 1e-15);
    assert_baselines(&p, 0);
    tc_plan_destroy(&p);
  }
}

static void bidirectional(void **state) {
  (void)state;
  tc_plan p;
  make_plan(1, "1MB", &p);
  assert_int_equal(p.frontier.count, 1);
  assert_int_equal(p.frontier.bound_steps, 2); /* T_L**(16,4) */
  assert_int_equal(tc_moore_diameter_undirected(16, 4), 2);
  assert_member(&p.frontier.member[0], "circulant(16,3,4)", 3, 15, 16);
  assert_true(p.frontier.member[0].bidirectional);
  assert_int_equal(p.chosen, 0);
  assert_true(p.graph->bidirectional);
  assert_schedules(&p, 3, 15, 16, 1, 1);
  assert_true(tc_plan_time(&p, 1e6) == 6 * ALPHA + 1.875 * 1e6 / (4.0 * LINK_BW));
  assert_baselines(&p, 1);
  tc_plan_destroy(&p);
}

/* A bad workload or cluster fails before anything is built, leaving *out empty. */
static void make_refusals(void **state) {
  (void)state;
  tc_find_options o = {.nodes = 16, .degree = 4};
  tc_workload w;
  memset(&w, 0, sizeof w);
  parse_ok("1MB", &w);
  w.alpha_s = ALPHA;
  w.link_bw = LINK_BW;
  tc_plan p;
  tc_error err;
  tc_workload bad = w;
  bad.count = 0;
  assert_int_equal(tc_plan_make(&o, &bad, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the workload needs 1..64 sizes (got 0)");
  bad = w;
  bad.link_bw = 0;
  assert_int_equal(tc_plan_make(&o, &bad, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the link bandwidth must be positive");
  bad = w;
  bad.alpha_s = -1e-6;
  assert_int_equal(tc_plan_make(&o, &bad, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "alpha must be a finite time >= 0");
  bad = w;
  bad.weight[0] = 0;
  assert_int_equal(tc_plan_make(&o, &bad, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "size 1 needs a positive size and weight");
  tc_find_options one = {.nodes = 1, .degree = 4};
  assert_int_equal(tc_plan_make(&one, &w, NULL, NULL, &p, &err), TC_EINPUT);
  assert_null(p.graph);
  assert_int_equal(p.frontier.count, 0);
  tc_plan_destroy(&p); /* safe on the empty plan */
}

/* ---- tc_plan_check_dir and tc_plan_write ---- */

/* Empty a flat directory (a plan) and remove it; 0 on success. */
static int remove_flat_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  char path[PATH_MAX + 256];
  int rc = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (unlink(path) != 0) rc = -1;
  }
  closedir(d);
  return rmdir(dir) != 0 ? -1 : rc;
}

static int setup(void **state) { return tc_tmpdir_setup(state, "topocoll-test-plan"); }

/* A test that fails half-way leaves plan directories behind: empty them before the shared
   teardown removes the rest. (Leftovers of a passing run are asserted against in the tests
   themselves, by counting the entries beside each plan.) */
static int teardown(void **state) {
  tc_tmpdir *tmp = *state;
  static const char *const subdirs[] = {"plan", "busy", "empty"};
  char path[PATH_MAX + 16];
  for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", tmp->dir, subdirs[i]);
    remove_flat_dir(path); /* absent after a passing run */
  }
  return tc_tmpdir_teardown(state);
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* dir holds exactly the seven plan files and the marker. */
static void assert_plan_files(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  char *names[16];
  int k = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (k == 16) fail_msg("too many files in %s", dir);
    names[k++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)k, sizeof *names, compare_names);
  if (k != NPLAN_FILES) fail_msg("%s holds %d files, want the %d of plan.h", dir, k, NPLAN_FILES);
  for (int i = 0; i < NPLAN_FILES; i++) assert_string_equal(names[i], PLAN_FILES[i]);
  for (int i = 0; i < k; i++) free(names[i]);
}

/* Read a schedule file back against the plan's graph, verify it, and compare it with the
   plan's schedule transfer for transfer and cost for cost. */
static void assert_schedule_file(const tc_plan *p, const char *dir, const char *name, const tc_schedule *s,
                                 const tc_cost *cost) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  tc_schedule_doc doc;
  tc_error err;
  if (tc_schedule_read_json(path, p->graph, &doc, &err)) fail_msg("%s: %s", name, err.msg);
  assert_string_equal(doc.spec, p->frontier.member[p->chosen].spec);
  if (tc_schedule_verify(doc.graph, &doc.sched, &err)) fail_msg("%s read back: %s", name, err.msg);
  assert_int_equal(doc.sched.coll, s->coll);
  assert_int_equal(doc.sched.units, s->units);
  assert_int_equal(doc.sched.steps, s->steps);
  assert_int_equal(doc.sched.rs_steps, s->rs_steps);
  assert_int_equal(doc.sched.count, s->count);
  assert_memory_equal(doc.sched.xfer, s->xfer, (size_t)s->count * sizeof *s->xfer);
  tc_cost c;
  assert_int_equal(tc_schedule_cost(doc.graph, &doc.sched, &c, &err), TC_OK);
  assert_int_equal(c.steps, cost->steps);
  assert_int_equal(tc_rat_cmp(c.tau, cost->tau), 0);
  tc_cost_destroy(&c);
  tc_schedule_doc_destroy(&doc);
}

static void write_and_read_back(void **state) {
  tc_tmpdir *tmp = *state;
  tc_plan p;
  make_plan(0, "1MB", &p);
  char out[PATH_MAX];
  tc_tmpdir_path(tmp, "plan", out, sizeof out);
  tc_error err;
  assert_int_equal(tc_plan_check_dir(out, 0, &err), TC_OK); /* does not exist yet */
  progress_log log = {0};
  if (tc_plan_write(&p, out, 0, on_progress, &log, &err)) fail_msg("write: %s", err.msg);
  assert_true(log.calls >= 1);
  assert_plan_files(out);
  assert_int_equal(tc_files_count(tmp->dir), 1); /* no temporary left beside it */
  /* topology.json: the chosen graph, arc for arc */
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/topology.json", out);
  tc_graph *g = NULL;
  if (tc_graph_read_json(path, &g, &err)) fail_msg("topology.json: %s", err.msg);
  assert_same_graph(g, p.graph);
  tc_graph_destroy(g);
  /* the three schedules read back, verify and cost as in memory */
  assert_schedule_file(&p, out, "allgather.json", &p.allgather, &p.allgather_cost);
  assert_schedule_file(&p, out, "reduce-scatter.json", &p.reduce_scatter, &p.reduce_scatter_cost);
  assert_schedule_file(&p, out, "allreduce.json", &p.allreduce, &p.allreduce_cost);
  /* summary.md names the choice */
  snprintf(path, sizeof path, "%s/summary.md", out);
  char *summary = tc_files_slurp(path);
  assert_non_null(summary);
  assert_non_null(strstr(summary, "`circulant(16,3,4)`"));
  free(summary);
  /* now occupied: refused without force, and nothing changes */
  assert_int_equal(tc_plan_check_dir(out, 0, &err), TC_EINPUT);
  char msg[PATH_MAX + 128];
  snprintf(msg, sizeof msg, "output directory '%s' exists and is not empty (--force replaces it)", out);
  assert_string_equal(err.msg, msg);
  assert_int_equal(tc_plan_check_dir(out, 1, &err), TC_OK);
  assert_int_equal(remove_flat_dir(out), 0);
  tc_plan_destroy(&p);
}

/* An occupied directory is refused and left exactly as it was; an empty one is filled;
   force replaces an occupied one. */
static void occupied_empty_and_forced(void **state) {
  tc_tmpdir *tmp = *state;
  tc_plan p;
  make_plan(1, "1MB", &p);
  char busy[PATH_MAX], keep[PATH_MAX + 16], msg[PATH_MAX + 128];
  tc_tmpdir_path(tmp, "busy", busy, sizeof busy);
  assert_int_equal(mkdir(busy, 0777), 0);
  snprintf(keep, sizeof keep, "%s/keep.txt", busy);
  tc_files_spill(keep, "precious\n", 9);
  tc_error err;
  assert_int_equal(tc_plan_write(&p, busy, 0, NULL, NULL, &err), TC_EINPUT);
  snprintf(msg, sizeof msg,
           "output directory '%s' exists and is not empty, and is not a plan directory written by topocoll plan",
           busy);
  assert_string_equal(err.msg, msg);
  assert_int_equal(tc_files_count(busy), 1);
  char *kept = tc_files_slurp(keep);
  assert_string_equal(kept, "precious\n");
  free(kept);
  assert_int_equal(tc_files_count(tmp->dir), 1); /* no temporary created beside it */
  /* a trailing slash names the same directory */
  char slashed[PATH_MAX + 2];
  snprintf(slashed, sizeof slashed, "%s/", busy);
  assert_int_equal(tc_plan_write(&p, slashed, 0, NULL, NULL, &err), TC_EINPUT);
  assert_int_equal(tc_files_count(busy), 1);
  /* force: refused too, as busy is not a plan directory; nothing touched */
  assert_int_equal(tc_plan_write(&p, busy, 1, NULL, NULL, &err), TC_EINPUT);
  snprintf(msg, sizeof msg,
           "'%s' is not a plan directory written by topocoll plan (no .topocoll-plan); refusing to replace it", busy);
  assert_string_equal(err.msg, msg);
  assert_int_equal(tc_files_count(busy), 1);
  kept = tc_files_slurp(keep);
  assert_string_equal(kept, "precious\n");
  free(kept);
  assert_int_equal(tc_files_count(tmp->dir), 1);
  /* a plan directory is replaced by force: the plan's files, nothing else, nothing beside it */
  assert_int_equal(unlink(keep), 0);
  if (tc_plan_write(&p, busy, 0, NULL, NULL, &err)) fail_msg("write: %s", err.msg);
  snprintf(keep, sizeof keep, "%s/extra.txt", busy);
  tc_files_spill(keep, "stale\n", 6);
  assert_int_equal(tc_plan_check_dir(busy, 0, &err), TC_EINPUT);
  snprintf(msg, sizeof msg, "output directory '%s' exists and is not empty (--force replaces it)", busy);
  assert_string_equal(err.msg, msg);
  if (tc_plan_write(&p, busy, 1, NULL, NULL, &err)) fail_msg("forced write: %s", err.msg);
  assert_plan_files(busy);
  assert_int_equal(tc_files_count(tmp->dir), 1);
  assert_int_equal(remove_flat_dir(busy), 0);
  /* "-" is standard output, which cannot hold a directory */
  assert_int_equal(tc_plan_check_dir("-", 1, &err), TC_EINPUT);
  assert_string_equal(err.msg, "a plan is a directory of files; '-' (standard output) cannot receive it");
  /* an existing empty directory is filled */
  char empty[PATH_MAX];
  tc_tmpdir_path(tmp, "empty", empty, sizeof empty);
  assert_int_equal(mkdir(empty, 0777), 0);
  assert_int_equal(tc_plan_check_dir(empty, 0, &err), TC_OK);
  if (tc_plan_write(&p, empty, 0, NULL, NULL, &err)) fail_msg("write into empty: %s", err.msg);
  assert_plan_files(empty);
  assert_int_equal(tc_files_count(tmp->dir), 1);
  assert_int_equal(remove_flat_dir(empty), 0);
  /* a regular file is never a plan directory, force or not; an empty name is refused */
  char file[PATH_MAX];
  tc_tmpdir_path(tmp, "file", file, sizeof file);
  tc_files_spill(file, "x", 1);
  for (int force = 0; force <= 1; force++) {
    assert_int_equal(tc_plan_write(&p, file, force, NULL, NULL, &err), TC_EINPUT);
    snprintf(msg, sizeof msg, "'%s' exists and is not a directory", file);
    assert_string_equal(err.msg, msg);
  }
  kept = tc_files_slurp(file);
  assert_string_equal(kept, "x");
  free(kept);
  assert_int_equal(unlink(file), 0);
  assert_int_equal(tc_plan_check_dir("", 0, &err), TC_EINPUT);
  assert_string_equal(err.msg, "empty output directory name");
  tc_plan_destroy(&p);
}

/* tc_plan_write_extra: the caller's files land with the rest; a caller's failure leaves
   nothing (the directory appears whole or not at all). */
static int extra_ok(const tc_plan *p, const char *dir, void *ctx, tc_error *err) {
  (void)p;
  (void)err;
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/extra.txt", dir);
  tc_files_spill(path, "x\n", 2);
  ++*(int *)ctx;
  return TC_OK;
}

static int extra_fails(const tc_plan *p, const char *dir, void *ctx, tc_error *err) {
  (void)p;
  (void)dir;
  (void)ctx;
  return tc_error_set(err, TC_EIO, "the caller's file failed");
}

static void extra_files(void **state) {
  tc_tmpdir *tmp = *state;
  tc_plan p;
  make_plan(1, "1MB", &p);
  assert_int_equal(tc_plan_wiring_links(&p), TC_WIRING_DUPLEX);
  char out[PATH_MAX], extra[PATH_MAX + 16];
  tc_tmpdir_path(tmp, "plan", out, sizeof out);
  tc_error err;
  int calls = 0;
  assert_int_equal(tc_plan_write_extra(&p, out, 0, NULL, NULL, extra_ok, &calls, &err), TC_OK);
  assert_int_equal(calls, 1);
  assert_int_equal(tc_files_count(out), NPLAN_FILES + 1);
  snprintf(extra, sizeof extra, "%s/extra.txt", out);
  char *text = tc_files_slurp(extra);
  assert_string_equal(text, "x\n");
  free(text);
  tc_tmpdir_path(tmp, "failed", out, sizeof out);
  assert_int_equal(tc_plan_write_extra(&p, out, 0, NULL, NULL, extra_fails, NULL, &err), TC_EIO);
  assert_string_equal(err.msg, "the caller's file failed");
  assert_int_equal(tc_files_count(tmp->dir), 1); /* only "plan": no "failed", no staging left */
  tc_plan_destroy(&p);
  make_plan(0, "1MB", &p);
  assert_int_equal(tc_plan_wiring_links(&p), TC_WIRING_SIMPLEX);
  tc_plan_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sizes_grammar),
      cmocka_unit_test(sizes_refused),
      cmocka_unit_test(unidirectional_large_size),
      cmocka_unit_test(unidirectional_small_sizes),
      cmocka_unit_test(bidirectional),
      cmocka_unit_test(make_refusals),
      cmocka_unit_test_setup_teardown(write_and_read_back, setup, teardown),
      cmocka_unit_test_setup_teardown(occupied_empty_and_forced, setup, teardown),
      cmocka_unit_test_setup_teardown(extra_files, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
