/*
** solve.c — tc_a2a_solve (a2a.h): check the graph, solve the LPs of the chosen method,
** rationalize, certify both bounds, and decide exactness. The solver's floats are never
** reported as exact: `exact` is set only when certify.c's lower and upper bounds, computed in
** integers from the rationalized flows and lengths, are the same rational.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"

void tc_a2a_result_destroy(tc_a2a_result *r) {
  if (!r) return;
  free(r->source_flow);
  free(r->commodity_flow);
  free(r->length);
  free(r->host_length);
  memset(r, 0, sizeof *r);
}

/* The upper bound of lengths (and host lengths) rationalized together: they must share one
   scale, and the bound does not depend on it. */
static int upper_bound(const tc_graph *g, tc_rat host_cap, const double *len, const double *hlen,
                       tc_rat *out, tc_error *err) {
  const int64_t m = g->m, nh = hlen ? 2 * (int64_t)g->n : 0;
  double *all = malloc(sizeof *all * (size_t)(m + nh + 1));
  int64_t *units = malloc(sizeof *units * (size_t)(m + nh + 1)), den;
  if (!all || !units) {
    free(all), free(units);
    return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  }
  memcpy(all, len, sizeof *all * (size_t)m);
  if (nh) memcpy(all + m, hlen, sizeof *all * (size_t)nh);
  tci_a2a_rationalize(all, m + nh, units, &den);
  int rc = tci_a2a_certify_upper(g, host_cap, units, nh ? units + m : NULL, out, err);
  free(all), free(units);
  return rc;
}

/* The least-flow master at F = the certified upper bound: when its flows certify a better
   lower bound (exactly the upper, usually), they replace r's per-source flows. Returns 1 when
   they are not better (or the LP fails: the solver may find the pinned F infeasible by its
   tolerances), 0 when replaced. */
static int least_flow(const tc_graph *g, tci_lp_engine engine, tc_rat host, const tc_a2a_options *o,
                      tc_a2a_result *r, const int32_t *src, const int32_t *dst, tci_a2a_lower *lower) {
  const int64_t nm = (int64_t)g->n * g->m;
  tci_a2a_lp_answer ans = {0};
  tc_error err;
  if (tci_a2a_master_solve(g, engine, host, &r->upper_exact, o->time_limit, &ans, &err)) return 1;
  int64_t *units = malloc(sizeof *units * (size_t)(nm > 0 ? nm : 1)), den;
  tci_a2a_lower lo2;
  int better = 0;
  if (units) {
    tci_a2a_rationalize(ans.flow, nm, units, &den);
    better = !tci_a2a_certify_lower(g, host, g->n, src, dst, units, den, &lo2, &err) &&
             tc_rat_cmp(lo2.value, lower->value) > 0;
  }
  tci_a2a_lp_answer_destroy(&ans);
  if (!better) {
    free(units);
    return 1;
  }
  free(r->source_flow);
  r->source_flow = units;
  r->den = den;
  *lower = lo2;
  return 0;
}

int tc_a2a_solve(const tc_graph *g, const tc_a2a_options *o, tc_a2a_result *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_a2a_options def;
  if (!o) tc_a2a_options_default(&def), o = &def;
  int rc = tci_a2a_check(g, o, err);
  if (rc) return rc;
  if (o->method < 0 || o->method >= TC_A2A_METHODS)
    return tc_error_set(err, TC_EINPUT, "unknown all-to-all method %d", (int)o->method);
  const tci_lp_engine engine = o->engine == TC_A2A_GLPK ? TCI_LP_GLPK : TCI_LP_CLP;
  const int32_t n = g->n;
  const int64_t m = g->m;
  tc_rat host = o->host_cap;
  if (host.num <= 0) host.num = 0, host.den = 1;
  tci_a2a_lp_answer ans = {0};
  int32_t *src = NULL, *dst = NULL;
  tc_a2a_result r = {0};
  r.n = n, r.m = m;
  r.f_exact.den = r.lower_exact.den = r.upper_exact.den = r.commodity_lower.den = 1;
  r.source_flow = calloc((size_t)n * (size_t)(m > 0 ? m : 1), sizeof *r.source_flow);
  if (!r.source_flow) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
    goto fail;
  }
  tci_a2a_lower lower;
  if (o->method == TC_A2A_FULL) {
    if ((rc = tci_a2a_full_solve(g, engine, host, o->time_limit, &ans, err))) goto fail;
    r.commodity_flow = malloc(sizeof *r.commodity_flow * (size_t)n * (size_t)n * (size_t)(m > 0 ? m : 1));
    if (!r.commodity_flow) {
      rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
      goto fail;
    }
    if ((rc = tci_a2a_children_finish(g, ans.flow, r.commodity_flow, &r.commodity_den, err))) goto fail;
    /* the per-source flows are the sums of their commodities */
    r.den = r.commodity_den;
    for (int32_t s = 0; s < n; s++)
      for (int32_t t = 0; t < n; t++)
        for (int64_t a = 0; a < m; a++) r.source_flow[(int64_t)s * m + a] += r.commodity_flow[((int64_t)s * n + t) * m + a];
  } else if (o->method == TC_A2A_DW) {
    /* its flows are already exact integers (trees with weights summing to one) */
    tci_a2a_dw_answer dw;
    if ((rc = tci_a2a_dw_solve(g, o, &dw, err))) goto fail;
    free(r.source_flow);
    r.source_flow = dw.units, dw.units = NULL;
    r.den = dw.den;
    ans.f = dw.f, ans.rows = dw.rows, ans.cols = dw.cols;
    ans.length = dw.length, dw.length = NULL;
    r.rounds = dw.rounds, r.stopped = dw.timed_out, r.group = dw.group;
    tci_a2a_dw_answer_destroy(&dw);
  } else {
    if ((rc = tci_a2a_master_solve(g, engine, host, NULL, o->time_limit, &ans, err))) goto fail;
    tci_a2a_rationalize(ans.flow, (int64_t)n * m, r.source_flow, &r.den);
  }
  /* the upper bound first: when the master's vertex cannot be recovered exactly, the least
     flow at F = upper may be (master.c), and then the bounds meet */
  if ((rc = upper_bound(g, host, ans.length, ans.host_length, &r.upper_exact, err))) goto fail;
  r.f = ans.f;
  r.lp_rows = ans.rows, r.lp_cols = ans.cols;
  src = malloc(sizeof *src * (size_t)n * (size_t)n);
  dst = malloc(sizeof *dst * (size_t)n * (size_t)n);
  if (!src || !dst) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
    goto fail;
  }
  for (int32_t s = 0; s < n; s++) src[s] = s, dst[s] = -1;
  if ((rc = tci_a2a_certify_lower(g, host, n, src, dst, r.source_flow, r.den, &lower, err))) goto fail;
  /* when that fails the first flows are kept: their bound stands */
  if (o->method == TC_A2A_LP && tc_rat_cmp(lower.value, r.upper_exact) != 0) (void)least_flow(g, engine, host, o, &r, src, dst, &lower);
  r.lower_exact = lower.value;
  if (o->method == TC_A2A_LP && o->children) {
    /* each child must deliver what the certificate says every commodity receives */
    int64_t f_units = lower.delivered.num * (r.den / lower.delivered.den);
    r.commodity_flow = malloc(sizeof *r.commodity_flow * (size_t)n * (size_t)n * (size_t)(m > 0 ? m : 1));
    if (!r.commodity_flow) {
      rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory for the per-commodity flows");
      goto fail;
    }
    if (f_units > 0 &&
        (rc = tci_a2a_children_solve(g, engine, r.source_flow, r.den, f_units, o->time_limit, o->threads,
                                     r.commodity_flow, &r.commodity_den, err)))
      goto fail;
  }
  if (r.commodity_flow) {
    int64_t k = 0;
    for (int32_t s = 0; s < n; s++)
      for (int32_t t = 0; t < n; t++)
        if (s != t) src[k] = s, dst[k] = t, k++;
    /* flow k of the certifier is commodity (src[k], dst[k]): pack the rows it reads */
    int64_t *packed = malloc(sizeof *packed * (size_t)(k > 0 ? k : 1) * (size_t)(m > 0 ? m : 1));
    if (!packed) {
      rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
      goto fail;
    }
    for (int64_t i = 0; i < k; i++)
      memcpy(packed + i * m, r.commodity_flow + ((int64_t)src[i] * n + dst[i]) * m, sizeof *packed * (size_t)m);
    tci_a2a_lower cl;
    rc = tci_a2a_certify_lower(g, host, (int32_t)k, src, dst, packed, r.commodity_den, &cl, err);
    free(packed);
    if (rc) goto fail;
    r.commodity_lower = cl.value;
  }
  r.length = ans.length, ans.length = NULL;
  r.host_length = ans.host_length, ans.host_length = NULL;
  r.lower_bound = tc_rat_to_double(r.lower_exact);
  r.upper_bound = tc_rat_to_double(r.upper_exact);
  r.exact = r.lower_exact.num > 0 && tc_rat_cmp(r.lower_exact, r.upper_exact) == 0;
  if (r.exact) r.f_exact = r.lower_exact;
  r.gap = r.exact ? 0 : r.lower_bound > 0 ? r.upper_bound / r.lower_bound - 1 : INFINITY;
  tci_a2a_lp_answer_destroy(&ans);
  free(src), free(dst);
  *out = r;
  return TC_OK;
fail:
  tci_a2a_lp_answer_destroy(&ans);
  free(src), free(dst);
  tc_a2a_result_destroy(&r);
  return rc;
}
