/*
** cmd_run.c — `topocoll run SCHEDULE.json --np N`: run a schedule file as an MPI collective
** on this machine, check every result against the MPI library's own collective on the same
** data, and report the time and algorithmic bandwidth per size beside MPI's.
**
** Order of work, and why: everything that can be refused is refused before anything is
** launched — the options, the size list (tc_units_parse_size_list), the schedule file
** (read, then verified with tc_schedule_verify: an invalid schedule is exit 1 like
** `topocoll verify`), whether the executor can run it (tc_program_check: allgather and
** reduce-scatter in the paper's shard layout, roots that are compute nodes), --np against the
** schedule's node count, and where topocoll-exec and mpirun are. Only then is
**   mpirun --oversubscribe -np N [--allow-run-as-root] --bind-to none [--mpirun-args...]
**          topocoll-exec PLAN --sizes B1,B2,... --dtype D --op O --iters K --warmup W
**          --inplace 0|1|both --trusted [--rank-map MAP]
** launched through launch.h (no shell, a deadline that kills the whole process group).
** --trusted: the schedule was verified here, so the ranks skip verifying it again. The
** executor's rank 0 prints one JSON object per size and variant (out of place, then in
** place: exec_client.h); every requested size must come back, in order, in every variant
** asked for, as the M the executor used (it rounds M down to whole elements on every
** rank), or the run failed. The report prints both variants of a size side by side in one
** row, as nccl-tests does; broadcast and p2p have no in-place form (tc_program_has_inplace):
** their in-place columns say n/a. A size counts as verified only when the executor compared its result
** with MPI's and found them equal ("verified": true); after a mismatch the executor still
** reports every size and exits 1, which is a report with "verified": false, not a failed
** run.
** Exit status: 0 every size verified, 1 a size was not (the report is still printed), the
** schedule is invalid, or the launch failed (one line: how mpirun ended and the executor's
** own error line); 2 bad usage or input.
*/
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "exec_client.h"
#include "launch.h"
#include "run_calibration.h"
#include "topocoll/output.h"
#include "progress.h"
#include "topocoll/budget.h"
#include "topocoll/program.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched_io.h"
#include "topocoll/units.h"
#include "topocoll/verify.h"

#define DEFAULT_SIZES "1KB..1MB"
#define DEFAULT_TIMEOUT "600" /* seconds */

void tc_cmd_run_help(void) {
  printf(
      "usage: topocoll run SCHEDULE.json [--np N] [--sizes LIST] [--factor F] [--dtype TYPE] [--op OP]\n"
      "                    [--iters K] [--warmup W] [--inplace 0|1|both] [--timeout TIME]\n"
      "                    [--rank-map RANKS.csv] [--mpirun-args \"ARGS\"] [--json] [--progress|--quiet]\n"
      "\n"
      "Runs the schedule in SCHEDULE.json (from 'topocoll sched --out' or 'topocoll plan') as an\n"
      "MPI collective on this machine: mpirun starts N copies of the executor topocoll-exec,\n"
      "rank r plays the r-th compute node (node r without switches; on a fabric the hops\n"
      "through switches become direct sends), and every result is checked against the MPI\n"
      "library's own collective on the same data. Prints, per size, one row with nccl-tests'\n"
      "columns: size, count, type, redop, root, then out of place and in place side by side:\n"
      "the time (median iteration), algorithmic bandwidth (size / time), bus bandwidth and the\n"
      "number of wrong elements (#wrong); then MPI's own times. The schedule is verified before anything is\n"
      "launched, and the run refused when its memory (about 5 buffers of the largest size and\n"
      "32 MiB per rank) exceeds the memory limit; more ranks than cores are warned about.\n"
      "Runs every collective's schedules (broadcast, reduce, scatter, gather from their root;\n"
      "p2p from its source to its destination, checked against MPI_Send/MPI_Recv).\n"
      "\n"
      "  --np N          number of ranks; must equal the schedule's compute node count (the\n"
      "                  default)\n"
      "  --sizes LIST    buffer sizes M of the whole collective (alltoall: each rank's send\n"
      "                  buffer; scatter, gather: the root's), e.g. 4K,1M or 1K..256M: a range includes both ends and\n"
      "                  doubles (--factor); K, M, G and KiB, MiB, GiB are powers of 2, KB, MB,\n"
      "                  GB powers of 10; default " DEFAULT_SIZES "; each is rounded down to\n"
      "                  whole elements on every rank, and the size reported is the one used\n"
      TC_CLI_FACTOR_HELP
      "  --dtype TYPE    int32 (default), int64, float or double\n"
      "  --op OP         sum (default), max or min\n"
      "  --iters K       timed repetitions per size: the median is reported, with the fastest\n"
      "                  and the slowest (default 5)\n"
      "  --warmup W      untimed repetitions before them (default 1)\n"
      "  --inplace V     the variants run: both (default: out of place, then in place, each\n"
      "                  checked), 0 out of place only, 1 in place only (MPI_IN_PLACE; at the\n"
      "                  root only for the rooted collectives); broadcast and p2p have no\n"
      "                  in-place form in MPI: their in-place columns say n/a, and 1 is refused\n"
      "  --rank-map FILE a plan's ranks.csv (rank -> node -> port, beside wiring.csv): MPI rank r\n"
      "                  plays the node the file gives rank r, the results still MPI's (checked\n"
      "                  before launching: the schedule's own wiring, a permutation of its\n"
      "                  compute nodes; renumbering needs a topology without switches and is\n"
      "                  refused for scatter, gather and p2p)\n"
      "  --timeout TIME  kill mpirun and every rank after TIME, e.g. 90s or 1.5s (a bare number\n"
      "                  is seconds); default 600s\n"
      "  --mpirun-args \"ARGS\"  extra mpirun options, split on spaces, e.g. \"-x OMP_NUM_THREADS=1\"\n"
      "  --progress      a line on stderr as each size finishes (default: only when stderr is a\n"
      "                  terminal; TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet         no progress lines\n"
      "  --calibration-out FILE  fit alpha and the link bandwidth to the measured times (the\n"
      "                  schedule's own T_L and T_B, paper 000 App. A.2) and write them for\n"
      "                  'topocoll plan --calibration FILE' (docs/formats.md)\n"
      "  --json          {\"verified\": bool, \"np\": N, \"busbw_factor\", \"results\": [{\"size_bytes\",\n"
      "                  \"count\", \"out_of_place\": {\"time_us\", \"algbw\", \"busbw\", \"wrong\", ...},\n"
      "                  \"in_place\": {...}, \"time_s\", \"algbw\", \"busbw\", \"wrong\", ...}], ...}\n"
      "                  instead of the table (a variant not run is null; the flat keys are the\n"
      "                  out-of-place variant's, the in-place one's with --inplace 1; algbw =\n"
      "                  size / time, busbw = algbw x nccl-tests' factor of the collective:\n"
      "                  2(N-1)/N allreduce, (N-1)/N the others; GB/s)\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "Programs: topocoll-exec is $TOPOCOLL_EXEC, else the one beside this topocoll, else the\n"
      "one on PATH; mpirun (Open MPI) is $TOPOCOLL_MPIRUN, else the one on PATH. It is started\n"
      "as: mpirun --oversubscribe -np N [--allow-run-as-root when root] --bind-to none ARGS\n"
      "topocoll-exec SCHEDULE.json ...\n"
      "\n"
      "Exit status: 0 every size verified, 1 a size was not verified, an invalid schedule or\n"
      "a failed run, 2 bad usage or input.\n");
}

/* ---- options ---- */

typedef struct run_options {
  const char *file, *np_text, *sizes_text, *factor_text, *dtype_text, *op_text, *iters_text, *warmup_text, *timeout_text;
  const char *mpirun_args, *calibration_out, *inplace_text, *rank_map;
  const char *inplace; /* "0", "1" or "both" */
  int ran[2];          /* the variants the executor runs: [0] out of place, [1] in place */
  int json, progress, quiet;
  int np; /* 0 when not given */
  int iters, warmup;
  double timeout_s;
  const char *dtype, *op;
  tc_cli_size_list sizes;
} run_options;

static const char *const dtypes[] = {"int32", "int64", "float", "double", NULL};
static const char *const ops[] = {"sum", "max", "min", NULL};
static const char *const variants[] = {"0", "1", "both", NULL};

#define AT(field) offsetof(run_options, field)
static const tc_cli_option run_table[] = {
    {.name = "--np", .kind = TC_CLI_INT, .text = AT(np_text), .value = AT(np), .lo = 1, .hi = 1 << 20},
    {.name = "--sizes", .kind = TC_CLI_SIZE_LIST, .text = AT(sizes_text), .value = AT(sizes),
     .fallback = DEFAULT_SIZES},
    TC_CLI_FACTOR_OPTION(sizes),
    {.name = "--dtype", .kind = TC_CLI_CHOICE, .text = AT(dtype_text), .value = AT(dtype), .choices = dtypes,
     .fallback = "int32"},
    {.name = "--op", .kind = TC_CLI_CHOICE, .text = AT(op_text), .value = AT(op), .choices = ops, .fallback = "sum"},
    {.name = "--iters", .kind = TC_CLI_INT, .text = AT(iters_text), .value = AT(iters), .lo = 1, .hi = 1000000,
     .fallback = "5"},
    {.name = "--warmup", .kind = TC_CLI_INT, .text = AT(warmup_text), .value = AT(warmup), .lo = 0, .hi = 1000000,
     .fallback = "1"},
    {.name = "--timeout", .kind = TC_CLI_SECONDS, .text = AT(timeout_text), .value = AT(timeout_s),
     .fallback = DEFAULT_TIMEOUT},
    {.name = "--mpirun-args", .kind = TC_CLI_STRING, .text = AT(mpirun_args)},
    {.name = "--rank-map", .kind = TC_CLI_STRING, .text = AT(rank_map), .needs = "a ranks.csv file"},
    {.name = "--inplace", .kind = TC_CLI_CHOICE, .text = AT(inplace_text), .value = AT(inplace), .choices = variants,
     .fallback = "both"},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    {.name = "--calibration-out", .kind = TC_CLI_PATH, .text = AT(calibration_out)},
    TC_CLI_PROGRESS_OPTIONS(run_options),
};
static const tc_cli_command run_cli = {
    .name = "run", .help = tc_cmd_run_help, .options = run_table, .noptions = TC_CLI_COUNT(run_table),
    .positional = {AT(file)}, .npositional = 1,
    .extra_argument = "unexpected argument '%s' (SCHEDULE.json already given)"};
#undef AT

/* Parse and check every option; nothing here looks at the schedule file. Returns
   TC_CLI_DONE after printing the help, else an exit code. */
static int parse_options(int argc, char **argv, run_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&run_cli, argc, argv, o);
  if (status) return status;
  if (!o->file) return tc_cli_usage_error("run", "missing SCHEDULE.json");
  if (tc_cli_progress_check("run", o->progress, o->quiet)) return TC_EXIT_USAGE;
  status = tc_cli_convert(&run_cli, o, "--dtype", "--op", "--np", "--iters", "--warmup", "--timeout", "--inplace",
                          NULL);
  if (status) return status;
  if (o->timeout_s <= 0) return tc_cli_usage_error("run", "--timeout must be positive, got '%s'", o->timeout_text);
  return tc_cli_convert(&run_cli, o, "--factor", "--sizes", NULL);
}

/* ---- the schedule: readable, verified, runnable by the executor, on --np ranks ---- */

static int check_schedule(run_options *o, tc_schedule_doc *doc) {
  tc_error err;
  tc_error_clear(&err);
  if (tc_schedule_read_json(o->file, NULL, doc, &err)) {
    tc_cli_fail("run", &err);
    return TC_EXIT_USAGE; /* unreadable or malformed: input, never "invalid schedule" */
  }
  const tc_schedule *s = &doc->sched;
  int rc = tc_schedule_verify(doc->graph, s, &err);
  if (rc == TC_EFAIL) {
    tc_cli_error("run", "%s: invalid schedule, not run: %s", o->file, err.msg);
    return TC_EXIT_FAIL;
  }
  if (rc) return tc_cli_fail("run", &err);
  if (tc_program_check(doc->graph, s, &err)) { /* the executor's own check, before mpirun starts */
    tc_error_prefix(&err, "%s", o->file);
    return tc_cli_fail("run", &err);
  }
  /* The map, applied here as each rank will apply it: refused before anything starts. The
     report then names ranks as the map does (the root's). */
  if (o->rank_map && tc_rank_map_apply(o->rank_map, doc, &err)) return tc_cli_fail("run", &err);
  int has_inplace = tc_program_has_inplace(s->coll);
  if (!strcmp(o->inplace, "1") && !has_inplace)
    return tc_cli_usage_error("run", "--inplace 1: %s has no in-place form in MPI (%s); use --inplace 0 or both",
                              tc_collective_name(s->coll), tc_program_no_inplace(s->coll));
  o->ran[0] = strcmp(o->inplace, "1") != 0;
  o->ran[1] = strcmp(o->inplace, "0") != 0 && has_inplace;
  int32_t ranks = tc_rank_count(doc->graph);
  if (o->np && o->np != ranks && ranks == doc->graph->n)
    return tc_cli_usage_error("run", "--np %d does not match the schedule's %d nodes (rank r plays node r)", o->np,
                              ranks);
  if (o->np && o->np != ranks)
    return tc_cli_usage_error("run", "--np %d does not match the schedule's %d compute nodes (rank r plays the "
                              "r-th compute node)", o->np, ranks);
  o->np = ranks;
  return TC_EXIT_OK;
}

/* ---- what the machine can hold ---- */

/* Memory the run needs, estimated before launching: per rank 5 buffers of the largest size
   plus 32 MiB for the process. Measured with /usr/bin/time on 4 ranks, 64 MiB, out of
   place: allreduce 275 MB per rank (input, result, MPI's result, staging: 4 M + 20 MB),
   alltoall 339 MB (also the copy of the input its relays read: 5 M + 20 MB). Past the
   memory limit (budget.h: what is available, or --max-memory) the OOM killer would answer:
   refuse instead, with one line. */
static int check_memory(const run_options *o) {
  int64_t largest = 0;
  for (int i = 0; i < o->sizes.count; i++)
    if (o->sizes.bytes[i] > largest) largest = o->sizes.bytes[i];
  double need = (double)o->np * (5.0 * (double)largest + 32.0 * 1048576.0);
  int64_t limit = tc_memory_limit();
  if (need <= (double)limit) return TC_EXIT_OK;
  char sz[32];
  tc_units_format_size(largest, sz, sizeof sz);
  tc_error err;
  tc_error_set(&err, TC_ERANGE, "%d ranks at %s need about %.1f GB (5 buffers of the size and 32 MiB per rank) but "
               "the memory limit is %.1f GB (the memory available, or --max-memory); use smaller --sizes or fewer "
               "ranks", o->np, sz, need * 1e-9, (double)limit * 1e-9);
  return tc_cli_fail("run", &err); /* TC_ERANGE: exit 2, the input asks too much */
}

/* The machine's online cores (0 when unknown). */
static int online_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 && n < INT_MAX ? (int)n : 0;
}

/* ---- the command line of mpirun ---- */

typedef struct arg_list {
  char **v;
  int n, cap;
  int failed; /* out of memory */
} arg_list;

static void push_owned(arg_list *a, char *s) {
  if (!s || a->failed) {
    free(s);
    a->failed = 1;
    return;
  }
  if (a->n + 2 > a->cap) {
    int cap = a->cap ? a->cap * 2 : 32;
    char **grown = realloc(a->v, sizeof *grown * (size_t)cap);
    if (!grown) {
      free(s);
      a->failed = 1;
      return;
    }
    a->v = grown;
    a->cap = cap;
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

static void push(arg_list *a, const char *s) { push_owned(a, strdup(s)); }

static void push_int(arg_list *a, long long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  push(a, buf);
}

static void arg_list_free(arg_list *a) {
  for (int i = 0; i < a->n; i++) free(a->v[i]);
  free(a->v);
  memset(a, 0, sizeof *a);
}

static void build_command(const run_options *o, const char *mpirun, const char *exec, const char *plan,
                          const char *rank_map, arg_list *a) {
  push(a, mpirun);
  push(a, "--oversubscribe");
  push(a, "-np");
  push_int(a, o->np);
  if (geteuid() == 0) push(a, "--allow-run-as-root");
  push(a, "--bind-to");
  push(a, "none");
  if (o->mpirun_args) {
    char *copy = strdup(o->mpirun_args);
    if (!copy) a->failed = 1;
    for (char *save = NULL, *w = copy ? strtok_r(copy, " \t", &save) : NULL; w; w = strtok_r(NULL, " \t", &save))
      push(a, w);
    free(copy);
  }
  push(a, exec);
  push(a, plan);
  push(a, "--sizes");
  push_owned(a, tc_exec_sizes_arg(o->sizes.bytes, o->sizes.count));
  push(a, "--dtype");
  push(a, o->dtype);
  push(a, "--op");
  push(a, o->op);
  push(a, "--iters");
  push_int(a, o->iters);
  push(a, "--warmup");
  push_int(a, o->warmup);
  push(a, "--inplace");
  push(a, o->inplace);
  push(a, "--trusted");
  if (rank_map) {
    push(a, "--rank-map");
    push(a, rank_map);
  }
}

/* ---- the executor's answer ---- */

/* One size's answer: [0] out of place, [1] in place, as run_options.ran says. */
typedef struct run_row {
  tc_exec_result side[2];
} run_row;

/* The M the executor uses for a requested size: whole elements on every rank, at least
   one (allreduce, broadcast, reduce, p2p: M/elt elements; the others: M/(N elt) per rank,
   tc_program_count_per_rank). */
static int64_t used_size(const run_options *o, tc_collective coll, int64_t requested) {
  int64_t elt = !strcmp(o->dtype, "int64") || !strcmp(o->dtype, "double") ? 8 : 4;
  int64_t per = tc_program_count_per_rank(coll) ? elt * o->np : elt;
  return (requested / per > 0 ? requested / per : 1) * per;
}

/* The variant of the k-th line of a size (0 out of place, 1 in place), and how many lines
   a size has. */
static int line_variant(const run_options *o, int k) { return o->ran[0] ? k : 1; }
static int lines_per_size(const run_options *o) { return o->ran[0] + o->ran[1]; }

/* Every non-empty stdout line is one result; they must be the requested sizes in order (as
   the executor rounds them), each in the variants asked for, out of place first. `quiet`:
   say nothing, the caller has a better line. */
static int parse_results(const run_options *o, tc_collective coll, char *out, run_row *rows, int quiet) {
  tc_exec_reader reader;
  tc_exec_reader_init(&reader, out);
  tc_exec_result r;
  char why[256];
  int per = lines_per_size(o), n = 0, got;
  while ((got = tc_exec_reader_next(&reader, &r, why, sizeof why)) > 0) {
    int lineno = reader.lineno, i = n / per, v = line_variant(o, n % per);
    if (i >= o->sizes.count || r.size_bytes != used_size(o, coll, o->sizes.bytes[i]) || r.inplace != v) {
      if (quiet) return TC_EXIT_FAIL;
      if (i >= o->sizes.count)
        tc_cli_error("run", TC_EXEC_NAME " output line %d: more results than the %d sizes requested", lineno,
                     o->sizes.count);
      else if (r.inplace != v)
        tc_cli_error("run", TC_EXEC_NAME " output line %d reports the %s variant, expected %s", lineno,
                     r.inplace ? "in-place" : "out-of-place", v ? "in place" : "out of place");
      else
        tc_cli_error("run", TC_EXEC_NAME " output line %d reports size %" PRId64 ", expected %" PRId64 "", lineno,
                     r.size_bytes, used_size(o, coll, o->sizes.bytes[i]));
      return TC_EXIT_FAIL;
    }
    rows[i].side[v] = r;
    n++;
  }
  if (got < 0) {
    if (!quiet) tc_cli_error("run", TC_EXEC_NAME " output line %d: %s: %.80s", reader.lineno, why, reader.line);
    return TC_EXIT_FAIL;
  }
  if (n != o->sizes.count * per) {
    if (!quiet) {
      if (per == 1) tc_cli_error("run", TC_EXEC_NAME " reported %d of the %d requested sizes", n, o->sizes.count);
      else
        tc_cli_error("run", TC_EXEC_NAME " reported %d of the %d results requested (%d sizes, out of place and in "
                     "place)", n, o->sizes.count * per, o->sizes.count);
    }
    return TC_EXIT_FAIL;
  }
  return TC_EXIT_OK;
}

/* Whether every variant of row i was checked and right. */
static int row_verified(const run_options *o, const run_row *row) {
  for (int v = 0; v < 2; v++)
    if (o->ran[v] && row->side[v].verified != 1) return 0;
  return 1;
}

/* The result the flat (pre-variant) keys and the calibration read: out of place when it
   ran, else in place. */
static const tc_exec_result *primary(const run_options *o, const run_row *row) {
  return &row->side[o->ran[0] ? 0 : 1];
}

/* ---- the report ---- */

/* Algorithmic bandwidth in bytes per second, or -1 without a time. */
static double algbw(int64_t bytes, double t) { return t > 0 ? (double)bytes / t : -1; }

/* A bandwidth in GB/s for the table, "-" without one. */
static void format_gbps(double bytes_per_s, char *buf, size_t size) {
  if (bytes_per_s < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.3f", bytes_per_s * 1e-9);
}

/* A time in microseconds for the table (one unit for every time, as nccl-tests), "-"
   without one. */
static void format_us(double t, char *buf, size_t size) {
  if (t < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.2f", t * 1e6);
}

/* One variant's four columns: time, algbw, busbw, #wrong; "-" when not run, "n/a" when the
   collective has no such variant. */
static void format_side(const run_options *o, int v, int na, const tc_exec_result *r, double factor, char *buf,
                        size_t size) {
  char t[32], bw[32], bb[32], wrong[32];
  if (!o->ran[v]) {
    const char *w = na ? "n/a" : "-";
    snprintf(buf, size, "  %10s  %8s  %8s  %6s", w, w, w, w);
    return;
  }
  double a = algbw(r->size_bytes, r->time_s);
  format_us(r->time_s, t, sizeof t);
  format_gbps(a, bw, sizeof bw);
  format_gbps(a < 0 ? -1 : a * factor, bb, sizeof bb);
  if (r->wrong >= 0) snprintf(wrong, sizeof wrong, "%" PRId64, r->wrong);
  else snprintf(wrong, sizeof wrong, "-");
  snprintf(buf, size, "  %10s  %8s  %8s  %6s", t, bw, bb, wrong);
}

/* nccl-tests' columns: size, count, type, redop, root, then time, algbw, busbw and #wrong
   out of place and in place side by side; then MPI's own time in each variant. */
static void print_table(const run_options *o, const tc_schedule_doc *doc, const run_row *rows) {
  const tc_schedule *s = &doc->sched;
  double factor = tc_collective_busbw_factor(s->coll, o->np);
  int reduces = s->coll == TC_COLL_ALLREDUCE || s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE;
  int na = !tc_program_has_inplace(s->coll);
  char root[16];
  int32_t root_rank = tc_exec_root_rank(doc);
  if (root_rank >= 0) snprintf(root, sizeof root, "%d", root_rank);
  else snprintf(root, sizeof root, "-");
  printf("%s \"%s\"%s%s, %d ranks, %s %s, median of %d (after %d warm-up)\n", tc_collective_name(s->coll),
         s->algorithm, doc->spec ? " on " : "", doc->spec ? doc->spec : "", o->np, o->dtype, o->op, o->iters,
         o->warmup);
  printf("busbw = algbw x %.6g, nccl-tests' factor for %s on %d ranks\n", factor, tc_collective_name(s->coll), o->np);
  if (na) printf("in place: n/a, %s has no in-place form in MPI (%s)\n", tc_collective_name(s->coll),
                 tc_program_no_inplace(s->coll));
  int cores = online_cores();
  if (cores && o->np > cores)
    printf("warning: %d ranks on %d cores: ranks wait for a core, so the times are longer than the network's\n",
           o->np, cores);
  printf("\n");
  printf("%12s  %10s  %6s  %5s  %4s  %-38s  %-38s  %s\n", "", "", "", "", "", "out-of-place", "in-place",
         "MPI's own");
  printf("%12s  %10s  %6s  %5s  %4s  %10s  %8s  %8s  %6s  %10s  %8s  %8s  %6s  %10s  %10s\n", "size", "count", "type",
         "redop", "root", "time(us)", "algbw", "busbw", "#wrong", "time(us)", "algbw", "busbw", "#wrong", "oop(us)",
         "ip(us)");
  for (int i = 0; i < o->sizes.count; i++) {
    const tc_exec_result *p = primary(o, &rows[i]);
    char sz[32], out[160], in[160], mo[32], mi[32];
    tc_units_format_size(p->size_bytes, sz, sizeof sz);
    format_side(o, 0, 0, &rows[i].side[0], factor, out, sizeof out);
    format_side(o, 1, na, &rows[i].side[1], factor, in, sizeof in);
    format_us(o->ran[0] ? rows[i].side[0].mpi_time_s : -1, mo, sizeof mo);
    format_us(o->ran[1] ? rows[i].side[1].mpi_time_s : -1, mi, sizeof mi);
    if (!o->ran[1] && na) snprintf(mi, sizeof mi, "n/a");
    printf("%12s  %10" PRId64 "  %6s  %5s  %4s%s%s  %10s  %10s\n", sz, p->count, o->dtype, reduces ? o->op : "-",
           root, out, in, mo, mi);
  }
  printf("\ntime: median per collective (the fastest and slowest iteration: --json); algbw = size / time,\n"
         "busbw = algbw x factor, in GB/s; count: elements (per rank and destination for allgather,\n"
         "reduce-scatter and alltoall); #wrong: result elements that differ from MPI's own collective\n"
         "in the same variant, over all ranks (-: not checked); in place: MPI_IN_PLACE (rooted: at the\n"
         "root); -: not run (--inplace)\n");
}

static json_t *time_json(double t) { return t < 0 ? json_null() : json_real(t); }
static json_t *us_json(double t) { return t < 0 ? json_null() : json_real(t * 1e6); }
static json_t *gbps_json(double bytes_per_s, double factor) {
  return bytes_per_s < 0 ? json_null() : json_real(bytes_per_s / 1e9 * factor);
}

/* One variant's object: times in microseconds (the table's unit), bandwidths in GB/s. */
static json_t *side_json(const tc_exec_result *r, double factor) {
  json_t *e = json_object();
  double bw = algbw(r->size_bytes, r->time_s), mbw = algbw(r->size_bytes, r->mpi_time_s);
  json_object_set_new(e, "time_us", us_json(r->time_s));
  json_object_set_new(e, "time_min_us", us_json(r->time_min_s));
  json_object_set_new(e, "time_max_us", us_json(r->time_max_s));
  json_object_set_new(e, "algbw", gbps_json(bw, 1));
  json_object_set_new(e, "busbw", gbps_json(bw, factor));
  json_object_set_new(e, "wrong", r->wrong < 0 ? json_null() : json_integer(r->wrong));
  json_object_set_new(e, "verified", r->verified < 0 ? json_null() : json_boolean(r->verified));
  json_object_set_new(e, "mpi_time_us", us_json(r->mpi_time_s));
  json_object_set_new(e, "mpi_algbw", gbps_json(mbw, 1));
  json_object_set_new(e, "mpi_busbw", gbps_json(mbw, factor));
  return e;
}

static void print_json(const run_options *o, const tc_schedule_doc *doc, const run_row *rows, int all_verified) {
  const tc_schedule *s = &doc->sched;
  json_t *j = json_object();
  json_object_set_new(j, "verified", json_boolean(all_verified));
  json_object_set_new(j, "np", json_integer(o->np));
  json_object_set_new(j, "file", json_string(o->file));
  json_object_set_new(j, "spec", doc->spec ? json_string(doc->spec) : json_null());
  json_object_set_new(j, "collective", json_string(tc_collective_name(s->coll)));
  json_object_set_new(j, "algorithm", json_string(s->algorithm));
  json_object_set_new(j, "dtype", json_string(o->dtype));
  json_object_set_new(j, "op", json_string(o->op));
  json_object_set_new(j, "iters", json_integer(o->iters));
  json_object_set_new(j, "warmup", json_integer(o->warmup));
  json_object_set_new(j, "inplace", json_string(o->inplace));
  json_object_set_new(j, "in_place_na", tc_program_has_inplace(s->coll) ? json_null()
                                                                         : json_string(tc_program_no_inplace(s->coll)));
  double factor = tc_collective_busbw_factor(s->coll, o->np);
  json_object_set_new(j, "busbw_factor", json_real(factor));
  int cores = online_cores();
  json_object_set_new(j, "cores", cores ? json_integer(cores) : json_null()); /* np > cores: oversubscribed */
  json_t *list = json_array();
  for (int i = 0; i < o->sizes.count; i++) {
    const tc_exec_result *p = primary(o, &rows[i]);
    json_t *e = json_object();
    json_object_set_new(e, "size_bytes", json_integer(p->size_bytes));
    json_object_set_new(e, "count", json_integer(p->count));
    for (int v = 0; v < 2; v++)
      json_object_set_new(e, v ? "in_place" : "out_of_place",
                          o->ran[v] ? side_json(&rows[i].side[v], factor) : json_null());
    /* The keys of before the variants, kept for their readers (bench, calibration). */
    json_object_set_new(e, "time_s", time_json(p->time_s));
    json_object_set_new(e, "time_min_s", time_json(p->time_min_s));
    json_object_set_new(e, "time_max_s", time_json(p->time_max_s));
    json_object_set_new(e, "mpi_time_s", time_json(p->mpi_time_s));
    json_object_set_new(e, "mpi_time_min_s", time_json(p->mpi_time_min_s));
    json_object_set_new(e, "mpi_time_max_s", time_json(p->mpi_time_max_s));
    double bw = algbw(p->size_bytes, p->time_s), mbw = algbw(p->size_bytes, p->mpi_time_s);
    json_object_set_new(e, "algbw", gbps_json(bw, 1));
    json_object_set_new(e, "busbw", gbps_json(bw, factor));
    json_object_set_new(e, "mpi_algbw", gbps_json(mbw, 1));
    json_object_set_new(e, "mpi_busbw", gbps_json(mbw, factor));
    json_object_set_new(e, "wrong", p->wrong < 0 ? json_null() : json_integer(p->wrong));
    json_object_set_new(e, "verified", json_boolean(row_verified(o, &rows[i])));
    json_array_append_new(list, e);
  }
  json_object_set_new(j, "results", list);
  json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  printf("\n");
  json_decref(j);
}

/* ---- launching ---- */

/* Why the run failed, in one line: how mpirun ended and the executor's own error line. */
static int report_failed_run(const run_options *o, const tc_launch_result *res) {
  char how[128], line[TC_ERRMSG_MAX];
  tc_launch_describe(res, o->timeout_s, how, sizeof how);
  tc_launch_error_line(res->err_tail, TC_EXEC_NAME ":", line, sizeof line);
  if (res->out_truncated) tc_cli_error("run", TC_EXEC_NAME " printed far more output than expected");
  else if (res->timed_out || res->interrupted)
    tc_cli_error("run", "mpirun %s; it and every rank were killed", how);
  else tc_cli_error("run", "mpirun %s%s%s", how, line[0] ? ": " : "", line);
  return res->interrupted ? 128 + res->interrupted : TC_EXIT_FAIL;
}

/* Progress (progress.h): the executor prints one line per size and variant, in order, as it
   finishes it; a size is done with its last variant. */
typedef struct size_note {
  tc_progress *progress;
  const run_options *o;
  int lines; /* lines seen */
} size_note;

static void note_size(void *ctx, const char *line, size_t len) {
  size_note *s = ctx;
  (void)line;
  int per = lines_per_size(s->o);
  if (!s->progress->on || !len || s->lines >= s->o->sizes.count * per) return;
  if (++s->lines % per) return;
  int done = s->lines / per;
  char sz[32];
  tc_units_format_size(s->o->sizes.bytes[done - 1], sz, sizeof sz);
  tc_progress_note(s->progress, "%s done (size %d of %d)", sz, done, s->o->sizes.count);
}

/* Launch and read the results. The executor exits 1 after a size whose result differed
   from MPI's and still reports every size: that is a report with "verified": false, not a
   failed run. Anything else that is not a clean exit with every size is a failed run. */
static int launch_and_collect(const run_options *o, tc_collective coll, char *const *argv, tc_launch_result *res,
                              run_row *rows, tc_progress *progress) {
  tc_error err;
  tc_error_clear(&err);
  size_note note = {progress, o, 0};
  tc_launch_options lo = {.timeout_s = o->timeout_s, .on_line = note_size, .ctx = &note};
  tc_progress_note(progress, "mpirun -np %d: %d sizes, %d timed iterations each (after %d warm-up)", o->np,
                   o->sizes.count, o->iters, o->warmup);
  if (tc_launch_run(argv, &lo, res, &err)) {
    tc_cli_error("run", "%s", err.msg);
    return TC_EXIT_FAIL;
  }
  int clean = res->exited && res->exit_code == 0 && !res->out_truncated;
  if (clean) return parse_results(o, coll, res->out, rows, 0);
  int complete = res->exited && !res->out_truncated && !parse_results(o, coll, res->out, rows, 1);
  for (int i = 0; complete && i < o->sizes.count; i++)
    for (int v = 0; v < 2; v++)
      if (o->ran[v] && rows[i].side[v].verified == 0) return TC_EXIT_OK; /* the caller reports the mismatch */
  return report_failed_run(o, res);
}

static int locate_programs(char *mpirun, char *exec, size_t size) {
  tc_error err;
  tc_error_clear(&err);
  if (tc_launch_locate(TC_EXEC_NAME, "TOPOCOLL_EXEC", 1, exec, size, &err) ||
      tc_launch_locate("mpirun", "TOPOCOLL_MPIRUN", 0, mpirun, size, &err)) {
    tc_cli_error("run", "%s", err.msg);
    return TC_EXIT_FAIL;
  }
  return TC_EXIT_OK;
}

/* The ranks may not start in our working directory (mpirun --wdir): hand them an absolute
   path to the plan. */
static int absolute_path(const char *file, char *out, size_t size) {
  char cwd[PATH_MAX];
  int w;
  if (file[0] == '/') w = snprintf(out, size, "%s", file);
  else if (getcwd(cwd, sizeof cwd)) w = snprintf(out, size, "%s/%s", cwd, file);
  else {
    tc_cli_error("run", "cannot get the working directory: %s", strerror(errno));
    return TC_EXIT_FAIL;
  }
  if (w < 0 || (size_t)w >= size) {
    tc_cli_error("run", "%s: path too long", file);
    return TC_EXIT_USAGE;
  }
  return TC_EXIT_OK;
}

/* A --calibration-out target no writer accepts is refused before anything runs. */
static int check_calibration_out(const run_options *o) {
  tc_error err;
  tc_error_clear(&err);
  return o->calibration_out && tc_output_check(o->calibration_out, &err) ? tc_cli_fail("run", &err) : TC_EXIT_OK;
}

int tc_cmd_run(int argc, char **argv) {
  run_options o;
  int status = parse_options(argc, argv, &o);
  if (status) {
    free(o.sizes.bytes);
    return status < 0 ? TC_EXIT_OK : status;
  }
  tc_schedule_doc doc;
  memset(&doc, 0, sizeof doc);
  char mpirun[PATH_MAX], exec[PATH_MAX], plan[PATH_MAX], rank_map[PATH_MAX];
  arg_list cmd = {0};
  tc_launch_result res;
  memset(&res, 0, sizeof res);
  run_row *rows = NULL;
  tc_exec_result *primaries = NULL;
  if ((status = check_calibration_out(&o)) || (status = check_schedule(&o, &doc)) || (status = check_memory(&o)) ||
      (status = locate_programs(mpirun, exec, sizeof mpirun)))
    goto out;
  if ((status = absolute_path(o.file, plan, sizeof plan))) goto out;
  if (o.rank_map && (status = absolute_path(o.rank_map, rank_map, sizeof rank_map))) goto out;
  build_command(&o, mpirun, exec, plan, o.rank_map ? rank_map : NULL, &cmd);
  rows = calloc((size_t)o.sizes.count, sizeof *rows);
  primaries = calloc((size_t)o.sizes.count, sizeof *primaries);
  if (cmd.failed || !rows || !primaries) {
    tc_cli_error("run", "out of memory");
    status = TC_EXIT_FAIL;
    goto out;
  }
  tc_progress progress;
  tc_progress_init(&progress, "run", o.progress, o.quiet);
  if ((status = launch_and_collect(&o, doc.sched.coll, cmd.v, &res, rows, &progress))) goto out;
  int bad = 0, first_bad = -1, mismatch = 0;
  for (int i = 0; i < o.sizes.count; i++) {
    primaries[i] = *primary(&o, &rows[i]);
    if (!row_verified(&o, &rows[i]) && bad++ == 0) first_bad = i;
  }
  if (o.json) print_json(&o, &doc, rows, bad == 0);
  else print_table(&o, &doc, rows);
  for (int v = 0; bad && v < 2; v++)
    if (o.ran[v] && rows[first_bad].side[v].verified == 0) mismatch = 1;
  if (bad) {
    char sz[32], detail[TC_ERRMSG_MAX];
    tc_units_format_size(primaries[first_bad].size_bytes, sz, sizeof sz);
    /* The executor's line names the rank and element: "topocoll-exec: size M: rank r: ..." */
    tc_launch_error_line(res.err_tail, TC_EXEC_NAME ": size ", detail, sizeof detail);
    if (strncmp(detail, TC_EXEC_NAME ": size ", strlen(TC_EXEC_NAME ": size "))) detail[0] = '\0';
    const char *why = !mismatch ? "the executor did not check it"
                      : detail[0] ? detail + strlen(TC_EXEC_NAME ": ")
                                  : "the result differs from MPI's own collective";
    tc_cli_error("run", "%d of %d sizes not verified (first: %s: %s)", bad, o.sizes.count, sz, why);
    status = TC_EXIT_FAIL;
  } else if (o.calibration_out) {
    status = tc_run_write_calibration(o.calibration_out, &doc, primaries, o.sizes.count, o.file, o.json);
  }
out:
  free(rows);
  free(primaries);
  tc_launch_result_destroy(&res);
  arg_list_free(&cmd);
  tc_schedule_doc_destroy(&doc);
  free(o.sizes.bytes);
  return status;
}
