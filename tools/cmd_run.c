/*
** cmd_run.c — `topocoll run SCHEDULE.json --np N`: run a schedule file as an MPI collective
** on this machine, check every result against the MPI library's own collective on the same
** data, and report the time and algorithmic bandwidth per size beside MPI's.
**
** Order of work, and why: everything that can be refused is refused before anything is
** launched — the options, the size list (tc_units_parse_size_list), the schedule file
** (read, then verified with tc_schedule_verify: an invalid schedule is exit 1 like
** `topocoll verify`), whether the executor can run its collective (allgather,
** reduce-scatter, allreduce; the first two in the paper's shard layout), --np against the
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
#include "launch.h"
#include "topocoll/sched_io.h"
#include "topocoll/units.h"
#include "topocoll/verify.h"

#define EXEC_NAME "topocoll-exec"
#define DEFAULT_SIZES "1KB..1MB"
#define DEFAULT_TIMEOUT_S 600.0

void tc_cmd_run_help(void) {
  printf(
      "usage: topocoll run SCHEDULE.json [--np N] [--sizes LIST] [--dtype TYPE] [--op OP]\n"
      "                    [--iters K] [--warmup W] [--inplace] [--timeout TIME]\n"
      "                    [--mpirun-args \"ARGS\"] [--json]\n"
      "\n"
      "Runs the schedule in SCHEDULE.json (from 'topocoll sched --out' or 'topocoll plan') as an\n"
      "MPI collective on this machine: mpirun starts N copies of the executor topocoll-exec,\n"
      "rank r plays node r, and every result is checked against the MPI library's own\n"
      "collective on the same data. Prints, per size, the time and algorithmic bandwidth\n"
      "(size / time) beside MPI's own. The schedule is verified before anything is launched.\n"
      "Runs allgather, reduce-scatter and allreduce schedules.\n"
      "\n"
      "  --np N          number of ranks; must equal the schedule's node count (the default)\n"
      "  --sizes LIST    buffer sizes M of the whole collective, e.g. 4KB,1MB or 1KiB..256MiB\n"
      "                  (doubling range); default " DEFAULT_SIZES "; each is rounded down to\n"
      "                  whole elements on every rank, and the size reported is the one used\n"
      "  --dtype TYPE    int32 (default), int64, float or double\n"
      "  --op OP         sum (default), max or min\n"
      "  --iters K       timed repetitions per size, the median is reported (default 5)\n"
      "  --warmup W      untimed repetitions before them (default 1)\n"
      "  --inplace       run in place (MPI_IN_PLACE)\n"
      "  --timeout TIME  kill mpirun and every rank after TIME, e.g. 90s or 1.5s (a bare number\n"
      "                  is seconds); default 600s\n"
      "  --mpirun-args \"ARGS\"  extra mpirun options, split on spaces, e.g. \"-x OMP_NUM_THREADS=1\"\n"
      "  --json          {\"verified\": bool, \"np\": N, \"results\": [{\"size_bytes\", \"time_s\",\n"
      "                  \"mpi_time_s\", ...}], ...} instead of the table\n"
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
  const char *file, *np_text, *sizes_text, *dtype, *op, *iters_text, *warmup_text, *timeout_text, *mpirun_args;
  int inplace, json;
  int np; /* 0 when not given */
  int iters, warmup;
  double timeout_s;
  int64_t *sizes;
  int nsizes;
} run_options;

/* A decimal integer in lo..hi (no sign, no spaces, no trailing text). */
static int parse_int(const char *opt, const char *text, long long lo, long long hi, int *out) {
  char *end = NULL;
  long long v = 0;
  int ok = text[0] >= '0' && text[0] <= '9';
  errno = 0;
  if (ok) v = strtoll(text, &end, 10);
  if (!ok || *end || errno == ERANGE || v < lo || v > hi)
    return tc_cli_usage_error("run", "%s expects an integer in %lld..%lld, got '%s'", opt, lo, hi, text);
  *out = (int)v;
  return TC_EXIT_OK;
}

static int one_of(const char *text, const char *const *names) {
  for (; *names; names++)
    if (!strcmp(text, *names)) return 1;
  return 0;
}

/* --timeout: a time with a unit (tc_units_parse_time), or a bare number of seconds. */
static int parse_timeout(run_options *o) {
  const char *t = o->timeout_text;
  char with_unit[64];
  if (t[0] && strspn(t, "0123456789.") == strlen(t) && strlen(t) + 2 <= sizeof with_unit) {
    snprintf(with_unit, sizeof with_unit, "%ss", t);
    t = with_unit;
  }
  tc_error err;
  tc_error_clear(&err);
  if (tc_units_parse_time(t, &o->timeout_s, &err)) {
    tc_error_prefix(&err, "--timeout");
    return tc_cli_fail("run", &err);
  }
  if (o->timeout_s <= 0) return tc_cli_usage_error("run", "--timeout must be positive, got '%s'", o->timeout_text);
  return TC_EXIT_OK;
}

static const char **value_slot(run_options *o, const char *a) {
  static const struct { const char *name; size_t offset; } slots[] = {
      {"--np", offsetof(run_options, np_text)},         {"--sizes", offsetof(run_options, sizes_text)},
      {"--dtype", offsetof(run_options, dtype)},        {"--op", offsetof(run_options, op)},
      {"--iters", offsetof(run_options, iters_text)},   {"--warmup", offsetof(run_options, warmup_text)},
      {"--timeout", offsetof(run_options, timeout_text)}, {"--mpirun-args", offsetof(run_options, mpirun_args)},
  };
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
    if (!strcmp(a, slots[i].name)) return (const char **)((char *)o + slots[i].offset);
  return NULL;
}

/* Parse and check every option; nothing here looks at the schedule file. Returns -1 after
   printing the help, else an exit code. */
static int parse_options(int argc, char **argv, run_options *o) {
  static const char *const dtypes[] = {"int32", "int64", "float", "double", NULL};
  static const char *const ops[] = {"sum", "max", "min", NULL};
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = value_slot(o, a);
    if (slot) {
      if (i + 1 >= argc) return tc_cli_usage_error("run", "%s needs a value", a);
      *slot = argv[++i];
    } else if (!strcmp(a, "--inplace")) o->inplace = 1;
    else if (!strcmp(a, "--json")) o->json = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { tc_cmd_run_help(); return -1; }
    else if (a[0] == '-' && a[1] == '-') return tc_cli_usage_error("run", "unknown option '%s'", a);
    else if (!o->file) o->file = a;
    else return tc_cli_usage_error("run", "unexpected argument '%s' (SCHEDULE.json already given)", a);
  }
  if (!o->file) return tc_cli_usage_error("run", "missing SCHEDULE.json");
  if (!o->dtype) o->dtype = "int32";
  if (!o->op) o->op = "sum";
  if (!one_of(o->dtype, dtypes))
    return tc_cli_usage_error("run", "--dtype must be int32, int64, float or double, got '%s'", o->dtype);
  if (!one_of(o->op, ops)) return tc_cli_usage_error("run", "--op must be sum, max or min, got '%s'", o->op);
  int status;
  o->iters = 5;
  o->warmup = 1;
  if (o->np_text && (status = parse_int("--np", o->np_text, 1, 1 << 20, &o->np))) return status;
  if (o->iters_text && (status = parse_int("--iters", o->iters_text, 1, 1000000, &o->iters))) return status;
  if (o->warmup_text && (status = parse_int("--warmup", o->warmup_text, 0, 1000000, &o->warmup))) return status;
  o->timeout_s = DEFAULT_TIMEOUT_S;
  if (o->timeout_text && (status = parse_timeout(o))) return status;
  tc_error err;
  tc_error_clear(&err);
  if (tc_units_parse_size_list(o->sizes_text ? o->sizes_text : DEFAULT_SIZES, &o->sizes, &o->nsizes, &err)) {
    tc_error_prefix(&err, "--sizes");
    return tc_cli_fail("run", &err);
  }
  return TC_EXIT_OK;
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
    fprintf(stderr, "topocoll run: %s: invalid schedule, not run: %s\n", o->file, err.msg);
    return TC_EXIT_FAIL;
  }
  if (rc) return tc_cli_fail("run", &err);
  if (s->coll != TC_COLL_ALLGATHER && s->coll != TC_COLL_REDUCE_SCATTER && s->coll != TC_COLL_ALLREDUCE) {
    fprintf(stderr, "topocoll run: %s: a %s schedule; the executor runs allgather, reduce-scatter and allreduce\n",
            o->file, tc_collective_name(s->coll));
    return TC_EXIT_USAGE;
  }
  if (s->coll != TC_COLL_ALLREDUCE) {
    int paper_layout = s->nshards == s->nodes;
    for (int32_t k = 0; paper_layout && k < s->nshards; k++) paper_layout = tc_schedule_owner(s, k) == k;
    if (!paper_layout) {
      fprintf(stderr, "topocoll run: %s: the executor runs a %s only with one shard per node, owned by it\n",
              o->file, tc_collective_name(s->coll));
      return TC_EXIT_USAGE;
    }
  }
  if (o->np && o->np != s->nodes)
    return tc_cli_usage_error("run", "--np %d does not match the schedule's %d nodes (rank r plays node r)", o->np,
                              s->nodes);
  o->np = s->nodes;
  return TC_EXIT_OK;
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

/* "B1,B2,...": the parsed sizes in plain bytes, so the executor reads exactly these. */
static char *join_sizes(const run_options *o) {
  size_t room = (size_t)o->nsizes * 21 + 1, len = 0;
  char *s = malloc(room);
  if (!s) return NULL;
  s[0] = '\0';
  for (int i = 0; i < o->nsizes; i++)
    len += (size_t)snprintf(s + len, room - len, "%s%" PRId64, i ? "," : "", o->sizes[i]);
  return s;
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
  push_owned(a, join_sizes(o));
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

typedef struct run_result {
  int64_t size_bytes, count;
  double time_s, mpi_time_s; /* < 0: null (not measured) */
  int verified;              /* 1 true, 0 false, -1 null */
} run_result;

/* A number or null (-1); anything else is an error. */
static int take_time(json_t *line, const char *key, double *out) {
  json_t *v = json_object_get(line, key);
  if (json_is_null(v)) { *out = -1; return 0; }
  if (!json_is_number(v) || json_number_value(v) < 0) return -1;
  *out = json_number_value(v);
  return 0;
}

static int parse_line(const char *text, run_result *r, char *why, size_t size) {
  json_error_t jerr;
  json_t *line = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
  int ok = 0;
  if (!line) snprintf(why, size, "not JSON (%s)", jerr.text);
  else if (!json_is_object(line)) snprintf(why, size, "not a JSON object");
  else {
    json_t *sz = json_object_get(line, "size_bytes"), *cnt = json_object_get(line, "count");
    json_t *ver = json_object_get(line, "verified");
    if (!json_is_integer(sz) || !json_is_integer(cnt)) snprintf(why, size, "size_bytes or count is not an integer");
    else if (take_time(line, "time_s", &r->time_s) || take_time(line, "mpi_time_s", &r->mpi_time_s))
      snprintf(why, size, "time_s or mpi_time_s is neither a non-negative number nor null");
    else if (!json_is_boolean(ver) && !json_is_null(ver)) snprintf(why, size, "verified is neither a boolean nor null");
    else {
      r->size_bytes = json_integer_value(sz);
      r->count = json_integer_value(cnt);
      r->verified = json_is_null(ver) ? -1 : json_is_true(ver);
      ok = 1;
    }
  }
  json_decref(line);
  return ok ? 0 : -1;
}

/* The M the executor uses for a requested size: whole elements on every rank, at least
   one (allreduce: M/elt elements; allgather, reduce-scatter: M/(N elt) per rank). */
static int64_t used_size(const run_options *o, tc_collective coll, int64_t requested) {
  int64_t elt = !strcmp(o->dtype, "int64") || !strcmp(o->dtype, "double") ? 8 : 4;
  int64_t per = coll == TC_COLL_ALLREDUCE ? elt : elt * o->np;
  return (requested / per > 0 ? requested / per : 1) * per;
}

/* Every non-empty stdout line is one result; they must be the requested sizes in order (as
   the executor rounds them). `quiet`: say nothing, the caller has a better line. */
static int parse_results(const run_options *o, tc_collective coll, char *out, run_result *results, int quiet) {
  int n = 0, lineno = 0;
  for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    lineno++;
    char why[256];
    run_result r;
    if (parse_line(line, &r, why, sizeof why)) {
      if (!quiet) fprintf(stderr, "topocoll run: " EXEC_NAME " output line %d: %s: %.80s\n", lineno, why, line);
      return TC_EXIT_FAIL;
    }
    if (n >= o->nsizes || r.size_bytes != used_size(o, coll, o->sizes[n])) {
      if (!quiet) {
        if (n >= o->nsizes)
          fprintf(stderr, "topocoll run: " EXEC_NAME " output line %d: more results than the %d sizes requested\n",
                  lineno, o->nsizes);
        else
          fprintf(stderr, "topocoll run: " EXEC_NAME " output line %d reports size %" PRId64 ", expected %" PRId64 "\n",
                  lineno, r.size_bytes, used_size(o, coll, o->sizes[n]));
      }
      return TC_EXIT_FAIL;
    }
    results[n++] = r;
  }
  if (n != o->nsizes) {
    if (!quiet) fprintf(stderr, "topocoll run: " EXEC_NAME " reported %d of the %d requested sizes\n", n, o->nsizes);
    return TC_EXIT_FAIL;
  }
  return TC_EXIT_OK;
}

/* ---- the report ---- */


static double algbw_gbps(int64_t bytes, double t) { return t > 0 ? (double)bytes / t / 1e9 : -1; }

static void format_time_or_dash(double t, char *buf, size_t size) {
  if (t < 0) snprintf(buf, size, "-");
  else tc_cli_format_time(t, buf, size);
}

static void format_bw(double gbps, char *buf, size_t size) {
  if (gbps < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.3f GB/s", gbps);
}

static void print_table(const run_options *o, const tc_schedule_doc *doc, const run_result *r) {
  const tc_schedule *s = &doc->sched;
  printf("%s \"%s\"%s%s, %d ranks, %s %s, median of %d (after %d warm-up), %s\n\n", tc_collective_name(s->coll),
         s->algorithm, doc->spec ? " on " : "", doc->spec ? doc->spec : "", o->np, o->dtype, o->op, o->iters,
         o->warmup, o->inplace ? "in place" : "out of place");
  printf("%12s  %10s  %12s  %10s  %12s  %6s  %s\n", "size", "time", "algbw", "MPI time", "MPI algbw", "ratio",
         "verified");
  for (int i = 0; i < o->nsizes; i++) {
    char sz[32], t[32], bw[32], mt[32], mbw[32], ratio[32];
    tc_cli_format_size(r[i].size_bytes, sz, sizeof sz);
    format_time_or_dash(r[i].time_s, t, sizeof t);
    format_time_or_dash(r[i].mpi_time_s, mt, sizeof mt);
    format_bw(algbw_gbps(r[i].size_bytes, r[i].time_s), bw, sizeof bw);
    format_bw(algbw_gbps(r[i].size_bytes, r[i].mpi_time_s), mbw, sizeof mbw);
    if (r[i].time_s >= 0 && r[i].mpi_time_s > 0) snprintf(ratio, sizeof ratio, "%.2f", r[i].time_s / r[i].mpi_time_s);
    else snprintf(ratio, sizeof ratio, "-");
    printf("%12s  %10s  %12s  %10s  %12s  %6s  %s\n", sz, t, bw, mt, mbw, ratio,
           r[i].verified == 1 ? "yes" : r[i].verified == 0 ? "NO" : "not checked");
  }
  printf("\ntime: median per collective; algbw = size / time; ratio = time / MPI time\n");
}

static json_t *time_json(double t) { return t < 0 ? json_null() : json_real(t); }

static void print_json(const run_options *o, const tc_schedule_doc *doc, const run_result *r, int all_verified) {
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
  json_t *list = json_array();
  for (int i = 0; i < o->nsizes; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "size_bytes", json_integer(r[i].size_bytes));
    json_object_set_new(e, "count", json_integer(r[i].count));
    json_object_set_new(e, "time_s", time_json(r[i].time_s));
    json_object_set_new(e, "mpi_time_s", time_json(r[i].mpi_time_s));
    double bw = algbw_gbps(r[i].size_bytes, r[i].time_s), mbw = algbw_gbps(r[i].size_bytes, r[i].mpi_time_s);
    json_object_set_new(e, "algbw_GBps", bw < 0 ? json_null() : json_real(bw));
    json_object_set_new(e, "mpi_algbw_GBps", mbw < 0 ? json_null() : json_real(mbw));
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
  tc_launch_error_line(res->err_tail, EXEC_NAME ":", line, sizeof line);
  if (res->out_truncated) fprintf(stderr, "topocoll run: " EXEC_NAME " printed far more output than expected\n");
  else if (res->timed_out || res->interrupted)
    fprintf(stderr, "topocoll run: mpirun %s; it and every rank were killed\n", how);
  else fprintf(stderr, "topocoll run: mpirun %s%s%s\n", how, line[0] ? ": " : "", line);
  return res->interrupted ? 128 + res->interrupted : TC_EXIT_FAIL;
}

/* Launch and read the results. The executor exits 1 after a size whose result differed
   from MPI's and still reports every size: that is a report with "verified": false, not a
   failed run. Anything else that is not a clean exit with every size is a failed run. */
static int launch_and_collect(const run_options *o, tc_collective coll, char *const *argv, tc_launch_result *res,
                              run_result *results) {
  tc_error err;
  tc_error_clear(&err);
  tc_launch_options lo = {o->timeout_s, 0, 0};
  if (tc_launch_run(argv, &lo, res, &err)) {
    fprintf(stderr, "topocoll run: %s\n", err.msg);
    return TC_EXIT_FAIL;
  }
  int clean = res->exited && res->exit_code == 0 && !res->out_truncated;
  if (clean) return parse_results(o, coll, res->out, results, 0);
  int complete = res->exited && !res->out_truncated && !parse_results(o, coll, res->out, results, 1);
  for (int i = 0; complete && i < o->nsizes; i++)
    if (results[i].verified == 0) return TC_EXIT_OK; /* the caller reports the mismatch */
  return report_failed_run(o, res);
}

static int locate_programs(char *mpirun, char *exec, size_t size) {
  tc_error err;
  tc_error_clear(&err);
  if (tc_launch_locate(EXEC_NAME, "TOPOCOLL_EXEC", 1, exec, size, &err) ||
      tc_launch_locate("mpirun", "TOPOCOLL_MPIRUN", 0, mpirun, size, &err)) {
    fprintf(stderr, "topocoll run: %s\n", err.msg);
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
    fprintf(stderr, "topocoll run: cannot get the working directory: %s\n", strerror(errno));
    return TC_EXIT_FAIL;
  }
  if (w < 0 || (size_t)w >= size) {
    fprintf(stderr, "topocoll run: %s: path too long\n", file);
    return TC_EXIT_USAGE;
  }
  return TC_EXIT_OK;
}

int tc_cmd_run(int argc, char **argv) {
  run_options o;
  int status = parse_options(argc, argv, &o);
  if (status) {
    free(o.sizes);
    return status < 0 ? TC_EXIT_OK : status;
  }
  tc_schedule_doc doc;
  memset(&doc, 0, sizeof doc);
  char mpirun[PATH_MAX], exec[PATH_MAX], plan[PATH_MAX];
  arg_list cmd = {0};
  tc_launch_result res;
  memset(&res, 0, sizeof res);
  run_result *results = NULL;
  if ((status = check_schedule(&o, &doc)) || (status = locate_programs(mpirun, exec, sizeof mpirun))) goto out;
  if ((status = absolute_path(o.file, plan, sizeof plan))) goto out;
  build_command(&o, mpirun, exec, plan, &cmd);
  results = calloc((size_t)o.nsizes, sizeof *results);
  if (cmd.failed || !results) {
    fprintf(stderr, "topocoll run: out of memory\n");
    status = TC_EXIT_FAIL;
    goto out;
  }
  if ((status = launch_and_collect(&o, doc.sched.coll, cmd.v, &res, results))) goto out;
  int bad = 0, first_bad = -1;
  for (int i = 0; i < o.nsizes; i++)
    if (results[i].verified != 1 && bad++ == 0) first_bad = i;
  if (o.json) print_json(&o, &doc, results, bad == 0);
  else print_table(&o, &doc, results);
  if (bad) {
    char sz[32], detail[TC_ERRMSG_MAX];
    tc_cli_format_size(results[first_bad].size_bytes, sz, sizeof sz);
    /* The executor's line names the rank and element: "topocoll-exec: size M: rank r: ..." */
    tc_launch_error_line(res.err_tail, EXEC_NAME ": size ", detail, sizeof detail);
    if (strncmp(detail, EXEC_NAME ": size ", strlen(EXEC_NAME ": size "))) detail[0] = '\0';
    const char *why = results[first_bad].verified != 0 ? "the executor did not check it"
                      : detail[0] ? detail + strlen(EXEC_NAME ": ")
                                  : "the result differs from MPI's own collective";
    fprintf(stderr, "topocoll run: %d of %d sizes not verified (first: %s: %s)\n", bad, o.nsizes, sz, why);
    status = TC_EXIT_FAIL;
  }
out:
  free(results);
  tc_launch_result_destroy(&res);
  arg_list_free(&cmd);
  tc_schedule_doc_destroy(&doc);
  free(o.sizes);
  return status;
}
