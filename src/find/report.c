/*
** report.c — the plan (contract in plan.h): the finder's choice for a workload, built into
** a topology and three verified schedules, measured against the ring and the double binary
** tree, and written into a directory that appears whole or not at all.
**
** Order of work, and why:
**   1. tc_find predicts the Pareto frontier without building anything; tc_frontier_choose
**      picks the member with the least expected allreduce time.
**   2. Only the chosen member is built (tc_candidate_build). Its allgather is verified
**      here again, whatever the builder promises, because this is what leaves the program.
**   3. Reduce-scatter: when G ≅ G^T, Theorem 2 (f(A^T)) turns the allgather itself into a
**      reduce-scatter of equal cost; otherwise Corollary 1.1 reverses the BFB allgather of
**      G^T. Allreduce is their composition. Each is verified and costed.
**   4. Baselines on the same N and d, each built by baselines.h, verified and costed; a
**      baseline that cannot exist here (odd d for a bidirectional ring, too few ports for
**      the double binary tree, too many transfers) is listed with the reason instead.
**   5. Writing goes to a fresh directory beside DIR, renamed into place last.
** Every time in summary.md is steps*α + tau*M/B with steps and tau measured by
** tc_schedule_cost on a verified schedule, except the frontier's prediction table, which
** is the finder's (and says so).
*/
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "graph/io_atomic.h"
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/graph_io.h"
#include "topocoll/iso.h"
#include "topocoll/plan.h"
#include "topocoll/sched_io.h"
#include "topocoll/spec.h"
#include "topocoll/transform.h"
#include "topocoll/units.h"
#include "topocoll/verify.h"

#define MAX_SIZES ((int)(sizeof(((tc_workload *)0)->bytes) / sizeof(double)))
#define DBT_MAX_CHUNKS 64 /* pipelining depths tried: 1, 2, 4, ..., 64 */

/* ---- the size list ---- */

/* A weight: a positive decimal number (digits, optionally '.' and digits). */
static int parse_weight(const char *text, double *out) {
  const char *p = text;
  int digits = 0;
  while (*p >= '0' && *p <= '9') p++, digits++;
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9'; p++) digits++;
  if (!digits || *p) return 0;
  *out = strtod(text, NULL);
  return *out > 0 && isfinite(*out);
}

/* One item "SIZE" or "SIZE:WEIGHT" (item is a writable copy). */
static int parse_size_item(char *item, int index, tc_workload *w, tc_error *err) {
  char *colon = strchr(item, ':');
  double weight = 1;
  if (colon) {
    *colon = '\0';
    if (!parse_weight(colon + 1, &weight))
      return tc_error_set(err, TC_EINPUT, "item %d ('%s:%s'): the weight after ':' must be a positive number",
                          index + 1, item, colon + 1);
  }
  int64_t bytes = 0;
  int rc = tc_units_parse_size(item, &bytes, err);
  if (rc) {
    tc_error_prefix(err, "item %d", index + 1);
    return rc;
  }
  w->bytes[index] = (double)bytes;
  w->weight[index] = weight;
  return TC_OK;
}

int tc_workload_parse_sizes(const char *text, tc_workload *w, tc_error *err) {
  char item[128];
  w->count = 0;
  if (!text || !*text) return tc_error_set(err, TC_EINPUT, "empty size list (e.g. 1MB or 1MB:3,64MB:1)");
  for (const char *p = text;; p++) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0) return tc_error_set(err, TC_EINPUT, "item %d of '%s' is empty", w->count + 1, text);
    if (w->count == MAX_SIZES) return tc_error_set(err, TC_EINPUT, "more than %d sizes in '%s'", MAX_SIZES, text);
    if (len >= sizeof item)
      return tc_error_set(err, TC_EINPUT, "item %d of '%s' is too long", w->count + 1, text);
    memcpy(item, p, len);
    item[len] = '\0';
    int rc = parse_size_item(item, w->count, w, err);
    if (rc) return rc;
    w->count++;
    if (!end) return TC_OK;
    p = end;
  }
}

/* ---- measuring a verified schedule ---- */

/* Sort (canonical file order), verify, cost. `what` names the schedule in an error. */
static int verify_and_cost(const tc_graph *g, tc_schedule *s, const char *what, tc_cost *c, tc_error *err) {
  tc_schedule_sort(s);
  int rc = tc_schedule_verify(g, s, err);
  if (rc) {
    tc_error_prefix(err, "%s failed verification", what);
    return rc;
  }
  return tc_schedule_cost(g, s, c, err);
}

static double time_of(int32_t steps, tc_rat tau, int64_t degree, const tc_workload *w, double bytes) {
  return steps * w->alpha_s + tc_rat_to_double(tau) * bytes / ((double)degree * w->link_bw);
}

double tc_plan_time(const tc_plan *p, double bytes) {
  const tc_cost *c = &p->allreduce_cost;
  return time_of(c->steps, c->tau, c->degree, &p->workload, bytes);
}

double tc_plan_baseline_time(const tc_plan *p, const tc_plan_baseline *b, double bytes) {
  return time_of(b->steps, b->tau, b->degree, &p->workload, bytes);
}

/* ---- the chosen member's schedules ---- */

static int bfb_allgather_of(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err) {
  (void)ctx;
  return tc_bfb_allgather(g, out, NULL, err);
}

static void progress_line(tc_plan_progress progress, void *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void progress_line(tc_plan_progress progress, void *ctx, const char *fmt, ...) {
  if (!progress) return;
  char line[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  progress(ctx, line);
}

/* Theorem 2 when G ≅ G^T (the allgather's own reverse, relabelled), else Corollary 1.1. */
static int build_reduce_scatter(tc_plan *p, tc_error *err) {
  int32_t *iso = malloc((size_t)p->graph->n * sizeof *iso);
  if (!iso) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int found = 0;
  int rc = tc_graph_reverse_symmetry(p->graph, &found, iso, err);
  if (!rc) {
    p->reverse_symmetric = found;
    rc = found ? tc_schedule_reverse_symmetric(p->graph, &p->allgather, iso, &p->reduce_scatter, err)
               : tc_schedule_reduce_scatter_from(p->graph, bfb_allgather_of, NULL, &p->reduce_scatter, err);
  }
  free(iso);
  return rc;
}

/* The chosen member, built: its allgather verified and held to the finder's prediction
   (tc_candidate_measure, which also measures the diameter and average distance). */
static int build_chosen(tc_plan *p, tc_plan_progress progress, void *ctx, tc_error *err) {
  tc_candidate *c = &p->frontier.member[p->chosen];
  progress_line(progress, ctx, "building %s and its allgather", c->spec);
  int rc = tc_candidate_build(c, &p->graph, &p->allgather, err);
  if (rc) {
    tc_error_prefix(err, "building %s", c->spec);
    return rc;
  }
  progress_line(progress, ctx, "verifying the allgather against the prediction");
  tc_schedule_sort(&p->allgather);
  if ((rc = tc_candidate_measure(c, p->graph, &p->allgather, err))) return rc;
  if ((rc = tc_schedule_cost(p->graph, &p->allgather, &p->allgather_cost, err))) return rc;
  progress_line(progress, ctx, "building and verifying the reduce-scatter");
  if ((rc = build_reduce_scatter(p, err))) return rc;
  if ((rc = verify_and_cost(p->graph, &p->reduce_scatter, "the reduce-scatter", &p->reduce_scatter_cost, err)))
    return rc;
  progress_line(progress, ctx, "building and verifying the allreduce");
  rc = tc_schedule_allreduce_compose(p->graph, &p->reduce_scatter, &p->allgather, &p->allreduce, err);
  return rc ? rc : verify_and_cost(p->graph, &p->allreduce, "the allreduce", &p->allreduce_cost, err);
}

/* ---- baselines ---- */

typedef int (*baseline_fn)(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);

static tc_plan_baseline *next_baseline(tc_plan *p, const char *name, const char *topology, int32_t chunks) {
  tc_plan_baseline *b = &p->baseline[p->nbaselines++];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  snprintf(b->topology, sizeof b->topology, "%s", topology);
  b->chunks = chunks;
  return b;
}

/* A baseline that cannot exist here is recorded with the reason; other errors stop. */
static int unavailable(tc_plan_baseline *b, int rc, const tc_error *why) {
  if (rc != TC_EINPUT && rc != TC_ERANGE) return rc;
  b->available = 0;
  snprintf(b->note, sizeof b->note, "%s", why->msg);
  return TC_OK;
}

/* Verify and cost the allreduce s of baseline b on g; fills b. */
static int measure_baseline(tc_plan *p, tc_plan_baseline *b, const tc_graph *g, tc_schedule *s, tc_error *err) {
  tc_cost c;
  memset(&c, 0, sizeof c);
  char what[96];
  snprintf(what, sizeof what, "the %s baseline allreduce", b->name);
  int rc = verify_and_cost(g, s, what, &c, err);
  if (!rc && c.degree > p->find.degree) {
    b->available = 0;
    snprintf(b->note, sizeof b->note, "needs %" PRId64 " ports per node, the cluster has %d", c.degree,
             p->find.degree);
  } else if (!rc) {
    b->available = 1;
    b->steps = c.steps;
    b->tau = c.tau;
    b->degree = c.degree;
  }
  tc_cost_destroy(&c);
  return rc;
}

/* A ring-family baseline on the ring topology `spec`. */
static int ring_baseline(tc_plan *p, const char *name, const char *spec, baseline_fn fn, tc_error *err) {
  tc_plan_baseline *b = next_baseline(p, name, spec, 1);
  tc_graph *g = NULL;
  tc_schedule s;
  memset(&s, 0, sizeof s);
  tc_error why;
  tc_error_clear(&why);
  int rc = tc_spec_build(spec, &g, &why);
  if (!rc) rc = fn(g, TC_COLL_ALLREDUCE, &s, &why);
  if (rc) {
    rc = unavailable(b, rc, &why);
    if (rc) *err = why;
  } else {
    rc = measure_baseline(p, b, g, &s, err);
  }
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  return rc;
}

/* One pipelining depth of the double binary tree on its topology g (NULL: g could not be
   built, `why` says why). */
static int dbt_variant(tc_plan *p, const tc_graph *g, int32_t P, int rc, tc_error *why, tc_error *err) {
  tc_plan_baseline *b = next_baseline(p, "dbt", "its own topology (two trees)", P);
  tc_schedule s;
  memset(&s, 0, sizeof s);
  if (!rc) rc = tc_baseline_dbt(g, TC_COLL_ALLREDUCE, -1, P, &s, why);
  if (rc) {
    rc = unavailable(b, rc, why);
    if (rc) *err = *why;
  } else {
    rc = measure_baseline(p, b, g, &s, err);
  }
  tc_schedule_destroy(&s);
  return rc;
}

/* The double binary tree on its own topology, pipelined P = 1, 2, 4, ..., 64 chunks. */
static int dbt_baselines(tc_plan *p, tc_error *err) {
  tc_graph *g = NULL;
  tc_error why;
  tc_error_clear(&why);
  int built = tc_baseline_dbt_topology(p->find.nodes, -1, &g, &why);
  int rc = TC_OK;
  for (int32_t P = 1; !rc && P <= DBT_MAX_CHUNKS; P *= 2) {
    rc = dbt_variant(p, g, P, built, &why, err);
    if (!p->baseline[p->nbaselines - 1].available) break; /* deeper pipelines need the same ports */
  }
  tc_graph_destroy(g);
  return rc;
}

/* A bidirectional ring baseline on biring(d,N), which exists only for even d. */
static int biring_baseline(tc_plan *p, const char *name, baseline_fn fn, tc_error *err) {
  char spec[64];
  snprintf(spec, sizeof spec, "biring(%d,%d)", p->find.degree, p->find.nodes);
  if (p->find.degree % 2 == 0) return ring_baseline(p, name, spec, fn, err);
  tc_plan_baseline *b = next_baseline(p, name, spec, 1);
  snprintf(b->note, sizeof b->note, "a bidirectional ring takes an even number of ports, d/2 links to each "
           "neighbour; d = %d", p->find.degree);
  return TC_OK;
}

/* The ring the fabric allows (unidirectional, or bidirectional when only such links
   exist), the BFB ring, and the double binary tree. */
static int build_baselines(tc_plan *p, tc_plan_progress progress, void *ctx, tc_error *err) {
  char spec[64];
  progress_line(progress, ctx, "building and verifying the ring and double binary tree baselines");
  int rc = TC_OK;
  if (p->find.bidirectional) {
    rc = biring_baseline(p, "biring", tc_baseline_biring, err);
  } else {
    snprintf(spec, sizeof spec, "uniring(%d,%d)", p->find.degree, p->find.nodes);
    rc = ring_baseline(p, "ring", spec, tc_baseline_ring, err);
  }
  if (!rc) rc = biring_baseline(p, "bfbring", tc_baseline_bfbring, err);
  return rc ? rc : dbt_baselines(p, err);
}

/* ---- tc_plan_make ---- */

static int check_workload(const tc_workload *w, tc_error *err) {
  if (w->count < 1 || w->count > MAX_SIZES)
    return tc_error_set(err, TC_EINPUT, "the workload needs 1..%d sizes (got %d)", MAX_SIZES, w->count);
  if (!(w->alpha_s >= 0) || !isfinite(w->alpha_s))
    return tc_error_set(err, TC_EINPUT, "alpha must be a finite time >= 0");
  if (!(w->link_bw > 0) || !isfinite(w->link_bw))
    return tc_error_set(err, TC_EINPUT, "the link bandwidth must be positive");
  for (int32_t i = 0; i < w->count; i++)
    if (!(w->bytes[i] > 0) || !(w->weight[i] > 0) || !isfinite(w->weight[i]))
      return tc_error_set(err, TC_EINPUT, "size %d needs a positive size and weight", i + 1);
  return TC_OK;
}

int tc_plan_make(const tc_find_options *find, const tc_workload *w, tc_plan_progress progress, void *ctx,
                 tc_plan *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_workload(w, err);
  if (rc) return rc;
  out->find = *find;
  out->find.build = 0;
  out->workload = *w;
  progress_line(progress, ctx, "finding the Pareto frontier for N = %d, d = %d", find->nodes, find->degree);
  rc = tc_find(&out->find, &out->frontier, err);
  if (!rc && out->frontier.count < 1)
    rc = tc_error_set(err, TC_EFAIL, "the finder found no topology for N = %d, d = %d", find->nodes,
                      find->degree);
  if (!rc) {
    out->chosen = tc_frontier_choose(&out->frontier, w);
    rc = build_chosen(out, progress, ctx, err);
  }
  if (!rc) rc = build_baselines(out, progress, ctx, err);
  if (rc) tc_plan_destroy(out);
  return rc;
}

void tc_plan_destroy(tc_plan *p) {
  tc_frontier_destroy(&p->frontier);
  tc_graph_destroy(p->graph);
  tc_schedule_destroy(&p->allgather);
  tc_schedule_destroy(&p->reduce_scatter);
  tc_schedule_destroy(&p->allreduce);
  tc_cost_destroy(&p->allgather_cost);
  tc_cost_destroy(&p->reduce_scatter_cost);
  tc_cost_destroy(&p->allreduce_cost);
  memset(p, 0, sizeof *p);
}

/* ---- summary.md ---- */

/* "323.5 µs", "5.369 ms", "1.234 s". */
static void format_time(double s, char *buf, size_t size) {
  if (s < 1e-3) snprintf(buf, size, "%.1f µs", s * 1e6);
  else if (s < 1) snprintf(buf, size, "%.3f ms", s * 1e3);
  else snprintf(buf, size, "%.3f s", s);
}

/* Bytes in the largest unit that divides them exactly: "64 MB", "1 MiB", "1500 B". */
static void format_size(double bytes, char *buf, size_t size) {
  static const struct { const char *name; double scale; } units[] = {
      {"GiB", 1073741824.0}, {"GB", 1e9}, {"MiB", 1048576.0}, {"MB", 1e6}, {"KiB", 1024.0}, {"KB", 1e3}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    double q = bytes / units[i].scale;
    if (q >= 1 && q == floor(q)) {
      snprintf(buf, size, "%.0f %s", q, units[i].name);
      return;
    }
  }
  snprintf(buf, size, "%.0f B", bytes);
}

/* "21/16", or "24" for a whole number. */
static void format_rat(tc_rat r, char *buf, size_t size) { tc_rat_format(r, buf, (int)size); }

static double weight_sum(const tc_workload *w) {
  double s = 0;
  for (int32_t i = 0; i < w->count; i++) s += w->weight[i];
  return s;
}

/* Predicted allreduce time of member c at one size (the finder's model, one-size workload). */
static double member_time(const tc_plan *p, const tc_candidate *c, double bytes) {
  tc_workload one = p->workload;
  one.count = 1;
  one.bytes[0] = bytes;
  one.weight[0] = 1;
  return tc_candidate_allreduce_time(c, &one);
}

static void write_cluster(FILE *f, const tc_plan *p) {
  const tc_workload *w = &p->workload;
  char t[64], sz[64];
  format_time(w->alpha_s, t, sizeof t);
  fprintf(f, "# topocoll plan: %d nodes, %d ports each\n\n", p->find.nodes, p->find.degree);
  fprintf(f, "| cluster | |\n| --- | --- |\n");
  fprintf(f, "| nodes N | %d |\n", p->find.nodes);
  fprintf(f, "| ports per node d | %d (%s) |\n", p->find.degree,
          p->find.bidirectional ? "bidirectional links only" : "unidirectional links allowed");
  fprintf(f, "| per-step latency α | %s |\n", t);
  fprintf(f, "| link bandwidth b | %.6g Gbit/s (node bandwidth B = d·b = %.6g Gbit/s) |\n", w->link_bw * 8e-9,
          w->link_bw * 8e-9 * p->find.degree);
  fprintf(f, "| allreduce sizes M (weight) |");
  for (int32_t i = 0; i < w->count; i++) {
    format_size(w->bytes[i], sz, sizeof sz);
    fprintf(f, "%s %s (%g)", i ? "," : "", sz, w->weight[i]);
  }
  fprintf(f, " |\n\n");
}

static void write_choice(FILE *f, const tc_plan *p) {
  const tc_candidate *c = &p->frontier.member[p->chosen];
  const tc_workload *w = &p->workload;
  char t[64], ag[64], rs[64], ar[64], sz[64];
  format_time(tc_candidate_allreduce_time(c, w), t, sizeof t);
  format_rat(p->allgather_cost.tau, ag, sizeof ag);
  format_rat(p->reduce_scatter_cost.tau, rs, sizeof rs);
  format_rat(p->allreduce_cost.tau, ar, sizeof ar);
  fprintf(f, "## Choice\n\n**`%s`** (%s): the least expected allreduce time of the Pareto frontier, %s "
          "(predicted; weighted mean over the sizes).\n\n", c->spec, c->label, t);
  fprintf(f, "Built and verified (every schedule passed the independent verifier; costs measured on "
          "the schedules):\n\n");
  fprintf(f, "- topology: %d nodes, degree %d, diameter %d, average distance %.4f; how the costs are known: "
          "%s\n", p->graph->n, c->degree, c->diameter, c->avg_distance, c->source);
  fprintf(f, "- allgather: T_L = %dα, T_B = %s M/B (predicted %dα, %s%.3f M/B)\n", p->allgather_cost.steps, ag,
          c->steps, c->tau_is_bound ? "≤ " : "", tc_rat_to_double(c->tau));
  fprintf(f, "- reduce-scatter: T_L = %dα, T_B = %s M/B, by %s\n", p->reduce_scatter_cost.steps, rs,
          p->reverse_symmetric ? "Theorem 2 (G ≅ G^T: the reverse of the allgather, relabelled)"
                               : "Corollary 1.1 (G is not reverse-symmetric: the reverse of the BFB "
                                 "allgather on G^T)");
  fprintf(f, "- allreduce = reduce-scatter + allgather: T_L = %dα, T_B = %s M/B\n\n", p->allreduce_cost.steps, ar);
  fprintf(f, "Why: the predicted allreduce time 2(T_L + T_B) of every frontier member at each size "
          "(paper 000 §5.4: small sizes favour few steps, large ones a small T_B):\n\n| topology |");
  for (int32_t i = 0; i < w->count; i++) {
    format_size(w->bytes[i], sz, sizeof sz);
    fprintf(f, " %s |", sz);
  }
  fprintf(f, " expected |\n| --- |");
  for (int32_t i = 0; i <= w->count; i++) fprintf(f, " ---: |");
  fprintf(f, "\n");
  for (int32_t k = 0; k < p->frontier.count; k++) {
    const tc_candidate *m = &p->frontier.member[k];
    fprintf(f, k == p->chosen ? "| **`%s`** (chosen) |" : "| `%s` |", m->spec);
    for (int32_t i = 0; i < w->count; i++) {
      format_time(member_time(p, m, w->bytes[i]), t, sizeof t);
      fprintf(f, " %s |", t);
    }
    format_time(tc_candidate_allreduce_time(m, w), t, sizeof t);
    fprintf(f, " %s |\n", t);
  }
  fprintf(f, "\n");
}

static void write_frontier(FILE *f, const tc_plan *p) {
  const tc_frontier *fr = &p->frontier;
  char exact[64];
  fprintf(f, "## Pareto frontier (paper 000 §5.4, as Tables 4 and 7)\n\n"
          "Predicted by the finder from the expansion theorems and the base database; "
          "\"≤\" marks an upper bound (Theorem 7 without Theorem 10).\n\n"
          "| topology | class | T_L | T_B | exact T_B factor | D(G) | how known |\n"
          "| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
  for (int32_t k = 0; k < fr->count; k++) {
    const tc_candidate *m = &fr->member[k];
    format_rat(m->tau, exact, sizeof exact);
    fprintf(f, k == p->chosen ? "| **`%s`** |" : "| `%s` |", m->spec);
    fprintf(f, " %s | %dα | %s%.3f M/B | %s | ", m->label, m->steps, m->tau_is_bound ? "≤ " : "",
            tc_rat_to_double(m->tau), exact);
    if (m->diameter >= 0) fprintf(f, "%d |", m->diameter);
    else fprintf(f, "– |");
    fprintf(f, " %s |\n", m->source);
  }
  format_rat(fr->bound_tau, exact, sizeof exact);
  fprintf(f, "| theoretical bound | | %dα | %.3f M/B | %s | %d | %s |\n\n", fr->bound_steps,
          tc_rat_to_double(fr->bound_tau), exact, fr->bound_steps,
          p->find.bidirectional ? "undirected Moore bound T_L** (Table 8), Thm 4"
                                : "Moore bound T_L* (Def. 10), Thm 4");
}

/* The index of the fastest available entry named `name` at `bytes`, or -1. */
static int32_t best_variant(const tc_plan *p, const char *name, double bytes) {
  int32_t best = -1;
  for (int32_t i = 0; i < p->nbaselines; i++) {
    const tc_plan_baseline *b = &p->baseline[i];
    if (!b->available || strcmp(b->name, name)) continue;
    if (best < 0 || tc_plan_baseline_time(p, b, bytes) < tc_plan_baseline_time(p, &p->baseline[best], bytes))
      best = i;
  }
  return best;
}

/* The distinct baseline names, in first-appearance order. */
static int32_t baseline_names(const tc_plan *p, const char **names) {
  int32_t k = 0;
  for (int32_t i = 0; i < p->nbaselines; i++) {
    int seen = 0;
    for (int32_t j = 0; j < k; j++) seen |= !strcmp(names[j], p->baseline[i].name);
    if (!seen) names[k++] = p->baseline[i].name;
  }
  return k;
}

static const char *baseline_title(const char *name) {
  if (!strcmp(name, "ring")) return "ring";
  if (!strcmp(name, "biring")) return "bidirectional ring";
  if (!strcmp(name, "bfbring")) return "BFB ring";
  if (!strcmp(name, "dbt")) return "double binary tree";
  return name;
}

/* One cell: the best variant's time at `bytes` and its ratio to ours. */
static void write_baseline_cell(FILE *f, const tc_plan *p, const char *name, double bytes, double ours) {
  char t[64];
  int32_t v = best_variant(p, name, bytes);
  if (v < 0) {
    fprintf(f, " n/a |");
    return;
  }
  double bt = tc_plan_baseline_time(p, &p->baseline[v], bytes);
  format_time(bt, t, sizeof t);
  fprintf(f, " %s (%.2f×", t, bt / ours);
  if (!strcmp(name, "dbt")) fprintf(f, ", P = %d", p->baseline[v].chunks);
  fprintf(f, ") |");
}

/* Expected time of a baseline, its best variant per size; < 0 if unavailable. */
static double baseline_expected(const tc_plan *p, const char *name) {
  double sum = 0;
  for (int32_t i = 0; i < p->workload.count; i++) {
    int32_t v = best_variant(p, name, p->workload.bytes[i]);
    if (v < 0) return -1;
    sum += p->workload.weight[i] * tc_plan_baseline_time(p, &p->baseline[v], p->workload.bytes[i]);
  }
  return sum / weight_sum(&p->workload);
}

static int same_baseline(const tc_plan *p, int32_t i, int32_t j) {
  return j >= 0 && j < p->nbaselines && !strcmp(p->baseline[i].name, p->baseline[j].name);
}

/* One bullet per baseline; its pipelining depths share the bullet. */
static void write_baseline_details(FILE *f, const tc_plan *p) {
  char tau[64];
  int64_t degree = 0;
  fprintf(f, "Baseline schedules (allreduce, built by baselines.h and verified):\n\n");
  for (int32_t i = 0; i < p->nbaselines; i++) {
    const tc_plan_baseline *b = &p->baseline[i];
    if (!same_baseline(p, i, i - 1)) {
      fprintf(f, "- %s on %s:", baseline_title(b->name), b->topology);
      degree = 0;
    }
    if (same_baseline(p, i, i - 1)) fputc(';', f);
    if (!strcmp(b->name, "dbt")) fprintf(f, " P = %d:", b->chunks);
    if (b->available) {
      format_rat(b->tau, tau, sizeof tau);
      fprintf(f, " T_L = %dα, T_B = %s M/B", b->steps, tau);
      degree = b->degree;
    } else {
      fprintf(f, " not applicable (%s)", b->note);
    }
    if (!same_baseline(p, i, i + 1)) {
      if (degree) fprintf(f, " (B = %" PRId64 "·b)", degree);
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\n");
}

static void write_baselines(FILE *f, const tc_plan *p) {
  const char *names[TC_PLAN_MAX_BASELINES];
  int32_t k = baseline_names(p, names);
  const tc_workload *w = &p->workload;
  char t[64], sz[64];
  fprintf(f, "## Against the baselines\n\nPredicted allreduce time T_L + T_B per size, each from a verified "
          "schedule's measured T_L and T_B (tc_schedule_cost); in parentheses the ratio to the chosen "
          "topology's time. The double binary tree takes its best pipelining depth P per size.\n\n"
          "| size | `%s` |", p->frontier.member[p->chosen].spec);
  for (int32_t j = 0; j < k; j++) fprintf(f, " %s |", baseline_title(names[j]));
  fprintf(f, "\n| --- | ---: |");
  for (int32_t j = 0; j < k; j++) fprintf(f, " ---: |");
  fprintf(f, "\n");
  double expected = 0;
  for (int32_t i = 0; i < w->count; i++) {
    double ours = tc_plan_time(p, w->bytes[i]);
    expected += w->weight[i] * ours;
    format_size(w->bytes[i], sz, sizeof sz);
    format_time(ours, t, sizeof t);
    fprintf(f, "| %s | %s |", sz, t);
    for (int32_t j = 0; j < k; j++) write_baseline_cell(f, p, names[j], w->bytes[i], ours);
    fprintf(f, "\n");
  }
  expected /= weight_sum(w);
  format_time(expected, t, sizeof t);
  fprintf(f, "| expected | %s |", t);
  for (int32_t j = 0; j < k; j++) {
    double bt = baseline_expected(p, names[j]);
    if (bt < 0) { fprintf(f, " n/a |"); continue; }
    format_time(bt, t, sizeof t);
    fprintf(f, " %s (%.2f×) |", t, bt / expected);
  }
  fprintf(f, "\n\n");
  write_baseline_details(f, p);
}

static void write_files(FILE *f) {
  fprintf(f, "## Files\n\n"
          "- `topology.json`: the graph (topocoll graph JSON; `topocoll topo 'file(topology.json)'` reads it)\n"
          "- `topology.dot`: Graphviz drawing\n"
          "- `wiring.csv`: cabling plan, one cable per row (node, port -> node, port)\n"
          "- `allgather.json`, `reduce-scatter.json`, `allreduce.json`: the schedules "
          "(`topocoll verify FILE` re-verifies each)\n");
}

static int summary_stream(const tc_plan *p, FILE *f) {
  write_cluster(f, p);
  write_choice(f, p);
  write_frontier(f, p);
  write_baselines(f, p);
  write_files(f);
  return TC_OK;
}

int tc_plan_write_summary(const tc_plan *p, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tc_atomic_open(&af, path, err);
  if (rc) return rc;
  summary_stream(p, af.fp);
  return tc_atomic_commit(&af, err);
}

/* ---- the directory ---- */

/* 1 if dir is empty, 0 if not, -1 (errno set) if it cannot be read. */
static int dir_is_empty(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int empty = 1;
  for (struct dirent *e; empty && (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = 0;
  closedir(d);
  return empty;
}

int tc_plan_check_dir(const char *dir, int force, tc_error *err) {
  struct stat st;
  if (!dir || !*dir) return tc_error_set(err, TC_EINPUT, "empty output directory name");
  if (stat(dir, &st) != 0) {
    if (errno == ENOENT) return TC_OK;
    return tc_error_set(err, TC_EIO, "cannot access '%s': %s", dir, strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) return tc_error_set(err, TC_EINPUT, "'%s' exists and is not a directory", dir);
  int empty = dir_is_empty(dir);
  if (empty < 0) return tc_error_set(err, TC_EIO, "cannot read directory '%s': %s", dir, strerror(errno));
  if (!empty && !force)
    return tc_error_set(err, TC_EINPUT, "output directory '%s' exists and is not empty (--force replaces it)",
                        dir);
  return TC_OK;
}

/* dir without trailing slashes (so "out/" and "out" name the same sibling paths). */
static char *trimmed_copy(const char *dir) {
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/') len--;
  char *s = malloc(len + 1);
  if (s) {
    memcpy(s, dir, len);
    s[len] = '\0';
  }
  return s;
}

/* Create a fresh directory "<base>.<tag>-<pid>-<i>" (mode 0777 less the umask); *out is
   the caller's to free. */
static int make_sibling_dir(const char *base, const char *tag, char **out, tc_error *err) {
  size_t size = strlen(base) + strlen(tag) + 48;
  char *path = malloc(size);
  if (!path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int i = 0; i < 1000; i++) {
    snprintf(path, size, "%s.%s-%ld-%d", base, tag, (long)getpid(), i);
    if (mkdir(path, 0777) == 0) {
      *out = path;
      return TC_OK;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(path);
  return tc_error_set(err, TC_EIO, "cannot create a directory beside '%s': %s", base, strerror(e));
}

/* Remove a directory tree we created or were told to replace (symlinks are removed, not
   followed). Best effort: returns -1 if something stayed. */
static int remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return -1;
  if (!S_ISDIR(st.st_mode)) return unlink(path);
  DIR *d = opendir(path);
  int rc = 0;
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      size_t size = strlen(path) + strlen(e->d_name) + 2;
      char *child = malloc(size);
      if (!child) { rc = -1; break; }
      snprintf(child, size, "%s/%s", path, e->d_name);
      if (remove_tree(child)) rc = -1;
      free(child);
    }
    closedir(d);
  }
  return rmdir(path) || rc ? -1 : 0;
}

static int write_one(const tc_plan *p, const char *dir, const char *name, tc_error *err) {
  const char *spec = p->frontier.member[p->chosen].spec;
  size_t size = strlen(dir) + strlen(name) + 2;
  char *path = malloc(size);
  if (!path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  snprintf(path, size, "%s/%s", dir, name);
  int rc;
  if (!strcmp(name, "topology.json")) rc = tc_graph_write_json(p->graph, spec, path, err);
  else if (!strcmp(name, "topology.dot")) rc = tc_graph_write_dot(p->graph, spec, path, err);
  else if (!strcmp(name, "wiring.csv")) rc = tc_graph_write_wiring(p->graph, path, err);
  else if (!strcmp(name, "allgather.json")) rc = tc_schedule_write_json(p->graph, spec, &p->allgather, path, err);
  else if (!strcmp(name, "reduce-scatter.json"))
    rc = tc_schedule_write_json(p->graph, spec, &p->reduce_scatter, path, err);
  else if (!strcmp(name, "allreduce.json")) rc = tc_schedule_write_json(p->graph, spec, &p->allreduce, path, err);
  else rc = tc_plan_write_summary(p, path, err);
  free(path);
  return rc;
}

/* Put the finished temporary directory at target: a rename onto nothing or onto an empty
   directory; with `force` an existing tree is moved aside first and removed after. */
static int move_into_place(const char *tmp, const char *target, int force, tc_error *err) {
  if (rename(tmp, target) == 0) return TC_OK;
  if (!force || (errno != ENOTEMPTY && errno != EEXIST))
    return tc_error_set(err, TC_EIO, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
  char *old = NULL;
  int rc = make_sibling_dir(target, "old", &old, err);
  if (rc) return rc;
  if (rename(target, old) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot move '%s' aside: %s", target, strerror(errno));
    rmdir(old);
  } else if (rename(tmp, target) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
    rename(old, target); /* put the old tree back */
  } else if (remove_tree(old) != 0) {
    rc = tc_error_set(err, TC_EIO, "wrote '%s' but could not remove the replaced tree '%s'", target, old);
  }
  free(old);
  return rc;
}

int tc_plan_write(const tc_plan *p, const char *dir, int force, tc_plan_progress progress, void *ctx,
                  tc_error *err) {
  static const char *const files[] = {"topology.json", "topology.dot", "wiring.csv", "allgather.json",
                                      "reduce-scatter.json", "allreduce.json", "summary.md"};
  int rc = tc_plan_check_dir(dir, force, err);
  if (rc) return rc;
  char *target = trimmed_copy(dir), *tmp = NULL;
  if (!target) return tc_error_set(err, TC_ENOMEM, "out of memory");
  progress_line(progress, ctx, "writing %s", target);
  rc = make_sibling_dir(target, "tmp", &tmp, err);
  for (size_t i = 0; !rc && i < sizeof files / sizeof files[0]; i++) rc = write_one(p, tmp, files[i], err);
  if (!rc) rc = move_into_place(tmp, target, force, err);
  if (rc && tmp) remove_tree(tmp);
  free(tmp);
  free(target);
  return rc;
}
