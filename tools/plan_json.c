/*
** plan_json.c — plan.json, the plan's numbers in one machine-readable document beside
** summary.md (schema in docs/report.md), written by `topocoll plan` into its staging
** directory so that `topocoll report DIR` can draw the plan again without re-running it.
**
** Everything in it is already in the tc_plan: the workload, the finder's frontier (its
** predictions, said so by "predicted"), the bound, the chosen member's measured costs, and
** one allreduce "curve" (steps, exact tau, node degree) per member, baseline, ForestColl
** depth and all-to-all schedule. A curve's time at M bytes is the α-β model's
** steps·α + tau·M/(degree·link_bw) (cost.h, tc_cost_time): the report evaluates it there,
** so the formula keeps its one home.
*/
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "plan_json.h"
#include "topocoll/plan.h"

static json_t *rat(tc_rat r) {
  json_t *a = json_array();
  json_array_append_new(a, json_integer(r.num));
  json_array_append_new(a, json_integer(r.den));
  return a;
}

static json_t *curve(const char *name, const char *kind, int32_t steps, tc_rat tau, int64_t degree) {
  json_t *c = json_object();
  json_object_set_new(c, "name", json_string(name));
  json_object_set_new(c, "kind", json_string(kind));
  json_object_set_new(c, "steps", json_integer(steps));
  json_object_set_new(c, "tau", rat(tau));
  json_object_set_new(c, "degree", json_integer(degree));
  return c;
}

static void add_baseline(json_t *curves, const tc_plan_baseline *b, const char *kind) {
  if (!b->available) return;
  char name[160];
  if (b->chunks > 1) snprintf(name, sizeof name, "%s P=%d on %s", b->name, (int)b->chunks, b->topology);
  else snprintf(name, sizeof name, "%s on %s", b->name, b->topology);
  json_array_append_new(curves, curve(name, kind, b->steps, b->tau, b->degree));
}

/* The frontier: predicted allgather (steps, tau) per member, as the finder gives them. */
static json_t *frontier(const tc_plan *p) {
  json_t *f = json_object(), *members = json_array();
  json_object_set_new(f, "bound_steps", json_integer(p->frontier.bound_steps));
  json_object_set_new(f, "bound_tau", rat(p->frontier.bound_tau));
  for (int32_t i = 0; i < p->frontier.count; i++) {
    const tc_candidate *c = &p->frontier.member[i];
    json_t *m = json_object();
    json_object_set_new(m, "spec", json_string(c->spec));
    json_object_set_new(m, "label", json_string(c->label));
    json_object_set_new(m, "steps", json_integer(c->steps));
    json_object_set_new(m, "tau", rat(c->tau));
    json_object_set_new(m, "chosen", json_boolean(i == p->chosen));
    if (c->a2a) json_object_set_new(m, "a2a_f", rat(c->a2a_lower));
    json_array_append_new(members, m);
  }
  json_object_set_new(f, "members", members);
  return f;
}

/* Every allreduce the plan can draw against message size. Frontier members are the
   finder's predictions (an allreduce is twice the allgather: paper 000 §3.2). */
static json_t *curves(const tc_plan *p) {
  json_t *a = json_array();
  char name[320];
  if (p->has_member) {
    snprintf(name, sizeof name, "%s (chosen, %s)", p->spec, p->allreduce.algorithm);
    json_array_append_new(a, curve(name, "chosen", p->allreduce_cost.steps, p->allreduce_cost.tau,
                                   p->allreduce_cost.degree));
  }
  for (int32_t i = 0; i < p->frontier.count; i++) {
    if (i == p->chosen) continue;
    const tc_candidate *c = &p->frontier.member[i];
    tc_rat tau2 = {c->tau.num * 2, c->tau.den};
    if (tau2.num % 2 == 0 && tau2.den % 2 == 0) tau2 = (tc_rat){tau2.num / 2, tau2.den / 2};
    snprintf(name, sizeof name, "%s (predicted)", c->spec);
    json_array_append_new(a, curve(name, "member", 2 * c->steps, tau2, c->degree));
  }
  for (int32_t i = 0; i < p->nbaselines; i++) add_baseline(a, &p->baseline[i], "baseline");
  const tc_plan_forestcoll *fc = &p->forestcoll;
  for (int i = 0; fc->built && i < fc->ncoll; i++)
    if (fc->coll[i] == TC_COLL_ALLREDUCE)
      for (int j = 0; j < TC_PLAN_DEPTHS; j++) add_baseline(a, &fc->depth[i][j], "forestcoll");
  return a;
}

static json_t *workload(const tc_workload *w) {
  json_t *o = json_object(), *sizes = json_array();
  json_object_set_new(o, "alpha_s", json_real(w->alpha_s));
  json_object_set_new(o, "link_bw_Bps", json_real(w->link_bw));
  for (int32_t i = 0; i < w->count; i++) {
    json_t *s = json_object();
    json_object_set_new(s, "bytes", json_real(w->bytes[i]));
    json_object_set_new(s, "weight", json_real(w->weight[i]));
    json_array_append_new(sizes, s);
  }
  json_object_set_new(o, "sizes", sizes);
  if (w->a2a_bytes > 0) {
    json_object_set_new(o, "a2a_bytes", json_real(w->a2a_bytes));
    json_object_set_new(o, "a2a_weight", json_real(w->a2a_weight));
  }
  return o;
}

/* The chosen allreduce: measured T_L (s), T_B factor and the expected time over the
   workload, the numbers the CLI prints (cmd_plan.c) and the report shows. */
static json_t *chosen(const tc_plan *p) {
  json_t *o = json_object();
  const tc_workload *w = &p->workload;
  double sum = 0, wsum = 0;
  for (int32_t i = 0; i < w->count; i++) {
    double t = p->has_member ? tc_plan_time(p, w->bytes[i]) : tc_plan_allreduce_at(p, w->bytes[i], NULL, NULL);
    sum += w->weight[i] * t;
    wsum += w->weight[i];
  }
  json_object_set_new(o, "spec", json_string(p->spec));
  if (p->has_member) {
    json_object_set_new(o, "algorithm", json_string(p->allreduce.algorithm));
    json_object_set_new(o, "steps", json_integer(p->allreduce_cost.steps));
    json_object_set_new(o, "T_L_s", json_real(p->allreduce_cost.steps * w->alpha_s));
    json_object_set_new(o, "tau", rat(p->allreduce_cost.tau));
  }
  json_object_set_new(o, "expected_s", json_real(sum / wsum));
  return o;
}

int tc_plan_json_write(const tc_plan *p, const char *path, tc_error *err) {
  json_t *doc = json_object();
  json_object_set_new(doc, "format", json_string("topocoll-plan"));
  json_object_set_new(doc, "version", json_integer(1));
  json_object_set_new(doc, "spec", json_string(p->spec));
  json_object_set_new(doc, "fabric", json_boolean(p->fabric));
  json_object_set_new(doc, "nodes", json_integer(p->graph->n));
  tc_wiring_links l = tc_plan_wiring_links(p);
  json_object_set_new(doc, "links", json_string(l == TC_WIRING_DUPLEX ? "duplex" : l == TC_WIRING_SIMPLEX ? "simplex" : "auto"));
  json_object_set_new(doc, "workload", workload(&p->workload));
  json_object_set_new(doc, "chosen", chosen(p));
  if (!p->fabric) json_object_set_new(doc, "frontier", frontier(p));
  json_object_set_new(doc, "curves", curves(p));
  const char *ag = p->fabric ? (p->has_member ? "allgather-bfb.json" : "allgather-forestcoll.json") : "allgather.json";
  json_object_set_new(doc, "allgather_file", json_string(ag));
  if (p->has_a2a) json_object_set_new(doc, "alltoall_file", json_string("alltoall.json"));
  int bad = json_dump_file(doc, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(doc);
  if (bad) return tc_error_set(err, TC_EIO, "cannot write %s", path);
  return TC_OK;
}
