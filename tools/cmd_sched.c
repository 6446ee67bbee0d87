/*
** cmd_sched.c — `topocoll sched SPEC --coll C --algo A`: build a collective schedule on a
** topology, verify it, cost it, optionally write it as a schedule file, and report.
**
** Order of work, and why: the schedule is verified by tc_schedule_verify before anything
** is printed or written, so no unverified schedule ever leaves this command — a
** verification failure prints the verifier's line and exits 1 without creating the
** file. The costs come from tc_schedule_cost on the schedule itself. The file is written
** (atomically) before the report, so a report always describes a file that exists.
** Also home of the report that `topocoll verify` prints (tc_cli_print_sched_report).
*/
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "topocoll/collective.h"
#include "topocoll/sched_io.h"
#include "topocoll/spec.h"
#include "topocoll/units.h"
#include "topocoll/verify.h"

/* One line per algorithm of the registry: name, collectives, where it runs, summary. */
static void print_algorithms(const char *indent) {
  char colls[128];
  for (int i = 0; i < tc_algorithm_count(); i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    tc_algorithm_collectives_text(a->collectives, colls, sizeof colls);
    printf("%s%-15s %s; on %s. Builds %s.\n", indent, a->name, a->summary, a->topology, colls);
  }
}

void tc_cmd_sched_help(void) {
  printf(
      "usage: topocoll sched SPEC --coll COLL --algo ALGO [--root R] [--chunks P]\n"
      "                      [--alpha TIME] [--link-bw BW] [--size SIZE] [--out FILE.json] [--json]\n"
      "       topocoll sched --list\n"
      "\n"
      "Builds the schedule of collective COLL by algorithm ALGO on the topology SPEC (see\n"
      "docs/spec.md), verifies it (tc_schedule_verify; a schedule that fails is neither printed\n"
      "nor written, exit 1) and reports its costs from the alpha-beta model: steps (T_L in units\n"
      "of alpha), the exact T_B factor tau (T_B = tau * M/B, B = degree * link bandwidth), the\n"
      "optimum (N-1)/N, BW- and Moore-optimality.\n"
      "\n"
      "  --coll COLL     allgather, reduce-scatter, allreduce, broadcast or reduce\n"
      "  --algo ALGO     one of (--list prints them one a line):\n");
  print_algorithms("                    ");
  printf(
      "  --root R        root of broadcast / reduce (default 0)\n"
      "  --chunks P      P chunks per shard: bfb and expand round their allgather to P chunks\n"
      "                  (App. E.2), dbt pipelines P chunks, other baselines are refined to P\n"
      "                  equal chunks\n"
      "  --alpha TIME    per-step latency, e.g. 10us, 1.5ms, 0s\n"
      "  --link-bw BW    bandwidth of one unit-capacity link, e.g. 25Gbps, 100GBps, 800Mbps\n"
      "  --size SIZE     buffer size M, e.g. 1MB, 4MiB, 1048576 (bytes)\n"
      "                  with all three, the predicted time T = steps*alpha + tau*M/B is reported\n"
      "  --out FILE      write the verified schedule as a schedule JSON file (docs/formats.md)\n"
      "  --json          one JSON object instead of the text report\n"
      "  --list          the algorithms, one a line: name, collectives, topology, summary\n"
      "\n"
      "Exit status: 0 success, 1 verification or write failure, 2 bad usage or input.\n");
}

/* `--list`: one algorithm a line, tab-separated: name, collectives, topology, summary. */
static void list_algorithms(void) {
  char colls[128];
  for (int i = 0; i < tc_algorithm_count(); i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    colls[0] = '\0';
    for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_REDUCE; c++)
      if (a->collectives & TC_COLL_BIT(c))
        snprintf(colls + strlen(colls), sizeof colls - strlen(colls), "%s%s", colls[0] ? "," : "",
                 tc_collective_name((tc_collective)c));
    printf("%s\t%s\t%s\t%s\n", a->name, colls, a->topology, a->summary);
  }
}

/* ---- the report (shared with `topocoll verify`) ---- */

static void format_rat(tc_rat r, char *buf, size_t size) {
  snprintf(buf, size, "%" PRId64 "/%" PRId64, r.num, r.den);
}

static json_t *report_json(const tc_cli_sched_report *r) {
  const tc_cost *c = r->c;
  char tau[64], opt[64];
  format_rat(c->tau, tau, sizeof tau);
  format_rat(c->tau_optimal, opt, sizeof opt);
  json_t *o = json_object();
  if (r->file) json_object_set_new(o, "file", json_string(r->file));
  json_object_set_new(o, "spec", r->spec ? json_string(r->spec) : json_null());
  json_object_set_new(o, "collective", json_string(tc_collective_name(r->s->coll)));
  json_object_set_new(o, "algorithm", json_string(r->s->algorithm));
  if (r->root >= 0) json_object_set_new(o, "root", json_integer(r->root));
  json_object_set_new(o, "nodes", json_integer(r->s->nodes));
  json_object_set_new(o, "degree", json_integer(c->degree));
  json_object_set_new(o, "steps", json_integer(c->steps));
  json_object_set_new(o, "moore_steps", c->moore_steps >= 0 ? json_integer(c->moore_steps) : json_null());
  json_object_set_new(o, "tb_factor", json_string(tau));
  json_object_set_new(o, "tb_factor_float", json_real(tc_rat_to_double(c->tau)));
  json_object_set_new(o, "tb_optimal_factor", json_string(opt));
  json_object_set_new(o, "bw_optimal", json_boolean(c->bw_optimal));
  json_object_set_new(o, "moore_optimal", json_boolean(c->moore_optimal));
  json_object_set_new(o, "verified", json_true()); /* only verified schedules reach the report */
  json_object_set_new(o, "chunks_per_shard", json_integer(r->s->units));
  json_object_set_new(o, "shards", json_integer(r->s->nshards));
  json_object_set_new(o, "transfers", json_integer(r->s->count));
  if (r->alpha_s >= 0) json_object_set_new(o, "alpha_s", json_real(r->alpha_s));
  if (r->link_bw >= 0) json_object_set_new(o, "link_bw_Bps", json_real(r->link_bw));
  if (r->size_bytes >= 0) json_object_set_new(o, "size_bytes", json_integer(r->size_bytes));
  if (r->time_s >= 0) json_object_set_new(o, "time_s", json_real(r->time_s));
  if (r->written) json_object_set_new(o, "out", json_string(r->written));
  return o;
}

static void report_text(const tc_cli_sched_report *r) {
  const tc_cost *c = r->c;
  char tau[64], opt[64];
  format_rat(c->tau, tau, sizeof tau);
  format_rat(c->tau_optimal, opt, sizeof opt);
  if (r->file) printf("file              %s\n", r->file);
  printf("topology          %s\n", r->spec ? r->spec : "(no spec: graph from the file)");
  printf("collective        %s", tc_collective_name(r->s->coll));
  if (r->root >= 0) printf(" (root %d)", r->root);
  printf("\nalgorithm         %s\n", r->s->algorithm);
  printf("nodes             %d\n", r->s->nodes);
  printf("degree            %" PRId64 "\n", c->degree);
  printf("verified          yes\n");
  printf("steps             %d (T_L = %d alpha)", c->steps, c->steps);
  if (c->moore_steps >= 0)
    printf("; Moore bound %d: %s", c->moore_steps, c->moore_optimal ? "Moore-optimal" : "not Moore-optimal");
  printf("\nT_B factor        %s = %.6f M/B; optimum %s: %s\n", tau, tc_rat_to_double(c->tau), opt,
         c->bw_optimal ? "BW-optimal" : "not BW-optimal");
  printf("chunks per shard  %" PRId64 " (%d shards)\n", r->s->units, r->s->nshards);
  printf("transfers         %" PRId64 "\n", r->s->count);
  if (r->time_s >= 0)
    printf("time              %.9g s (alpha %.9g s, link %.9g B/s, M %" PRId64 " B)\n", r->time_s, r->alpha_s,
           r->link_bw, r->size_bytes);
  if (r->written) printf("written           %s\n", r->written);
}

void tc_cli_print_sched_report(const tc_cli_sched_report *r, int json) {
  if (!json) {
    report_text(r);
    return;
  }
  json_t *o = report_json(r);
  json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  printf("\n");
  json_decref(o);
}

/* ---- options ---- */

typedef struct sched_options {
  const char *spec, *coll_text, *algo, *root_text, *chunks_text, *alpha_text, *bw_text, *size_text, *out;
  int json;
  tc_collective coll;
  int32_t root;
  int64_t chunks, size_bytes;
  double alpha_s, link_bw;
} sched_options;

/* Where the value of a value-taking option goes, or NULL if `a` takes none. */
static const char **value_slot(sched_options *o, const char *a) {
  static const struct { const char *name; size_t offset; } slots[] = {
      {"--coll", offsetof(sched_options, coll_text)},     {"--algo", offsetof(sched_options, algo)},
      {"--root", offsetof(sched_options, root_text)},     {"--chunks", offsetof(sched_options, chunks_text)},
      {"--alpha", offsetof(sched_options, alpha_text)},   {"--link-bw", offsetof(sched_options, bw_text)},
      {"--size", offsetof(sched_options, size_text)},     {"--out", offsetof(sched_options, out)},
  };
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
    if (!strcmp(a, slots[i].name)) return (const char **)((char *)o + slots[i].offset);
  return NULL;
}

/* A decimal integer in lo..hi (no sign, no spaces, no trailing text). */
static int parse_int(const char *opt, const char *text, long long lo, long long hi, long long *out) {
  char *end = NULL;
  long long v = 0;
  int ok = text[0] >= '0' && text[0] <= '9';
  errno = 0;
  if (ok) v = strtoll(text, &end, 10);
  if (!ok || *end || errno == ERANGE || v < lo || v > hi)
    return tc_cli_usage_error("sched", "%s expects an integer in %lld..%lld, got '%s'", opt, lo, hi, text);
  *out = v;
  return TC_EXIT_OK;
}

/* The quantities; a bad one is one line naming the option. */
static int parse_quantities(sched_options *o) {
  tc_error err;
  tc_error_clear(&err);
  const char *bad = NULL;
  if (o->alpha_text && tc_units_parse_time(o->alpha_text, &o->alpha_s, &err)) bad = "--alpha";
  else if (o->bw_text && tc_units_parse_bandwidth(o->bw_text, &o->link_bw, &err)) bad = "--link-bw";
  else if (o->size_text && tc_units_parse_size(o->size_text, &o->size_bytes, &err)) bad = "--size";
  if (!bad) return TC_EXIT_OK;
  tc_error_prefix(&err, "%s", bad);
  return tc_cli_fail("sched", &err);
}

static int check_options(sched_options *o) {
  if (!o->spec) return tc_cli_usage_error("sched", "missing SPEC");
  if (!o->coll_text) return tc_cli_usage_error("sched", "missing --coll");
  if (!o->algo) return tc_cli_usage_error("sched", "missing --algo");
  int c = tc_collective_parse(o->coll_text);
  if (c < 0)
    return tc_cli_usage_error("sched", "unknown collective '%s' (allgather, reduce-scatter, allreduce, broadcast, "
                              "reduce)", o->coll_text);
  o->coll = (tc_collective)c;
  if (!tc_algorithm_find(o->algo)) {
    tc_error err;
    tc_algorithm_check(o->algo, o->coll, &err);
    return tc_cli_usage_error("sched", "%s", err.msg);
  }
  int rooted = o->coll == TC_COLL_BROADCAST || o->coll == TC_COLL_REDUCE;
  if (o->root_text && !rooted) return tc_cli_usage_error("sched", "--root applies to broadcast and reduce only");
  long long v = 0;
  int status = TC_EXIT_OK;
  o->root = rooted ? 0 : -1;
  if (o->root_text && !(status = parse_int("--root", o->root_text, 0, TC_MAX_NODES - 1, &v))) o->root = (int32_t)v;
  if (!status && o->chunks_text && !(status = parse_int("--chunks", o->chunks_text, 1, INT64_MAX, &v))) o->chunks = v;
  return status ? status : parse_quantities(o);
}

static int parse_options(int argc, char **argv, sched_options *o) {
  memset(o, 0, sizeof *o);
  o->alpha_s = o->link_bw = -1;
  o->size_bytes = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = value_slot(o, a);
    if (slot) {
      if (i + 1 >= argc) return tc_cli_usage_error("sched", "%s needs a value", a);
      *slot = argv[++i];
    } else if (!strcmp(a, "--json")) o->json = 1;
    else if (!strcmp(a, "--list")) { list_algorithms(); return -1; }
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { tc_cmd_sched_help(); return -1; }
    else if (a[0] == '-' && a[1] == '-') return tc_cli_usage_error("sched", "unknown option '%s'", a);
    else if (o->spec) return tc_cli_usage_error("sched", "more than one SPEC given ('%s' and '%s'); quote specs with spaces", o->spec, a);
    else o->spec = a;
  }
  return check_options(o);
}

/* ---- the command ---- */

/* Build, verify, cost (tc_collective_build: a verification failure is TC_EFAIL, exit 1,
   our failure, not the user's), write; fills s and c (the caller destroys them). */
static int produce(const tc_graph *g, const tc_spec *spec, const sched_options *o, tc_schedule *s, tc_cost *c,
                   tc_error *err) {
  if (o->root >= g->n)
    return tc_error_set(err, TC_EINPUT, "--root %d is not a node of %s (0..%d)", o->root, o->spec, g->n - 1);
  tc_collective_opts opts = {o->root, o->chunks, spec};
  int rc = tc_collective_build(g, o->algo, o->coll, &opts, s, c, err);
  if (!rc && o->out) rc = tc_schedule_write_json(g, o->spec, s, o->out, err);
  return rc;
}

int tc_cmd_sched(int argc, char **argv) {
  sched_options o;
  int status = parse_options(argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  tc_error err;
  tc_error_clear(&err);
  tc_graph *g = NULL;
  tc_spec *spec = NULL;
  if (tc_spec_parse(o.spec, &spec, &err) || tc_spec_eval(spec, NULL, &g, &err)) {
    tc_spec_destroy(spec);
    return tc_cli_fail("sched", &err);
  }
  tc_schedule s;
  tc_cost c;
  memset(&s, 0, sizeof s);
  memset(&c, 0, sizeof c);
  int rc = produce(g, spec, &o, &s, &c, &err);
  if (rc) status = tc_cli_fail("sched", &err);
  else {
    int all = o.alpha_s >= 0 && o.link_bw > 0 && o.size_bytes >= 0;
    tc_cli_sched_report r = {o.spec, g, &s, &c, o.root, o.alpha_s, o.link_bw,
                             all ? tc_cost_time(&c, o.alpha_s, o.link_bw, (double)o.size_bytes) : -1,
                             o.size_bytes, o.out, NULL};
    tc_cli_print_sched_report(&r, o.json);
  }
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  tc_spec_destroy(spec);
  return status;
}
