/*
** cmd_sched.c — `topocoll sched SPEC --coll C --algo A`: build a collective schedule on a
** topology, verify it, cost it, optionally write it as a schedule file, and report.
**
** Order of work, and why: the schedule is verified by tc_schedule_verify before anything
** is printed or written, so no unverified schedule ever leaves this command — a
** verification failure prints the verifier's line and exits 1 without creating the
** file. The costs come from tc_schedule_cost on the schedule itself. The file is written
** (atomically) before the report, so a report always describes a file that exists.
**
** Alltoall schedules are lowered from a routing (a2a_route.h): the algorithm's
** (tc_algorithm_routing, the same one tc_collective_build lowers) or a route file's
** (--routes FILE). The report adds the routing's fluid rate f and its virtual-channel
** layers; --routes-out writes the routing (both files in one batch: all or nothing).
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "progress.h"
#include "sched_report.h"
#include "topocoll/a2a_flows.h"
#include "topocoll/a2a_route.h"
#include "topocoll/collective.h"
#include "topocoll/output.h"
#include "topocoll/transform.h"
#include "topocoll/sched_io.h"
#include "topocoll/spec.h"
#include "topocoll/verify.h"

/* One line per algorithm of the registry: name, collectives, where it runs, summary. */
static void print_algorithms(const char *indent) {
  char colls[256];
  for (int i = 0; i < tc_algorithm_count(); i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    tc_algorithm_collectives_text(a->collectives, colls, sizeof colls);
    printf("%s%-15s %s; on %s. Builds %s.\n", indent, a->name, a->summary, a->topology, colls);
  }
}

void tc_cmd_sched_help(void) {
  printf(
      "usage: topocoll sched SPEC --coll COLL --algo ALGO [--root R | --src S --dst T] [--chunks P]\n"
      "                      [--alpha TIME] [--link-bw BW] [--size SIZES] [--out FILE.json] [--json]\n"
      "                      [--progress|--quiet]\n"
      "       topocoll sched SPEC --coll alltoall (--algo ALGO | --routes FILE) [--routes-out FILE] ...\n"
      "       topocoll sched --list\n"
      "\n"
      "Builds the schedule of collective COLL by algorithm ALGO on the topology SPEC (see\n"
      "docs/spec.md), verifies it (tc_schedule_verify; a schedule that fails is neither printed\n"
      "nor written, exit 1) and reports its costs from the alpha-beta model: steps (T_L in units\n"
      "of alpha), the exact T_B factor tau (T_B = tau * M/B, B = degree * link bandwidth), the\n"
      "optimum (N-1)/N, BW- and Moore-optimality.\n"
      "\n"
      "  --coll COLL     allgather, reduce-scatter, allreduce, broadcast, reduce, alltoall,\n"
      "                  scatter, gather or p2p (docs/formats.md says what each moves)\n"
      "                  (alltoall: a routing lowered store-and-forward, hop h in step h;\n"
      "                  docs/alltoall_routes.md)\n"
      "  --algo ALGO     one of (--list prints them one a line):\n");
  print_algorithms("                    ");
  printf(
      "  --root R        root of broadcast, reduce, scatter and gather (default 0)\n"
      "  --src S --dst T p2p: node S sends its whole buffer to node T (both needed)\n"
      "  --chunks P      P chunks per shard: bfb and expand round their allgather to P chunks\n"
      "                  (App. E.2), dbt pipelines P chunks, forestcoll P chunks per tree, other\n"
      "                  baselines are refined to P equal chunks. Without it, dbt and forestcoll\n"
      "                  given --alpha, --link-bw and --size take the P of 1, 2, 4, ..., 64\n"
      "                  whose schedule is predicted fastest, and say so\n"
      "  --alpha TIME    per-step latency, e.g. 10us, 1.5ms, 0s\n"
      "  --link-bw BW    bandwidth of one unit-capacity link, e.g. 25Gbps, 100GBps, 800Mbps\n"
      "  --size SIZES    buffer size M, e.g. 1MB, 4MiB, 1048576 (bytes), or a list: 1MB,256MB or\n"
      "                  1M..1G (a range includes both ends and doubles, --factor F steps by F);\n"
      "                  with all three, the predicted time T = steps*alpha + tau*M/B is reported,\n"
      "                  one report per size (--json: an array of them when there are several)\n"
      TC_CLI_FACTOR_HELP
      "  --copy-bw BW    local memcpy rate, e.g. 10GBps: the time adds local_copy*M/BW, the\n"
      "                  packing and reordering of combined messages (default: not counted;\n"
      "                  the MPI executor receives every piece in place)\n"
      "  --out FILE      write the verified schedule as a schedule JSON file (docs/formats.md;\n"
      "                  replaced atomically; - for standard output, a device or FIFO is\n"
      "                  written in place, a directory refused)\n"
      "  --routes FILE   alltoall: the routing of a route file (docs/formats.md) instead of --algo\n"
      "  --routes-out FILE  alltoall: write the routing as a route file (as --out)\n"
      "                  alltoall reports also give the routing's f = 1 / max link load and its\n"
      "                  virtual-channel layers (LASH-sequential)\n"
      "  --steps L       alltoall mcf: l_max time steps (default: the diameter); pmcf --paths\n"
      "                  lmax: paths of at most L hops\n"
      "  --paths SET     alltoall pmcf: candidate paths disjoint (default: a maximal set of\n"
      "                  arc-disjoint paths per pair), shortest, or lmax (every path of at most\n"
      "                  --steps hops)\n"
      "  --time-limit T  alltoall mcf, pmcf, mcf-extp, ilp-*: a limit per LP or MIP solve, e.g.\n"
      "                  30s (ILPs: 60s by default; the best single-path choice found by then)\n"
      "  --without-links LIST  a degraded cluster: SPEC without the links u-v of LIST (e.g.\n"
      "                  0-1,5-6; a duplex pair when SPEC is bidirectional, else the arc u->v;\n"
      "                  at most 32), i.e. the topology 'without(SPEC,0,1,5,6)', which the\n"
      "                  report and the schedule file name; refused when it disconnects\n"
      "  --json          one JSON object instead of the text report\n"
      "  --list          the algorithms, one a line: name, collectives, topology, summary\n"
      "  --progress      progress on stderr: building the topology, generating, deriving,\n"
      "                  verifying and costing each schedule (default: only when stderr is a\n"
      "                  terminal; TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet         no progress lines\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "The terms (T_L, T_B, tau, Moore bound, \"paper 000 Thm 22\"): see 'topocoll --help'.\n"
      "Exit status: 0 success, 1 verification or write failure, 2 bad usage or input.\n");
}

/* `--list`: one algorithm a line, tab-separated: name, collectives, topology, summary. */
static void list_algorithms(void) {
  char colls[256];
  for (int i = 0; i < tc_algorithm_count(); i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    colls[0] = '\0';
    for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_LAST; c++)
      if (a->collectives & TC_COLL_BIT(c))
        snprintf(colls + strlen(colls), sizeof colls - strlen(colls), "%s%s", colls[0] ? "," : "",
                 tc_collective_name((tc_collective)c));
    printf("%s\t%s\t%s\t%s\n", a->name, colls, a->topology, a->summary);
  }
}

/* ---- options ---- */

typedef struct sched_options {
  const char *spec, *coll_text, *algo, *root_text, *src_text, *dst_text, *chunks_text, *alpha_text, *bw_text,
      *size_text, *factor_text, *out;
  const char *routes, *routes_out, *steps_text, *paths_text, *time_limit_text, *without;
  char degraded[4096]; /* --without-links: "without(SPEC,u1,v1,...)", then the spec used */
  int json, steps, progress, quiet;
  tc_progress *reporter; /* the command's progress (progress.h) */
  double time_limit;
  tc_a2a_path_set paths;
  tc_collective coll;
  int root, src, dst;
  int64_t chunks, size_bytes; /* size_bytes: the size being reported, -1 for none */
  tc_cli_size_list sizes;      /* --size */
  double alpha_s, link_bw, copy_bw;
  const char *copy_bw_text;
} sched_options;

#define AT(field) offsetof(sched_options, field)
static const tc_cli_option sched_table[] = {
    {.name = "--coll", .kind = TC_CLI_STRING, .text = AT(coll_text)},
    {.name = "--algo", .kind = TC_CLI_STRING, .text = AT(algo)},
    {.name = "--root", .kind = TC_CLI_INT, .text = AT(root_text), .value = AT(root), .lo = 0, .hi = TC_MAX_NODES - 1},
    {.name = "--src", .kind = TC_CLI_INT, .text = AT(src_text), .value = AT(src), .lo = 0, .hi = TC_MAX_NODES - 1},
    {.name = "--dst", .kind = TC_CLI_INT, .text = AT(dst_text), .value = AT(dst), .lo = 0, .hi = TC_MAX_NODES - 1},
    {.name = "--chunks", .kind = TC_CLI_INT64, .text = AT(chunks_text), .value = AT(chunks), .lo = 1, .hi = INT64_MAX},
    {.name = "--alpha", .kind = TC_CLI_TIME, .text = AT(alpha_text), .value = AT(alpha_s)},
    {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(bw_text), .value = AT(link_bw)},
    {.name = "--copy-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(copy_bw_text), .value = AT(copy_bw)},
    {.name = "--size", .kind = TC_CLI_SIZE_LIST, .text = AT(size_text), .value = AT(sizes)},
    TC_CLI_FACTOR_OPTION(sizes),
    {.name = "--out", .kind = TC_CLI_PATH, .text = AT(out)},
    {.name = "--routes", .kind = TC_CLI_STRING, .text = AT(routes)},
    {.name = "--routes-out", .kind = TC_CLI_PATH, .text = AT(routes_out)},
    {.name = "--steps", .kind = TC_CLI_INT, .text = AT(steps_text), .value = AT(steps), .lo = 1, .hi = 4096},
    {.name = "--paths", .kind = TC_CLI_STRING, .text = AT(paths_text)},
    {.name = "--time-limit", .kind = TC_CLI_TIME, .text = AT(time_limit_text), .value = AT(time_limit)},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    TC_CLI_PROGRESS_OPTIONS(sched_options),
    {.name = "--without-links", .kind = TC_CLI_STRING, .text = AT(without), .needs = "links u-v,u-v,..."},
    {.name = "--list", .kind = TC_CLI_ACTION, .action = list_algorithms},
};
static const tc_cli_command sched_cli = {
    .name = "sched", .help = tc_cmd_sched_help, .options = sched_table, .noptions = TC_CLI_COUNT(sched_table),
    .positional = {AT(spec)}, .npositional = 1,
    .extra_argument = "more than one SPEC given ('%2$s' and '%1$s'); quote specs with spaces"};
#undef AT

/* The names first (missing, unknown, misplaced), then the values. */
static int check_options(sched_options *o) {
  if (!o->spec) return tc_cli_usage_error("sched", "missing SPEC");
  if (!o->coll_text) return tc_cli_usage_error("sched", "missing --coll");
  int c = tc_collective_parse(o->coll_text);
  if (c < 0)
    return tc_cli_usage_error("sched", "unknown collective '%s' (allgather, reduce-scatter, allreduce, broadcast, "
                              "reduce, alltoall, scatter, gather, p2p)", o->coll_text);
  o->coll = (tc_collective)c;
  if ((o->routes || o->routes_out) && o->coll != TC_COLL_ALLTOALL)
    return tc_cli_usage_error("sched", "--%s applies to --coll alltoall only", o->routes ? "routes" : "routes-out");
  if (o->routes && o->algo) return tc_cli_usage_error("sched", "give --algo or --routes, not both");
  if (o->routes && !*o->routes) return tc_cli_usage_error("sched", "--routes needs a file name, not an empty string");
  if (!o->algo && !o->routes)
    return tc_cli_usage_error("sched", o->coll == TC_COLL_ALLTOALL ? "missing --algo (or --routes)" : "missing --algo");
  if (o->algo && !tc_algorithm_find(o->algo)) {
    tc_error err;
    tc_algorithm_check(o->algo, o->coll, &err);
    return tc_cli_usage_error("sched", "%s", err.msg);
  }
  /* the options of the flow algorithms (a2a_flows.h) */
  const char *algo = o->algo ? o->algo : "";
  int pmcf = !strcmp(algo, "pmcf"), flows = pmcf || !strcmp(algo, "mcf") || !strcmp(algo, "mcf-extp") ||
                                           !strncmp(algo, "ilp-", 4);
  if (o->paths_text && !pmcf) return tc_cli_usage_error("sched", "--paths applies to --algo pmcf only");
  if (o->paths_text) {
    tc_error err;
    if (tc_a2a_path_set_parse(o->paths_text, &o->paths, &err)) return tc_cli_usage_error("sched", "--paths: %s", err.msg);
  }
  if (o->steps_text && strcmp(algo, "mcf") && !(pmcf && o->paths == TC_A2A_PATHS_LMAX))
    return tc_cli_usage_error("sched", "--steps applies to --algo mcf and to --algo pmcf --paths lmax only");
  if (o->time_limit_text && !flows)
    return tc_cli_usage_error("sched", "--time-limit applies to --algo mcf, pmcf, mcf-extp, ilp-disjoint and "
                              "ilp-shortest only");
  int rooted = o->coll == TC_COLL_BROADCAST || o->coll == TC_COLL_REDUCE || o->coll == TC_COLL_SCATTER ||
               o->coll == TC_COLL_GATHER, p2p = o->coll == TC_COLL_P2P;
  if (o->root_text && !rooted)
    return tc_cli_usage_error("sched", p2p ? "--root does not apply to p2p (give --src S --dst T)"
                                           : "--root applies to broadcast, reduce, scatter and gather only");
  if ((o->src_text || o->dst_text) && !p2p)
    return tc_cli_usage_error("sched", "--%s applies to --coll p2p only", o->src_text ? "src" : "dst");
  if (p2p && (!o->src_text || !o->dst_text))
    return tc_cli_usage_error("sched", "p2p needs --src S and --dst T (missing %s)", o->src_text ? "--dst" : "--src");
  o->root = rooted ? 0 : -1;
  int status = tc_cli_convert(&sched_cli, o, "--root", "--src", "--dst", "--chunks", "--alpha", "--link-bw", "--factor",
                              "--size", "--copy-bw", "--steps", "--time-limit", NULL);
  if (!status && p2p && o->src == o->dst)
    return tc_cli_usage_error("sched", "--src and --dst are both node %d (p2p needs two nodes)", o->src);
  if (p2p) o->root = o->src;
  return status;
}

/* --without-links "u-v,u-v,...": the spec becomes without(SPEC,u,v,...) (expand.h), which
   rebuilds the degraded topology wherever the schedule file goes. */
static int degrade_spec(sched_options *o) {
  int at = snprintf(o->degraded, sizeof o->degraded, "without(%s", o->spec), links = 0;
  const char *p = o->without;
  for (;;) {
    char *end;
    long long u = strtoll(p, &end, 10), v = -1;
    int ok = end != p && *p >= '0' && *p <= '9' && *end == '-';
    if (ok) {
      p = end + 1;
      v = strtoll(p, &end, 10);
      ok = end != p && *p >= '0' && *p <= '9' && (*end == ',' || *end == '\0');
    }
    if (!ok)
      return tc_cli_usage_error("sched", "--without-links expects links u-v separated by commas (e.g. 0-1,5-6), "
                                "got '%s'", o->without);
    if (++links > 32) return tc_cli_usage_error("sched", "--without-links: at most 32 links");
    at += snprintf(o->degraded + at, sizeof o->degraded - (size_t)(at < (int)sizeof o->degraded ? at : 0),
                   ",%lld,%lld", u, v);
    if (*end == '\0') break;
    p = end + 1;
  }
  if (at + 2 > (int)sizeof o->degraded) return tc_cli_usage_error("sched", "--without-links: the spec is too long");
  strcat(o->degraded, ")");
  o->spec = o->degraded;
  return TC_EXIT_OK;
}

static int parse_options(int argc, char **argv, sched_options *o) {
  memset(o, 0, sizeof *o);
  o->alpha_s = o->link_bw = o->copy_bw = -1; /* not given */
  o->size_bytes = -1;
  int status = tc_cli_parse(&sched_cli, argc, argv, o);
  if (!status) status = check_options(o);
  if (!status && o->without) status = degrade_spec(o);
  if (!status && o->sizes.count) o->size_bytes = o->sizes.bytes[0];
  return status;
}

/* Several sizes under the whole model with a pipelined algorithm and no --chunks: each
   size picks its own P, so each gets a schedule of its own. */
static int schedule_per_size(const sched_options *o) {
  return o->sizes.count > 1 && o->alpha_s >= 0 && o->link_bw > 0 && !o->chunks_text && o->coll != TC_COLL_ALLTOALL &&
         tc_algorithm_pipelined(tc_algorithm_find(o->algo));
}

/* ---- the command ---- */

/* The whole alpha-beta model is given (a predicted time can be reported). */
static int model_given(const sched_options *o) { return o->alpha_s >= 0 && o->link_bw > 0 && o->size_bytes >= 0; }

/* A pipelined algorithm without --chunks under the whole model: the P of 1, 2, 4, ...,
   TC_PIPELINE_MAX whose schedule is predicted fastest at --size — every candidate built,
   verified and costed (the times are the schedules' own, never a formula; ties keep the
   smaller P). Fills s and c with the winner and *chosen with its P. */
static int build_fastest(const tc_graph *g, tc_collective_opts *opts, const sched_options *o, tc_schedule *s,
                         tc_cost *c, int64_t *chosen, tc_error *err) {
  double best = 0;
  char *kept = opts->chosen, variant[TC_ERRMSG_MAX];
  for (int64_t P = 1; P <= TC_PIPELINE_MAX; P *= 2) {
    tc_schedule cand;
    tc_cost cost;
    opts->chunks = P;
    opts->chosen = variant; /* each candidate's choice; the winner's is kept */
    int rc = tc_collective_build(g, o->algo, o->coll, opts, &cand, &cost, err);
    opts->chosen = kept;
    if (rc) return rc;
    double t = tc_cost_time_copy(&cost, o->alpha_s, o->link_bw, (double)o->size_bytes, o->copy_bw);
    if (P == 1 || t < best) {
      tc_schedule_destroy(s);
      tc_cost_destroy(c);
      *s = cand;
      *c = cost;
      best = t;
      *chosen = P;
      snprintf(kept, opts->chosen_size, "%s", variant);
    } else {
      tc_schedule_destroy(&cand);
      tc_cost_destroy(&cost);
    }
  }
  return TC_OK;
}

/* Build, verify, cost (tc_collective_build: a verification failure is TC_EFAIL, exit 1,
   our failure, not the user's), write; fills s and c (the caller destroys them),
   *chosen with the P build_fastest picked (0: none was picked) and `variant` (TC_ERRMSG_MAX
   bytes) with the builder's choice, if it made one. */
static int produce(const tc_graph *g, const tc_spec *spec, const sched_options *o, tc_schedule *s, tc_cost *c,
                   int64_t *chosen, char *variant, tc_error *err) {
  const char *root = o->coll == TC_COLL_P2P ? "--src" : "--root";
  if (o->root >= g->n)
    return tc_error_set(err, TC_EINPUT, "%s %d is not a node of %s (0..%d)", root, o->root, o->spec, g->n - 1);
  if (o->coll == TC_COLL_P2P && o->dst >= g->n)
    return tc_error_set(err, TC_EINPUT, "--dst %d is not a node of %s (0..%d)", o->dst, o->spec, g->n - 1);
  variant[0] = '\0';
  tc_collective_opts opts = {.root = o->root, .dst = o->dst, .chunks = o->chunks, .spec = spec, .chosen = variant,
                             .chosen_size = TC_ERRMSG_MAX};
  if (o->reporter->on) opts.progress = tc_progress_report, opts.progress_ctx = o->reporter;
  if (model_given(o)) { /* for builders that choose by the message size (kautz) */
    opts.alpha_s = o->alpha_s, opts.link_bw = o->link_bw, opts.bytes = (double)o->size_bytes;
    opts.copy_bw = o->copy_bw;
  }
  int rc;
  *chosen = 0;
  if (!o->chunks_text && model_given(o) && tc_algorithm_pipelined(tc_algorithm_find(o->algo)))
    rc = build_fastest(g, &opts, o, s, c, chosen, err);
  else
    rc = tc_collective_build(g, o->algo, o->coll, &opts, s, c, err);
  if (!rc && o->out) rc = tc_schedule_write_json(g, o->spec, s, o->out, err);
  return rc;
}

/* The schedule of a route file: lowered, in --chunks P units (refined when P is a multiple
   of its units, else its path shares rounded: tc_schedule_round_flows), sorted, verified,
   costed. */
static int routed_schedule(const tc_graph *g, const tc_a2a_routing *r, const sched_options *o, tc_schedule *s,
                           tc_cost *c, tc_error *err) {
  int rc = tc_a2a_routing_lower(g, r, s, err);
  if (!rc && o->chunks_text) {
    tc_schedule_normalize(s);
    if (o->chunks % s->units == 0) rc = tc_schedule_refine(s, o->chunks / s->units, err);
    else {
      tc_schedule rounded;
      if (!(rc = tc_schedule_round_flows(g, s, o->chunks, &rounded, err))) {
        tc_schedule_destroy(s);
        *s = rounded;
      }
    }
  }
  if (!rc) {
    tc_schedule_sort(s);
    if ((rc = tc_schedule_verify(g, s, err))) tc_error_prefix(err, "the alltoall schedule of %s failed verification",
                                                              o->routes);
  }
  if (!rc) rc = tc_schedule_cost(g, s, c, err);
  return rc;
}

/* Alltoall: the routing (--algo's or --routes'), its schedule (through tc_collective_build
   for --algo, so it is the library's), the routing's load and layers, the files. */
static int produce_alltoall(const tc_graph *g, const tc_spec *spec, const sched_options *o, tc_schedule *s,
                            tc_cost *c, tc_cli_routing_report *rep, int *routed, tc_error *err) {
  tc_collective_opts opts = {.root = -1, .chunks = o->chunks, .spec = spec, .steps = o->steps_text ? o->steps : 0,
                             .paths = (int)o->paths, .time_limit = o->time_limit_text ? o->time_limit : 0};
  if (o->reporter->on) opts.progress = tc_progress_report, opts.progress_ctx = o->reporter;
  *routed = o->routes || tc_algorithm_routes(tc_algorithm_find(o->algo));
  if (!*routed) { /* a step schedule of its own (mcf): no routing to report or write */
    if (o->routes_out)
      return tc_error_set(err, TC_EINPUT, "--routes-out: %s builds a step schedule, not a routing", o->algo);
    int rc = tc_collective_build(g, o->algo, TC_COLL_ALLTOALL, &opts, s, c, err);
    if (!rc && o->out) rc = tc_schedule_write_json(g, o->spec, s, o->out, err);
    return rc;
  }
  tc_a2a_routing r;
  tc_a2a_load load;
  memset(&r, 0, sizeof r);
  memset(&load, 0, sizeof load);
  int rc;
  if (o->routes) {
    rc = tc_a2a_routing_read(o->routes, g, &r, err);
    if (rc == TC_EIO) rc = err->code = TC_EINPUT; /* an unreadable input file is the user's to fix */
    if (!rc) rc = routed_schedule(g, &r, o, s, c, err);
  } else {
    rc = tc_collective_build(g, o->algo, TC_COLL_ALLTOALL, &opts, s, c, err);
    if (!rc) rc = tc_algorithm_routing(g, o->algo, &opts, &r, err);
  }
  int32_t *layer = rc ? NULL : malloc((size_t)(r.npaths ? r.npaths : 1) * sizeof *layer);
  if (!rc && !layer) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc) rc = tc_a2a_routing_load(g, &r, &load, err);
  if (!rc) rc = tc_a2a_routing_layers(g, &r, layer, &rep->layers, err);
  if (!rc) {
    rep->rate = load.rate;
    rep->max_load = load.max_load;
    rep->max_arc = load.max_arc;
    rep->paths = r.npaths;
  }
  if (!rc && (o->out || o->routes_out)) {
    tc_output_begin();
    if (o->out) rc = tc_schedule_write_json(g, o->spec, s, o->out, err);
    if (!rc && o->routes_out) rc = tc_a2a_routing_write(g, o->spec, &r, o->routes_out, err);
    if (rc) tc_output_abort();
    else rc = tc_output_commit(err);
  }
  free(layer);
  tc_a2a_load_destroy(&load);
  tc_a2a_routing_destroy(&r);
  return rc;
}

/* One schedule (and its report) per size, or one for all: see schedule_per_size. */
typedef struct sched_built {
  tc_schedule s;
  tc_cost c;
  int64_t chosen;
  char variant[TC_ERRMSG_MAX];
} sched_built;

/* Build what the sizes need (sched_built), verify, report. --out takes one schedule: with a
   schedule per size it is refused before any work. */
static int sched_sizes(sched_options *o) {
  tc_error err;
  tc_error_clear(&err);
  if (schedule_per_size(o) && o->out)
    return tc_cli_usage_error("sched", "--out writes one schedule, but %s picks its pipelining P per size: give "
                              "--chunks P or one --size", o->algo);
  /* A target no writer accepts (output.h) is refused before any work. */
  if ((o->out && tc_output_check(o->out, &err)) || (o->routes_out && tc_output_check(o->routes_out, &err)))
    return tc_cli_fail("sched", &err);
  tc_progress progress;
  int status = tc_cli_progress_init(&progress, "sched", o->progress, o->quiet);
  if (status) return status;
  o->reporter = &progress;
  tc_graph *g = NULL;
  tc_spec *spec = NULL;
  tc_progress_report(&progress, "building the topology", 0, 0);
  if (tc_spec_parse(o->spec, &spec, &err) || tc_spec_eval(spec, NULL, &g, &err)) {
    tc_progress_finish(&progress);
    tc_spec_destroy(spec);
    return tc_cli_fail("sched", &err);
  }
  int nreports = o->sizes.count ? o->sizes.count : 1, nbuilt = schedule_per_size(o) ? nreports : 1;
  sched_built *b = calloc((size_t)nbuilt, sizeof *b);
  tc_cli_sched_report *r = calloc((size_t)nreports, sizeof *r);
  tc_cli_routing_report routing = {{0, 1}, {0, 1}, -1, 0, 0, o->routes, o->routes_out};
  int routed = 0, rc = b && r ? TC_OK : tc_error_set(&err, TC_ENOMEM, "out of memory");
  for (int i = 0; !rc && i < nbuilt; i++) {
    o->size_bytes = o->sizes.count ? o->sizes.bytes[i] : -1; /* what build_fastest picks P for */
    rc = o->coll == TC_COLL_ALLTOALL ? produce_alltoall(g, spec, o, &b[i].s, &b[i].c, &routing, &routed, &err)
                                     : produce(g, spec, o, &b[i].s, &b[i].c, &b[i].chosen, b[i].variant, &err);
  }
  tc_progress_finish(&progress);
  if (rc) status = tc_cli_fail("sched", &err);
  for (int i = 0; !rc && i < nreports; i++) {
    const sched_built *x = &b[nbuilt > 1 ? i : 0];
    o->size_bytes = o->sizes.count ? o->sizes.bytes[i] : -1;
    r[i] = (tc_cli_sched_report){
        .spec = o->spec, .g = g, .s = &x->s, .c = &x->c, .root = tc_schedule_root(&x->s), .alpha_s = o->alpha_s,
        .link_bw = o->link_bw,
        .time_s = model_given(o) ? tc_cost_time_copy(&x->c, o->alpha_s, o->link_bw, (double)o->size_bytes, o->copy_bw)
                                 : -1,
        .size_bytes = o->size_bytes, .written = o->out, .chunks_chosen = x->chosen, .chunks_tried = TC_PIPELINE_MAX,
        .routing = routed ? &routing : NULL, .chosen = x->variant, .copy_bw = o->copy_bw};
  }
  if (!rc) tc_cli_print_sched_reports(r, nreports, o->json);
  for (int i = 0; b && i < nbuilt; i++) {
    tc_cost_destroy(&b[i].c);
    tc_schedule_destroy(&b[i].s);
  }
  free(b);
  free(r);
  tc_graph_destroy(g);
  tc_spec_destroy(spec);
  return status;
}

int tc_cmd_sched(int argc, char **argv) {
  sched_options o;
  int status = parse_options(argc, argv, &o);
  if (status) {
    free(o.sizes.bytes);
    return status < 0 ? TC_EXIT_OK : status;
  }
  status = sched_sizes(&o);
  free(o.sizes.bytes);
  return status;
}
