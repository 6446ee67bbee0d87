/*
** cmd_plan.c — `topocoll plan`, the main job: for a cluster (N nodes, d ports, alpha, link
** bandwidth) and its allreduce sizes, the best topology from the finder's frontier, its
** graph, drawing, wiring plan and verified allgather / reduce-scatter / allreduce
** schedules, and summary.md (the frontier, the choice and why, the comparison with the
** ring and the double binary tree), all in one directory (plan.h does the work). With
** --fabric SPEC the cluster is one the user already has: no search, ForestColl's (and, on a
** switch-free graph, BFB's) verified schedules for it (tc_plan_fabric_make).
**
** Order of work, and why: the options and the output directory are checked before any
** work, so a typo or an occupied directory costs nothing; the plan is then computed and
** verified in memory and written last, whole or not at all. Progress lines go to stderr
** only when it is a terminal, so scripts and tests see nothing but the result.
*/
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_cluster.h"
#include "cli_options.h"
#include "plan_json.h"
#include "report_page.h"
#include "report_topo.h"
#include "progress.h"
#include "topocoll/fit.h"
#include "topocoll/plan.h"
#include "topocoll/rank_map.h"
#include "topocoll/units.h"

void tc_cmd_plan_help(void) {
  printf(
      "usage: topocoll plan --nodes N --degree D (--alpha TIME --link-bw BW | --calibration FILE)\n"
      "                     --size SIZES [--links duplex|simplex] [--compare LIST]\n"
      "                     [--a2a-size M [--a2a-weight W] [--a2a-time-limit T]]\n"
      "                     [--out DIR] [--force] [--progress|--quiet]\n"
      "       topocoll plan --fabric SPEC --alpha TIME --link-bw BW --size SIZES [--out DIR] [--force]\n"
      "                     [--progress|--quiet]\n"
      "\n"
      "The main job. Finds the Pareto frontier of topologies for N nodes with D ports each\n"
      "(see 'topocoll help find'), picks the member with the least expected allreduce time\n"
      "for the sizes, builds it and its allgather, reduce-scatter (paper 000 Thm 2, or\n"
      "Cor. 1.1 when the topology is not reverse-symmetric) and allreduce schedules, verifies\n"
      "every one, and writes into DIR:\n"
      "  topology.json  topology.dot  wiring.csv  ranks.csv (rank -> node -> port, beside the\n"
      "                 wiring: what 'export --rank-map' checks)\n"
      "  allgather.json  reduce-scatter.json  allreduce.json   (schedule JSON; 'topocoll verify')\n"
      "  summary.md     the frontier table, the choice and why (time per size of every member),\n"
      "                 and the predicted allreduce time per size against the ring and the\n"
      "                 double binary tree on the same N and D (from their verified schedules);\n"
      "                 the cabling and what the other one would gain, your --compare\n"
      "                 alternatives, and resilience: the worst and typical allreduce after any\n"
      "                 single link failure (BFB re-synthesized and verified on the degraded\n"
      "                 topology; one failure per symmetry class, at most 16, under a second at\n"
      "                 256 nodes)\n"
      "  plan.json      the plan's numbers, and report.html: one self-contained page with the\n"
      "                 topology drawn (full drawing: topology.svg), the frontier against the\n"
      "                 bound, time and bandwidth per message size of every member and baseline,\n"
      "                 and the chosen allgather's link use per step ('topocoll help report';\n"
      "                 needs Graphviz's neato)\n"
      "With --a2a-size M the job also runs all-to-alls (every node sends M bytes): every\n"
      "member's all-to-all MCF is certified (paper 000 App. A.5, paper 003), the choice\n"
      "minimises the allreduce time plus W all-to-all times, and DIR also gets\n"
      "  alltoall.json   the chosen topology's fastest verified all-to-all at M of tsMCF (up to\n"
      "                 16 nodes), EwSP and SSSP;  alltoall.routes  its routing, when a routing's\n"
      "\n"
      "With --fabric SPEC (a cluster you already have: 'dgx_a100(4)', 'mi250(2)',\n"
      "'file(cluster.json)' or any topology) there is no search: the plan builds ForestColl's\n"
      "allgather, reduce-scatter and allreduce (pipelined at the P of 1, 2, 4, ..., 64 fastest\n"
      "at the largest size) and, when the graph has no switch, BFB's, verifies them and writes\n"
      "  topology.json  topology.dot  wiring.csv  ranks.csv  forest.json (the allreduce forest)\n"
      "  allgather-forestcoll.json  reduce-scatter-forestcoll.json  allreduce-forestcoll.json\n"
      "  allgather-bfb.json  reduce-scatter-bfb.json  allreduce-bfb.json   (switch-free only)\n"
      "  summary.md     what was built, the optimum and its bottleneck cut, the allreduce time\n"
      "                 per size of each candidate and the one chosen, the ring comparison\n"      "  plan.json  report.html  topology.svg   (as above; the report draws forest.json's\n"
      "                 algorithmic bandwidth against the cut bound)\n"
      "\n"
      "  --fabric SPEC     plan this fabric (not with --nodes, --degree, --bidirectional);\n"
      "                    --link-bw is then the bandwidth of a capacity-1 arc (the fabric\n"
      "                    families count GB/s: --link-bw 1GBps); default DIR plan-fabric\n"
      "  --nodes N         number of nodes (>= 2)\n"
      "  --degree D        ports per node (>= 1)\n"
      "  --alpha TIME      per-step latency, e.g. 10us\n"
      "  --calibration FILE  alpha and the link bandwidth fitted from measured times\n"
      "                    ('topocoll run --calibration-out FILE'), instead of --alpha and\n"
      "                    --link-bw\n"
      "  --link-bw BW      bandwidth of one link, e.g. 25Gbps\n"
      "  --size SIZES      allreduce size, e.g. 1MB, or a weighted list of sizes such as DDP\n"
      "                    bucket sizes: 1MB:3,64MB:1 (size:weight; a missing weight is 1)\n"
      "  --links duplex|simplex  the cabling (default duplex): duplex cables carry both\n"
      "                    directions of a link on one port of each end, so only topologies\n"
      "                    whose links come in opposite pairs are searched and wiring.csv has\n"
      "                    one duplex row per link; simplex fibres (patch-panel optics) allow\n"
      "                    any topology, one simplex row per arc. summary.md and the report\n"
      "                    say what the other choice would gain (the finder's prediction)\n"
      "  --bidirectional   the same as --links duplex\n"
      "  --compare LIST    alternatives you are deciding between, beside the choice at your\n"
      "                    sizes: topology specs and algorithm names, comma-separated, e.g.\n"
      "                    'torus(8,8)',biring: a spec (N nodes, at most D ports) with the fastest\n"
      "                    of every algorithm that runs on it, an algorithm on its own topology\n"
      "                    for the cluster; every schedule verified (summary.md, 'Your\n"
      "                    alternatives', and one line each in the report)\n"
      "  --a2a-size M      all-to-alls of M bytes per node in the workload (see above)\n"
      "  --a2a-weight W    all-to-alls per allreduce (default 1; a positive number)\n"
      "  --a2a-time-limit T  per member's MCF certification (default 60s), then the\n"
      "                    certified bounds reached are used\n"
      "  --out DIR         output directory (default plan-N-D); written to a temporary\n"
      "                    directory beside it and renamed into place when complete\n"
      "  --force           replace DIR when it is a plan directory (written by plan: it holds\n"
      "                    the marker .topocoll-plan); any other non-empty DIR is refused\n"
      "  --progress        progress on stderr: each step, the failures tried, the baselines\n"
      "                    built, ForestColl's phases (default: only when stderr is a terminal;\n"
      "                    TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet           no progress lines\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "The terms (T_L, T_B, tau, Moore bound, \"paper 000 Thm 22\"): see 'topocoll --help'.\n"
      "Exit status: 0 success, 1 failure (nothing written), 2 bad usage or input.\n");
}

typedef struct plan_options {
  tc_cli_cluster cluster;
  const char *fabric;
  const char *out;
  const char *links;
  const char *compare;
  const char *calibration;
  tc_calibration cal;
  char default_out[64];
  int force, progress, quiet;
} plan_options;

static const tc_cli_option plan_table[] = {
    TC_CLI_CLUSTER_OPTIONS(plan_options, cluster),
    TC_CLI_A2A_OPTIONS(plan_options, cluster),
    {.name = "--fabric", .kind = TC_CLI_STRING, .text = offsetof(plan_options, fabric), .needs = "a fabric spec"},
    {.name = "--out", .kind = TC_CLI_PATH, .text = offsetof(plan_options, out), .needs = "a directory"},
    {.name = "--force", .kind = TC_CLI_FLAG, .value = offsetof(plan_options, force)},
    {.name = "--links", .kind = TC_CLI_STRING, .text = offsetof(plan_options, links), .needs = "duplex or simplex"},
    {.name = "--calibration", .kind = TC_CLI_STRING, .text = offsetof(plan_options, calibration),
     .needs = "a calibration file"},
    {.name = "--compare", .kind = TC_CLI_STRING, .text = offsetof(plan_options, compare),
     .needs = "a list of topologies or algorithms"},
    TC_CLI_PROGRESS_OPTIONS(plan_options),
};
static const tc_cli_command plan_cli = {
    .name = "plan", .help = tc_cmd_plan_help, .options = plan_table, .noptions = TC_CLI_COUNT(plan_table),
    .extra_argument = "unexpected argument '%s'"};

/* --fabric names the cluster: the options that describe one are refused beside it. */
static int finish_fabric(plan_options *o) {
  const tc_cli_cluster *c = &o->cluster;
  const char *clash = c->nodes_text ? "--nodes" : c->degree_text ? "--degree" : c->bidirectional ? "--bidirectional"
                     : c->a2a_size_text ? "--a2a-size" : c->a2a_weight_text ? "--a2a-weight"
                     : c->a2a_limit_text ? "--a2a-time-limit" : c->a2a ? "--a2a" : o->links ? "--links"
                     : o->compare ? "--compare" : NULL;
  if (clash)
    return tc_cli_usage_error("plan", "--fabric takes the cluster from the fabric; %s does not apply to it", clash);
  if (!*o->fabric) return tc_cli_usage_error("plan", "--fabric needs a fabric spec");
  return tc_cli_cluster_finish_workload(&plan_cli, o, &o->cluster, 1);
}

/* --links: duplex (the default, and what --bidirectional asks for) or simplex. */
static int finish_links(plan_options *o) {
  if (!o->links) {
    o->cluster.bidirectional = 1;
    return TC_EXIT_OK;
  }
  if (strcmp(o->links, "duplex") && strcmp(o->links, "simplex"))
    return tc_cli_usage_error("plan", "--links expects duplex or simplex, got '%s'", o->links);
  if (!strcmp(o->links, "simplex") && o->cluster.bidirectional)
    return tc_cli_usage_error("plan", "--bidirectional is --links duplex; it contradicts --links simplex");
  o->cluster.bidirectional = !strcmp(o->links, "duplex");
  return TC_EXIT_OK;
}

/* --calibration FILE (run --calibration-out) gives alpha and the link bandwidth: the two
   options stand in with placeholders through the cluster checks, then take the file's. */
static int start_calibration(plan_options *o) {
  if (o->cluster.alpha_text || o->cluster.bw_text)
    return tc_cli_usage_error("plan", "--calibration gives alpha and the link bandwidth; %s does not apply beside it",
                              o->cluster.alpha_text ? "--alpha" : "--link-bw");
  if (!o->cluster.size_text)
    return tc_cli_usage_error("plan", "--calibration gives alpha and the link bandwidth; give the sizes with --size");
  o->cluster.alpha_text = "0s";
  o->cluster.bw_text = "1GBps";
  return TC_EXIT_OK;
}

static int finish_calibration(plan_options *o) {
  tc_error err;
  tc_error_clear(&err);
  if (tc_calibration_read(o->calibration, &o->cal, &err)) {
    if (err.code == TC_EIO) err.code = TC_EINPUT; /* a file the user named and we cannot read */
    return tc_cli_fail("plan", &err);
  }
  o->cluster.workload.alpha_s = o->cal.alpha_s;
  o->cluster.workload.link_bw = o->cal.link_bw;
  return TC_EXIT_OK;
}

static int parse_options(int argc, char **argv, plan_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&plan_cli, argc, argv, o);
  if (!status && o->calibration) status = start_calibration(o);
  if (!status && !o->fabric) status = finish_links(o);
  if (!status) status = o->fabric ? finish_fabric(o) : tc_cli_cluster_finish(&plan_cli, o, &o->cluster, 1, 1);
  if (!status && !o->fabric) {
    if (o->cluster.a2a && !o->cluster.a2a_size_text && !o->cluster.a2a_limit_text)
      return tc_cli_usage_error("plan", "--a2a: the plan weighs all-to-alls of a size: give --a2a-size M");
    if (o->cluster.a2a_limit_text && !o->cluster.a2a_size_text)
      return tc_cli_usage_error("plan", "--a2a-time-limit needs --a2a-size");
    status = tc_cli_cluster_finish_a2a(&plan_cli, o, &o->cluster);
  }
  if (!status && o->calibration) status = finish_calibration(o);
  if (status) return status;
  if (!o->out && o->fabric) {
    o->out = "plan-fabric";
  } else if (!o->out) {
    snprintf(o->default_out, sizeof o->default_out, "plan-%d-%d", o->cluster.nodes, o->cluster.degree);
    o->out = o->default_out;
  }
  if (!*o->out) return tc_cli_usage_error("plan", "--out needs a directory");
  return TC_EXIT_OK;
}

static void print_fabric_result(const tc_plan *p, const char *dir) {
  const tc_workload *w = &p->workload;
  const tc_forest *f = &p->forestcoll.forest;
  double ours = 0, wsum = 0;
  for (int32_t i = 0; i < w->count; i++) {
    ours += w->weight[i] * tc_plan_allreduce_at(p, w->bytes[i], NULL, NULL);
    wsum += w->weight[i];
  }
  char t[64];
  tc_units_format_time(ours / wsum, 0, t, sizeof t);
  printf("fabric       %s (%d compute + %d switch nodes)\n", p->spec, f->ncompute, f->nswitch);
  printf("optimum      allreduce algbw %.6g GB/s (ForestColl; bottleneck cuts in summary.md)\n",
         tc_rat_to_double(f->algbw) * w->link_bw * 1e-9);
  printf("allreduce    expected time %s (verified schedules; the choice per size in summary.md)\n", t);
  printf("written      %s: topology.json topology.dot wiring.csv ranks.csv forest.json allgather-forestcoll.json "
         "reduce-scatter-forestcoll.json allreduce-forestcoll.json%s summary.md plan.json\n", dir,
         p->has_member ? " allgather-bfb.json reduce-scatter-bfb.json allreduce-bfb.json" : "");
  printf("report       %s/report.html and topology.svg ('topocoll report' on the directory rebuilds them with "
         "your saved results)\n", dir);
}

static void print_alternatives(const tc_plan *p) {
  double ours = 0, wsum = 0;
  for (int32_t i = 0; i < p->workload.count; i++) {
    ours += p->workload.weight[i] * tc_plan_allreduce_at(p, p->workload.bytes[i], NULL, NULL);
    wsum += p->workload.weight[i];
  }
  ours /= wsum;
  for (int32_t j = 0; j < p->ncompare; j++) {
    char t[64];
    tc_units_format_time(p->compare[j].expected_s, 0, t, sizeof t);
    const tc_plan_alternative *x = &p->compare[j];
    int other = strcmp(x->item, x->topology) != 0;
    printf("compare      %s%s%s: expected allreduce time %s, %.2fx the choice's (verified schedules)\n", x->item,
           other ? " on " : "", other ? x->topology : "", t, x->expected_s / ours);
  }
}

/* One line: the cabling, and what the other one would gain (summary.md has the detail). */
static void print_links(const tc_plan *p) {
  int duplex = p->find.bidirectional;
  printf("cabling      %s: %lld %s", duplex ? "duplex" : "simplex", (long long)(duplex ? p->graph->m / 2 : p->graph->m),
         duplex ? "cables" : "fibres");
  if (!p->other_links_found) {
    printf("; %s links are not possible here\n", duplex ? "simplex" : "duplex");
    return;
  }
  double ours = tc_candidate_allreduce_time(&p->frontier.member[p->chosen], &p->workload);
  double theirs = tc_candidate_allreduce_time(&p->other_links, &p->workload);
  printf("; %s would choose ", duplex ? "simplex fibres" : "duplex cables");
  if (!strcmp(p->other_links.spec, p->spec)) {
    printf("the same topology\n");
    return;
  }
  printf("%s: ", p->other_links.spec);
  if (theirs == ours) printf("the same expected allreduce time (predicted)\n");
  else printf("expected allreduce time %.1f %% %s (predicted)\n", 100 * fabs(theirs - ours) / ours,
              theirs < ours ? "less" : "more");
}

/* One line: the worst and typical single link failure (summary.md has the table). */
static void print_resilience(const tc_plan *p) {
  const tc_plan_resilience *r = &p->resilience;
  if (!r->done || !r->worst.links) return;
  double ours = 0, wsum = 0;
  for (int32_t i = 0; i < p->workload.count; i++) {
    ours += p->workload.weight[i] * tc_plan_time(p, p->workload.bytes[i]);
    wsum += p->workload.weight[i];
  }
  ours /= wsum;
  char w[64], t[64], tw[64], tt[64];
  tc_rat_format(r->worst.tau, w, (int)sizeof w);
  tc_rat_format(r->typical.tau, t, (int)sizeof t);
  tc_units_format_time(r->worst.expected_s, 0, tw, sizeof tw);
  tc_units_format_time(r->typical.expected_s, 0, tt, sizeof tt);
  printf("resilience   one failed link of %lld: worst %d steps, T_B factor %s, %s (%.2fx); typical %d steps, T_B "
         "factor %s, %s (%.2fx)%s (BFB re-synthesized, verified)\n",
         (long long)r->links, r->worst.steps, w, tw, r->worst.expected_s / ours, r->typical.steps, t, tt,
         r->typical.expected_s / ours, r->disconnecting ? "; some failures disconnect" : "");
}

static void print_result(const tc_plan *p, const char *dir) {
  const tc_candidate *c = &p->frontier.member[p->chosen];
  const tc_workload *w = &p->workload;
  double ours = 0, wsum = 0;
  for (int32_t i = 0; i < w->count; i++) {
    ours += w->weight[i] * tc_plan_time(p, w->bytes[i]);
    wsum += w->weight[i];
  }
  char t[64];
  tc_units_format_time(ours / wsum, 0, t, sizeof t);
  printf("topology     %s (%s), chosen from %d Pareto-efficient topologies\n", c->spec, c->label,
         p->frontier.count);
  printf("allreduce    %d steps, T_B factor %lld/%lld, expected time %s (verified schedule)\n",
         p->allreduce_cost.steps, (long long)p->allreduce_cost.tau.num, (long long)p->allreduce_cost.tau.den, t);
  if (p->has_a2a) {
    const tc_plan_baseline *a = &p->a2a[p->a2a_chosen];
    char ta[64], tf[64];
    tc_units_format_time(tc_plan_alltoall_time(p, w->a2a_bytes), 0, ta, sizeof ta);
    tc_units_format_time(tc_candidate_alltoall_time(c, w), 0, tf, sizeof tf);
    printf("all-to-all   %s: %d steps, T_B factor %lld/%lld, time %s at %.0f B per node (verified schedule; "
           "fluid optimum %s at the certified f)\n",
           a->name, a->steps, (long long)a->tau.num, (long long)a->tau.den, ta, w->a2a_bytes, tf);
  }
  print_links(p);
  print_alternatives(p);
  print_resilience(p);
  printf("written      %s: topology.json topology.dot wiring.csv ranks.csv allgather.json reduce-scatter.json "
         "allreduce.json%s%s summary.md plan.json\n", dir, p->has_a2a ? " alltoall.json" : "",
         p->has_a2a_routing ? " alltoall.routes" : "");
  printf("report       %s/report.html and topology.svg ('topocoll report' on the directory rebuilds them with "
         "your saved results)\n", dir);
}

/* The alternatives of --compare, measured before the plan so a bad item costs nothing;
   *out (malloc'd) and *count. Returns an exit code. */
static int measure_alternatives(const plan_options *o, tc_progress *progress, tc_plan_alternative **out,
                                int32_t *count) {
  char items[TC_CLI_MAX_LIST][256];
  int n = tc_cli_split_list(o->compare, items, TC_CLI_MAX_LIST);
  if (n < 0) return tc_cli_usage_error("plan", "--compare: an empty or too long item in '%s'", o->compare);
  tc_plan_alternative *v = calloc((size_t)n, sizeof *v);
  if (!v) return tc_cli_usage_error("plan", "out of memory");
  tc_error err;
  tc_error_clear(&err);
  for (int i = 0; i < n; i++) {
    tc_progress_report(progress, "--compare: measuring", i, n);
    int rc = tc_plan_compare(items[i], o->cluster.nodes, o->cluster.degree, o->cluster.bidirectional,
                             &o->cluster.workload, &v[i], &err);
    if (rc) {
      free(v);
      tc_error_prefix(&err, "--compare %s", items[i]);
      return tc_cli_fail("plan", &err);
    }
  }
  tc_progress_report(progress, "--compare: measured", n, n);
  *out = v;
  *count = n;
  return TC_EXIT_OK;
}

static void print_calibration(const plan_options *o) {
  if (!o->calibration) return;
  char t[64];
  tc_units_format_time(o->cal.alpha_s, 0, t, sizeof t);
  printf("calibration  alpha %s, link bandwidth %.6g Gbit/s from %s (fitted to %d sizes, largest error %.1f %%)\n", t,
         o->cal.link_bw * 8e-9, o->calibration, (int)o->cal.sizes, 100 * o->cal.max_rel_err);
}

/* The CLI's files of the plan, into its staging directory (so they appear with the rest,
   whole or not at all): ranks.csv beside wiring.csv (rank_map.h), plan.json (the plan's
   numbers, plan_json.h), then report.html and topology.svg drawn from the directory as
   `topocoll report` would (report_page.h) — from what the plan has, nothing re-run, and
   the graph and allgather it holds are not read back. */
static int write_extras(const tc_plan *p, const char *dir, void *ctx, tc_error *err) {
  (void)ctx;
  char path[4096];
  if (snprintf(path, sizeof path, "%s/ranks.csv", dir) >= (int)sizeof path)
    return tc_error_set(err, TC_EINPUT, "output directory name too long");
  int rc = tc_rank_ports_write(p->graph, tc_plan_wiring_links(p), path, err);
  snprintf(path, sizeof path, "%s/plan.json", dir);
  if (!rc) rc = tc_plan_json_write(p, path, err);
  /* the allgather the report draws: plan.json's allgather_file, held in memory */
  const tc_schedule *ag = p->has_member ? &p->allgather : NULL; /* NULL: read back from the file */
  for (int i = 0; !p->has_member && i < p->forestcoll.ncoll; i++)
    if (p->forestcoll.coll[i] == TC_COLL_ALLGATHER) ag = &p->forestcoll.sched[i];
  tc_report_held held = {p->graph, ag};
  tc_report_stats st;
  if (!rc) rc = tc_report_build(dir, &held, &st, err);
  return rc;
}

int tc_cmd_plan(int argc, char **argv) {
  plan_options o;
  int status = parse_options(argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  tc_error err;
  tc_error_clear(&err);
  if (tc_plan_check_dir(o.out, o.force, &err)) return tc_cli_fail("plan", &err);
  if (tc_report_check_graphviz(&err)) return tc_cli_fail("plan", &err); /* the report needs it: before any work */
  tc_find_options fo = {o.cluster.nodes, o.cluster.degree, o.cluster.bidirectional, 0};
  tc_progress progress;
  if ((status = tc_cli_progress_init(&progress, "plan", o.progress, o.quiet))) return status;
  tc_plan_alternative *alts = NULL;
  int32_t nalts = 0;
  if (o.compare && (status = measure_alternatives(&o, &progress, &alts, &nalts))) {
    tc_progress_finish(&progress);
    return status;
  }
  tc_plan p;
  int rc = o.fabric ? tc_plan_fabric_make(o.fabric, &o.cluster.workload, tc_progress_report, &progress, &p, &err)
                    : tc_plan_make(&fo, &o.cluster.workload, tc_progress_report, &progress, &p, &err);
  if (rc) {
    free(alts);
    tc_progress_finish(&progress);
    return tc_cli_fail("plan", &err);
  }
  p.compare = alts;
  p.ncompare = nalts;
  rc = tc_plan_write_extra(&p, o.out, o.force, tc_progress_report, &progress, write_extras, NULL, &err);
  tc_progress_finish(&progress);
  if (rc) status = tc_cli_fail("plan", &err);
  else if (print_calibration(&o), p.fabric) print_fabric_result(&p, o.out);
  else print_result(&p, o.out);
  tc_plan_destroy(&p);
  return status;
}
