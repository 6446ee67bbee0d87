/*
** cmd_train.c — `topocoll train`: one training iteration of a model on a cluster,
** simulated as paper 000 App. A.4 does (train.h), on our topologies and the baselines.
**
** What is compared (docs/training.md):
**   - without --plan, every member of the finder's Pareto frontier for N and d, each built,
**     its allgather verified and measured (tc_candidate_measure; the allreduce, reduce-
**     scatter then allgather, costs twice that: find.h); "ours" is the member with the least
**     iteration time (A.4: "the topology that results in the smallest iteration time");
**   - with --plan DIR, every member of the plan's frontier as plan.json records it
**     (plan_json.h; the finder is not run), each built and measured as above, the all-to-all
**     f taken from plan.json where the plan certified it; "ours" is the plan's choice;
**   - the baselines: ShiftedRing on circulant(N,1,b) (b the least offset > 1 coprime to N),
**     the 2D torus with its dimension-order schedule, the double binary tree on its own
**     two-tree topology (pipelined at the depth P = 1..64 that trains fastest);
**   - without --plan, the theoretical bound row: the frontier's Moore and bandwidth bounds
**     for the allreduce and its MCF bound for the all-to-all (A.4: ours "within 5 % of the
**     theoretical lower bound for iteration time").
** Allreduce times come from each verified schedule's measured (T_L, T_B); all-to-all times
** from each topology's certified MCF lower bound (column generation, `--gap`, stopped at
** `--a2a-time-limit`), only for models with experts.
*/
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_options.h"
#include "progress.h"
#include "plan_json.h"
#include "topocoll/a2a.h"
#include "topocoll/collective.h"
#include "topocoll/find.h"
#include "topocoll/spec.h"
#include "topocoll/train.h"
#include "topocoll/units.h"

#define CMD "train"

static void list_models(void);

void tc_cmd_train_help(void) {
  printf(
      "usage: topocoll train --model NAME --nodes N --degree D [--alpha TIME] [--link-bw BW]\n"
      "                      [--experts E] [--batch B] [--device-flops F] [--efficiency X]\n"
      "                      [--gap G] [--a2a-time-limit T] [--json] [--progress|--quiet]\n"
      "       topocoll train --model NAME --plan DIR [...]\n"
      "       topocoll train --list\n"
      "\n"
      "One training iteration simulated as paper 000 App. A.4 does: data parallelism with\n"
      "PyTorch-DDP gradient buckets (the best of 1 MB, 10 MB, 100 MB, 1 GB), a compute and a\n"
      "communication stream that runs one collective at a time; for Mixture-of-Experts models\n"
      "the experts are sharded over all nodes and an all-to-all before and after each expert\n"
      "layer blocks the compute stream. Allreduce times are the verified schedules' measured\n"
      "T_L and T_B; all-to-all times the certified multi-commodity-flow rate f. Compared: every\n"
      "Pareto-frontier member for N and D (or the plan's frontier), ShiftedRing, the 2D torus,\n"
      "the double binary tree and (without --plan) the theoretical bound. docs/training.md has\n"
      "the models, the device and the rules.\n"
      "\n");
  /* the model names from the table (models.c), wrapped under the option */
  char names[256];
  tc_train_model_names(names, sizeof names);
  printf("  --model NAME      ");
  int col = 20;
  for (char *tok = strtok(names, " "); tok; tok = strtok(NULL, " ")) {
    if (col + (int)strlen(tok) + 1 > 90) {
      printf("\n                    ");
      col = 20;
    }
    printf("%s%s", col > 20 ? " " : "", tok);
    col += (int)strlen(tok) + 1;
  }
  printf(" (--list shows their sizes)\n");
  printf(
      "  --nodes N         nodes (>= 2), one accelerator each\n"
      "  --degree D        ports per node (>= 1)\n"
      "  --plan DIR        a plan directory (topocoll plan): its frontier from plan.json, the\n"
      "                    plan's choice as ours; N, D, alpha and link bandwidth are the plan's\n"
      "  --alpha TIME      per-step latency (default 10us, A.4)\n"
      "  --link-bw BW      bandwidth of one link (default 100Gbps / D: 100 Gbps per node, A.4)\n"
      "  --experts E       experts per expert layer (switch-*: default the published count;\n"
      "                    A.4's 14.7 B model is switch-base with 256); a multiple of N\n"
      "  --batch B         samples per node per iteration (default per model, --list)\n"
      "  --device-flops F  peak FLOP/s of one accelerator (default 312e12: A100 BF16)\n"
      "  --efficiency X    fraction of the peak reached, in (0, 1] (default 0.5)\n"
      "  --gap G           all-to-all MCF: stop at this certified gap (default 0.01)\n"
      "  --a2a-time-limit T  all-to-all MCF: seconds per topology (default 10); the certified\n"
      "                    lower bound reached is used\n"
      "  --json            one JSON object (with the chosen topology's timeline)\n"
      "  --list            the models: parameters, layers, forward FLOPs per sample\n"
      "  --progress        progress on stderr: each topology's all-to-all MCF and its rounds\n"
      "                    (default: only when stderr is a terminal; TOPOCOLL_PROGRESS=1 or 0\n"
      "                    forces it)\n"
      "  --quiet           no progress lines\n" TC_CLI_MAX_MEMORY_HELP
      "\n"
      "Exit status: 0 success, 1 failure, 2 bad usage or input.\n");
}

typedef struct train_options {
  const char *model, *nodes_text, *degree_text, *alpha_text, *link_bw_text, *experts_text, *batch_text;
  const char *flops_text, *efficiency_text, *gap_text, *limit_text, *plan;
  int nodes, degree, experts, batch, json, progress, quiet;
  double alpha, link_bw, limit;
} train_options;

#define AT(f) offsetof(train_options, f)
static const tc_cli_option train_table[] = {
    {.name = "--model", .kind = TC_CLI_STRING, .text = AT(model), .needs = "a model name"},
    {.name = "--nodes", .kind = TC_CLI_INT, .text = AT(nodes_text), .value = AT(nodes), .lo = 2,
     .hi = TC_FIND_MAX_NODES},
    {.name = "--degree", .kind = TC_CLI_INT, .text = AT(degree_text), .value = AT(degree), .lo = 1,
     .hi = TC_FIND_MAX_DEGREE},
    {.name = "--alpha", .kind = TC_CLI_TIME, .text = AT(alpha_text), .value = AT(alpha), .fallback = "10us"},
    {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(link_bw_text), .value = AT(link_bw)},
    {.name = "--experts", .kind = TC_CLI_INT, .text = AT(experts_text), .value = AT(experts), .lo = 1,
     .hi = 131072},
    {.name = "--batch", .kind = TC_CLI_INT, .text = AT(batch_text), .value = AT(batch), .lo = 1, .hi = 1000000},
    {.name = "--device-flops", .kind = TC_CLI_STRING, .text = AT(flops_text), .needs = "a FLOP/s rate"},
    {.name = "--efficiency", .kind = TC_CLI_STRING, .text = AT(efficiency_text), .needs = "a fraction"},
    {.name = "--gap", .kind = TC_CLI_STRING, .text = AT(gap_text), .needs = "a relative gap"},
    {.name = "--a2a-time-limit", .kind = TC_CLI_SECONDS, .text = AT(limit_text), .value = AT(limit),
     .fallback = "10"},
    {.name = "--plan", .kind = TC_CLI_STRING, .text = AT(plan), .needs = "a plan directory"},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    {.name = "--list", .kind = TC_CLI_ACTION, .action = list_models},
    TC_CLI_PROGRESS_OPTIONS(train_options),
};
static const tc_cli_command train_cli = {
    .name = CMD, .help = tc_cmd_train_help, .options = train_table, .noptions = TC_CLI_COUNT(train_table),
    .npositional = 0, .extra_argument = "unexpected argument '%s'"};

static void list_models(void) {
  printf("%-13s %12s %7s %14s %8s %6s  %s\n", "model", "parameters", "layers", "FLOP/sample", "experts", "batch",
         "sample");
  for (int i = 0; i < tc_train_model_count(); i++) {
    tc_train_model m;
    tc_error err;
    if (tc_train_model_make(tc_train_model_name(i), 0, &m, &err)) continue; /* the table's own rows build */
    char params[32];
    if (m.params >= 1000000000) snprintf(params, sizeof params, "%.1f B", (double)m.params / 1e9);
    else snprintf(params, sizeof params, "%.1f M", (double)m.params / 1e6);
    printf("%-13s %12s %7d %14.3e %8d %6d  %s\n", m.name, params, (int)m.nlayers, m.flops, (int)m.experts,
           (int)m.batch, m.sample);
    tc_train_model_destroy(&m);
  }
}

/* A positive finite number, or a usage error naming the option. */
static int parse_real(const char *opt, const char *text, double lo_exclusive, double hi, double *out) {
  char *end = NULL;
  double v = strtod(text, &end);
  if (!*text || *end || !isfinite(v) || !(v > lo_exclusive) || v > hi)
    return tc_cli_usage_error(CMD, "%s expects a number in (%g, %g], got '%s'", opt, lo_exclusive, hi, text);
  *out = v;
  return 0;
}

/* One topology compared. */
typedef struct entry {
  char topology[256];
  const char *role;          /* "frontier", "ShiftedRing", "2D torus", "DBT", "bound" */
  int chosen;                /* with --plan: the plan chose this member */
  int a2a_from_plan;         /* the MCF f is plan.json's (certified by the plan) */
  char algorithm[32];        /* the allreduce's algorithm */
  int ok;                    /* 0: not available here, note says why */
  char note[TC_ERRMSG_MAX];
  int32_t chunks;            /* the allreduce's pipelining depth (DBT), else 1 */
  tc_train_network net;
  double a2a_gap;            /* the MCF's certified gap */
  tc_train_result r;
} entry;

typedef struct ctx {
  const train_options *o;
  const tc_train_model *m;
  tc_train_device dev;
  double gap;
  int need_a2a;
  tc_progress *progress; /* the command's reporter (progress.h): the MCFs are the long part */
} ctx;

/* The certified MCF lower bound of g into e (models with experts only). */
static int measure_a2a(const ctx *c, const tc_graph *g, entry *e, tc_error *err) {
  if (!c->need_a2a) return TC_OK;
  tc_a2a_options ao;
  tc_a2a_options_default(&ao);
  ao.method = TC_A2A_DW;
  ao.children = 0;
  ao.gap = c->gap;
  ao.time_limit = c->o->limit;
  if (c->progress->on) {
    tc_progress_note(c->progress, "%s %s: all-to-all MCF (gap %g, at most %g s)", e->role, e->topology, c->gap,
                     c->o->limit);
    ao.progress = tc_progress_report; /* dw's rounds */
    ao.progress_ctx = c->progress;
  }
  tc_a2a_result r;
  int rc = tc_a2a_solve(g, &ao, &r, err);
  if (rc) return rc;
  e->net.a2a_f = r.lower_bound;
  e->a2a_gap = r.gap;
  tc_a2a_result_destroy(&r);
  return TC_OK;
}

/* Simulate e with its measured network; a refusal (experts not shardable) is an input error. */
static int simulate(const ctx *c, entry *e, tc_error *err) {
  int rc = tc_train_simulate_best(c->m, &c->dev, &e->net, c->o->batch, &e->r, err);
  if (!rc) e->ok = 1;
  return rc;
}

static void base_net(const ctx *c, entry *e, int32_t nodes) {
  e->net.nodes = nodes;
  e->net.alpha_s = c->o->alpha;
  e->net.link_bw = c->o->link_bw;
  e->chunks = 1;
}

/* A baseline algorithm on graph g (spec: how g was written, for torus-dor); pipelined
   algorithms at every depth, the fastest iteration kept. */
static int baseline(const ctx *c, entry *e, const tc_graph *g, const char *spec_text, const char *algo, tc_error *err) {
  snprintf(e->algorithm, sizeof e->algorithm, "%s", algo);
  tc_spec *spec = NULL;
  int rc = spec_text ? tc_spec_parse(spec_text, &spec, err) : TC_OK;
  if (!rc) rc = measure_a2a(c, g, e, err);
  const tc_algorithm_info *a = tc_algorithm_find(algo);
  int32_t top = tc_algorithm_pipelined(a) ? TC_PIPELINE_MAX : 1;
  for (int32_t P = 1; !rc && P <= top; P *= 2) {
    tc_collective_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.spec = spec;
    opts.chunks = tc_algorithm_pipelined(a) ? P : 0;
    tc_schedule s;
    tc_cost cost;
    rc = tc_collective_build(g, algo, TC_COLL_ALLREDUCE, &opts, &s, &cost, err);
    if (rc && e->ok && (rc == TC_EINPUT || rc == TC_ERANGE)) { /* a deeper pipeline refused: keep the best */
      rc = TC_OK;
      break;
    }
    if (rc) break;
    entry t = *e;
    memset(&t.r, 0, sizeof t.r);
    t.net.ar_steps = cost.steps;
    t.net.ar_tau = tc_rat_to_double(cost.tau);
    t.net.ar_degree = cost.degree;
    t.chunks = P;
    tc_cost_destroy(&cost);
    tc_schedule_destroy(&s);
    rc = simulate(c, &t, err);
    if (rc) break;
    if (!e->ok || t.r.iteration_s < e->r.iteration_s) {
      tc_train_result_destroy(&e->r);
      *e = t;
    } else {
      tc_train_result_destroy(&t.r);
    }
  }
  tc_spec_destroy(spec);
  return rc;
}

static int32_t gcd(int32_t a, int32_t b) {
  while (b) {
    int32_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Not available: e keeps the reason; anything but a refusal stops the command. */
static int unavailable(entry *e, int rc, const tc_error *why, tc_error *err) {
  if (rc == TC_EINPUT || rc == TC_ERANGE) {
    e->ok = 0;
    snprintf(e->note, sizeof e->note, "%s", why->msg);
    return TC_OK;
  }
  *err = *why;
  return rc;
}

static int baselines(const ctx *c, int32_t n, int32_t d, entry *out, int *count, tc_error *err) {
  /* ShiftedRing: TopoOpt's two rings, i -> i±1 and i -> i±b */
  entry *e = &out[(*count)++];
  base_net(c, e, n);
  e->role = "ShiftedRing";
  int32_t b = 2;
  while (b < n && gcd(n, b) != 1) b++;
  snprintf(e->topology, sizeof e->topology, "circulant(%d,1,%d)", (int)n, (int)b);
  tc_error why;
  tc_error_clear(&why);
  tc_graph *g = NULL;
  int rc = d != 4 ? tc_error_set(&why, TC_EINPUT, "ShiftedRing needs 4 ports per node, the cluster has %d", (int)d)
                  : 2 * b >= n ? tc_error_set(&why, TC_EINPUT, "no second ring offset on %d nodes", (int)n)
                               : tc_spec_build(e->topology, &g, &why);
  if (!rc) rc = baseline(c, e, g, NULL, "shiftedring", &why);
  tc_graph_destroy(g);
  g = NULL;
  if (rc && (rc = unavailable(e, rc, &why, err))) return rc;

  /* 2D torus a x b, a the largest divisor of N at most sqrt(N) */
  e = &out[(*count)++];
  base_net(c, e, n);
  e->role = "2D torus";
  int32_t a = 1;
  for (int32_t i = 2; (int64_t)i * i <= n; i++)
    if (n % i == 0) a = i;
  snprintf(e->topology, sizeof e->topology, "torus(%d,%d)", (int)a, (int)(n / a));
  tc_error_clear(&why);
  rc = d < 4 ? tc_error_set(&why, TC_EINPUT, "a 2D torus needs 4 ports per node, the cluster has %d", (int)d)
             : a < 3 ? tc_error_set(&why, TC_EINPUT, "%d nodes make no 2D torus with both sides >= 3", (int)n)
                     : tc_spec_build(e->topology, &g, &why);
  if (!rc) rc = baseline(c, e, g, e->topology, "torus-dor", &why);
  tc_graph_destroy(g);
  g = NULL;
  if (rc && (rc = unavailable(e, rc, &why, err))) return rc;

  /* the double binary tree on its own topology */
  e = &out[(*count)++];
  base_net(c, e, n);
  e->role = "DBT";
  tc_error_clear(&why);
  char desc[64];
  rc = tc_algorithm_home(tc_algorithm_find("dbt"), n, d, 0, &g, desc, sizeof desc, &why);
  snprintf(e->topology, sizeof e->topology, "%s", desc);
  if (!rc) rc = baseline(c, e, g, NULL, "dbt", &why);
  tc_graph_destroy(g);
  if (rc && (rc = unavailable(e, rc, &why, err))) return rc;
  return TC_OK;
}

/* Every frontier member: built, its allgather verified and measured, the allreduce twice that.
   *bound gets the frontier's theoretical bound as a network (simulated after the baselines):
   the allreduce at twice the Moore bound T_L* and twice (N-1)/N (Def. 10, Thm 4), the
   all-to-all at the MCF bound d/S_min(N,d) (paper 003 Theorem 1) — no topology reaches
   more, so no iteration is faster (A.4's "theoretical lower bound"). */
static int frontier(const ctx *c, entry **out, int *count, entry *bound, tc_error *err) {
  tc_find_options fo = {.nodes = c->o->nodes, .degree = c->o->degree};
  tc_frontier f;
  int rc = tc_find(&fo, &f, err);
  if (rc) return rc;
  *out = calloc((size_t)f.count + 4, sizeof **out);
  base_net(c, bound, c->o->nodes);
  bound->role = "bound";
  snprintf(bound->topology, sizeof bound->topology, "theoretical bound");
  snprintf(bound->algorithm, sizeof bound->algorithm, "-");
  bound->net.ar_steps = 2 * f.bound_steps;
  bound->net.ar_tau = 2 * tc_rat_to_double(f.bound_tau);
  bound->net.ar_degree = c->o->degree;
  if (c->need_a2a) bound->net.a2a_f = tc_rat_to_double(f.bound_mcf);
  if (!*out) {
    tc_frontier_destroy(&f);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int32_t i = 0; !rc && i < f.count; i++) {
    tc_candidate *m = &f.member[i];
    entry *e = &(*out)[(*count)++];
    base_net(c, e, c->o->nodes);
    e->role = "frontier";
    snprintf(e->topology, sizeof e->topology, "%s", m->spec);
    snprintf(e->algorithm, sizeof e->algorithm, "expand");
    tc_graph *g = NULL;
    tc_schedule ag;
    memset(&ag, 0, sizeof ag);
    rc = tc_candidate_build(m, &g, &ag, err);
    if (!rc) rc = tc_candidate_measure(m, g, &ag, err);
    if (!rc) {
      e->net.ar_steps = 2 * m->measured_steps;
      e->net.ar_tau = 2 * tc_rat_to_double(m->measured_tau);
      e->net.ar_degree = c->o->degree;
      rc = measure_a2a(c, g, e, err);
    }
    if (!rc) rc = simulate(c, e, err);
    tc_schedule_destroy(&ag);
    tc_graph_destroy(g);
  }
  tc_frontier_destroy(&f);
  return rc;
}

/* DIR/plan.json read (plan_json.h) into *pj; *root is the caller's to json_decref. A
   directory without one (plans written before plan.json), a fabric plan (no frontier) and a
   plan.json without frontier.degree (written before it was kept) are refused: plan again. */
static int read_plan(const char *dir, json_t **root, tc_plan_json *pj, tc_error *err) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/plan.json", dir) >= sizeof path)
    return tc_error_set(err, TC_EINPUT, "plan directory name too long");
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return tc_error_set(err, TC_EINPUT, "'%s' has no plan.json (a plan directory written by topocoll plan)", dir);
  json_error_t je;
  if (!(*root = json_load_file(path, JSON_REJECT_DUPLICATES, &je)))
    return tc_error_set(err, TC_EINPUT, "%s: not valid JSON (line %d: %.100s)", path, je.line, je.text);
  const char *format = json_string_value(json_object_get(*root, "format"));
  if (!format || strcmp(format, "topocoll-plan"))
    return tc_error_set(err, TC_EINPUT, "%s: not a plan document (no \"format\": \"topocoll-plan\")", path);
  int rc = tc_plan_json_read(*root, path, pj, err);
  if (rc) return rc;
  int chosen = 0;
  for (int i = 0; i < pj->nmembers; i++) chosen += pj->member[i].chosen;
  if (pj->nmembers == 0) rc = tc_error_set(err, TC_EINPUT, "%s has no frontier (a fabric plan): train compares a direct-connect plan's frontier", path);
  else if (pj->degree == 0) rc = tc_error_set(err, TC_EINPUT, "%s has no frontier.degree (written by an older topocoll): plan again", path);
  else if (chosen != 1) rc = tc_error_set(err, TC_EINPUT, "%s: the frontier has %d chosen members, not 1", path, chosen);
  if (rc) tc_plan_json_destroy(pj);
  return rc;
}

/* Every member of the plan's frontier, built and measured as the finder's members are
   (frontier()), without re-running the finder: the allgather built from the member's spec and
   verified (tc_candidate_build), costed (tc_schedule_cost), held to plan.json's prediction
   (steps equal, tau no larger: a member that measures otherwise is not the plan's), the
   allreduce twice it. The all-to-all f is plan.json's certified lower bound when the plan
   weighed all-to-alls, else certified here (measure_a2a). */
static int plan_frontier(const ctx *c, const tc_plan_json *pj, const char *dir, entry *out, int *count,
                         tc_error *err) {
  int rc = TC_OK;
  for (int i = 0; !rc && i < pj->nmembers; i++) {
    const tc_plan_json_member *pm = &pj->member[i];
    entry *e = &out[(*count)++];
    base_net(c, e, pj->nodes);
    e->role = "frontier";
    e->chosen = pm->chosen;
    snprintf(e->topology, sizeof e->topology, "%s", pm->spec);
    snprintf(e->algorithm, sizeof e->algorithm, "expand");
    tc_candidate cand;
    memset(&cand, 0, sizeof cand);
    snprintf(cand.spec, sizeof cand.spec, "%s", pm->spec);
    tc_graph *g = NULL;
    tc_schedule ag;
    memset(&ag, 0, sizeof ag);
    tc_cost cost;
    memset(&cost, 0, sizeof cost);
    rc = tc_candidate_build(&cand, &g, &ag, err);
    if (!rc) rc = tc_schedule_cost(g, &ag, &cost, err);
    if (!rc && (g->n != pj->nodes || cost.degree != pj->degree || cost.steps != pm->steps ||
                tc_rat_cmp(cost.tau, pm->tau) > 0)) {
      char got[48], want[48];
      tc_rat_format(cost.tau, got, sizeof got);
      tc_rat_format(pm->tau, want, sizeof want);
      rc = tc_error_set(err, TC_EINPUT,
                        "%s/plan.json: frontier member %s measures %d steps and tau %s on %d nodes of degree %lld, "
                        "not plan.json's %d steps and tau %s on %d nodes of degree %d",
                        dir, pm->spec, (int)cost.steps, got, (int)g->n, (long long)cost.degree, (int)pm->steps, want,
                        (int)pj->nodes, (int)pj->degree);
    }
    if (!rc) {
      e->net.ar_steps = 2 * cost.steps;
      e->net.ar_tau = 2 * tc_rat_to_double(cost.tau);
      e->net.ar_degree = pj->degree;
      if (c->need_a2a && pm->has_a2a_f) {
        e->net.a2a_f = tc_rat_to_double(pm->a2a_f);
        e->a2a_from_plan = 1;
      } else {
        rc = measure_a2a(c, g, e, err);
      }
    }
    if (!rc) rc = simulate(c, e, err);
    tc_cost_destroy(&cost);
    tc_schedule_destroy(&ag);
    tc_graph_destroy(g);
  }
  return rc;
}

static json_t *json_entry(const entry *e, const entry *ours, int plan) {
  json_t *o = json_object();
  json_object_set_new(o, "topology", json_string(e->topology));
  json_object_set_new(o, "role", json_string(e->role));
  if (plan) json_object_set_new(o, "chosen", json_boolean(e->chosen));
  json_object_set_new(o, "available", json_boolean(e->ok));
  if (!e->ok) {
    json_object_set_new(o, "note", json_string(e->note));
    return o;
  }
  json_object_set_new(o, "algorithm", json_string(e->algorithm));
  json_object_set_new(o, "chunks", json_integer(e->chunks));
  json_object_set_new(o, "allreduce_steps", json_integer(e->net.ar_steps));
  json_object_set_new(o, "allreduce_tb_factor", json_real(e->net.ar_tau));
  json_object_set_new(o, "mcf_f", e->net.a2a_f > 0 ? json_real(e->net.a2a_f) : json_null());
  if (e->net.a2a_f > 0) json_object_set_new(o, "mcf_from", json_string(e->a2a_from_plan ? "plan" : "computed"));
  json_object_set_new(o, "bucket_bytes", json_real(e->r.bucket_bytes));
  json_object_set_new(o, "iteration_time_s", json_real(e->r.iteration_s));
  json_object_set_new(o, "compute_s", json_real(e->r.compute_s));
  json_object_set_new(o, "allreduce_exposed_s", json_real(e->r.allreduce_exposed_s));
  json_object_set_new(o, "alltoall_s", json_real(e->r.alltoall_s));
  json_object_set_new(o, "iteration_vs_ours", json_real(e->r.iteration_s / ours->r.iteration_s));
  json_object_set_new(o, "alltoall_vs_ours",
                      ours->r.alltoall_s > 0 ? json_real(e->r.alltoall_s / ours->r.alltoall_s) : json_null());
  return o;
}

static void print_json(const ctx *c, const entry *es, int count, const entry *ours) {
  json_t *doc = json_object();
  json_object_set_new(doc, "command", json_string(CMD));
  json_object_set_new(doc, "model", json_string(c->m->name));
  json_object_set_new(doc, "parameters", json_integer(c->m->params));
  json_object_set_new(doc, "experts", json_integer(c->m->experts));
  json_object_set_new(doc, "nodes", json_integer(ours->net.nodes));
  json_object_set_new(doc, "degree", json_integer(c->o->degree));
  json_object_set_new(doc, "batch", json_integer(c->o->batch));
  json_object_set_new(doc, "alpha_s", json_real(c->o->alpha));
  json_object_set_new(doc, "link_bw", json_real(c->o->link_bw));
  json_object_set_new(doc, "device", json_string(c->dev.name));
  json_object_set_new(doc, "device_flops", json_real(c->dev.peak_flops));
  json_object_set_new(doc, "efficiency", json_real(c->dev.efficiency));
  json_object_set_new(doc, "topology", json_string(ours->topology));
  json_object_set_new(doc, "bucket_bytes", json_real(ours->r.bucket_bytes));
  json_object_set_new(doc, "iteration_time_s", json_real(ours->r.iteration_s));
  json_object_set_new(doc, "compute_s", json_real(ours->r.compute_s));
  json_object_set_new(doc, "allreduce_exposed_s", json_real(ours->r.allreduce_exposed_s));
  json_object_set_new(doc, "alltoall_s", json_real(ours->r.alltoall_s));
  json_t *cmp = json_array();
  for (int i = 0; i < count; i++) json_array_append_new(cmp, json_entry(&es[i], ours, c->o->plan != NULL));
  json_object_set_new(doc, "comparison", cmp);
  json_t *tl = json_array();
  for (int32_t i = 0; i < ours->r.nevents; i++) {
    const tc_train_event *ev = &ours->r.event[i];
    json_t *o = json_object();
    json_object_set_new(o, "stream", json_string(tc_train_stream_name(ev->stream)));
    json_object_set_new(o, "kind", json_string(tc_train_kind_name(ev->kind)));
    json_object_set_new(o, "layer", json_integer(ev->layer));
    json_object_set_new(o, "start_s", json_real(ev->start_s));
    json_object_set_new(o, "end_s", json_real(ev->end_s));
    json_array_append_new(tl, o);
  }
  json_object_set_new(doc, "timeline", tl);
  json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  printf("\n");
  json_decref(doc);
}

static void print_table(const ctx *c, const entry *es, int count, const entry *ours) {
  char bw[32], alpha[32];
  tc_units_format_bandwidth(c->o->link_bw, bw, sizeof bw);
  tc_units_format_time(c->o->alpha, 0, alpha, sizeof alpha);
  printf("train %s on %d nodes of degree %d: alpha %s, link %s; %s at %.4g FLOP/s x %.3g\n", c->m->name,
         (int)ours->net.nodes, c->o->degree, alpha, bw, c->dev.name, c->dev.peak_flops, c->dev.efficiency);
  printf("model      %s: %lld parameters, %d layers, %.4g FLOP per sample forward", c->m->title,
         (long long)c->m->params, (int)c->m->nlayers, c->m->flops);
  if (c->m->experts) printf(", %d experts per expert layer", (int)c->m->experts);
  printf("\nbatch      %d sample(s) of %s per node\n", c->o->batch, c->m->sample);
  printf("ours       %s (%s)\n", ours->topology,
         ours->chosen ? "the plan's choice" : "the frontier member with the least iteration time");
  printf("iteration  %.6g s: compute %.6g s, exposed allreduce %.6g s, all-to-all %.6g s (%.1f %%); bucket %.0f MB\n\n",
         ours->r.iteration_s, ours->r.compute_s, ours->r.allreduce_exposed_s, ours->r.alltoall_s,
         100.0 * ours->r.alltoall_s / ours->r.iteration_s, ours->r.bucket_bytes / 1e6);
  printf("%-11s %-30s %-11s %5s %8s %10s %7s %12s %12s %12s %12s %6s %8s %8s\n", "role", "topology", "allreduce",
         "T_L", "T_B", "MCF f", "bucket", "iteration(s)", "compute(s)", "exp. AR(s)", "all-to-all(s)", "a2a %",
         "iter/ours", "a2a/ours");
  for (int i = 0; i < count; i++) {
    const entry *e = &es[i];
    if (!e->ok) {
      printf("%-11s %-30s not available: %s\n", e->role, e->topology, e->note);
      continue;
    }
    char algo[48], f[32], a2a_ratio[16];
    if (e->chunks > 1) snprintf(algo, sizeof algo, "%s P=%d", e->algorithm, (int)e->chunks);
    else snprintf(algo, sizeof algo, "%s", e->algorithm);
    if (e->net.a2a_f > 0) snprintf(f, sizeof f, "%.4g%s", e->net.a2a_f, e->a2a_from_plan ? "p" : "");
    else snprintf(f, sizeof f, "-");
    if (ours->r.alltoall_s > 0) snprintf(a2a_ratio, sizeof a2a_ratio, "%.2f", e->r.alltoall_s / ours->r.alltoall_s);
    else snprintf(a2a_ratio, sizeof a2a_ratio, "-");
    printf("%-11s %-30s %-11s %5d %8.4f %10s %6.0fM %12.6g %12.6g %12.6g %12.6g %6.1f %8.2f %8s%s\n", e->role,
           e->topology, algo, (int)e->net.ar_steps, e->net.ar_tau, f, e->r.bucket_bytes / 1e6, e->r.iteration_s,
           e->r.compute_s, e->r.allreduce_exposed_s, e->r.alltoall_s, 100.0 * e->r.alltoall_s / e->r.iteration_s,
           e->r.iteration_s / ours->r.iteration_s, a2a_ratio, e == ours ? "  <- ours" : "");
  }
  for (int i = 0; i < count; i++)
    if (es[i].a2a_from_plan) {
      printf("(MCF f marked p: the plan's certified value, from plan.json)\n");
      break;
    }
}

int tc_cmd_train(int argc, char **argv) {
  train_options o;
  memset(&o, 0, sizeof o);
  int status = tc_cli_parse(&train_cli, argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  if (!o.model) return tc_cli_usage_error(CMD, "missing --model NAME (or --list)");
  if (o.plan && (o.nodes_text || o.degree_text || o.alpha_text || o.link_bw_text))
    return tc_cli_usage_error(CMD, "--plan takes N, D, alpha and the link bandwidth from the plan: drop --nodes, "
                                   "--degree, --alpha and --link-bw");
  if (!o.plan && !o.nodes_text) return tc_cli_usage_error(CMD, "missing --nodes N (or --plan DIR)");
  if (!o.plan && !o.degree_text) return tc_cli_usage_error(CMD, "missing --degree D");
  status = tc_cli_convert(&train_cli, &o, "--nodes", "--degree", "--alpha", "--link-bw", "--experts", "--batch",
                          "--a2a-time-limit", NULL);
  if (status) return status;
  tc_progress progress;
  if ((status = tc_cli_progress_init(&progress, CMD, o.progress, o.quiet))) return status;
  ctx c = {.o = &o, .progress = &progress};
  tc_train_device_default(&c.dev);
  c.gap = 0.01;
  if (o.flops_text && (status = parse_real("--device-flops", o.flops_text, 0, 1e21, &c.dev.peak_flops)))
    return status;
  if (o.efficiency_text && (status = parse_real("--efficiency", o.efficiency_text, 0, 1, &c.dev.efficiency)))
    return status;
  if (o.gap_text && (status = parse_real("--gap", o.gap_text, 0, 1, &c.gap))) return status;
  if (o.flops_text) snprintf(c.dev.name, sizeof c.dev.name, "a device");

  tc_error err;
  tc_train_model m;
  if (tc_train_model_make(o.model, o.experts_text ? o.experts : 0, &m, &err)) return tc_cli_fail(CMD, &err);
  c.m = &m;
  c.need_a2a = m.experts > 0;
  if (!o.batch_text) o.batch = m.batch;

  entry *es = NULL, bound;
  memset(&bound, 0, sizeof bound);
  int count = 0, rc;
  if (o.plan) {
    json_t *root = NULL;
    tc_plan_json pj;
    rc = read_plan(o.plan, &root, &pj, &err);
    if (!rc) {
      o.nodes = pj.nodes;
      o.degree = pj.degree;
      o.alpha = pj.alpha_s;
      o.link_bw = pj.link_bw;
      rc = tc_train_check_nodes(&m, o.nodes, &err);
      if (!rc && !(es = calloc((size_t)pj.nmembers + 3, sizeof *es))) rc = tc_error_set(&err, TC_ENOMEM, "out of memory");
      if (!rc) rc = plan_frontier(&c, &pj, o.plan, es, &count, &err);
      tc_plan_json_destroy(&pj);
    }
    json_decref(root);
  } else {
    if (!o.link_bw_text) o.link_bw = 100e9 / 8 / o.degree;
    rc = tc_train_check_nodes(&m, o.nodes, &err);
    if (!rc) rc = frontier(&c, &es, &count, &bound, &err);
  }
  int nours = count;
  if (!rc) rc = baselines(&c, o.nodes, o.degree, es, &count, &err);
  if (!rc && bound.role) {
    es[count] = bound;
    rc = simulate(&c, &es[count++], &err);
  }
  tc_progress_finish(&progress);
  if (rc) {
    for (int i = 0; i < count; i++) tc_train_result_destroy(&es[i].r);
    free(es);
    tc_train_model_destroy(&m);
    return tc_cli_fail(CMD, &err);
  }
  /* ours: the plan's choice, else the fastest member */
  const entry *ours = &es[0];
  for (int i = 1; i < nours; i++)
    if (o.plan ? es[i].chosen : es[i].r.iteration_s < ours->r.iteration_s) ours = &es[i];
  if (o.json) print_json(&c, es, count, ours);
  else print_table(&c, es, count, ours);
  for (int i = 0; i < count; i++) tc_train_result_destroy(&es[i].r);
  free(es);
  tc_train_model_destroy(&m);
  return TC_EXIT_OK;
}
