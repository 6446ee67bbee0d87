/*
** cmd_a2a.c — `topocoll a2a SPEC`: all-to-all on a topology as a maximum concurrent
** multi-commodity flow (paper 003 §3.1), with the certificate that proves it: a lower bound
** from checked flows and an upper bound from dual lengths (docs/alltoall.md).
**
** f is printed as an exact fraction only when the library certified it (lower == upper as
** rationals); otherwise both bounds and the gap are printed as floats. A certified gap above
** --gap is our failure (exit 1), after the report.
*/
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "progress.h"
#include "launch.h"
#include "topocoll/a2a.h"
#include "topocoll/spec.h"
#include "topocoll/units.h"

void tc_cmd_a2a_help(void) {
  printf(
      "usage: topocoll a2a SPEC [--method lp|full|dw] [--engine clp|glpk] [--host-cap C] [--gap G]\n"
      "                         [--time-limit T] [--progress|--quiet] [--no-symmetry]\n"
      "                         [--alpha A --link-bw B --size SIZES] [--threads N] [--json]\n"
      "\n"
      "All-to-all on SPEC (compute nodes only) as a maximum concurrent multi-commodity flow\n"
      "(paper 003 §3.1): f is the rate every ordered pair gets at once with unit demands and the\n"
      "graph's link capacities; the all-to-all takes 1/f shards per link capacity. f is certified\n"
      "independently of the LP solver: a lower bound from the flows (capacity and conservation\n"
      "checked) and an upper bound from the LP's dual lengths; when they are the same fraction, f\n"
      "is exact.\n"
      "\n"
      "  --method M      lp (default): the master LP (6)-(9) and the child LPs (10)-(14);\n"
      "                  full: the link MCF (1)-(5) (small graphs: at most 400000 variables);\n"
      "                  dw: column generation over per-source trees, for large graphs (N = 1000):\n"
      "                  stops at --gap or --time-limit with both bounds certified\n"
      "  --engine E      the LP solver: clp (default) or glpk\n"
      "  --host-cap C    each node sends at most C and receives at most C in all, forwarded\n"
      "                  traffic included (paper 003 §3.2.2), in link capacities: 4 or 7/2\n"
      "  --gap G         fail (exit 1) when the certified gap upper/lower - 1 exceeds G\n"
      "                  (default 1e-6)\n"
      "  --size SIZES    also print the time of an all-to-all where every node sends M bytes, for\n"
      "                  each M of a list or range (1MB,1GB or 1M..1G; --json: \"times\"):\n"
      "                  T = alpha + (M/N)/(f·b), each of the N pairs' M/N bytes at rate f·b\n"
      "  --link-bw B     b, the bandwidth of capacity 1 (needed by --size), e.g. 25Gbps\n"
      "  --alpha A       the latency term of that time (default 0), e.g. 2us\n"
      "  --time-limit T  dw: stop after T (e.g. 60s, 10min) with the bounds reached so far;\n"
      "                  lp, full: the limit of each LP solve\n"
      "  --progress      progress on stderr: dw's rounds (round, bounds, gap, columns), a few\n"
      "                  lines a second and the last (default: only when stderr is a terminal;\n"
      "                  TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet         no progress lines\n"
      "  --no-symmetry   dw: solve every source, not only one per orbit of the automorphisms\n"
      "  --threads N     child LPs (dw: its shortest-path trees) on N threads (default:\n"
      "                  OpenMP's; 1: serial)\n"
      "  --mpi N         solve with the child LPs spread over N MPI ranks: mpirun runs\n"
      "                  topocoll-a2a-mpi ($TOPOCOLL_A2A_MPI, else beside this topocoll, else\n"
      "                  PATH) and its report is printed, with the flows' exact hash (--method\n"
      "                  lp; not with --json, --size, --threads)\n"
      "  --json          print a JSON document instead (docs/formats.md)\n" TC_CLI_MAX_MEMORY_HELP
      "\n"
      "The analytic bounds (distance, Moore, bisection: docs/alltoall.md) are printed too.\n"
      "\n"
      "Exit status: 0 success, 1 our failure (an LP not solved, a gap above --gap),\n"
      "2 bad usage or a graph all-to-all cannot run on (one line naming the problem).\n");
}

typedef struct a2a_cli {
  const char *spec, *method, *engine, *host_text, *gap_text, *size_text, *bw_text, *alpha_text, *threads_text, *mpi_text;
  const char *limit_text;
  int mpi;
  tc_cli_size_list sizes;
  double link_bw, alpha, time_limit;
  int threads, json, progress, quiet, no_symmetry;
} a2a_cli;

static const char *const method_names[] = {"lp", "full", "dw", NULL};
static const char *const engine_names[] = {"clp", "glpk", NULL};

#define AT(field) offsetof(a2a_cli, field)
static const tc_cli_option a2a_table[] = {
    {.name = "--method", .kind = TC_CLI_CHOICE, .text = AT(method), .value = AT(method), .choices = method_names},
    {.name = "--engine", .kind = TC_CLI_CHOICE, .text = AT(engine), .value = AT(engine), .choices = engine_names},
    {.name = "--host-cap", .kind = TC_CLI_STRING, .text = AT(host_text)},
    {.name = "--gap", .kind = TC_CLI_STRING, .text = AT(gap_text)},
    {.name = "--size", .kind = TC_CLI_SIZE_LIST, .text = AT(size_text), .value = AT(sizes)},
    {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(bw_text), .value = AT(link_bw)},
    {.name = "--alpha", .kind = TC_CLI_TIME, .text = AT(alpha_text), .value = AT(alpha)},
    {.name = "--threads", .kind = TC_CLI_INT, .text = AT(threads_text), .value = AT(threads), .lo = 1, .hi = 1024},
    {.name = "--mpi", .kind = TC_CLI_INT, .text = AT(mpi_text), .value = AT(mpi), .lo = 1, .hi = 4096},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    {.name = "--time-limit", .kind = TC_CLI_TIME, .text = AT(limit_text), .value = AT(time_limit)},
    TC_CLI_PROGRESS_OPTIONS(a2a_cli),
    {.name = "--no-symmetry", .kind = TC_CLI_FLAG, .value = AT(no_symmetry)},
};
static const tc_cli_command a2a_command = {
    .name = "a2a", .help = tc_cmd_a2a_help, .options = a2a_table, .noptions = TC_CLI_COUNT(a2a_table),
    .positional = {AT(spec)}, .npositional = 1,
    .extra_argument = "more than one SPEC given ('%2$s' and '%1$s'); quote specs with spaces"};
#undef AT

/* "C" or "P/Q", positive, digits only. */
static int parse_host_cap(const char *text, tc_rat *out) {
  long long p = 0, q = 1;
  const char *slash = strchr(text, '/');
  char num[32];
  size_t len = slash ? (size_t)(slash - text) : strlen(text);
  int bad = len == 0 || len >= sizeof num;
  if (!bad) {
    memcpy(num, text, len);
    num[len] = 0;
    bad = tc_cli_parse_integer("a2a", "--host-cap", num, 1, 1000000000, &p) != 0;
    if (!bad && slash) bad = tc_cli_parse_integer("a2a", "--host-cap", slash + 1, 1, 1000000000, &q) != 0;
    if (bad) return TC_EXIT_USAGE; /* the line is printed */
  }
  if (bad) return tc_cli_usage_error("a2a", "--host-cap needs a positive integer or fraction P/Q (got '%s')", text);
  tc_error err;
  if (tc_rat_make(p, q, out, &err)) return tc_cli_fail("a2a", &err);
  return 0;
}

static int parse_gap(const char *text, double *out) {
  char *end;
  double g = strtod(text, &end);
  if (!*text || *end || !(g >= 0) || g > 1e6)
    return tc_cli_usage_error("a2a", "--gap needs a number >= 0, e.g. 1e-6 (got '%s')", text);
  *out = g;
  return 0;
}

/* d: the largest total out-capacity of a node (its ports, loops included). */
static int64_t node_degree(const tc_graph *g) {
  int64_t d = 0;
  for (int32_t u = 0; u < g->n; u++) {
    int64_t s = 0;
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) s += g->cap[a];
    if (s > d) d = s;
  }
  return d;
}

static void rat_text(tc_rat r, char *buf, int size) { tc_rat_format(r, buf, size); }

/* --mpi N: mpirun -np N topocoll-a2a-mpi SPEC --engine E [--host-cap C]; its report (or its
   error line) is ours. */
static int run_mpi(const a2a_cli *o, const tc_a2a_options *ao) {
  char mpirun[PATH_MAX], prog[PATH_MAX], np[16], cap[48];
  tc_error err;
  if (tc_launch_locate("topocoll-a2a-mpi", "TOPOCOLL_A2A_MPI", 1, prog, sizeof prog, &err) ||
      tc_launch_locate("mpirun", "TOPOCOLL_MPIRUN", 0, mpirun, sizeof mpirun, &err))
    return tc_cli_fail("a2a", &err);
  snprintf(np, sizeof np, "%d", o->mpi);
  char *argv[16];
  int k = 0;
  argv[k++] = mpirun, argv[k++] = "--oversubscribe", argv[k++] = "-np", argv[k++] = np;
  if (geteuid() == 0) argv[k++] = "--allow-run-as-root";
  argv[k++] = "--bind-to", argv[k++] = "none", argv[k++] = prog, argv[k++] = (char *)o->spec;
  argv[k++] = "--engine", argv[k++] = (char *)tc_a2a_engine_name(ao->engine);
  if (ao->host_cap.num > 0) {
    tc_rat_format(ao->host_cap, cap, sizeof cap);
    argv[k++] = "--host-cap", argv[k++] = cap;
  }
  argv[k] = NULL;
  tc_launch_result res;
  if (tc_launch_run(argv, NULL, &res, &err)) return tc_cli_fail("a2a", &err);
  int rc = TC_EXIT_OK;
  if (res.exited && res.exit_code == 0) {
    fputs(res.out, stdout);
  } else {
    char line[512], how[128];
    tc_launch_error_line(res.err_tail, "topocoll-a2a-mpi: ", line, sizeof line);
    tc_launch_describe(&res, 0, how, sizeof how);
    const char *msg = strncmp(line, "topocoll-a2a-mpi: ", 18) ? line : line + 18;
    rc = res.exited && res.exit_code == 2 ? TC_EXIT_USAGE : TC_EXIT_FAIL;
    if (rc == TC_EXIT_USAGE) tc_cli_error("a2a", "%s", msg);
    else tc_cli_error("a2a", "--mpi %d: topocoll-a2a-mpi %s: %s", o->mpi, how, msg);
  }
  tc_launch_result_destroy(&res);
  return rc;
}

/* {"exact": "p/q", "value": x} */
static json_t *json_rat(tc_rat r) {
  char buf[48];
  rat_text(r, buf, sizeof buf);
  json_t *o = json_object();
  json_object_set_new(o, "exact", json_string(buf));
  json_object_set_new(o, "value", json_real(tc_rat_to_double(r)));
  return o;
}

/* The "bounds" object of the JSON document. */
static json_t *json_bounds(const tc_a2a_bounds *b) {
  json_t *o = json_object(), *moore = json_rat(b->moore), *cut = json_rat(b->bisection);
  json_object_set_new(o, "distance", json_rat(b->distance));
  json_object_set_new(moore, "degree", json_integer(b->moore_degree));
  json_object_set_new(moore, "s_min", json_integer(b->s_min));
  json_object_set_new(o, "moore", moore);
  json_object_set_new(cut, "cut_size", json_integer(b->cut_size));
  json_object_set_new(cut, "cut_out", json_integer(b->cut_out));
  json_object_set_new(cut, "cut_in", json_integer(b->cut_in));
  json_object_set_new(o, "bisection", cut);
  return o;
}

/* The time of an all-to-all of M bytes per node: alpha + (M/N)/(f*b). */
static double a2a_time(const a2a_cli *o, int64_t size, int32_t n, double f) {
  return o->alpha + ((double)size / n) / (f * o->link_bw);
}

/* The command; *sizes receives --size's list, which the caller frees on every path. */
static int a2a_command_run(int argc, char **argv, int64_t **sizes) {
  a2a_cli o;
  memset(&o, 0, sizeof o);
  int status = tc_cli_parse(&a2a_command, argc, argv, &o);
  if (status) return status == TC_CLI_DONE ? TC_EXIT_OK : status;
  if (!o.spec) return tc_cli_usage_error("a2a", "missing SPEC");
  status = tc_cli_convert(&a2a_command, &o, "--method", "--engine", "--size", "--link-bw", "--alpha", "--threads",
                          "--mpi", "--time-limit", NULL);
  *sizes = o.sizes.bytes;
  if (status) return status;
  tc_a2a_options ao;
  tc_a2a_options_default(&ao);
  tc_error err;
  if (o.method && tc_a2a_method_parse(o.method, &ao.method, &err)) return tc_cli_fail("a2a", &err);
  if (o.engine && tc_a2a_engine_parse(o.engine, &ao.engine, &err)) return tc_cli_fail("a2a", &err);
  if (o.host_text && (status = parse_host_cap(o.host_text, &ao.host_cap))) return status;
  if (o.gap_text && (status = parse_gap(o.gap_text, &ao.gap))) return status;
  if (o.threads_text) ao.threads = o.threads;
  if (o.limit_text) ao.time_limit = o.time_limit;
  tc_progress progress;
  if ((status = tc_cli_progress_init(&progress, "a2a", o.progress, o.quiet))) return status;
  if (progress.on) {
    ao.progress = tc_progress_report; /* dw's rounds (a2a.h) */
    ao.progress_ctx = &progress;
  }
  if (o.no_symmetry) ao.symmetry = 0;
  if (o.size_text && !o.bw_text) return tc_cli_usage_error("a2a", "--size needs --link-bw (the bandwidth of capacity 1)");
  if ((o.bw_text || o.alpha_text) && !o.size_text)
    return tc_cli_usage_error("a2a", "--link-bw and --alpha are for the time of --size M: give --size");

  if (o.mpi_text) {
    if (o.json || o.size_text || o.threads_text || ao.method != TC_A2A_LP)
      return tc_cli_usage_error("a2a", "--mpi runs --method lp and prints its own report: not with --json, --size, "
                                "--threads, --method full or dw");
    return run_mpi(&o, &ao);
  }
  tc_graph *g = NULL;
  if (tc_spec_build(o.spec, &g, &err)) return tc_cli_fail("a2a", &err);
  tc_a2a_result r;
  int solved = tc_a2a_solve(g, &ao, &r, &err);
  tc_progress_finish(&progress);
  if (solved) {
    tc_graph_destroy(g);
    return tc_cli_fail("a2a", &err);
  }
  tc_a2a_bounds bounds;
  if (tc_a2a_bounds_compute(g, 1, &bounds, &err)) {
    tc_a2a_result_destroy(&r);
    tc_graph_destroy(g);
    return tc_cli_fail("a2a", &err);
  }
  const int32_t n = g->n;
  const int64_t d = node_degree(g);
  char f_s[48], lo_s[48], up_s[48], tb_s[48] = "", cl_s[48] = "", host_s[48] = "";
  rat_text(r.lower_exact, lo_s, sizeof lo_s);
  rat_text(r.upper_exact, up_s, sizeof up_s);
  if (r.commodity_flow) rat_text(r.commodity_lower, cl_s, sizeof cl_s);
  if (ao.host_cap.num > 0) rat_text(ao.host_cap, host_s, sizeof host_s);
  /* tb_factor = d/(N·f): exact from f = p/q as d·q/(N·p) */
  tc_rat tb = {0, 1};
  int tb_exact = r.exact && !tc_rat_make(d * r.f_exact.den, (int64_t)n * r.f_exact.num, &tb, &err);
  double f = r.exact ? tc_rat_to_double(r.f_exact) : r.f;
  double tbf = d / (n * f);
  if (r.exact) rat_text(r.f_exact, f_s, sizeof f_s);
  if (tb_exact) rat_text(tb, tb_s, sizeof tb_s);

  if (o.json) {
    json_t *doc = json_object();
    json_object_set_new(doc, "spec", json_string(o.spec));
    json_object_set_new(doc, "nodes", json_integer(n));
    json_object_set_new(doc, "arcs", json_integer(g->m));
    json_object_set_new(doc, "degree", json_integer(d));
    json_object_set_new(doc, "method", json_string(tc_a2a_method_name(ao.method)));
    json_object_set_new(doc, "engine", json_string(tc_a2a_engine_name(ao.engine)));
    json_object_set_new(doc, "host_cap", ao.host_cap.num > 0 ? json_string(host_s) : json_null());
    json_object_set_new(doc, "f", r.exact ? json_string(f_s) : json_real(r.f));
    json_object_set_new(doc, "exact", json_boolean(r.exact));
    json_object_set_new(doc, "lower_bound", json_real(r.lower_bound));
    json_object_set_new(doc, "upper_bound", json_real(r.upper_bound));
    json_object_set_new(doc, "lower_bound_exact", json_string(lo_s));
    json_object_set_new(doc, "upper_bound_exact", json_string(up_s));
    json_object_set_new(doc, "gap", json_real(r.gap));
    json_object_set_new(doc, "commodity_lower_bound", r.commodity_flow ? json_string(cl_s) : json_null());
    json_object_set_new(doc, "tb_factor", tb_exact ? json_string(tb_s) : json_real(tbf));
    json_object_set_new(doc, "lp_rows", json_integer(r.lp_rows));
    json_object_set_new(doc, "lp_columns", json_integer(r.lp_cols));
    if (o.size_text) {
      if (o.sizes.count == 1) { /* one size: its time beside it, as before lists */
        json_object_set_new(doc, "size", json_integer(o.sizes.bytes[0]));
        json_object_set_new(doc, "time_s", json_real(a2a_time(&o, o.sizes.bytes[0], n, f)));
      }
      json_t *times = json_array();
      for (int i = 0; i < o.sizes.count; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "size", json_integer(o.sizes.bytes[i]));
        json_object_set_new(e, "time_s", json_real(a2a_time(&o, o.sizes.bytes[i], n, f)));
        json_array_append_new(times, e);
      }
      json_object_set_new(doc, "times", times);
      json_object_set_new(doc, "link_bw", json_real(o.link_bw));
      json_object_set_new(doc, "alpha", json_real(o.alpha));
      json_object_set_new(doc, "throughput_Bps", json_real(tc_a2a_throughput_bound(n, f, o.link_bw)));
    }
    json_object_set_new(doc, "rounds", json_integer(r.rounds));
    json_object_set_new(doc, "symmetry_group", json_integer(r.group));
    json_object_set_new(doc, "stopped_by_time_limit", json_boolean(r.stopped));
    json_object_set_new(doc, "bounds", json_bounds(&bounds));
    json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("\n");
    json_decref(doc);
  } else {
    printf("a2a %s: all-to-all on %d nodes, %lld arcs, degree %lld (maximum concurrent MCF, paper 003)\n", o.spec, n,
           (long long)g->m, (long long)d);
    if (ao.host_cap.num > 0) printf("  host cap        %s per node in and out (paper 003 §3.2.2)\n", host_s);
    if (r.exact) printf("  f               %s exact (lower bound = upper bound)\n", f_s);
    else printf("  f               %.9g (solver; not certified exact)\n", r.f);
    printf("  lower bound     %s = %.9g (flows checked: capacity, conservation)\n", lo_s, r.lower_bound);
    printf("  upper bound     %s = %.9g (dual lengths: sum c*l / sum dist_l)\n", up_s, r.upper_bound);
    printf("  gap             %.3g\n", r.gap);
    if (r.commodity_flow) printf("  per commodity   %d x %d flows certify %s on their own\n", n, n - 1, cl_s);
    if (tb_exact) printf("  tb_factor       d/(N*f) = %s = %.6g (all-to-all time in units of M/B, B = d*b)\n", tb_s, tbf);
    else printf("  tb_factor       d/(N*f) = %.9g (all-to-all time in units of M/B, B = d*b)\n", tbf);
    for (int i = 0; i < o.sizes.count; i++) {
      char ts[32], ms[32];
      tc_units_format_time(a2a_time(&o, o.sizes.bytes[i], n, f), 0, ts, sizeof ts);
      tc_units_format_size(o.sizes.bytes[i], ms, sizeof ms);
      printf("  time at %-8sT = alpha + (M/N)/(f*b) = %s\n", ms, ts);
    }
    if (o.size_text) {
      char bw[32];
      tc_units_format_bandwidth(tc_a2a_throughput_bound(n, f, o.link_bw), bw, sizeof bw);
      printf("  throughput      (N-1)*f*b = %s per node (paper 003 §5.2)\n", bw);
    }
    char bd[48], bm[48], bb[48];
    rat_text(bounds.distance, bd, sizeof bd);
    rat_text(bounds.moore, bm, sizeof bm);
    rat_text(bounds.bisection, bb, sizeof bb);
    printf("  distance bound  %s = %.9g (sum c / sum dist)\n", bd, tc_rat_to_double(bounds.distance));
    printf("  Moore bound     %s = %.9g (sum c / (N*S_min), S_min(%d,%lld) = %lld)\n", bm, tc_rat_to_double(bounds.moore),
           n, (long long)bounds.moore_degree, (long long)bounds.s_min);
    printf("  bisection bound %s = %.9g (a cut of %d nodes, %lld out and %lld in)\n", bb,
           tc_rat_to_double(bounds.bisection), bounds.cut_size, (long long)bounds.cut_out, (long long)bounds.cut_in);
    if (ao.method == TC_A2A_DW)
      printf("  solved by       dw on %s (%lld rows, %lld columns, %lld round%s, symmetry group of %d)%s\n",
             tc_a2a_engine_name(ao.engine), (long long)r.lp_rows, (long long)r.lp_cols, (long long)r.rounds,
             r.rounds == 1 ? "" : "s", r.group, r.stopped ? ", stopped by --time-limit" : "");
    else
      printf("  solved by       %s on %s (%lld rows, %lld columns)\n", tc_a2a_method_name(ao.method),
             tc_a2a_engine_name(ao.engine), (long long)r.lp_rows, (long long)r.lp_cols);
  }
  int rc = TC_EXIT_OK;
  if (!r.exact && !(r.gap <= ao.gap)) {
    tc_cli_error("a2a", "certified gap %.3g exceeds --gap %g (lower %s, upper %s)", r.gap, ao.gap, lo_s, up_s);
    rc = TC_EXIT_FAIL;
  }
  tc_a2a_result_destroy(&r);
  tc_a2a_bounds_destroy(&bounds);
  tc_graph_destroy(g);
  return rc;
}

int tc_cmd_a2a(int argc, char **argv) {
  int64_t *sizes = NULL;
  int status = a2a_command_run(argc, argv, &sizes);
  free(sizes);
  return status;
}
