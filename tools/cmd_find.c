/*
** cmd_find.c — `topocoll find`: the topology finder's Pareto frontier for N nodes of degree
** d, as a table like paper 000 Tables 4 and 7 (or JSON), and `--sweep N1..N2`, the best
** topology per N for a workload as CSV (the data of paper 000 Figure 15).
**
** What it guarantees: every spec it prints is one `topocoll topo` and `topocoll sched`
** accept and that rebuilds the member's topology (the finder's contract, find.h); T_B
** factors print exactly (num/den) beside their 3-decimal "%.3f" form, which is how the
** paper's tables (paper 000 Tables 4 and 7) round them; "verified" is only ever true for a member
** whose allgather the verifier passed (--build). Predicted costs are labelled as such.
** The all-to-all column (--a2a, paper 000 App. A.5) prints f as a fraction only when the
** certificate proved it exact, else the certified lower bound with the gap; its times are
** taken at that lower bound.
*/
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_cluster.h"
#include "cli_options.h"
#include "progress.h"
#include "topocoll/find.h"
#include "topocoll/plan.h"
#include "topocoll/units.h"

void tc_cmd_find_help(void) {
  printf(
      "usage: topocoll find --nodes N --degree D [--bidirectional] [--build] [--json]\n"
      "                     [--alpha TIME --link-bw BW --size SIZES]\n"
      "                     [--a2a] [--a2a-size M [--a2a-weight W]] [--a2a-time-limit T]\n"
      "                     [--progress|--quiet]\n"
      "       topocoll find --sweep N1..N2 --degree D [--bidirectional] --alpha TIME --link-bw BW --size SIZES\n"
      "                     [--progress|--quiet]\n"
      "\n"
      "The Pareto frontier of topologies with N nodes of degree D (paper 000 §5.4): base\n"
      "topologies, generative families and chains of expansions, with their allgather costs\n"
      "predicted from the paper's theorems: steps T_L (in units of alpha) and the T_B factor\n"
      "tau (T_B = tau * M/B, B = D * link bandwidth), exact and as Table 7 prints it (%%.3f).\n"
      "No member has both more steps and a larger T_B than another. The last row is the\n"
      "theoretical bound: T_L*(N,D) (Moore bound, Def. 10) and (N-1)/N (Thm 4). Every spec\n"
      "printed is accepted by `topocoll topo` and `topocoll sched`.\n"
      "\n"
      "  --nodes N         number of nodes (>= 2)\n"
      "  --degree D        ports per node (>= 1)\n"
      "  --bidirectional   only topologies whose links come in opposite pairs\n"
      "  --build           build every member and verify its allgather (adds the measured\n"
      "                    costs, the diameter and the average distance)\n"
      "  --alpha TIME      per-step latency, e.g. 10us\n"
      "  --link-bw BW      bandwidth of one link, e.g. 25Gbps\n"
      "  --size SIZES      allreduce size(s): 1MB, or a weighted list 1MB:3,64MB:1 (DDP-bucket-like\n"
      "                    sizes with weights); with all three, each member's predicted allreduce\n"
      "                    time 2(T_L + T_B) (the weighted mean over the sizes) is reported and the\n"
      "                    least one marked\n"
      TC_CLI_A2A_HELP
      "                    (--build does not imply --a2a: the MCF takes seconds to minutes per\n"
      "                    member from N = 256)\n"
      "  --json            one JSON object instead of the table\n"
      "  --compare LIST    alternatives you are deciding between, at your sizes (needs --alpha,\n"
      "                    --link-bw, --size): topology specs and algorithm names, comma-\n"
      "                    separated, e.g. 'torus(8,8)',biring: each on its own topology with\n"
      "                    the fastest of every algorithm that runs there, measured on verified\n"
      "                    schedules (with the workload, --json gives every member's time per size)\n"
      "  --sweep N1..N2    for every N in N1..N2 the member with the least predicted allreduce\n"
      "                    time, as CSV: n,spec,label,steps,tb_factor,time_s (needs --alpha,\n"
      "                    --link-bw and --size); an N that no topology reaches (e.g. odd N\n"
      "                    with odd D and --bidirectional) has no row\n"
      "  --progress        progress on stderr: the sweep's sizes, each member's all-to-all MCF\n"
      "                    and its rounds (default: only when stderr is a terminal;\n"
      "                    TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet           no progress lines\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "The terms (T_L, T_B, tau, Moore bound, \"paper 000 Thm 22\"): see 'topocoll --help'.\n"
      "Exit status: 0 success, 1 failure, 2 bad usage or input.\n");
}

/* ---- options ---- */

typedef struct find_options {
  tc_cli_cluster cluster;
  const char *sweep_text;
  const char *compare;
  int32_t ncompare;
  tc_plan_alternative *alt; /* --compare, measured before the frontier */
  int sweep_lo, sweep_hi;
  int build, json, progress, quiet;
} find_options;

static const tc_cli_option find_table[] = {
    TC_CLI_CLUSTER_OPTIONS(find_options, cluster),
    TC_CLI_A2A_OPTIONS(find_options, cluster),
    {.name = "--sweep", .kind = TC_CLI_STRING, .text = offsetof(find_options, sweep_text)},
    {.name = "--build", .kind = TC_CLI_FLAG, .value = offsetof(find_options, build)},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = offsetof(find_options, json)},
    {.name = "--compare", .kind = TC_CLI_STRING, .text = offsetof(find_options, compare),
     .needs = "a list of topologies or algorithms"},
    TC_CLI_PROGRESS_OPTIONS(find_options),
};
static const tc_cli_command find_cli = {
    .name = "find", .help = tc_cmd_find_help, .options = find_table, .noptions = TC_CLI_COUNT(find_table),
    .extra_argument = "unexpected argument '%s'"};

/* One end of "N1..N2": a node count, named "--sweep N1" or "--sweep N2" in an error. */
static int parse_sweep_end(const char *what, const char *text, int *out) {
  long long v;
  int status = tc_cli_parse_integer("find", what, text, 2, TC_FIND_MAX_NODES, &v);
  if (!status) *out = (int)v;
  return status;
}

/* "N1..N2" with 2 <= N1 <= N2. */
static int parse_sweep(find_options *o) {
  const char *dots = strstr(o->sweep_text, "..");
  char lo[32];
  size_t len = dots ? (size_t)(dots - o->sweep_text) : 0;
  if (!dots || len == 0 || len >= sizeof lo)
    return tc_cli_usage_error("find", "--sweep expects N1..N2, got '%s'", o->sweep_text);
  memcpy(lo, o->sweep_text, len);
  lo[len] = '\0';
  int status = parse_sweep_end("--sweep N1", lo, &o->sweep_lo);
  if (!status) status = parse_sweep_end("--sweep N2", dots + 2, &o->sweep_hi);
  if (!status && o->sweep_lo > o->sweep_hi)
    return tc_cli_usage_error("find", "--sweep %s: N1 must not exceed N2", o->sweep_text);
  return status;
}

static int check_options(find_options *o) {
  const tc_cli_cluster *c = &o->cluster;
  if (o->sweep_text) {
    if (c->nodes_text) return tc_cli_usage_error("find", "--sweep and --nodes exclude each other");
    if (o->build || o->json) return tc_cli_usage_error("find", "--sweep prints CSV; --build and --json do not apply");
    if (o->compare) return tc_cli_usage_error("find", "--sweep prints CSV; --compare does not apply");
    if (c->a2a || c->a2a_size_text || c->a2a_weight_text || c->a2a_limit_text)
      return tc_cli_usage_error("find", "--sweep chooses by predicted allreduce time; the all-to-all options do "
                                "not apply");
    int status = parse_sweep(o);
    return status ? status : tc_cli_cluster_finish(&find_cli, o, &o->cluster, 0, 1);
  }
  int status = tc_cli_cluster_finish(&find_cli, o, &o->cluster, 1, 0);
  if (!status && o->compare && !o->cluster.has_workload)
    return tc_cli_usage_error("find", "--compare compares times at your sizes: give --alpha, --link-bw and --size");
  return status ? status : tc_cli_cluster_finish_a2a(&find_cli, o, &o->cluster);
}

static int parse_options(int argc, char **argv, find_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&find_cli, argc, argv, o);
  return status ? status : check_options(o);
}

/* ---- the frontier ---- */

static void format_rat(tc_rat r, char *buf, size_t size) {
  snprintf(buf, size, "%" PRId64 "/%" PRId64, r.num, r.den);
}

/* Predicted allreduce time of the bound row: T_L*(N,d) steps and (N-1)/N. */
static double bound_time(const tc_frontier *f, const tc_workload *w) {
  tc_candidate bound;
  memset(&bound, 0, sizeof bound);
  bound.nodes = f->nodes;
  bound.degree = f->degree;
  bound.steps = f->bound_steps;
  bound.tau = f->bound_tau;
  return tc_candidate_allreduce_time(&bound, w);
}

/* d/(N·f) from the certified lower bound of f: exact "p/q" when f is exact, else a number
   (an upper bound on the time). */
static json_t *a2a_tb_json(const tc_candidate *c) {
  tc_rat tb;
  char buf[64];
  if (c->a2a_exact && !tc_rat_make((int64_t)c->degree * c->a2a_lower.den, (int64_t)c->nodes * c->a2a_lower.num, &tb,
                                   NULL)) {
    format_rat(tb, buf, sizeof buf);
    return json_string(buf);
  }
  return json_real(c->degree / (c->nodes * tc_rat_to_double(c->a2a_lower)));
}

/* The all-to-all fields of a member (--a2a): docs/formats.md, "find JSON". */
static void member_a2a_json(json_t *o, const tc_candidate *c, const tc_cli_cluster *cl) {
  char lo[64], up[64];
  format_rat(c->a2a_lower, lo, sizeof lo);
  format_rat(c->a2a_upper, up, sizeof up);
  json_object_set_new(o, "mcf", c->a2a_exact ? json_string(lo) : json_real(tc_rat_to_double(c->a2a_lower)));
  json_object_set_new(o, "mcf_exact", json_boolean(c->a2a_exact));
  json_object_set_new(o, "mcf_lower", json_string(lo));
  json_object_set_new(o, "mcf_upper", json_string(up));
  json_object_set_new(o, "mcf_gap", json_real(c->a2a_gap));
  json_object_set_new(o, "mcf_stopped_by_time_limit", json_boolean(c->a2a_stopped));
  json_object_set_new(o, "alltoall_tb_factor", a2a_tb_json(c));
  if (cl->workload.a2a_bytes > 0) {
    json_object_set_new(o, "alltoall_time_s", json_real(tc_candidate_alltoall_time(c, &cl->workload)));
    json_object_set_new(o, "workload_time_s", json_real(tc_candidate_workload_time(c, &cl->workload)));
  }
}

static json_t *member_json(const tc_candidate *c, const tc_cli_cluster *cl) {
  char tau[64];
  format_rat(c->tau, tau, sizeof tau);
  json_t *o = json_object();
  json_object_set_new(o, "spec", json_string(c->spec));
  json_object_set_new(o, "label", json_string(c->label));
  json_object_set_new(o, "nodes", json_integer(c->nodes));
  json_object_set_new(o, "degree", json_integer(c->degree));
  json_object_set_new(o, "steps", json_integer(c->steps));
  json_object_set_new(o, "tb_factor", json_string(tau));
  json_object_set_new(o, "tb_factor_float", json_real(tc_rat_to_double(c->tau)));
  json_object_set_new(o, "tb_is_bound", json_boolean(c->tau_is_bound));
  json_object_set_new(o, "source", json_string(c->source));
  json_object_set_new(o, "diameter", c->diameter >= 0 ? json_integer(c->diameter) : json_null());
  json_object_set_new(o, "bidirectional", json_boolean(c->bidirectional));
  json_object_set_new(o, "reverse_symmetric",
                      c->reverse_symmetric < 0 ? json_null() : json_boolean(c->reverse_symmetric));
  if (cl->has_workload) {
    json_object_set_new(o, "time_s", json_real(tc_candidate_allreduce_time(c, &cl->workload)));
    json_t *per = json_array();
    for (int32_t i = 0; i < cl->workload.count; i++) {
      tc_workload one = cl->workload;
      one.count = 1;
      one.bytes[0] = cl->workload.bytes[i];
      one.weight[0] = 1;
      json_array_append_new(per, json_real(tc_candidate_allreduce_time(c, &one)));
    }
    json_object_set_new(o, "time_s_per_size", per);
  }
  json_object_set_new(o, "built", json_boolean(c->built));
  json_object_set_new(o, "verified", json_boolean(c->built && c->verified));
  if (c->built) {
    format_rat(c->measured_tau, tau, sizeof tau);
    json_object_set_new(o, "measured_steps", json_integer(c->measured_steps));
    json_object_set_new(o, "measured_tb_factor", json_string(tau));
    json_object_set_new(o, "avg_distance", json_real(c->avg_distance));
    if (c->forest_allreduce_tau.num) {
      format_rat(c->forest_allreduce_tau, tau, sizeof tau);
      json_object_set_new(o, "forestcoll_allreduce_tb_factor", json_string(tau));
      json_object_set_new(o, "forestcoll_weighted", json_boolean(c->forest_weighted));
    } else {
      json_object_set_new(o, "forestcoll_allreduce_tb_factor", json_null());
    }
  } else {
    json_object_set_new(o, "avg_distance", json_null());
  }
  if (c->a2a) member_a2a_json(o, c, cl);
  return o;
}

static json_t *workload_json(const tc_workload *w) {
  json_t *o = json_object(), *sizes = json_array();
  for (int32_t i = 0; i < w->count; i++) {
    json_t *s = json_object();
    json_object_set_new(s, "bytes", json_integer((json_int_t)w->bytes[i]));
    json_object_set_new(s, "weight", json_real(w->weight[i]));
    json_array_append_new(sizes, s);
  }
  json_object_set_new(o, "alpha_s", json_real(w->alpha_s));
  json_object_set_new(o, "link_bw_Bps", json_real(w->link_bw));
  json_object_set_new(o, "sizes", sizes);
  if (w->a2a_bytes > 0) {
    json_object_set_new(o, "a2a_bytes", json_integer((json_int_t)w->a2a_bytes));
    json_object_set_new(o, "a2a_weight", json_real(w->a2a_weight));
  }
  return o;
}

/* The bound row's all-to-all time: (M/N)/(f*·b) at f* = d/S_min, a lower bound on every
   member's. */
static double bound_a2a_time(const tc_frontier *f, const tc_workload *w) {
  return (w->a2a_bytes / f->nodes) / (tc_rat_to_double(f->bound_mcf) * w->link_bw);
}

/* d/(N·f*) = S_min/N: the bound's all-to-all time in M/B (small integers: cannot fail). */
static tc_rat bound_a2a_tb(const tc_frontier *f) {
  tc_rat tb = {0, 1};
  tc_rat_make((int64_t)f->degree * f->bound_mcf.den, (int64_t)f->nodes * f->bound_mcf.num, &tb, NULL);
  return tb;
}

/* --compare in JSON: per alternative its topology and, per size, the measured time of its
   fastest verified allreduce, which algorithm and P (docs/formats.md, "find JSON"). */
static json_t *compare_json(const find_options *o) {
  json_t *list = json_array();
  for (int32_t j = 0; j < o->ncompare; j++) {
    const tc_plan_alternative *x = &o->alt[j];
    json_t *a = json_object(), *t = json_array(), *algo = json_array(), *P = json_array();
    for (int32_t i = 0; i < x->count; i++) {
      json_array_append_new(t, json_real(x->time_s[i]));
      json_array_append_new(algo, json_string(x->algorithm[i]));
      json_array_append_new(P, json_integer(x->chunks[i]));
    }
    json_object_set_new(a, "item", json_string(x->item));
    json_object_set_new(a, "topology", json_string(x->topology));
    json_object_set_new(a, "time_s_per_size", t);
    json_object_set_new(a, "algorithm_per_size", algo);
    json_object_set_new(a, "chunks_per_size", P);
    json_object_set_new(a, "time_s", json_real(x->expected_s));
    json_array_append_new(list, a);
  }
  return list;
}

static void print_json(const tc_frontier *f, const find_options *o) {
  const tc_cli_cluster *cl = &o->cluster;
  json_t *root = json_object(), *members = json_array(), *bound = json_object();
  char tau[64];
  json_object_set_new(root, "nodes", json_integer(f->nodes));
  json_object_set_new(root, "degree", json_integer(f->degree));
  json_object_set_new(root, "bidirectional", json_boolean(cl->bidirectional));
  for (int32_t k = 0; k < f->count; k++) json_array_append_new(members, member_json(&f->member[k], cl));
  json_object_set_new(root, "frontier", members);
  format_rat(f->bound_tau, tau, sizeof tau);
  json_object_set_new(bound, "steps", json_integer(f->bound_steps));
  json_object_set_new(bound, "tb_factor", json_string(tau));
  json_object_set_new(bound, "tb_factor_float", json_real(tc_rat_to_double(f->bound_tau)));
  if (cl->has_workload) json_object_set_new(bound, "time_s", json_real(bound_time(f, &cl->workload)));
  /* analytic, so always there (the members' values need --a2a) */
  format_rat(f->bound_mcf, tau, sizeof tau);
  json_object_set_new(bound, "mcf", json_string(tau));
  format_rat(bound_a2a_tb(f), tau, sizeof tau);
  json_object_set_new(bound, "alltoall_tb_factor", json_string(tau));
  if (cl->workload.a2a_bytes > 0)
    json_object_set_new(bound, "alltoall_time_s", json_real(bound_a2a_time(f, &cl->workload)));
  json_object_set_new(root, "bound", bound);
  if (cl->has_workload) {
    json_object_set_new(root, "workload", workload_json(&cl->workload));
    json_object_set_new(root, "choice", json_integer(tc_frontier_choose(f, &cl->workload)));
  }
  if (o->ncompare) json_object_set_new(root, "compare", compare_json(o));
  json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  printf("\n");
  json_decref(root);
}

/* Width of the topology column: the longest spec, at least the bound row's title. */
static int spec_width(const tc_frontier *f) {
  int w = (int)strlen("theoretical bound");
  for (int32_t k = 0; k < f->count; k++) {
    int len = (int)strlen(f->member[k].spec);
    if (len > w) w = len;
  }
  return w;
}

static void print_header(int width, const find_options *o) {
  printf("  %-*s  %-10s  %10s  %-20s  %4s", width, "topology", "class", "T_L(alpha)", "T_B(M/B)", "D(G)");
  if (o->build) printf("  %8s  %8s", "avg dist", "verified");
  if (o->cluster.has_workload) printf("  %12s", "allreduce");
  if (o->cluster.a2a) printf("  %-26s  %-8s", "MCF f (all-to-all)", "a2a(M/B)");
  if (o->cluster.workload.a2a_bytes > 0) printf("  %12s", "all-to-all");
  printf("  %s\n", "how T_L, T_B are known");
}

/* "5.71e-02 (2/35)" when exact, ">= 2.17e-02 (gap 7.0e-10)" otherwise: 3 digits as paper 000
   Table 7 prints them. */
static void format_mcf(const tc_candidate *c, char *buf, size_t size) {
  char exact[64];
  format_rat(c->a2a_lower, exact, sizeof exact);
  if (c->a2a_exact) snprintf(buf, size, "%.2e (%s)", tc_rat_to_double(c->a2a_lower), exact);
  else snprintf(buf, size, ">= %.2e (gap %.1e)", tc_rat_to_double(c->a2a_lower), c->a2a_gap);
}

/* The all-to-all cells of a member: f, d/(N·f) and, with --a2a-size, the time. */
static void print_member_a2a(const tc_candidate *c, const find_options *o) {
  char mcf[96], t[64];
  format_mcf(c, mcf, sizeof mcf);
  printf("  %-26s  %8.3f", mcf, c->degree / (c->nodes * tc_rat_to_double(c->a2a_lower)));
  if (o->cluster.workload.a2a_bytes > 0) {
    tc_units_format_time(tc_candidate_alltoall_time(c, &o->cluster.workload), 0, t, sizeof t);
    printf("  %12s", t);
  }
}

/* "1.312 (21/16)" or "<= 1.000 (1/1)" for an upper bound. */
static void format_tau(tc_rat tau, int is_bound, char *buf, size_t size) {
  char exact[64];
  format_rat(tau, exact, sizeof exact);
  snprintf(buf, size, "%s%.3f (%s)", is_bound ? "<= " : "", tc_rat_to_double(tau), exact);
}

static void print_member(const tc_candidate *c, int width, int chosen, const find_options *o) {
  char tau[96], diam[16], t[64];
  format_tau(c->tau, c->tau_is_bound, tau, sizeof tau);
  if (c->diameter >= 0) snprintf(diam, sizeof diam, "%d", c->diameter);
  else snprintf(diam, sizeof diam, "-");
  printf("%c %-*s  %-10s  %10d  %-20s  %4s", chosen ? '*' : ' ', width, c->spec, c->label, c->steps, tau, diam);
  if (o->build) {
    if (c->built) printf("  %8.4f  %8s", c->avg_distance, c->verified ? "yes" : "NO");
    else printf("  %8s  %8s", "-", "no");
  }
  if (o->cluster.has_workload) {
    tc_units_format_time(tc_candidate_allreduce_time(c, &o->cluster.workload), 0, t, sizeof t);
    printf("  %12s", t);
  }
  if (o->cluster.a2a) print_member_a2a(c, o);
  printf("  %s\n", c->source);
}

/* Members whose built schedule measured differently from the prediction. */
static void print_measured_notes(const tc_frontier *f) {
  char tau[64];
  for (int32_t k = 0; k < f->count; k++) {
    const tc_candidate *c = &f->member[k];
    if (!c->built || (c->measured_steps == c->steps && tc_rat_cmp(c->measured_tau, c->tau) == 0)) continue;
    format_rat(c->measured_tau, tau, sizeof tau);
    printf("  note: %s measured %d steps, T_B factor %s (%.3f) on its verified schedule\n", c->spec,
           c->measured_steps, tau, tc_rat_to_double(c->measured_tau));
  }
}

/* Members whose allreduce ForestColl's trees do better than 2 T_B (--build only). */
static void print_forest_notes(const tc_frontier *f) {
  char fc[96], twice[96];
  for (int32_t k = 0; k < f->count; k++) {
    const tc_candidate *c = &f->member[k];
    if (!c->built || !c->forest_allreduce_tau.num) continue;
    tc_rat bfb;
    tc_error err;
    if (tc_rat_mul(c->measured_tau, (tc_rat){2, 1}, &bfb, &err)) continue; /* cannot overflow: built members */
    format_tau(c->forest_allreduce_tau, 0, fc, sizeof fc);
    format_tau(bfb, 0, twice, sizeof twice);
    printf("  ForestColl allreduce on %s: T_B -> %s M/B%s, against 2 T_B = %s (`plan` builds it)\n", c->spec, fc,
           c->forest_weighted ? " with water-filling root weights" : "", twice);
  }
}

/* --compare: one line per alternative (measured on verified schedules, unlike the
   frontier's predicted times). */
static void print_compare(const find_options *o) {
  if (!o->ncompare) return;
  printf("\nYour alternatives, each on its own topology with its fastest verified allreduce per size:\n");
  for (int32_t j = 0; j < o->ncompare; j++) {
    const tc_plan_alternative *x = &o->alt[j];
    char t[64], sz[64];
    tc_units_format_time(x->expected_s, 0, t, sizeof t);
    printf("  %s%s%s: %s;", x->item, strcmp(x->item, x->topology) ? " on " : "",
           strcmp(x->item, x->topology) ? x->topology : "", t);
    for (int32_t i = 0; i < x->count; i++) {
      tc_units_format_size((int64_t)o->cluster.workload.bytes[i], sz, sizeof sz);
      tc_units_format_time(x->time_s[i], 0, t, sizeof t);
      printf("%s %s %s (%s", i ? "," : "", sz, t, x->algorithm[i]);
      if (x->chunks[i] > 1) printf(", P = %" PRId64, x->chunks[i]);
      printf(")");
    }
    printf("\n");
  }
}

static void print_table(const tc_frontier *f, const find_options *o) {
  int width = spec_width(f);
  int32_t chosen = o->cluster.has_workload ? tc_frontier_choose(f, &o->cluster.workload) : -1;
  char tau[96], t[64];
  printf("Pareto frontier for N = %d, d = %d%s: %d topologies (allgather costs: T_L in alpha, T_B in M/B)\n\n",
         f->nodes, f->degree, o->cluster.bidirectional ? ", bidirectional only" : "", f->count);
  print_header(width, o);
  for (int32_t k = 0; k < f->count; k++) print_member(&f->member[k], width, k == chosen, o);
  format_tau(f->bound_tau, 0, tau, sizeof tau);
  printf("  %-*s  %-10s  %10d  %-20s  %4d", width, "theoretical bound", "", f->bound_steps, tau, f->bound_steps);
  if (o->build) printf("  %8s  %8s", "", "");
  if (o->cluster.has_workload) {
    tc_units_format_time(bound_time(f, &o->cluster.workload), 0, t, sizeof t);
    printf("  %12s", t);
  }
  if (o->cluster.a2a) {
    char mcf[96], exact[64];
    format_rat(f->bound_mcf, exact, sizeof exact);
    snprintf(mcf, sizeof mcf, "%.2e (%s)", tc_rat_to_double(f->bound_mcf), exact);
    printf("  %-26s  %8.3f", mcf, tc_rat_to_double(bound_a2a_tb(f)));
    if (o->cluster.workload.a2a_bytes > 0) {
      tc_units_format_time(bound_a2a_time(f, &o->cluster.workload), 0, t, sizeof t);
      printf("  %12s", t);
    }
  }
  printf("  %s%s\n",
         o->cluster.bidirectional ? "undirected Moore bound T_L** (Table 8); (N-1)/N (Thm 4)"
                                  : "Moore bound T_L* (Def. 10); (N-1)/N (Thm 4)",
         o->cluster.a2a ? "; MCF d/S_min (paper 003 Thm 1)" : "");
  print_measured_notes(f);
  print_forest_notes(f);
  if (chosen >= 0 && o->cluster.workload.a2a_bytes > 0)
    printf("\n* least predicted allreduce time 2(T_L + T_B) + %g x all-to-all time for the workload: %s\n",
           o->cluster.workload.a2a_weight, f->member[chosen].spec);
  else if (chosen >= 0)
    printf("\n* least predicted allreduce time 2(T_L + T_B) for the workload: %s\n", f->member[chosen].spec);
  print_compare(o);
}

/* ---- the all-to-all column ---- */

/* --a2a: every member's certified MCF (tc_frontier_a2a). */
static int certify_a2a(tc_frontier *f, const tc_cli_cluster *cl, tc_progress *progress, tc_error *err) {
  tc_find_a2a_options ao;
  tc_find_a2a_options_default(&ao);
  ao.time_limit = cl->workload.a2a_time_limit;
  if (progress->on) {
    ao.progress = tc_progress_report; /* the members certified, their f and rounds (find.h) */
    ao.ctx = progress;
  }
  int rc = tc_frontier_a2a(f, &ao, err);
  tc_progress_finish(progress);
  return rc;
}

/* ---- the sweep ---- */

static int run_sweep(const find_options *o, tc_progress *progress) {
  tc_error err;
  tc_error_clear(&err);
  printf("n,spec,label,steps,tb_factor,time_s\n");
  double total = (double)o->sweep_hi - o->sweep_lo + 1;
  char phase[64];
  snprintf(phase, sizeof phase, "sweep: the frontiers for N = %d..%d", o->sweep_lo, o->sweep_hi);
  tc_progress_report(progress, phase, 0, total);
  for (int32_t n = o->sweep_lo; n <= o->sweep_hi; n++) {
    tc_find_options fo = {n, o->cluster.degree, o->cluster.bidirectional, 0};
    tc_frontier f;
    int rc = tc_find(&fo, &f, &err);
    snprintf(phase, sizeof phase, "sweep: the frontier for N = %d", (int)n);
    if (!rc || rc == TC_EINPUT) tc_progress_report(progress, phase, n - o->sweep_lo + 1, total);
    if (rc == TC_EINPUT) continue; /* the options are valid, so no construction reaches this N */
    if (rc) {
      fflush(stdout);
      tc_progress_finish(progress);
      tc_error_prefix(&err, "N = %d", n);
      return tc_cli_fail("find", &err);
    }
    const tc_candidate *c = &f.member[tc_frontier_choose(&f, &o->cluster.workload)];
    char tau[64];
    format_rat(c->tau, tau, sizeof tau);
    /* specs contain commas: quote the text fields (RFC 4180; no spec or label holds '"') */
    printf("%d,\"%s\",\"%s\",%d,%s,%.9g\n", n, c->spec, c->label, c->steps, tau,
           tc_candidate_allreduce_time(c, &o->cluster.workload));
    tc_frontier_destroy(&f);
  }
  tc_progress_finish(progress);
  return TC_EXIT_OK;
}

/* --compare: every alternative measured (tc_plan_compare) before the frontier, so a bad
   item costs nothing. Returns an exit code; o->alt is the caller's to free. */
static int measure_compare(find_options *o) {
  char items[TC_CLI_MAX_LIST][256];
  int n = tc_cli_split_list(o->compare, items, TC_CLI_MAX_LIST);
  if (n < 0) return tc_cli_usage_error("find", "--compare: an empty or too long item in '%s'", o->compare);
  o->alt = calloc((size_t)n, sizeof *o->alt);
  if (!o->alt) return tc_cli_usage_error("find", "out of memory");
  tc_error err;
  tc_error_clear(&err);
  for (int i = 0; i < n; i++) {
    int rc = tc_plan_compare(items[i], o->cluster.nodes, o->cluster.degree, o->cluster.bidirectional,
                             &o->cluster.workload, &o->alt[i], &err);
    if (rc) {
      free(o->alt);
      o->alt = NULL;
      tc_error_prefix(&err, "--compare %s", items[i]);
      return tc_cli_fail("find", &err);
    }
  }
  o->ncompare = n;
  return TC_EXIT_OK;
}

int tc_cmd_find(int argc, char **argv) {
  find_options o;
  int status = parse_options(argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  tc_progress progress;
  if ((status = tc_cli_progress_init(&progress, "find", o.progress, o.quiet))) return status;
  if (o.sweep_text) return run_sweep(&o, &progress);
  tc_error err;
  tc_error_clear(&err);
  if (o.compare && (status = measure_compare(&o))) return status;
  tc_find_options fo = {o.cluster.nodes, o.cluster.degree, o.cluster.bidirectional, o.build};
  tc_frontier f;
  if (tc_find(&fo, &f, &err)) {
    free(o.alt);
    return tc_cli_fail("find", &err);
  }
  if (o.cluster.a2a && certify_a2a(&f, &o.cluster, &progress, &err)) {
    tc_frontier_destroy(&f);
    free(o.alt);
    return tc_cli_fail("find", &err);
  }
  if (o.json) print_json(&f, &o);
  else print_table(&f, &o);
  tc_frontier_destroy(&f);
  free(o.alt);
  return TC_EXIT_OK;
}
