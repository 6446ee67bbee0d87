/*
** cmd_simulate.c — `topocoll simulate SCHEDULE.json --link-bw B --alpha A [--sizes LIST]`:
** run a schedule in SimGrid's SMPI on its own topology — as a pure α-β network (--model ab,
** the default: it checks the schedule against its own model) or with SMPI's calibrated
** network model (--model smpi: contention and protocol effects, sim_smpi.h) — beside the
** α-β model's prediction and SMPI's built-in algorithms on the same platform, and fit α
** and 1/B from the simulated times (the cost-model validation of paper 000 App. A.2).
**
** Order of work, and why: everything that can be refused is refused before anything is
** simulated — options, sizes, the schedule file (read, then verified: an invalid schedule
** is exit 1 and never simulated), a collective the executor runs, the programs smpirun and
** topocoll-smpi-exec. Then a fresh directory (cli_fs.h, removed at the end whatever
** happens short of SIGKILL: also on SIGINT, SIGTERM, SIGHUP, SIGPIPE) receives the platform (tc_simgrid_write_platform), the hostfile
** and every rank's program, lowered once from the schedule just verified
** (tc_program_file_write, program_io.h): each simulated rank reads only its own, where
** reading and lowering the whole schedule in every rank cost O(N * transfers) — N^3, past
** ten minutes at 256 ranks, all of them in SMPI's one process. A path in the fresh
** directory never meets smpirun's word splitting. Runs (sim_smpi.h), each covering many sizes:
**   - sizes <= --check-max with real data and the result checked; larger sizes with
**     --no-compute (shared dummy buffers, so 64 ranks x 1 GB fit in memory). When no size
**     is small enough, one checked run at --check-max itself stands in (not reported);
**   - first the schedule, out of place then in place (--inplace; broadcast and p2p have no
**     in-place form, tc_program_no_inplace): its failure, or a wrong result, ends the
**     command: exit 1;
**   - then each SMPI algorithm of --smpi-algos (default: sim_smpi.h's few strong ones) for
**     the schedule's collective, out of place. One that
**     crashes, hangs past --timeout or computes a wrong result is reported as skipped,
**     with the reason, and takes no part in "best SMPI algorithm".
** Model time per size: tc_cost_time (steps·α + tau·M/B); the lower bound uses the cost's
** optimal values (T_L* = moore_steps, tau*). The fit is tc_fit_cost_model (fit.h).
*/
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_fs.h"
#include "cli_options.h"
#include "exec_client.h"
#include "launch.h"
#include "progress.h"
#include "sim_smpi.h"
#include "topocoll/cost.h"
#include "topocoll/fit.h"
#include "topocoll/program.h"
#include "topocoll/program_io.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched_io.h"
#include "topocoll/simgrid.h"
#include "topocoll/units.h"
#include "topocoll/verify.h"

#define EXEC_NAME "topocoll-smpi-exec"
#define DEFAULT_SIZES "1KB..1MB"
#define DEFAULT_CHECK_MAX "1MB"
#define DEFAULT_TIMEOUT "600" /* seconds */

void tc_cmd_simulate_help(void) {
  printf(
      "usage: topocoll simulate SCHEDULE.json --link-bw BW --alpha TIME [--sizes LIST] [--factor F]\n"
      "                         [--smpi-algos strong|all|none|A,B,...] [--check-max SIZE]\n"
      "                         [--model ab|smpi] [--inplace 0|1|both] [--timeout TIME] [--json]\n"
      "                         [--progress|--quiet]\n"
      "\n"
      "Simulates the schedule in SCHEDULE.json with SimGrid's SMPI on its own topology, built\n"
      "as a SimGrid platform in which every arc is a link of bandwidth BW (times its capacity)\n"
      "and latency TIME, by default configured as a pure alpha-beta network (--model, below;\n"
      "docs/running.md). Prints per\n"
      "size one row with nccl-tests' columns (size, count, type, redop, root, then out of place\n"
      "and in place side by side: simulated time, algorithmic bandwidth size / time, bus\n"
      "bandwidth, #wrong) beside the alpha-beta model's prediction T = steps*alpha + tau*M/B, the alpha-beta lower bound, and the best of\n"
      "SMPI's own algorithms for the collective on the same platform; then fits alpha and 1/B\n"
      "from the simulated times (paper 000 App. A.2) and prints their relative errors.\n"
      "Runs every collective's schedules (p2p has no SMPI algorithm to compare); the schedule\n"
      "is verified first.\n"
      "\n"
      "  --link-bw BW      bandwidth of one unit-capacity link, e.g. 100Gbps, 12.5GBps\n"
      "  --alpha TIME      per-message latency of a link, e.g. 1us\n"
      "  --sizes LIST      buffer sizes M of the whole collective (alltoall: each rank's send\n"
      "                    buffer), e.g. 4K,1M or 1K..64M: a range includes both ends and\n"
      "                    doubles (--factor); K, M, G and KiB, MiB, GiB are powers of 2, KB,\n"
      "                    MB, GB powers of 10; default " DEFAULT_SIZES "\n"
      "  --factor F        a range LO..HI runs LO, LO*F, ... below HI, then HI (default 2)\n"
      "  --smpi-algos A    SMPI algorithms to compare: strong (default: a few strong ones, below),\n"
      "                    all (every one SMPI has: minutes per size at 256 ranks), none, or a\n"
      "                    comma list of SMPI's names (see docs/running.md)\n");
  static const tc_collective colls[] = {TC_COLL_ALLREDUCE, TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER,
                                        TC_COLL_ALLTOALL,  TC_COLL_BROADCAST, TC_COLL_REDUCE,
                                        TC_COLL_SCATTER,   TC_COLL_GATHER};
  for (size_t c = 0; c < sizeof colls / sizeof colls[0]; c++) {
    printf("                      %-15s", tc_collective_name(colls[c]));
    for (const char *const *d = tc_sim_smpi_default_algorithms(colls[c]); *d; d++)
      printf("%s%s", d == tc_sim_smpi_default_algorithms(colls[c]) ? "" : ",", *d);
    printf("\n");
  }
  printf(
      "  --model M         the network SimGrid simulates: ab (default) a pure alpha-beta network,\n"
      "                    so that the simulated times check the schedule against its model\n"
      "                    (error, fit); smpi SMPI's own calibrated model: links shared by\n"
      "                    concurrent flows, latency and bandwidth factors by message size (the\n"
      "                    eager/rendezvous switch), TCP window, cross-traffic: closer to a real\n"
      "                    network, further from the model\n"
      "  --inplace V       the schedule's variants: both (default: out of place, then in place),\n"
      "                    0 out of place only, 1 in place only (MPI_IN_PLACE); broadcast and p2p\n"
      "                    have no in-place form (n/a; 1 is refused); SMPI's algorithms, the\n"
      "                    model and the fit use the out-of-place times (in place with 1)\n"
      "  --check-max SIZE  sizes up to SIZE run on real data and are checked; larger ones run\n"
      "                    without computing (identical messages); default " DEFAULT_CHECK_MAX "\n"
      "  --timeout TIME    kill a simulation (one smpirun) after TIME, e.g. 90s (a bare number\n"
      "                    is seconds); default 600s\n"
      "  --progress        a line on stderr as each program finishes each size (default: only\n"
      "                    when stderr is a terminal; TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet           no progress lines\n"
      "  --json            {\"busbw_factor\", \"results\": [{\"size_bytes\", \"out_of_place\": {\"time_us\",\n"
      "                    \"algbw\", \"busbw\", \"wrong\"}, \"in_place\": {...}, \"sim_time_s\", \"algbw\",\n"
      "                    \"busbw\" (GB/s; busbw = algbw x nccl-tests' factor: 2(N-1)/N allreduce,\n"
      "                    (N-1)/N the others), \"model_time_s\", \"smpi_best_algorithm\",\n"
      "                    \"smpi_best_time_s\", ...}], \"fit\": {\"alpha_s\",\n"
      "                    \"inv_bw_s_per_byte\", \"max_rel_err\", ...}, ...} instead of the tables\n"
      "\n"
      "Programs: " EXEC_NAME " is $TOPOCOLL_SMPI_EXEC, else the one beside this topocoll, else\n"
      "the one on PATH; smpirun is $TOPOCOLL_SMPIRUN, else the one on PATH.\n"
      "\n"
      "Exit status: 0 success, 1 an invalid schedule, a failed simulation of it or a wrong\n"
      "result, 2 bad usage or input.\n");
}

/* ---- options ---- */

typedef struct sim_options {
  const char *file, *bw_text, *alpha_text, *sizes_text, *factor_text, *algos_text, *check_text, *timeout_text;
  const char *model_text, *model_name, *inplace_text;
  const char *inplace; /* "0", "1" or "both" */
  int ran[2];          /* the schedule's variants simulated: [0] out of place, [1] in place */
  tc_sim_model model;
  int json, progress, quiet;
  double link_bw, alpha_s, timeout_s;
  int64_t check_max;
  tc_cli_size_list sizes;
} sim_options;

static const char *const models[] = {"ab", "smpi", NULL};
static const char *const variants[] = {"0", "1", "both", NULL};

#define AT(field) offsetof(sim_options, field)
static const tc_cli_option sim_table[] = {
    {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(bw_text), .value = AT(link_bw)},
    {.name = "--alpha", .kind = TC_CLI_TIME, .text = AT(alpha_text), .value = AT(alpha_s)},
    {.name = "--sizes", .kind = TC_CLI_SIZE_LIST, .text = AT(sizes_text), .value = AT(sizes),
     .fallback = DEFAULT_SIZES},
    TC_CLI_FACTOR_OPTION(sizes),
    {.name = "--smpi-algos", .kind = TC_CLI_STRING, .text = AT(algos_text)},
    {.name = "--check-max", .kind = TC_CLI_SIZE, .text = AT(check_text), .value = AT(check_max),
     .fallback = DEFAULT_CHECK_MAX},
    {.name = "--timeout", .kind = TC_CLI_SECONDS, .text = AT(timeout_text), .value = AT(timeout_s),
     .fallback = DEFAULT_TIMEOUT},
    {.name = "--model", .kind = TC_CLI_CHOICE, .text = AT(model_text), .value = AT(model_name), .choices = models,
     .fallback = "ab"},
    {.name = "--inplace", .kind = TC_CLI_CHOICE, .text = AT(inplace_text), .value = AT(inplace), .choices = variants,
     .fallback = "both"},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    TC_CLI_PROGRESS_OPTIONS(sim_options),
};
static const tc_cli_command sim_cli = {
    .name = "simulate", .help = tc_cmd_simulate_help, .options = sim_table, .noptions = TC_CLI_COUNT(sim_table),
    .positional = {AT(file)}, .npositional = 1,
    .extra_argument = "unexpected argument '%s' (SCHEDULE.json already given)"};
#undef AT

/* Returns TC_CLI_DONE after printing the help, else an exit code. */
static int parse_options(int argc, char **argv, sim_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&sim_cli, argc, argv, o);
  if (status) return status;
  if (!o->file) return tc_cli_usage_error("simulate", "missing SCHEDULE.json");
  if (!o->bw_text) return tc_cli_usage_error("simulate", "missing --link-bw");
  if (!o->alpha_text) return tc_cli_usage_error("simulate", "missing --alpha");
  if (tc_cli_progress_check("simulate", o->progress, o->quiet)) return TC_EXIT_USAGE;
  status = tc_cli_convert(&sim_cli, o, "--link-bw", "--alpha", "--check-max", "--timeout", "--model", "--inplace",
                          NULL);
  if (status) return status;
  o->model = !strcmp(o->model_name, "smpi") ? TC_SIM_MODEL_SMPI : TC_SIM_MODEL_AB;
  if (o->timeout_s <= 0) { /* quoted as the time parser saw it: a bare number with its "s" */
    tc_error err;
    tc_error_set(&err, TC_EINPUT, "--timeout: must be positive, got '%s%s'", o->timeout_text,
                 tc_cli_is_bare_number(o->timeout_text) ? "s" : "");
    return tc_cli_fail("simulate", &err);
  }
  return tc_cli_convert(&sim_cli, o, "--factor", "--sizes", NULL);
}

/* ---- the SMPI algorithms to compare ---- */

/* What one program (the schedule or an SMPI algorithm) gave, per requested size. */
typedef struct prog_result {
  double *times;
  int64_t *used;              /* the size the executor ran (sim_smpi.h) */
  int *ran;                   /* 1: times[i] holds its time */
  char lost[TC_ERRMSG_MAX];   /* SMPI algorithms: why the first size without a time failed */
} prog_result;

typedef struct algo_run {
  const char *name;
  int ok;                      /* its checked sizes ran and were right (else skipped) */
  char reason[TC_ERRMSG_MAX];  /* why it was skipped */
  prog_result r;
} algo_run;

static int prog_result_init(prog_result *r, int n) {
  memset(r, 0, sizeof *r);
  r->times = calloc((size_t)n, sizeof *r->times);
  r->used = calloc((size_t)n, sizeof *r->used);
  r->ran = calloc((size_t)n, sizeof *r->ran);
  return r->times && r->used && r->ran ? 0 : -1;
}

static void prog_result_free(prog_result *r) {
  free(r->times);
  free(r->used);
  free(r->ran);
}

/* --smpi-algos against the collective's list; a name not in it is a usage error. "strong"
   (the default) is sim_smpi.h's few strong algorithms, "all" every one SMPI has. */
static int choose_algorithms(const sim_options *o, tc_collective coll, algo_run **out, int *count) {
  static const char *const none[] = {NULL};
  const char *const *known = tc_sim_smpi_algorithms(coll); /* p2p: none */
  if (!known) known = none;
  const char *text = o->algos_text ? o->algos_text : "strong";
  int nknown = 0;
  while (known[nknown]) nknown++;

  algo_run *runs = calloc((size_t)nknown, sizeof *runs);
  char *copy = strdup(text);
  int n = 0, status = TC_EXIT_OK;
  if (!runs || !copy) {
    tc_cli_error("simulate", "out of memory");
    status = TC_EXIT_FAIL;
  } else if (!strcmp(text, "all")) {
    for (n = 0; n < nknown; n++) runs[n].name = known[n];
  } else if (!strcmp(text, "strong")) {
    for (const char *const *d = tc_sim_smpi_default_algorithms(coll); *d; d++) runs[n++].name = *d;
  } else if (strcmp(text, "none")) {
    /* Split at every comma, so that an empty name (",,", "a,,b", a trailing ",") is refused
       rather than skipped: ",," must not quietly mean "none". */
    for (char *w = copy, *next; w && !status; w = next) {
      next = strchr(w, ',');
      if (next) *next++ = '\0';
      if (!*w) {
        status = tc_cli_usage_error("simulate", "--smpi-algos: empty algorithm name in '%s' (a comma-separated list, "
                                    "'strong', 'all' or 'none')", text);
        break;
      }
      int k = 0, dup = 0;
      while (k < nknown && strcmp(known[k], w)) k++;
      for (int i = 0; i < n; i++) dup |= runs[i].name == known[k];
      if (k == nknown)
        status = tc_cli_usage_error("simulate", "--smpi-algos: SMPI has no %s algorithm '%s'",
                                    tc_collective_name(coll), w);
      else if (!dup) runs[n++].name = known[k];
    }
  }
  free(copy);
  if (status) {
    free(runs);
    return status;
  }
  *out = runs;
  *count = n;
  return TC_EXIT_OK;
}

/* ---- the simulations ---- */

typedef struct sim_plan {
  const sim_options *o;
  tc_sim_env env;
  tc_progress *progress; /* the command's reporter (progress.h) */
  int64_t *small, *large; /* sizes <= check_max (or check_max alone) and the rest */
  int *small_at, *large_at; /* where each stands in the options' list; -1 for the stand-in */
  int nsmall, nlarge;
} sim_plan;

static int split_sizes(const sim_options *o, sim_plan *p) {
  size_t n = (size_t)o->sizes.count;
  p->small = malloc(sizeof *p->small * n);
  p->large = malloc(sizeof *p->large * n);
  p->small_at = malloc(sizeof *p->small_at * n);
  p->large_at = malloc(sizeof *p->large_at * n);
  if (!p->small || !p->large || !p->small_at || !p->large_at) return -1;
  for (int i = 0; i < o->sizes.count; i++) {
    if (o->sizes.bytes[i] <= o->check_max) {
      p->small_at[p->nsmall] = i;
      p->small[p->nsmall++] = o->sizes.bytes[i];
    } else {
      p->large_at[p->nlarge] = i;
      p->large[p->nlarge++] = o->sizes.bytes[i];
    }
  }
  if (!p->nsmall) {
    p->small_at[0] = -1;
    p->small[p->nsmall++] = o->check_max;
  }
  return 0;
}

static void sim_plan_free(sim_plan *p) {
  free(p->small);
  free(p->large);
  free(p->small_at);
  free(p->large_at);
}

/* Progress (progress.h): one line per size a program finishes. The executor prints one line
   per size, in order, so the count of lines seen says which size just ended. */
typedef struct size_note {
  const sim_plan *p;
  const char *algo;     /* NULL: the schedule */
  int inplace;          /* the schedule's variant */
  const int64_t *sizes; /* this part's sizes */
  const int *at;        /* their places in the requested list (-1: the stand-in) */
  int n, next;          /* the part's size count; the index the next line answers */
} size_note;

static void note_size(void *ctx, const char *line, size_t len) {
  size_note *s = ctx;
  if (!s->p->progress->on || !len || s->next >= s->n) return;
  (void)line;
  int i = s->next++;
  char sz[32], who[TC_ERRMSG_MAX];
  tc_units_format_size(s->sizes[i], sz, sizeof sz);
  if (s->algo) snprintf(who, sizeof who, "SMPI %s", s->algo);
  else snprintf(who, sizeof who, "the schedule%s", s->inplace ? " in place" : "");
  if (s->at[i] < 0)
    tc_progress_note(s->p->progress, "%s: checked at %s (--check-max, not reported)", who, sz);
  else
    tc_progress_note(s->p->progress, "%s: %s done (size %d of %d)", who, sz, s->at[i] + 1, s->p->o->sizes.count);
}

/* The runs over one part of the sizes; results land at their places in r. A checked part
   must run whole and right: a failure or a wrong result is TC_EFAIL with err saying which.
   So must the schedule. An SMPI algorithm's unchecked part is resumed after a size that
   fails (its temporaries may not fit in memory from some size on): the sizes before it
   keep their times, and r->lost says why the first lost size failed. */
static int run_part(const sim_plan *p, const char *algo, const int64_t *sizes, const int *at, int n, int verify,
                    prog_result *r, int *interrupted, tc_error *err) {
  double *t = malloc(sizeof *t * (size_t)n);
  int64_t *u = malloc(sizeof *u * (size_t)n);
  int *verified = malloc(sizeof *verified * (size_t)n);
  tc_sim_env env = p->env;
  size_note note = {p, algo, env.inplace, sizes, at, n, 0};
  env.on_line = note_size;
  env.ctx = &note;
  int rc = !t || !u || !verified ? tc_error_set(err, TC_ENOMEM, "out of memory") : TC_OK;
  for (int k = 0; !rc && k < n;) {
    int done = 0;
    tc_error run_err;
    tc_error_clear(&run_err);
    note.next = k;
    int failed = tc_sim_run(&env, algo, sizes + k, n - k, verify, t + k, u + k, verified + k, &done, interrupted,
                            &run_err);
    for (int i = k; !rc && i < k + done; i++) {
      if (verify && verified[i] != 1)
        rc = tc_error_set(err, TC_EFAIL, "wrong result at %" PRId64 " bytes (%s)", u[i],
                          verified[i] == 0 ? "the check failed" : "not checked");
      else if (at[i] >= 0) {
        r->times[at[i]] = t[i];
        r->used[at[i]] = u[i];
        r->ran[at[i]] = 1;
      }
    }
    if (rc || !failed) break;
    if (!algo || verify || *interrupted || failed == TC_ENOMEM) {
      rc = tc_error_set(err, failed, "%s", run_err.msg);
      break;
    }
    if (k + done < n && !r->lost[0])
      snprintf(r->lost, sizeof r->lost, "from %" PRId64 " bytes: %.400s", sizes[k + done], run_err.msg);
    k += done + 1;
  }
  free(t);
  free(u);
  free(verified);
  return rc;
}

/* Both parts for one program (algo NULL: the schedule); *interrupted as in tc_sim_run. */
static int simulate_program(const sim_plan *p, const char *algo, prog_result *r, int *interrupted, tc_error *err) {
  int rc = run_part(p, algo, p->small, p->small_at, p->nsmall, 1, r, interrupted, err);
  if (!rc && p->nlarge) rc = run_part(p, algo, p->large, p->large_at, p->nlarge, 0, r, interrupted, err);
  return rc;
}

/* ---- the report ---- */

typedef struct sim_report {
  const sim_options *o;
  const tc_schedule_doc *doc;
  const tc_cost *cost;
  const prog_result *sched; /* the schedule's times the model, the fit and SMPI's are set
                               against: out of place, or in place with --inplace 1 */
  const prog_result *variant[2]; /* out of place, in place; NULL: not simulated */
  const int *checked;       /* per requested size: ran on real data and was checked */
  algo_run *algos;
  int nalgos;
  int has_fit;
  tc_cost_fit fit;
  char fit_error[TC_ERRMSG_MAX];
} sim_report;

static double model_time(const sim_report *r, int64_t bytes) {
  return tc_cost_time(r->cost, r->o->alpha_s, r->o->link_bw, (double)bytes);
}

/* The α-β lower bound steps*·α + tau*·M/B, or -1 when T_L* is undefined. */
static double bound_time(const sim_report *r, int64_t bytes) {
  const tc_cost *c = r->cost;
  if (c->moore_steps < 0) return -1;
  return c->moore_steps * r->o->alpha_s + tc_rat_to_double(c->tau_optimal) * (double)bytes /
                                               ((double)c->degree * r->o->link_bw);
}

/* The fastest algorithm that ran at size i, or -1. */
static int best_algorithm(const sim_report *r, int i) {
  int best = -1;
  for (int k = 0; k < r->nalgos; k++)
    if (r->algos[k].ok && r->algos[k].r.ran[i] && (best < 0 || r->algos[k].r.times[i] < r->algos[best].r.times[i]))
      best = k;
  return best;
}


/* Simulated and modelled times agree to a few ns: print them fine. */
static void format_time(double t, char *buf, size_t size) { tc_units_format_time(t, TC_UNITS_TIME_FINE, buf, size); }

/* The table's times, all in microseconds (one unit, as nccl-tests); "-" for none. */
static void format_us(double t, char *buf, size_t size) {
  if (t < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.3f", t * 1e6);
}

static void print_fit_text(const sim_report *r) {
  const sim_options *o = r->o;
  if (!r->has_fit) {
    printf("fit: %s\n", r->fit_error);
    return;
  }
  const tc_cost_fit *f = &r->fit;
  double node_bw = (double)r->cost->degree * o->link_bw;
  printf("fit (paper 000 App. A.2): simulated t = a + b*M by least squares over %d sizes, weights 1/t^2\n",
         o->sizes.count);
  printf("  alpha = a / %d steps = %.6g us (configured %.6g us)", r->cost->steps, f->alpha_s * 1e6, o->alpha_s * 1e6);
  if (isnan(f->alpha_rel_err)) printf("\n");
  else printf(": relative error %+.3f %%\n", f->alpha_rel_err * 100);
  printf("  1/B   = b / tau = %.6g s/byte, B = %.6g GB/s (configured %.6g GB/s = %" PRId64
         " links): relative error of 1/B %+.3f %%\n",
         f->inv_bw_s_per_byte, 1e-9 / f->inv_bw_s_per_byte, node_bw * 1e-9, r->cost->degree,
         f->inv_bw_rel_err * 100);
  printf("  max |model - simulated| / simulated over the sizes: %.3f %%\n", f->max_rel_err * 100);
}

/* "ok", "partial" (some sizes have no time) or "skipped". */
static const char *algo_status(const algo_run *a, int nsizes) {
  if (!a->ok) return "skipped";
  for (int i = 0; i < nsizes; i++)
    if (!a->r.ran[i]) return "partial";
  return "ok";
}

static void print_algorithms_text(const sim_report *r) {
  if (!r->nalgos) {
    printf("SMPI algorithms: none compared (--smpi-algos none)\n");
    return;
  }
  printf("SMPI %s algorithms run at every size:", tc_collective_name(r->doc->sched.coll));
  int every = 0;
  for (int k = 0; k < r->nalgos; k++)
    if (!strcmp(algo_status(&r->algos[k], r->o->sizes.count), "ok")) {
      printf(" %s", r->algos[k].name);
      every++;
    }
  printf("%s\n", every ? "" : " none");
  for (int k = 0; k < r->nalgos; k++) {
    const char *status = algo_status(&r->algos[k], r->o->sizes.count);
    if (!strcmp(status, "partial")) printf("  %s: some sizes only; no time %s\n", r->algos[k].name, r->algos[k].r.lost);
    else if (!strcmp(status, "skipped")) printf("  %s: skipped: %s\n", r->algos[k].name, r->algos[k].reason);
  }
}

static void print_text(const sim_report *r) {
  const sim_options *o = r->o;
  const tc_schedule *s = &r->doc->sched;
  char a[32];
  format_time(o->alpha_s, a, sizeof a);
  printf("%s \"%s\"%s%s: %d ranks in SimGrid SMPI, network model %s: alpha %s, link %.6g GB/s,\n"
         "B = %" PRId64 " links = %.6g GB/s; model %d steps, tau %.6g\n\n",
         tc_collective_name(s->coll), s->algorithm, r->doc->spec ? " on " : "", r->doc->spec ? r->doc->spec : "",
         tc_rank_count(r->doc->graph),
         o->model == TC_SIM_MODEL_SMPI ? "smpi (SMPI's calibrated model)" : "ab (pure alpha-beta)", a, o->link_bw * 1e-9, r->cost->degree, (double)r->cost->degree * o->link_bw * 1e-9,
         r->cost->steps, tc_rat_to_double(r->cost->tau));
  int32_t ranks = tc_rank_count(r->doc->graph);
  double factor = tc_collective_busbw_factor(s->coll, ranks);
  const char *na = tc_program_no_inplace(s->coll);
  int reduces = s->coll == TC_COLL_ALLREDUCE || s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE;
  char root[16];
  int32_t root_rank = tc_exec_root_rank(r->doc);
  if (root_rank >= 0) snprintf(root, sizeof root, "%d", root_rank);
  else snprintf(root, sizeof root, "-");
  if (na) printf("in place: n/a, %s has no in-place form in MPI (%s)\n\n", tc_collective_name(s->coll), na);
  printf("%10s  %10s  %5s  %5s  %4s  %-40s  %s\n", "", "", "", "", "", "out-of-place", "in-place");
  printf("%10s  %10s  %5s  %5s  %4s  %12s  %8s  %8s  %6s  %12s  %8s  %8s  %6s  %12s  %7s  %12s  %-22s  %12s  %s\n",
         "size", "count", "type", "redop", "root", "time(us)", "algbw", "busbw", "#wrong", "time(us)", "algbw", "busbw",
         "#wrong", "model(us)", "error", "bound(us)", "best SMPI", "SMPI(us)", "SMPI/sim");
  for (int i = 0; i < o->sizes.count; i++) {
    char sz[32], m[32], bd[32], st[32], ratio[32], side[2][160];
    int64_t b = r->sched->used[i];
    int64_t per = tc_program_count_per_rank(s->coll) ? 4 * (int64_t)ranks : 4; /* the executor's int32 */
    tc_units_format_size(b, sz, sizeof sz);
    for (int v = 0; v < 2; v++) {
      const prog_result *pr = r->variant[v];
      if (!pr) {
        const char *w = v && na ? "n/a" : "-";
        snprintf(side[v], sizeof side[v], "  %12s  %8s  %8s  %6s", w, w, w, w);
        continue;
      }
      char t[32];
      double bw = (double)b / pr->times[i] * 1e-9;
      format_us(pr->times[i], t, sizeof t);
      snprintf(side[v], sizeof side[v], "  %12s  %8.3f  %8.3f  %6s", t, bw, bw * factor, r->checked[i] ? "0" : "-");
    }
    format_us(model_time(r, b), m, sizeof m);
    format_us(bound_time(r, b), bd, sizeof bd);
    int k = best_algorithm(r, i);
    format_us(k >= 0 ? r->algos[k].r.times[i] : -1, st, sizeof st);
    if (k >= 0) snprintf(ratio, sizeof ratio, "%.3f", r->algos[k].r.times[i] / r->sched->times[i]);
    else snprintf(ratio, sizeof ratio, "-");
    /* Algorithms were compared but none ran at this size (each failed there, e.g. out of
       memory for its real temporaries at large sizes): say so in the row, why below. */
    const char *best = k >= 0 ? r->algos[k].name : r->nalgos ? "none ran (see below)" : "-";
    printf("%10s  %10" PRId64 "  %5s  %5s  %4s%s%s  %12s  %+6.2f%%  %12s  %-22s  %12s  %s\n", sz, b / per, "int32",
           reduces ? "sum" : "-", root, side[0], side[1], m,
           (model_time(r, b) - r->sched->times[i]) / r->sched->times[i] * 100, bd, best, st, ratio);
  }
  printf("\ntimes in us (simulated); algbw = size / time, busbw = algbw x %.6g (nccl-tests' factor for %s on %d\n"
         "ranks), in GB/s; #wrong: result elements that differ from MPI's (0: checked, sizes up to\n"
         "--check-max; -: not checked); in place: MPI_IN_PLACE (rooted: at the root); -: not simulated\n"
         "(--inplace); model, error, bound and SMPI are set against the %s time: error = (model -\n"
         "simulated) / simulated; bound = T_L* alpha + tau* M/B;\n",
         factor, tc_collective_name(s->coll), ranks, r->variant[0] ? "out-of-place" : "in-place");
  printf(
         "SMPI/sim = the best SMPI algorithm's time (out of place) / the simulated time (above 1: the\n"
         "schedule is faster)\n\n");
  print_fit_text(r);
  printf("\n");
  print_algorithms_text(r);
}

static json_t *time_or_null(double t) { return t < 0 ? json_null() : json_real(t); }

static json_t *fit_json(const sim_report *r) {
  if (!r->has_fit) return json_null();
  const tc_cost_fit *f = &r->fit;
  json_t *j = json_object();
  json_object_set_new(j, "alpha_s", json_real(f->alpha_s));
  json_object_set_new(j, "inv_bw_s_per_byte", json_real(f->inv_bw_s_per_byte));
  json_object_set_new(j, "max_rel_err", json_real(f->max_rel_err));
  json_object_set_new(j, "alpha_rel_err", isnan(f->alpha_rel_err) ? json_null() : json_real(f->alpha_rel_err));
  json_object_set_new(j, "inv_bw_rel_err", json_real(f->inv_bw_rel_err));
  json_object_set_new(j, "intercept_s", json_real(f->line.a));
  json_object_set_new(j, "slope_s_per_byte", json_real(f->line.b));
  json_object_set_new(j, "configured_alpha_s", json_real(r->o->alpha_s));
  json_object_set_new(j, "configured_inv_bw_s_per_byte",
                      json_real(1.0 / ((double)r->cost->degree * r->o->link_bw)));
  return j;
}

static void print_json(const sim_report *r) {
  const sim_options *o = r->o;
  const tc_schedule *s = &r->doc->sched;
  const tc_cost *c = r->cost;
  char tau[64], opt[64];
  snprintf(tau, sizeof tau, "%" PRId64 "/%" PRId64, c->tau.num, c->tau.den);
  snprintf(opt, sizeof opt, "%" PRId64 "/%" PRId64, c->tau_optimal.num, c->tau_optimal.den);
  json_t *j = json_object();
  json_object_set_new(j, "file", json_string(o->file));
  json_object_set_new(j, "spec", r->doc->spec ? json_string(r->doc->spec) : json_null());
  json_object_set_new(j, "collective", json_string(tc_collective_name(s->coll)));
  json_object_set_new(j, "algorithm", json_string(s->algorithm));
  json_object_set_new(j, "model", json_string(tc_sim_model_name(o->model)));
  json_object_set_new(j, "nodes", json_integer(s->nodes));
  json_object_set_new(j, "degree", json_integer(c->degree));
  json_object_set_new(j, "alpha_s", json_real(o->alpha_s));
  json_object_set_new(j, "link_bw_Bps", json_real(o->link_bw));
  json_object_set_new(j, "steps", json_integer(c->steps));
  json_object_set_new(j, "tb_factor", json_string(tau));
  json_object_set_new(j, "bound_steps", c->moore_steps >= 0 ? json_integer(c->moore_steps) : json_null());
  json_object_set_new(j, "bound_tb_factor", json_string(opt));
  json_object_set_new(j, "check_max_bytes", json_integer(o->check_max));
  double factor = tc_collective_busbw_factor(s->coll, tc_rank_count(r->doc->graph));
  json_object_set_new(j, "busbw_factor", json_real(factor));
  json_object_set_new(j, "inplace", json_string(o->inplace));
  const char *na = tc_program_no_inplace(s->coll);
  json_object_set_new(j, "in_place_na", na ? json_string(na) : json_null());
  json_t *list = json_array();
  for (int i = 0; i < o->sizes.count; i++) {
    int64_t b = r->sched->used[i];
    int k = best_algorithm(r, i);
    json_t *e = json_object(), *smpi = json_object();
    json_object_set_new(e, "size_bytes", json_integer(b));
    json_object_set_new(e, "requested_bytes", json_integer(o->sizes.bytes[i]));
    for (int v = 0; v < 2; v++) {
      const prog_result *pr = r->variant[v];
      json_t *side = pr ? json_object() : json_null();
      if (pr) {
        json_object_set_new(side, "time_us", json_real(pr->times[i] * 1e6));
        json_object_set_new(side, "algbw", json_real((double)b / pr->times[i] * 1e-9));
        json_object_set_new(side, "busbw", json_real((double)b / pr->times[i] * 1e-9 * factor));
        json_object_set_new(side, "wrong", r->checked[i] ? json_integer(0) : json_null());
      }
      json_object_set_new(e, v ? "in_place" : "out_of_place", side);
    }
    json_object_set_new(e, "sim_time_s", json_real(r->sched->times[i]));
    json_object_set_new(e, "algbw", json_real((double)b / r->sched->times[i] * 1e-9));
    json_object_set_new(e, "busbw", json_real((double)b / r->sched->times[i] * 1e-9 * factor));
    json_object_set_new(e, "model_time_s", json_real(model_time(r, b)));
    json_object_set_new(e, "bound_time_s", time_or_null(bound_time(r, b)));
    json_object_set_new(e, "checked", json_boolean(r->checked[i]));
    json_object_set_new(e, "smpi_best_algorithm", k >= 0 ? json_string(r->algos[k].name) : json_null());
    json_object_set_new(e, "smpi_best_time_s", k >= 0 ? json_real(r->algos[k].r.times[i]) : json_null());
    for (int a = 0; a < r->nalgos; a++)
      if (r->algos[a].ok && r->algos[a].r.ran[i])
        json_object_set_new(smpi, r->algos[a].name, json_real(r->algos[a].r.times[i]));
    json_object_set_new(e, "smpi_time_s", smpi);
    json_array_append_new(list, e);
  }
  json_object_set_new(j, "results", list);
  json_object_set_new(j, "fit", fit_json(r));
  if (!r->has_fit) json_object_set_new(j, "fit_error", json_string(r->fit_error));
  json_t *algos = json_array();
  for (int k = 0; k < r->nalgos; k++) {
    json_t *e = json_object();
    json_object_set_new(e, "name", json_string(r->algos[k].name));
    const char *status = algo_status(&r->algos[k], r->o->sizes.count);
    json_object_set_new(e, "status", json_string(status));
    if (!strcmp(status, "skipped")) json_object_set_new(e, "reason", json_string(r->algos[k].reason));
    if (!strcmp(status, "partial")) {
      json_t *lost = json_array();
      for (int i = 0; i < r->o->sizes.count; i++)
        if (!r->algos[k].r.ran[i]) json_array_append_new(lost, json_integer(r->sched->used[i]));
      json_object_set_new(e, "reason", json_string(r->algos[k].r.lost));
      json_object_set_new(e, "missing_sizes", lost);
    }
    json_array_append_new(algos, e);
  }
  json_object_set_new(j, "smpi_algorithms", algos);
  json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  printf("\n");
  json_decref(j);
}

/* ---- the command ---- */

static int check_schedule(const sim_options *o, tc_schedule_doc *doc, tc_cost *cost) {
  tc_error err;
  tc_error_clear(&err);
  if (tc_schedule_read_json(o->file, NULL, doc, &err)) {
    tc_cli_fail("simulate", &err);
    return TC_EXIT_USAGE; /* unreadable or malformed: input, never "invalid schedule" */
  }
  const tc_schedule *s = &doc->sched;
  int rc = tc_schedule_verify(doc->graph, s, &err);
  if (rc == TC_EFAIL) {
    tc_cli_error("simulate", "%s: invalid schedule, not simulated: %s", o->file, err.msg);
    return TC_EXIT_FAIL;
  }
  if (rc) return tc_cli_fail("simulate", &err);
  if (tc_program_check(doc->graph, s, &err)) { /* the executor's own check, as `run` makes it */
    tc_error_prefix(&err, "%s", o->file);
    return tc_cli_fail("simulate", &err);
  }
  if (tc_rank_count(doc->graph) < 2) /* docs/running.md: a 1-rank collective moves nothing (time 0, no bandwidth) */
    return tc_cli_usage_error("simulate", "%s: a schedule of 1 %snode moves nothing; there is nothing to simulate",
                              o->file, tc_rank_count(doc->graph) < doc->graph->n ? "compute " : "");
  if (tc_schedule_cost(doc->graph, s, cost, &err)) return tc_cli_fail("simulate", &err);
  return TC_EXIT_OK;
}

/* The variants --inplace asks for that the collective has; 1 without an in-place form is
   refused. */
static int choose_variants(sim_options *o, tc_collective coll) {
  const char *na = tc_program_no_inplace(coll);
  if (!strcmp(o->inplace, "1") && na)
    return tc_cli_usage_error("simulate", "--inplace 1: %s has no in-place form in MPI (%s); use --inplace 0 or both",
                              tc_collective_name(coll), na);
  o->ran[0] = strcmp(o->inplace, "1") != 0;
  o->ran[1] = strcmp(o->inplace, "0") != 0 && !na;
  return TC_EXIT_OK;
}

/* Platform, hostfile and every rank's program into dir. */
static int prepare(const tc_schedule_doc *doc, const sim_options *o, const char *dir) {
  tc_error err;
  tc_error_clear(&err);
  char programs[PATH_MAX];
  snprintf(programs, sizeof programs, "%s/" TC_SIM_PROGRAMS, dir);
  if (tc_simgrid_write_platform(doc->graph, o->link_bw, o->alpha_s, dir, &err) ||
      tc_program_file_write(doc->graph, &doc->sched, programs, &err))
    return tc_cli_fail("simulate", &err);
  return TC_EXIT_OK;
}

/* Simulate the schedule in its variants (sched[0] out of place, sched[1] in place), then
   every chosen SMPI algorithm, out of place. */
static int run_all(sim_plan *p, prog_result *sched, algo_run *algos, int nalgos) {
  tc_error err;
  tc_error_clear(&err);
  int interrupted = 0, n = p->o->sizes.count;
  tc_progress_note(p->progress, "%d sizes, the schedule %s then %d SMPI algorithm%s, network model %s", n,
                   p->o->ran[0] && p->o->ran[1] ? "out of place and in place" : p->o->ran[0] ? "out of place"
                                                                                          : "in place",
                   nalgos, nalgos == 1 ? "" : "s", tc_sim_model_name(p->o->model));
  for (int v = 0; v < 2; v++) {
    if (!p->o->ran[v]) continue;
    p->env.inplace = v;
    if (simulate_program(p, NULL, &sched[v], &interrupted, &err)) {
      if (interrupted) return 128 + interrupted;
      tc_cli_error("simulate", "%s: simulating the schedule%s failed: %s", p->o->file, v ? " in place" : "", err.msg);
      return TC_EXIT_FAIL;
    }
  }
  p->env.inplace = 0;
  const prog_result *primary = &sched[p->o->ran[0] ? 0 : 1];
  for (int k = 0; k < nalgos; k++) {
    algo_run *a = &algos[k];
    if (prog_result_init(&a->r, n)) {
      tc_cli_error("simulate", "out of memory");
      return TC_EXIT_FAIL;
    }
    tc_error_clear(&err);
    a->ok = !simulate_program(p, a->name, &a->r, &interrupted, &err);
    if (interrupted) return 128 + interrupted;
    for (int i = 0; a->ok && i < n; i++)
      if (a->r.ran[i] && a->r.used[i] != primary->used[i]) { /* the executor sizes both sides alike */
        a->ok = 0;
        tc_error_set(&err, TC_EFAIL, "ran %" PRId64 " bytes where the schedule ran %" PRId64, a->r.used[i],
                     primary->used[i]);
      }
    if (!a->ok) {
      snprintf(a->reason, sizeof a->reason, "%s", err.msg);
      tc_progress_note(p->progress, "SMPI %s: skipped: %.300s", a->name, a->reason);
    }
  }
  return TC_EXIT_OK;
}

/* smpirun and the executor must be found; prlimit (the memory guard) is optional. */
static int locate_programs(char *smpirun, char *exec, char *prlimit, size_t size) {
  tc_error err;
  tc_error_clear(&err);
  if (tc_launch_locate(EXEC_NAME, "TOPOCOLL_SMPI_EXEC", 1, exec, size, &err) ||
      tc_launch_locate("smpirun", "TOPOCOLL_SMPIRUN", 0, smpirun, size, &err)) {
    tc_cli_error("simulate", "%s", err.msg);
    return TC_EXIT_FAIL;
  }
  if (tc_launch_locate("prlimit", NULL, 0, prlimit, size, &err)) prlimit[0] = '\0';
  return TC_EXIT_OK;
}

static void fit_results(sim_report *r) {
  double *bytes = malloc(sizeof *bytes * (size_t)r->o->sizes.count);
  tc_error err;
  tc_error_clear(&err);
  if (!bytes) {
    snprintf(r->fit_error, sizeof r->fit_error, "out of memory");
    return;
  }
  for (int i = 0; i < r->o->sizes.count; i++) bytes[i] = (double)r->sched->used[i];
  r->has_fit = !tc_fit_cost_model(r->cost, r->o->alpha_s, r->o->link_bw, bytes, r->sched->times, r->o->sizes.count,
                                  &r->fit, &err);
  if (!r->has_fit) snprintf(r->fit_error, sizeof r->fit_error, "%s", err.msg);
  free(bytes);
}

int tc_cmd_simulate(int argc, char **argv) {
  sim_options o;
  int status = parse_options(argc, argv, &o);
  if (status) {
    free(o.sizes.bytes);
    return status < 0 ? TC_EXIT_OK : status;
  }
  tc_schedule_doc doc;
  tc_cost cost;
  memset(&doc, 0, sizeof doc);
  memset(&cost, 0, sizeof cost);
  sim_plan p;
  memset(&p, 0, sizeof p);
  p.o = &o;
  tc_progress progress;
  tc_progress_init(&progress, "simulate", o.progress, o.quiet);
  p.progress = &progress;
  algo_run *algos = NULL;
  int nalgos = 0;
  prog_result sched[2]; /* out of place, in place */
  memset(sched, 0, sizeof sched);
  int *checked = NULL;
  char smpirun[PATH_MAX], exec[PATH_MAX], prlimit[PATH_MAX], dir[PATH_MAX] = "";
  tc_error err;
  tc_error_clear(&err);
  if ((status = check_schedule(&o, &doc, &cost))) goto out;
  if ((status = choose_variants(&o, doc.sched.coll))) goto out;
  if ((status = choose_algorithms(&o, doc.sched.coll, &algos, &nalgos))) goto out;
  if ((status = locate_programs(smpirun, exec, prlimit, sizeof smpirun))) goto out;
  checked = calloc((size_t)o.sizes.count, sizeof *checked);
  if (prog_result_init(&sched[0], o.sizes.count) || prog_result_init(&sched[1], o.sizes.count) || !checked ||
      split_sizes(&o, &p)) {
    tc_cli_error("simulate", "out of memory");
    status = TC_EXIT_FAIL;
    goto out;
  }
  if (tc_cli_make_scratch_dir("sim", dir, sizeof dir, &err)) {
    status = tc_cli_fail("simulate", &err);
    goto out;
  }
  if ((status = prepare(&doc, &o, dir))) goto out;
  p.env = (tc_sim_env){.smpirun = smpirun, .exec = exec, .prlimit = prlimit[0] ? prlimit : NULL, .dir = dir,
                       .ranks = tc_rank_count(doc.graph), .coll = doc.sched.coll, .timeout_s = o.timeout_s,
                       .model = o.model};
  if ((status = run_all(&p, sched, algos, nalgos))) goto out;
  for (int i = 0; i < o.sizes.count; i++) checked[i] = o.sizes.bytes[i] <= o.check_max;
  sim_report r = {&o, &doc, &cost, &sched[o.ran[0] ? 0 : 1], {o.ran[0] ? &sched[0] : NULL, o.ran[1] ? &sched[1] : NULL},
                  checked, algos, nalgos, 0, {{0, 0}, 0, 0, 0, 0, 0}, ""};
  fit_results(&r);
  if (o.json) print_json(&r);
  else print_text(&r);
out:
  tc_cli_remove_scratch_dir(dir);
  for (int k = 0; k < nalgos; k++) prog_result_free(&algos[k].r);
  free(algos);
  prog_result_free(&sched[0]);
  prog_result_free(&sched[1]);
  free(checked);
  sim_plan_free(&p);
  free(o.sizes.bytes);
  tc_cost_destroy(&cost);
  tc_schedule_doc_destroy(&doc);
  return status;
}
