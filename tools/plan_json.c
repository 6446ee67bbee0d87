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
**
** The reader (tc_plan_json_read) is here too, beside the writer it mirrors: the report and
** `train --plan` both read plan.json through it.
*/
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
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
  json_object_set_new(f, "degree", json_integer(p->frontier.degree));
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

/* ---- reading ---- */

static int number(json_t *obj, const char *name, const char *key, double *out, tc_error *err) {
  json_t *v = json_object_get(obj, key);
  if (!json_is_number(v)) return tc_error_set(err, TC_EINPUT, "%s: \"%s\" is missing or not a number", name, key);
  *out = json_number_value(v);
  return TC_OK;
}

/* [p, q] with q > 0, as rat() writes it; -1 otherwise. */
static int read_rat(json_t *v, tc_rat *out) {
  if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(json_array_get(v, 0)) ||
      !json_is_integer(json_array_get(v, 1)) || json_integer_value(json_array_get(v, 1)) <= 0)
    return -1;
  *out = (tc_rat){json_integer_value(json_array_get(v, 0)), json_integer_value(json_array_get(v, 1))};
  return 0;
}

static int read_workload(json_t *root, const char *name, tc_plan_json *out, tc_error *err) {
  json_t *w = json_object_get(root, "workload"), *sizes = json_object_get(w, "sizes");
  if (!json_is_object(w)) return tc_error_set(err, TC_EINPUT, "%s: \"workload\" is missing or not an object", name);
  int rc = number(w, name, "alpha_s", &out->alpha_s, err);
  if (!rc) rc = number(w, name, "link_bw_Bps", &out->link_bw, err);
  if (rc) return rc;
  if (!(out->link_bw > 0) || !(out->alpha_s >= 0))
    return tc_error_set(err, TC_EINPUT, "%s: workload.alpha_s or link_bw_Bps out of range", name);
  if (!json_is_array(sizes) || json_array_size(sizes) < 1 || json_array_size(sizes) > 64)
    return tc_error_set(err, TC_EINPUT, "%s: workload.sizes must be an array of 1 to 64 sizes", name);
  for (size_t i = 0; i < json_array_size(sizes); i++) {
    json_t *s = json_array_get(sizes, i);
    if ((rc = number(s, name, "bytes", &out->bytes[i], err)) || (rc = number(s, name, "weight", &out->weight[i], err)))
      return rc;
    if (!(out->bytes[i] > 0)) return tc_error_set(err, TC_EINPUT, "%s: workload.sizes[%zu].bytes must be positive", name, i);
  }
  out->nsizes = (int)json_array_size(sizes);
  return TC_OK;
}

static int read_curves(json_t *root, const char *name, tc_plan_json *out, tc_error *err) {
  json_t *curves = json_object_get(root, "curves");
  if (!json_is_array(curves)) return tc_error_set(err, TC_EINPUT, "%s: \"curves\" is missing or not an array", name);
  out->curve = calloc(json_array_size(curves) + 1, sizeof *out->curve);
  if (!out->curve) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (size_t i = 0; i < json_array_size(curves); i++) {
    json_t *c = json_array_get(curves, i);
    const char *cname = json_string_value(json_object_get(c, "name"));
    const char *kind = json_string_value(json_object_get(c, "kind"));
    json_t *steps = json_object_get(c, "steps"), *degree = json_object_get(c, "degree");
    tc_plan_json_curve *k = &out->curve[out->ncurves];
    if (!cname || !kind || !json_is_integer(steps) || !json_is_integer(degree) || json_integer_value(degree) < 1 ||
        read_rat(json_object_get(c, "tau"), &k->cost.tau))
      return tc_error_set(err, TC_EINPUT, "%s: curves[%zu] needs name, kind, steps, tau [p, q] and degree >= 1", name, i);
    snprintf(k->name, sizeof k->name, "%s", cname);
    snprintf(k->kind, sizeof k->kind, "%s", kind);
    k->cost.steps = (int32_t)json_integer_value(steps);
    k->cost.degree = json_integer_value(degree);
    out->ncurves++;
  }
  return TC_OK;
}

/* The frontier, when there is one (a fabric plan has none). */
static int read_frontier(json_t *root, const char *name, tc_plan_json *out, tc_error *err) {
  json_t *f = json_object_get(root, "frontier");
  if (!f) return TC_OK;
  json_t *members = json_object_get(f, "members"), *degree = json_object_get(f, "degree");
  json_t *bound = json_object_get(f, "bound_steps");
  if (!json_is_object(f) || !json_is_array(members) || !json_is_integer(bound) || json_integer_value(bound) < 1 ||
      json_integer_value(bound) > INT32_MAX || read_rat(json_object_get(f, "bound_tau"), &out->bound_tau))
    return tc_error_set(err, TC_EINPUT, "%s: \"frontier\" needs members, bound_steps and bound_tau [p, q]", name);
  out->bound_steps = (int32_t)json_integer_value(bound);
  if (degree && (!json_is_integer(degree) || json_integer_value(degree) < 1 || json_integer_value(degree) > INT32_MAX))
    return tc_error_set(err, TC_EINPUT, "%s: frontier.degree must be an integer >= 1", name);
  out->degree = degree ? (int32_t)json_integer_value(degree) : 0;
  out->member = calloc(json_array_size(members) + 1, sizeof *out->member);
  if (!out->member) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (size_t i = 0; i < json_array_size(members); i++) {
    json_t *m = json_array_get(members, i), *steps = json_object_get(m, "steps"), *chosen = json_object_get(m, "chosen");
    json_t *a2a = json_object_get(m, "a2a_f");
    const char *spec = json_string_value(json_object_get(m, "spec"));
    const char *label = json_string_value(json_object_get(m, "label"));
    tc_plan_json_member *k = &out->member[out->nmembers];
    if (!spec || strlen(spec) >= sizeof k->spec || !json_is_integer(steps) || json_integer_value(steps) < 1 ||
        json_integer_value(steps) > INT32_MAX || !json_is_boolean(chosen) ||
        read_rat(json_object_get(m, "tau"), &k->tau) || (a2a && read_rat(a2a, &k->a2a_f)))
      return tc_error_set(err, TC_EINPUT,
                          "%s: frontier.members[%zu] needs spec, steps >= 1, tau [p, q], chosen and (if any) a2a_f [p, q]",
                          name, i);
    snprintf(k->spec, sizeof k->spec, "%s", spec);
    snprintf(k->label, sizeof k->label, "%s", label ? label : "");
    k->steps = (int32_t)json_integer_value(steps);
    k->chosen = json_is_true(chosen);
    k->has_a2a_f = a2a != NULL;
    out->nmembers++;
  }
  return TC_OK;
}

int tc_plan_json_read(json_t *root, const char *name, tc_plan_json *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  out->root = root;
  json_t *nodes = json_object_get(root, "nodes");
  if (!json_is_integer(nodes) || json_integer_value(nodes) < 2 || json_integer_value(nodes) > INT32_MAX)
    return tc_error_set(err, TC_EINPUT, "%s: \"nodes\" is missing or not an integer >= 2", name);
  out->nodes = (int32_t)json_integer_value(nodes);
  int rc = read_workload(root, name, out, err);
  if (!rc) rc = read_curves(root, name, out, err);
  if (!rc) rc = read_frontier(root, name, out, err);
  if (rc) tc_plan_json_destroy(out);
  return rc;
}

void tc_plan_json_destroy(tc_plan_json *p) {
  free(p->curve);
  free(p->member);
  p->curve = NULL;
  p->member = NULL;
  p->ncurves = p->nmembers = 0;
}
