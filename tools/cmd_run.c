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
**          [--inplace] --trusted
** launched through launch.h (no shell, a deadline that kills the whole process group).
** --trusted: the schedule was verified here, so the ranks skip verifying it again. The
** executor's rank 0 prints one JSON object per size; every requested size must come back,
** in order, as the M the executor used (it rounds M down to whole elements on every rank),
** or the run failed. A size counts as verified only when the executor compared its result
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
      "                    [--iters K] [--warmup W] [--inplace] [--timeout TIME]\n"
      "                    [--mpirun-args \"ARGS\"] [--json] [--progress|--quiet]\n"
      "\n"
      "Runs the schedule in SCHEDULE.json (from 'topocoll sched --out' or 'topocoll plan') as an\n"
      "MPI collective on this machine: mpirun starts N copies of the executor topocoll-exec,\n"
      "rank r plays the r-th compute node (node r without switches; on a fabric the hops\n"
      "through switches become direct sends), and every result is checked against the MPI\n"
      "library's own collective on the same data. Prints, per size, the time (median, fastest\n"
      "and slowest iteration) and algorithmic bandwidth (size / time) beside MPI's own, and the\n"
      "number of wrong elements (#wrong). The schedule is verified before anything is\n"
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
      "  --inplace       run in place (MPI_IN_PLACE)\n"
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
      "                  \"count\", \"time_s\", \"time_min_s\", \"time_max_s\", \"mpi_time_s\", \"algbw\",\n"
      "                  \"busbw\", \"wrong\", ...}], ...} instead\n"
      "                  of the table (algbw = size / time, busbw = algbw x nccl-tests' factor\n"
      "                  of the collective: 2(N-1)/N allreduce, (N-1)/N the others; GB/s)\n"
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
  const char *mpirun_args, *calibration_out;
  int inplace, json, progress, quiet;
  int np; /* 0 when not given */
  int iters, warmup;
  double timeout_s;
  const char *dtype, *op;
  tc_cli_size_list sizes;
} run_options;

static const char *const dtypes[] = {"int32", "int64", "float", "double", NULL};
static const char *const ops[] = {"sum", "max", "min", NULL};

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
    {.name = "--inplace", .kind = TC_CLI_FLAG, .value = AT(inplace)},
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
  status = tc_cli_convert(&run_cli, o, "--dtype", "--op", "--np", "--iters", "--warmup", "--timeout", NULL);
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
                          arg_list *a) {
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
  if (o->inplace) push(a, "--inplace");
  push(a, "--trusted");
}

/* ---- the executor's answer ---- */

/* The M the executor uses for a requested size: whole elements on every rank, at least
   one (allreduce, broadcast, reduce, p2p: M/elt elements; the others: M/(N elt) per rank,
   tc_program_count_per_rank). */
static int64_t used_size(const run_options *o, tc_collective coll, int64_t requested) {
  int64_t elt = !strcmp(o->dtype, "int64") || !strcmp(o->dtype, "double") ? 8 : 4;
  int64_t per = tc_program_count_per_rank(coll) ? elt * o->np : elt;
  return (requested / per > 0 ? requested / per : 1) * per;
}

/* Every non-empty stdout line is one result; they must be the requested sizes in order (as
   the executor rounds them). `quiet`: say nothing, the caller has a better line. */
static int parse_results(const run_options *o, tc_collective coll, char *out, tc_exec_result *results, int quiet) {
  tc_exec_reader reader;
  tc_exec_reader_init(&reader, out);
  tc_exec_result r;
  char why[256];
  int n = 0, got;
  while ((got = tc_exec_reader_next(&reader, &r, why, sizeof why)) > 0) {
    int lineno = reader.lineno;
    if (n >= o->sizes.count || r.size_bytes != used_size(o, coll, o->sizes.bytes[n])) {
      if (!quiet) {
        if (n >= o->sizes.count)
          tc_cli_error("run", TC_EXEC_NAME " output line %d: more results than the %d sizes requested",
                  lineno, o->sizes.count);
        else
          tc_cli_error("run", TC_EXEC_NAME " output line %d reports size %" PRId64 ", expected %" PRId64
                  "", lineno, r.size_bytes, used_size(o, coll, o->sizes.bytes[n]));
      }
      return TC_EXIT_FAIL;
    }
    results[n++] = r;
  }
  if (got < 0) {
    if (!quiet)
      tc_cli_error("run", TC_EXEC_NAME " output line %d: %s: %.80s", reader.lineno, why, reader.line);
    return TC_EXIT_FAIL;
  }
  if (n != o->sizes.count) {
    if (!quiet)
      tc_cli_error("run", TC_EXEC_NAME " reported %d of the %d requested sizes", n, o->sizes.count);
    return TC_EXIT_FAIL;
  }
  return TC_EXIT_OK;
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

/* nccl-tests' columns: size, count, type, redop, then time, algbw and busbw of the
   executor and of MPI's own collective. */
static void print_table(const run_options *o, const tc_schedule_doc *doc, const tc_exec_result *r) {
  const tc_schedule *s = &doc->sched;
  double factor = tc_collective_busbw_factor(s->coll, o->np);
  int reduces = s->coll == TC_COLL_ALLREDUCE || s->coll == TC_COLL_REDUCE_SCATTER;
  printf("%s \"%s\"%s%s, %d ranks, %s %s, median of %d (after %d warm-up), %s\n", tc_collective_name(s->coll),
         s->algorithm, doc->spec ? " on " : "", doc->spec ? doc->spec : "", o->np, o->dtype, o->op, o->iters,
         o->warmup, o->inplace ? "in place" : "out of place");
  printf("busbw = algbw x %.6g, nccl-tests' factor for %s on %d ranks\n", factor, tc_collective_name(s->coll), o->np);
  int cores = online_cores();
  if (cores && o->np > cores)
    printf("warning: %d ranks on %d cores: ranks wait for a core, so the times are longer than the network's\n",
           o->np, cores);
  printf("\n");
  printf("%12s  %10s  %6s  %5s  %10s  %10s  %10s  %8s  %8s  %10s  %8s  %8s  %6s  %6s  %s\n", "size", "count", "type",
         "redop", "time(us)", "min(us)", "max(us)", "algbw", "busbw", "MPI(us)", "algbw", "busbw", "ratio", "#wrong",
         "verified");
  for (int i = 0; i < o->sizes.count; i++) {
    char sz[32], t[32], tmin[32], tmax[32], bw[32], bb[32], mt[32], mbw[32], mbb[32], ratio[32], wrong[32];
    double a = algbw(r[i].size_bytes, r[i].time_s), m = algbw(r[i].size_bytes, r[i].mpi_time_s);
    tc_units_format_size(r[i].size_bytes, sz, sizeof sz);
    format_us(r[i].time_s, t, sizeof t);
    format_us(r[i].time_min_s, tmin, sizeof tmin);
    format_us(r[i].time_max_s, tmax, sizeof tmax);
    format_us(r[i].mpi_time_s, mt, sizeof mt);
    if (r[i].wrong >= 0) snprintf(wrong, sizeof wrong, "%" PRId64, r[i].wrong);
    else snprintf(wrong, sizeof wrong, "-");
    format_gbps(a, bw, sizeof bw);
    format_gbps(a < 0 ? -1 : a * factor, bb, sizeof bb);
    format_gbps(m, mbw, sizeof mbw);
    format_gbps(m < 0 ? -1 : m * factor, mbb, sizeof mbb);
    if (r[i].time_s >= 0 && r[i].mpi_time_s > 0) snprintf(ratio, sizeof ratio, "%.2f", r[i].time_s / r[i].mpi_time_s);
    else snprintf(ratio, sizeof ratio, "-");
    printf("%12s  %10" PRId64 "  %6s  %5s  %10s  %10s  %10s  %8s  %8s  %10s  %8s  %8s  %6s  %6s  %s\n", sz, r[i].count,
           o->dtype, reduces ? o->op : "-", t, tmin, tmax, bw, bb, mt, mbw, mbb, ratio, wrong,
           r[i].verified == 1 ? "yes" : r[i].verified == 0 ? "NO" : "not checked");
  }
  printf("\ntime: median per collective, min and max: the fastest and slowest iteration; algbw = size / time,\n"
         "busbw = algbw x factor, in GB/s; count: elements (per rank and destination for allgather,\n"
         "reduce-scatter and alltoall); ratio = time / MPI time; #wrong: result elements that differ from\n"
         "MPI's, over all ranks\n");
}

static json_t *time_json(double t) { return t < 0 ? json_null() : json_real(t); }

static void print_json(const run_options *o, const tc_schedule_doc *doc, const tc_exec_result *r, int all_verified) {
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
  json_object_set_new(j, "inplace", json_boolean(o->inplace));
  double factor = tc_collective_busbw_factor(s->coll, o->np);
  json_object_set_new(j, "busbw_factor", json_real(factor));
  int cores = online_cores();
  json_object_set_new(j, "cores", cores ? json_integer(cores) : json_null()); /* np > cores: oversubscribed */
  json_t *list = json_array();
  for (int i = 0; i < o->sizes.count; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "size_bytes", json_integer(r[i].size_bytes));
    json_object_set_new(e, "count", json_integer(r[i].count));
    json_object_set_new(e, "time_s", time_json(r[i].time_s));
    json_object_set_new(e, "time_min_s", time_json(r[i].time_min_s));
    json_object_set_new(e, "time_max_s", time_json(r[i].time_max_s));
    json_object_set_new(e, "mpi_time_s", time_json(r[i].mpi_time_s));
    json_object_set_new(e, "mpi_time_min_s", time_json(r[i].mpi_time_min_s));
    json_object_set_new(e, "mpi_time_max_s", time_json(r[i].mpi_time_max_s));
    double bw = algbw(r[i].size_bytes, r[i].time_s), mbw = algbw(r[i].size_bytes, r[i].mpi_time_s);
    json_object_set_new(e, "algbw", bw < 0 ? json_null() : json_real(bw / 1e9));
    json_object_set_new(e, "busbw", bw < 0 ? json_null() : json_real(bw / 1e9 * factor));
    json_object_set_new(e, "mpi_algbw", mbw < 0 ? json_null() : json_real(mbw / 1e9));
    json_object_set_new(e, "mpi_busbw", mbw < 0 ? json_null() : json_real(mbw / 1e9 * factor));
    json_object_set_new(e, "wrong", r[i].wrong < 0 ? json_null() : json_integer(r[i].wrong));
    json_object_set_new(e, "verified", r[i].verified < 0 ? json_null() : json_boolean(r[i].verified));
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

/* Progress (progress.h): the executor prints one line per size, in order, as it finishes it. */
typedef struct size_note {
  tc_progress *progress;
  const run_options *o;
  int next; /* the size the next line answers */
} size_note;

static void note_size(void *ctx, const char *line, size_t len) {
  size_note *s = ctx;
  (void)line;
  if (!s->progress->on || !len || s->next >= s->o->sizes.count) return;
  char sz[32];
  tc_units_format_size(s->o->sizes.bytes[s->next], sz, sizeof sz);
  s->next++;
  tc_progress_note(s->progress, "%s done (size %d of %d)", sz, s->next, s->o->sizes.count);
}

/* Launch and read the results. The executor exits 1 after a size whose result differed
   from MPI's and still reports every size: that is a report with "verified": false, not a
   failed run. Anything else that is not a clean exit with every size is a failed run. */
static int launch_and_collect(const run_options *o, tc_collective coll, char *const *argv, tc_launch_result *res,
                              tc_exec_result *results, tc_progress *progress) {
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
  if (clean) return parse_results(o, coll, res->out, results, 0);
  int complete = res->exited && !res->out_truncated && !parse_results(o, coll, res->out, results, 1);
  for (int i = 0; complete && i < o->sizes.count; i++)
    if (results[i].verified == 0) return TC_EXIT_OK; /* the caller reports the mismatch */
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
  char mpirun[PATH_MAX], exec[PATH_MAX], plan[PATH_MAX];
  arg_list cmd = {0};
  tc_launch_result res;
  memset(&res, 0, sizeof res);
  tc_exec_result *results = NULL;
  if ((status = check_calibration_out(&o)) || (status = check_schedule(&o, &doc)) || (status = check_memory(&o)) ||
      (status = locate_programs(mpirun, exec, sizeof mpirun)))
    goto out;
  if ((status = absolute_path(o.file, plan, sizeof plan))) goto out;
  build_command(&o, mpirun, exec, plan, &cmd);
  results = calloc((size_t)o.sizes.count, sizeof *results);
  if (cmd.failed || !results) {
    tc_cli_error("run", "out of memory");
    status = TC_EXIT_FAIL;
    goto out;
  }
  tc_progress progress;
  tc_progress_init(&progress, "run", o.progress, o.quiet);
  if ((status = launch_and_collect(&o, doc.sched.coll, cmd.v, &res, results, &progress))) goto out;
  int bad = 0, first_bad = -1;
  for (int i = 0; i < o.sizes.count; i++)
    if (results[i].verified != 1 && bad++ == 0) first_bad = i;
  if (o.json) print_json(&o, &doc, results, bad == 0);
  else print_table(&o, &doc, results);
  if (bad) {
    char sz[32], detail[TC_ERRMSG_MAX];
    tc_units_format_size(results[first_bad].size_bytes, sz, sizeof sz);
    /* The executor's line names the rank and element: "topocoll-exec: size M: rank r: ..." */
    tc_launch_error_line(res.err_tail, TC_EXEC_NAME ": size ", detail, sizeof detail);
    if (strncmp(detail, TC_EXEC_NAME ": size ", strlen(TC_EXEC_NAME ": size "))) detail[0] = '\0';
    const char *why = results[first_bad].verified != 0 ? "the executor did not check it"
                      : detail[0] ? detail + strlen(TC_EXEC_NAME ": ")
                                  : "the result differs from MPI's own collective";
    tc_cli_error("run", "%d of %d sizes not verified (first: %s: %s)", bad, o.sizes.count, sz, why);
    status = TC_EXIT_FAIL;
  } else if (o.calibration_out) {
    status = tc_run_write_calibration(o.calibration_out, &doc, results, o.sizes.count, o.file, o.json);
  }
out:
  free(results);
  tc_launch_result_destroy(&res);
  arg_list_free(&cmd);
  tc_schedule_doc_destroy(&doc);
  free(o.sizes.bytes);
  return status;
}
