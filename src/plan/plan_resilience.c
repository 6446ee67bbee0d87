/*
** plan_resilience.c — the chosen topology after any single link failure (contract in
** plan.h, tc_plan_resilience; issue #14 §8).
**
** A failed link is what the plan cables (plan_links.c): a duplex pair with duplex cables,
** an arc with simplex fibres (tc_graph_without_links with arcs_only). Failing every link
** and re-synthesizing would cost one BFB allreduce per link — 512 of them, two minutes, at
** 256 nodes — but failures that an
** automorphism maps onto each other leave isomorphic graphs with the same costs, so the
** links are grouped into classes (union-find over the images of every link under BLISS's
** generators) and one link per class is failed. Parallel links between the same nodes are
** one key with a multiplicity. The symmetric topologies the finder picks have a handful of
** classes; a graph with more than TC_PLAN_RESILIENCE_MAX_CLASSES gets a spread sample of
** them and says so. Each degraded allreduce is BFB's (the expansion's construction does not
** survive a missing link), built, verified and costed by tc_collective_build; a failure that
** disconnects the cluster is counted, not costed.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/expand.h"
#include "topocoll/iso.h"
#include "topocoll/units.h"

typedef struct link_key {
  int32_t u, v;  /* u <= v for duplex links */
  int64_t count; /* parallel links */
} link_key;

static int cmp_key(const void *a, const void *b) {
  const link_key *x = a, *y = b;
  if (x->u != y->u) return x->u < y->u ? -1 : 1;
  return (x->v > y->v) - (x->v < y->v);
}

/* The distinct links of g (duplex pairs, or arcs), sorted, with multiplicities; returns how
   many. */
static int64_t collect_links(const tc_graph *g, int duplex, link_key *keys) {
  int64_t n = 0;
  for (int64_t a = 0; a < g->m; a++) {
    if (duplex && g->rev[a] < a) continue;
    int32_t u = g->src[a], v = g->dst[a];
    if (duplex && v < u) u = g->dst[a], v = g->src[a];
    keys[n++] = (link_key){u, v, 1};
  }
  qsort(keys, (size_t)n, sizeof *keys, cmp_key);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    if (k > 0 && keys[k - 1].u == keys[i].u && keys[k - 1].v == keys[i].v) keys[k - 1].count++;
    else keys[k++] = keys[i];
  }
  return k;
}

static int64_t find_root(int64_t *parent, int64_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/* Union every link with its image under every generator: parent[] then names the classes. */
static int link_classes(const tc_graph *g, int duplex, const link_key *keys, int64_t nkeys, int64_t *parent,
                        tc_error *err) {
  for (int64_t i = 0; i < nkeys; i++) parent[i] = i;
  int32_t *gens = NULL, count = 0;
  int rc = tc_graph_automorphism_generators(g, &gens, &count, err);
  for (int32_t k = 0; !rc && k < count; k++) {
    const int32_t *s = gens + (int64_t)k * g->n;
    for (int64_t i = 0; i < nkeys; i++) {
      link_key img = {s[keys[i].u], s[keys[i].v], 0};
      if (duplex && img.v < img.u) img = (link_key){img.v, img.u, 0};
      const link_key *hit = bsearch(&img, keys, (size_t)nkeys, sizeof *keys, cmp_key);
      if (!hit) { /* an automorphism maps links onto links: this is our bug */
        rc = tc_error_set(err, TC_EFAIL, "resilience: an automorphism maps link %d-%d off the graph", keys[i].u,
                          keys[i].v);
        break;
      }
      int64_t a = find_root(parent, i), b = find_root(parent, hit - keys);
      if (a != b) parent[a < b ? b : a] = a < b ? a : b; /* the root is the class's least link */
    }
  }
  free(gens);
  return rc;
}

/* Fail link key (a representative of its class) and measure the degraded allreduce. */
static int fail_one(const tc_plan *p, const link_key *key, tc_plan_failure *f, tc_error *err) {
  tc_graph *g = NULL;
  int64_t ends[2] = {key->u, key->v};
  tc_error why;
  tc_error_clear(&why);
  int rc = tc_graph_without_links(p->graph, ends, 2, !p->find.bidirectional, &g, &why);
  if (rc == TC_EINPUT) { /* the only refusal left for a link that exists: it disconnects */
    f->disconnects = 1;
    return TC_OK;
  }
  if (rc) {
    *err = why;
    return rc;
  }
  tc_schedule s;
  tc_cost c;
  tc_collective_opts opts;
  memset(&opts, 0, sizeof opts);
  rc = tc_collective_build(g, "bfb", TC_COLL_ALLREDUCE, &opts, &s, &c, err);
  tc_graph_destroy(g);
  if (rc) {
    tc_error_prefix(err, "resilience: %s without link %d-%d", p->spec, key->u, key->v);
    return rc;
  }
  f->steps = c.steps;
  f->tau = c.tau;
  f->degree = c.degree;
  double sum = 0, wsum = 0;
  for (int32_t i = 0; i < p->workload.count; i++) {
    sum += p->workload.weight[i] * tci_plan_time_of(c.steps, c.tau, c.degree, &p->workload, p->workload.bytes[i]);
    wsum += p->workload.weight[i];
  }
  f->expected_s = sum / wsum;
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  return TC_OK;
}

static int by_time(const void *a, const void *b) {
  const tc_plan_failure *x = a, *y = b;
  return (x->expected_s > y->expected_s) - (x->expected_s < y->expected_s);
}

/* Worst and typical (weighted median over links) of the connected failures. */
static void summarise(tc_plan_resilience *r, tc_plan_failure *f, int32_t n) {
  int32_t k = 0;
  int64_t total = 0;
  for (int32_t i = 0; i < n; i++) {
    if (f[i].disconnects) {
      r->disconnecting += f[i].links;
      continue;
    }
    f[k++] = f[i];
    total += f[i].links;
  }
  if (k == 0) return;
  qsort(f, (size_t)k, sizeof *f, by_time);
  r->worst = f[k - 1];
  int64_t seen = 0;
  for (int32_t i = 0; i < k; i++) {
    seen += f[i].links;
    if (2 * seen >= total) {
      r->typical = f[i];
      break;
    }
  }
}

int tci_plan_resilience(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  tc_plan_resilience *r = &p->resilience;
  const tc_graph *g = p->graph;
  link_key *keys = malloc((size_t)(g->m ? g->m : 1) * sizeof *keys);
  int64_t *parent = malloc((size_t)(g->m ? g->m : 1) * sizeof *parent);
  tc_plan_failure *fails = calloc(TC_PLAN_RESILIENCE_MAX_CLASSES, sizeof *fails);
  int64_t *rep = malloc((size_t)(g->m ? g->m : 1) * sizeof *rep);
  int rc = !keys || !parent || !fails || !rep ? tc_error_set(err, TC_ENOMEM, "out of memory") : TC_OK;
  int duplex = g->bidirectional && p->find.bidirectional; /* the plan's cabling: plan_links.c */
  int64_t nkeys = rc ? 0 : collect_links(g, duplex, keys);
  if (!rc) rc = link_classes(g, duplex, keys, nkeys, parent, err);
  int32_t classes = 0;
  for (int64_t i = 0; !rc && i < nkeys; i++) {
    r->links += keys[i].count;
    if (find_root(parent, i) == i) rep[classes++] = i;
  }
  int32_t n = classes < TC_PLAN_RESILIENCE_MAX_CLASSES ? classes : TC_PLAN_RESILIENCE_MAX_CLASSES;
  for (int32_t j = 0; !rc && j < n; j++) {
    /* a spread sample when there are too many classes: every (classes/n)-th */
    int64_t at = rep[(int64_t)j * classes / n];
    const link_key *key = &keys[at];
    tci_progress(progress, ctx, j, n, "resilience: failing link %d-%d, one per symmetry class%s", key->u, key->v,
                 n < classes ? " of a sample" : "");
    fails[j].u = key->u;
    fails[j].v = key->v;
    for (int64_t i = 0; i < nkeys; i++)
      if (find_root(parent, i) == at) fails[j].links += keys[i].count;
    rc = fail_one(p, key, &fails[j], err);
  }
  if (!rc && n > 0) tci_progress(progress, ctx, n, n, "resilience: single link failures tried");
  if (!rc) {
    r->classes = classes;
    r->evaluated = n;
    summarise(r, fails, n);
    r->done = 1;
  }
  free(keys);
  free(parent);
  free(fails);
  free(rep);
  return rc;
}

static void failure_row(FILE *f, const tc_plan *p, const char *what, const tc_plan_failure *x, double intact) {
  char tau[64], t[64];
  tc_rat_format(x->tau, tau, (int)sizeof tau);
  tc_units_format_time(x->expected_s, TC_UNITS_TIME_MICRO_SIGN, t, sizeof t);
  fprintf(f, "| %s | %d-%d (%lld like it) | %dα | %s M/B (B = %lld·b) | %s | %.2f× |\n", what, x->u, x->v,
          (long long)x->links, x->steps, tau, (long long)x->degree, t, x->expected_s / intact);
  (void)p;
}

void tci_plan_resilience_summary(FILE *f, const tc_plan *p) {
  const tc_plan_resilience *r = &p->resilience;
  fprintf(f, "## Resilience: any single link failure\n\n");
  if (!r->done) {
    fprintf(f, "Not evaluated: %s.\n\n", r->note);
    return;
  }
  fprintf(f, "Each of the %lld %s of `%s` failed in turn: failures the topology's automorphisms map onto each "
             "other cost the same, so one link of each of the %d classes %s failed, and the allreduce "
             "re-synthesized by BFB on the degraded graph, verified and costed.",
          (long long)r->links,
          p->graph->bidirectional && p->find.bidirectional ? "duplex links" : "simplex links (arcs)", p->spec,
          r->classes, r->evaluated < r->classes ? "in a spread sample was" : "was");
  if (r->evaluated < r->classes) fprintf(f, " Sampled: %d of the %d classes.", r->evaluated, r->classes);
  if (r->disconnecting)
    fprintf(f, " %lld of the links disconnect the cluster when they fail.", (long long)r->disconnecting);
  fprintf(f, "\n\n");
  if (r->disconnecting == r->links || !r->worst.links) {
    fprintf(f, "Every failure evaluated disconnects the cluster.\n\n");
    return;
  }
  double sum = 0, wsum = 0;
  for (int32_t i = 0; i < p->workload.count; i++) {
    sum += p->workload.weight[i] * tc_plan_time(p, p->workload.bytes[i]);
    wsum += p->workload.weight[i];
  }
  double intact = sum / wsum;
  char tau[64], t[64];
  tc_rat_format(p->allreduce_cost.tau, tau, (int)sizeof tau);
  tc_units_format_time(intact, TC_UNITS_TIME_MICRO_SIGN, t, sizeof t);
  fprintf(f, "| | failed link | allreduce T_L | T_B | expected time | vs intact |\n"
             "| --- | --- | ---: | ---: | ---: | ---: |\n");
  fprintf(f, "| intact | none | %dα | %s M/B (B = %lld·b) | %s | 1.00× |\n", p->allreduce_cost.steps, tau,
          (long long)p->allreduce_cost.degree, t);
  failure_row(f, p, "typical (median link)", &r->typical, intact);
  failure_row(f, p, "worst", &r->worst, intact);
  fprintf(f, "\n`topocoll sched '%s' --coll allreduce --algo bfb --without-links %d-%d` builds the worst case's "
             "schedules.\n\n",
          p->spec, r->worst.u, r->worst.v);
}
