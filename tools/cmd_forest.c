/*
** cmd_forest.c — `topocoll forest SPEC`: ForestColl (paper 001) on a fabric or topology —
** the throughput-optimal tree schedule of allgather, reduce-scatter or allreduce, its
** bottleneck-cut certificate, and the comparison with the best ring; or, with --k-scan, the
** fixed-k table of §5.1.
**
** Everything printed comes from a forest that passed the independent verifier
** (tc_forest_build ends with tc_forest_verify); the k-scan rows are searches (Algorithm 3)
** and say so. Capacities are read as GB/s, or as multiples of --link-bw. --weights gives the
** compute nodes unequal shares of the buffer (forest.h, "Weighted roots"); without it, or with
** `equal`, the output is the unweighted forest's, unchanged.
*/
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "progress.h"
#include "topocoll/forest.h"
#include "topocoll/output.h"
#include "topocoll/spec.h"
#include "topocoll/units.h"

void tc_cmd_forest_help(void) {
  printf(
      "usage: topocoll forest SPEC [--coll C] [--k K | --k-scan A..B] [--weights W] [--size SIZES] [--out FILE]\n"
      "                       [--json] [--progress|--quiet]\n"
      "\n"
      "ForestColl (paper 001): the throughput-optimal spanning-tree schedule on SPEC — a fabric\n"
      "with switches and unequal links (dgx_a100(2), mi250(2), fattree(4), file(x.json)) or any\n"
      "topology. Prints the optimal algorithmic bandwidth with the bottleneck cut that proves it,\n"
      "the trees per node (k) and per-tree bandwidth (y), and the best any ring could do.\n"
      "\n"
      "  --coll C        allgather (default), reduce-scatter or allreduce (= reduce-scatter then\n"
      "                  allgather)\n"
      "  --k K           K trees per node (Algorithm 3) instead of the optimal k\n"
      "  --k-scan A..B   the fixed-k search for k = A..B as a table beside the optimum (no trees)\n"
      "  --weights W     the shares of the buffer each compute node owns: equal (default: one each),\n"
      "                  auto (allreduce: water-filling on the nodes' link capacities, more to the\n"
      "                  thinly linked nodes) or w0,w1,... (one integer >= 0 per compute node, in id\n"
      "                  order, not all 0); node v then roots k·w_v trees\n"
      "  --search S      newton (default: jumps to each violated cut) or bisect (the paper's\n"
      "                  binary search, Algorithms 1 and 3 as printed); the same exact answer\n"
      "  --size SIZES    also print the time of one collective of M bytes, e.g. 1GB, per size of\n"
      "                  a list or range: 1MB,1GB or 1M..1G (doubling; K, M, G binary, KB, MB, GB\n"
      "                  decimal)\n"
      "  --link-bw B     the bandwidth of capacity 1 (default 1 GB/s: fabric capacities are GB/s)\n"
      "  --lp            allreduce: also solve LP (6), the best allreduce of any shape, as an exact\n"
      "                  certificate (small fabrics: refused beyond 40000 LP columns)\n"
      "  --out FILE      write the forest (every tree and route) as JSON (docs/formats.md)\n"
      "  --json          print that JSON document instead of the report\n"
      "  --progress      progress on stderr: the optimality search, switch removal, tree\n"
      "                  packing (default: only when stderr is a terminal; TOPOCOLL_PROGRESS=1\n"
      "                  or 0 forces it)\n"
      "  --quiet         no progress lines\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "Exit status: 0 success, 1 our failure (a forest that fails verification, an I/O error),\n"
      "2 bad usage or a fabric ForestColl cannot handle (one line naming the node).\n");
}

typedef struct forest_options {
  const char *spec, *coll, *k_text, *k_scan, *search, *size_text, *bw_text, *out, *weights;
  int64_t k;
  tc_cli_size_list sizes;
  double link_bw;
  int json, lp, progress, quiet;
} forest_options;

static const char *const coll_names[] = {"allgather", "reduce-scatter", "allreduce", NULL};
static const char *const search_names[] = {"newton", "bisect", NULL};

#define AT(field) offsetof(forest_options, field)
static const tc_cli_option forest_table[] = {
    {.name = "--coll", .kind = TC_CLI_CHOICE, .text = AT(coll), .value = AT(coll), .choices = coll_names},
    {.name = "--k", .kind = TC_CLI_INT64, .text = AT(k_text), .value = AT(k), .lo = 1, .hi = 1000000000},
    {.name = "--k-scan", .kind = TC_CLI_STRING, .text = AT(k_scan)},
    {.name = "--search", .kind = TC_CLI_CHOICE, .text = AT(search), .value = AT(search), .choices = search_names},
    {.name = "--weights", .kind = TC_CLI_STRING, .text = AT(weights)},
    {.name = "--size", .kind = TC_CLI_SIZE_LIST, .text = AT(size_text), .value = AT(sizes)},
    {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(bw_text), .value = AT(link_bw)},
    {.name = "--out", .kind = TC_CLI_PATH, .text = AT(out)},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    {.name = "--lp", .kind = TC_CLI_FLAG, .value = AT(lp)},
    TC_CLI_PROGRESS_OPTIONS(forest_options),
};
static const tc_cli_command forest_cli = {
    .name = "forest", .help = tc_cmd_forest_help, .options = forest_table, .noptions = TC_CLI_COUNT(forest_table),
    .positional = {AT(spec)}, .npositional = 1,
    .extra_argument = "more than one SPEC given ('%2$s' and '%1$s'); quote specs with spaces"};
#undef AT

/* "A..B" with 1 <= A <= B <= 1000. */
static int parse_scan(const char *text, long long *a, long long *b) {
  const char *dots = strstr(text, "..");
  if (!dots) return tc_cli_usage_error("forest", "--k-scan needs A..B, e.g. 1..10 (got '%s')", text);
  char left[32];
  size_t len = (size_t)(dots - text);
  if (len == 0 || len >= sizeof left) return tc_cli_usage_error("forest", "--k-scan needs A..B, e.g. 1..10 (got '%s')", text);
  memcpy(left, text, len);
  left[len] = 0;
  int st = tc_cli_parse_integer("forest", "--k-scan", left, 1, 1000, a);
  if (!st) st = tc_cli_parse_integer("forest", "--k-scan", dots + 2, 1, 1000, b);
  if (!st && *a > *b) return tc_cli_usage_error("forest", "--k-scan %s is empty (A > B)", text);
  return st;
}

/* --weights on g: *w = NULL for equal, else one entry per node of g (0 on switches; the
   caller frees it); *how says which ("equal", "auto" or "given"). A list must have one
   integer per compute node. */
static int parse_weights(const forest_options *o, const tc_graph *g, int64_t **w, const char **how) {
  *w = NULL;
  *how = "equal";
  if (!o->weights || !strcmp(o->weights, "equal")) return TC_EXIT_OK;
  int32_t nc = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  int64_t *out = calloc((size_t)g->n, sizeof *out);
  if (!out) return tc_cli_usage_error("forest", "out of memory for %d weights", g->n);
  if (!strcmp(o->weights, "auto")) {
    tc_error err;
    int uniform = 0;
    *how = "auto";
    if (tc_forest_allreduce_weights(g, out, &uniform, &err)) {
      free(out);
      return tc_cli_fail("forest", &err);
    }
    *w = out;
    return TC_EXIT_OK;
  }
  *how = "given";
  int32_t count = 0, v = 0;
  int st = TC_EXIT_OK;
  for (const char *p = o->weights; !st;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char item[32];
    long long x = 0;
    if (len == 0 || len >= sizeof item)
      st = tc_cli_usage_error("forest", "--weights expects auto, equal or integers w0,w1,... (got '%s')", o->weights);
    else {
      memcpy(item, p, len);
      item[len] = 0;
      st = tc_cli_parse_integer("forest", "--weights", item, 0, TC_FOREST_MAX_SHARDS, &x);
    }
    while (!st && v < g->n && g->kind[v] != TC_NODE_COMPUTE) v++;
    if (!st && v < g->n) out[v++] = x;
    count += !st;
    if (!comma) break;
    p = comma + 1;
  }
  if (!st && count != nc)
    st = tc_cli_usage_error("forest", "--weights gives %d weight%s, %s has %d compute nodes (one weight each, in id "
                            "order)", count, count == 1 ? "" : "s", o->spec, nc);
  if (st) free(out);
  else *w = out;
  return st;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* ---- report ---- */

static void print_cut(const tc_forest_optimum *o) {
  /* node ids as ranges, at most a line's worth */
  int printed = 0;
  for (int32_t i = 0; i < o->cut_len && printed < 90;) {
    int32_t j = i;
    while (j + 1 < o->cut_len && o->cut[j + 1] == o->cut[j] + 1) j++;
    printed += j > i ? printf("%s%d-%d", i ? "," : "", o->cut[i], o->cut[j]) : printf("%s%d", i ? "," : "", o->cut[i]);
    i = j + 1;
    if (printed >= 90 && i < o->cut_len) printf(",...");
  }
  printf("}\n");
}

static void print_part(const tc_graph *g, const tc_forest *f, const tc_forest_part *p, double unit,
                       const char *unit_name, const char *title) {
  const tc_forest_optimum *o = &p->opt;
  char a[64], b[64];
  if (title) printf("  %s\n", title);
  tc_rat_format(p->algbw, a, sizeof a);
  if (o->optimal) {
    tc_rat_format(o->inv_x, b, sizeof b);
    printf("    optimum         algbw %.2f %s = %s (1/x* = %s: T = (M/%s)·(1/x*))\n", tc_rat_to_double(p->algbw) * unit,
           unit_name, a, b, f->weights ? "W" : "N");
    tc_rat r;
    tc_error err;
    tc_rat_make(o->cut_compute, o->cut_exit, &r, &err);
    tc_rat_format(r, b, sizeof b);
    if (!f->weights)
      printf("    bottleneck cut  %lld compute nodes, %lld leaving: %lld/%lld = %s; S* = {", (long long)o->cut_compute,
             (long long)o->cut_exit, (long long)o->cut_compute, (long long)o->cut_exit, b);
    else {
      int32_t inside = 0;
      for (int32_t i = 0; i < o->cut_len; i++) inside += g->kind[o->cut[i]] == TC_NODE_COMPUTE;
      printf("    bottleneck cut  %d compute nodes owning %lld shares, %lld leaving: %lld/%lld = %s; S* = {", inside,
             (long long)o->cut_compute, (long long)o->cut_exit, (long long)o->cut_compute, (long long)o->cut_exit, b);
    }
    print_cut(o);
  } else {
    tc_rat_format(o->U, b, sizeof b);
    printf("    fixed k         algbw %.2f %s = %s (U* = %s, Algorithm 3)\n", tc_rat_to_double(p->algbw) * unit,
           unit_name, a, b);
  }
  tc_rat_format(o->y, b, sizeof b);
  printf("    trees           k = %lld per %s (%lld in all), y = %s %s per tree, %lld batches\n", (long long)o->k,
         f->weights ? "share" : "node", (long long)(o->k * f->weight_total), b, unit_name, (long long)p->nbatches);
  printf("    work            %lld search test%s (%lld max-flows); switch removal %lld max-flows; packing %lld "
         "max-flows on %lld logical arcs\n",
         (long long)o->iterations, o->iterations == 1 ? "" : "s", (long long)o->maxflows, (long long)p->split_maxflows, (long long)p->pack_maxflows,
         (long long)p->logical_arcs);
}

/* The owners and their shares ("3:1 12:1 ..."), at most a line's worth. */
static void print_weights(const tc_graph *g, const tc_forest *f, const char *how) {
  int32_t owners = 0;
  for (int32_t v = 0; v < g->n; v++) owners += f->weights[v] > 0;
  printf("  weights           %s: %d of %d compute nodes own the W = %lld shares (node:shares)", how, owners,
         f->ncompute, (long long)f->weight_total);
  int printed = 0;
  for (int32_t v = 0; v < g->n; v++) {
    if (f->weights[v] == 0) continue;
    if (printed >= 90) {
      printf(" ...");
      break;
    }
    printed += printf(" %d:%lld", v, (long long)f->weights[v]);
  }
  printf("\n");
}

static int report(const forest_options *o, const tc_graph *g, const tc_forest *f, double unit, const char *unit_name,
                  double secs, const char *how, tc_error *err) {
  /* everything that can fail first, so that a refusal prints no half report */
  tc_rat ring, lp = {0, 1};
  int64_t lambda = 0;
  int lp_upper = 0, lp_lower = 0;
  int rc = tc_forest_ring_bound(g, &ring, &lambda, err);
  if (!rc && o->lp) rc = tc_forest_lp_allreduce(g, &lp, &lp_upper, &lp_lower, err);
  if (rc) return rc;
  char a[64];
  printf("forest %s: %s on %d compute + %d switch nodes (ForestColl, paper 001)\n", o->spec,
         tc_collective_name(f->coll), f->ncompute, f->nswitch);
  if (f->weights) print_weights(g, f, !strcmp(how, "auto") ? "auto (allreduce water-filling)" : "given");
  else if (!strcmp(how, "auto"))
    printf("  weights           auto (allreduce water-filling): one share each (every node's links alike), the "
           "unweighted forest\n");
  for (int i = 0; i < f->nparts; i++)
    print_part(g, f, &f->part[i], unit, unit_name,
               f->nparts > 1 ? (f->part[i].in_trees ? "reduce-scatter (in-trees, built on the transpose):"
                                                    : "allgather (out-trees):")
                             : NULL);
  tc_rat_format(f->algbw, a, sizeof a);
  if (f->nparts > 1)
    printf("  allreduce         algbw %.2f %s = %s (T = T_RS + T_AG)\n", tc_rat_to_double(f->algbw) * unit, unit_name, a);
  double ring_bw = tc_rat_to_double(ring) * (f->coll == TC_COLL_ALLREDUCE ? 0.5 : 1.0);
  printf("  ring              at most %.2f %s (every ring sends N-1 shards across the min cut, %lld): forestcoll "
         "%.3fx that\n",
         ring_bw * unit, unit_name, (long long)lambda, tc_rat_to_double(f->algbw) / ring_bw);
  if (o->lp) {
    char b[64];
    tc_rat_format(lp, b, sizeof b);
    int cmp = tc_rat_cmp(lp, f->algbw);
    printf("  LP (6)            algbw %.2f %s = %s (%s): %s\n", tc_rat_to_double(lp) * unit, unit_name, b,
           lp_upper && lp_lower ? "certified exactly" : lp_upper ? "upper bound certified" : "not certified",
           cmp == 0 ? "the trees are the best allreduce of any shape"
                    : cmp > 0 ? "an allreduce with unequal shards does better than RS + AG here"
                              : "below the trees: the LP's certificate is incomplete");
  }
  for (int i = 0; i < o->sizes.count; i++) {
    char t[64], m[64];
    int64_t size = o->sizes.bytes[i];
    tc_units_format_size(size, m, sizeof m);
    tc_units_format_time((double)size / (tc_rat_to_double(f->algbw) * unit * 1e9), 0, t, sizeof t);
    printf("  at %-15sT = %s (bandwidth term; latency is not modelled)\n", m, t);
  }
  printf("  verified          every batch spans the compute nodes, every route is a path through switches, every "
         "link within its capacity (%.2f s)\n",
         secs);
  return TC_OK;
}

/* ---- k-scan ---- */

static int k_scan(const forest_options *o, const tc_graph *g, long long ka, long long kb, tc_forest_search search,
                  double unit, const char *unit_name, tc_error *err) {
  int32_t nc = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  tc_forest_optimum best;
  int rc = tc_forest_search_optimum(g, 0, search, &best, err);
  if (rc) return rc;
  double opt_bw = nc / tc_rat_to_double(best.inv_x);
  json_t *rows = json_array();
  if (!o->json) {
    printf("forest %s: allgather at a fixed k (Algorithm 3; searches, no trees — build one with --k K)\n", o->spec);
    printf("  %6s  %-14s  %12s  %s\n", "k", "U*", "algbw", "of optimum");
  }
  for (long long k = ka; !rc && k <= kb; k++) {
    tc_forest_optimum f;
    rc = tc_forest_search_optimum(g, k, search, &f, err);
    if (rc) break;
    double bw = (double)nc * (double)k / tc_rat_to_double(f.U);
    char u[64], exact[64];
    tc_rat_format(f.U, u, sizeof u);
    tc_rat nk = {(int64_t)nc * k, 1}, alg;
    rc = tc_rat_div(nk, f.U, &alg, err);
    tc_rat_format(alg, exact, sizeof exact);
    if (!o->json) printf("  %6lld  %-14s  %8.2f %s  %5.1f%%\n", k, u, bw * unit, unit_name, 100.0 * bw / opt_bw);
    json_t *row = json_object();
    json_object_set_new(row, "k", json_integer(k));
    json_object_set_new(row, "U", json_string(u));
    json_object_set_new(row, "algbw", json_string(exact));
    json_object_set_new(row, "algbw_float", json_real(bw * unit));
    json_array_append_new(rows, row);
    tc_forest_optimum_destroy(&f);
  }
  if (!rc) {
    char ix[64], exact[64];
    tc_rat_format(best.inv_x, ix, sizeof ix);
    tc_rat n = {nc, 1}, alg;
    rc = tc_rat_div(n, best.inv_x, &alg, err);
    tc_rat_format(alg, exact, sizeof exact);
    if (!o->json)
      printf("  %6s  k = %-10lld  %8.2f %s  100.0%%  (1/x* = %s)\n", "opt", (long long)best.k, opt_bw * unit, unit_name,
             ix);
    else {
      json_t *doc = json_object(), *op = json_object();
      json_object_set_new(doc, "spec", json_string(o->spec));
      json_object_set_new(doc, "collective", json_string("allgather"));
      json_object_set_new(doc, "k_scan", rows);
      rows = NULL;
      json_object_set_new(op, "k", json_integer(best.k));
      json_object_set_new(op, "inv_x", json_string(ix));
      json_object_set_new(op, "algbw", json_string(exact));
      json_object_set_new(op, "algbw_float", json_real(opt_bw * unit));
      json_object_set_new(doc, "optimum", op);
      json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
      printf("\n");
      json_decref(doc);
    }
  }
  json_decref(rows);
  tc_forest_optimum_destroy(&best);
  return rc;
}

/* The command; *sizes receives --size's list, which the caller frees on every path. */
static int forest_command(int argc, char **argv, int64_t **sizes) {
  forest_options o;
  memset(&o, 0, sizeof o);
  int status = tc_cli_parse(&forest_cli, argc, argv, &o);
  if (status) return status == TC_CLI_DONE ? TC_EXIT_OK : status;
  if (!o.spec) return tc_cli_usage_error("forest", "missing SPEC");
  status = tc_cli_convert(&forest_cli, &o, "--coll", "--search", "--k", "--size", "--link-bw", NULL);
  *sizes = o.sizes.bytes;
  if (status) return status;
  if (o.k && o.k_scan) return tc_cli_usage_error("forest", "--k and --k-scan exclude each other");
  if (o.lp && (!o.coll || strcmp(o.coll, "allreduce") || o.k_scan))
    return tc_cli_usage_error("forest", "--lp certifies an allreduce: give --coll allreduce");
  long long ka = 0, kb = 0;
  if (o.k_scan && (status = parse_scan(o.k_scan, &ka, &kb))) return status;
  if (o.k_scan && (o.out || (o.coll && strcmp(o.coll, "allgather"))))
    return tc_cli_usage_error("forest", "--k-scan prints an allgather table only (no --out, no other --coll)");
  if (o.k_scan && o.weights) return tc_cli_usage_error("forest", "--weights and --k-scan exclude each other");
  if (o.weights && !strcmp(o.weights, "auto") && (!o.coll || strcmp(o.coll, "allreduce")))
    return tc_cli_usage_error("forest", "--weights auto is the allreduce's water-filling: give --coll allreduce");
  tc_progress progress;
  if ((status = tc_cli_progress_init(&progress, "forest", o.progress, o.quiet))) return status;
  tc_error err;
  if (o.out && tc_output_check(o.out, &err)) return tc_cli_fail("forest", &err);
  double unit = o.link_bw > 0 ? o.link_bw / 1e9 : 1.0;
  const char *unit_name = "GB/s";
  tc_forest_search search = o.search && !strcmp(o.search, "bisect") ? TC_FOREST_BISECT : TC_FOREST_NEWTON;
  tc_graph *g = NULL;
  if (tc_spec_build(o.spec, &g, &err)) return tc_cli_fail("forest", &err);
  int rc;
  if (o.k_scan) {
    rc = k_scan(&o, g, ka, kb, search, unit, unit_name, &err);
    tc_graph_destroy(g);
    return rc ? tc_cli_fail("forest", &err) : TC_EXIT_OK;
  }
  int64_t *weights = NULL;
  const char *how = NULL;
  if ((status = parse_weights(&o, g, &weights, &how))) {
    tc_graph_destroy(g);
    return status;
  }
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  tc_forest_options fo = {.coll = (tc_collective)tc_collective_parse(o.coll ? o.coll : "allgather"),
                          .k = o.k,
                          .search = search,
                          .progress = tc_progress_report,
                          .progress_ctx = &progress,
                          .weights = weights};
  tc_forest f;
  rc = tc_forest_build(g, &fo, &f, &err);
  tc_progress_finish(&progress);
  double secs = seconds_since(&start);
  if (!rc && o.out) rc = tc_forest_write_json(g, o.spec, &f, 1, o.out, &err);
  if (!rc)
    rc = o.json ? tc_forest_write_json(g, o.spec, &f, 1, "-", &err) : report(&o, g, &f, unit, unit_name, secs, how, &err);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
  free(weights);
  return rc ? tc_cli_fail("forest", &err) : TC_EXIT_OK;
}

int tc_cmd_forest(int argc, char **argv) {
  int64_t *sizes = NULL;
  int status = forest_command(argc, argv, &sizes);
  free(sizes);
  return status;
}
