/*
** bfb_glpk.c — BFB step LPs solved by GLPK (contract in bfb.h; paper 000 App. E, E.3).
**
** Two uses:
**   - LP (1) exactly as the paper states it, solved by the simplex method: the independent
**     cross-check of the exact max-flow solver in bfb.c, and the "general LP solver" side
**     of the benchmark (tci_bfb_optima_glpk);
**   - LP (14) for heterogeneous links, where a link's latency enters the step time, with the
**     paper's repair: an in-arc that carries nothing while its alpha alone sets U_{u,t} is
**     deleted and the LP solved again, until no idle arc dominates.
** Results are floating point (GLPK's simplex); callers compare them with a tolerance. GLPK
** is used from one thread at a time here: every LP is created, solved and freed in the
** calling thread, and nothing else is shared.
*/
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/bfb.h"
#include "synth/bfb_internal.h"
#include "topocoll/metrics.h"

/* One GLPK problem for a receiver step: column 1 is U, column 2 + e is allow entry e.
   Arc rows come first (row 1 + a), then job rows (row 1 + narcs + i). */
typedef struct step_lp {
  glp_prob *lp;
  int *ia, *ja;
  double *ar;
} step_lp;

static void step_lp_free(step_lp *s) {
  if (s->lp) glp_delete_prob(s->lp);
  free(s->ia);
  free(s->ja);
  free(s->ar);
  memset(s, 0, sizeof *s);
}

/* Build  min U  s.t.  coef[a] * Σ_{e on a} x_e - U <= -offset[a]  (arcs not dropped),
                      Σ_{e of job i} x_e = 1,  0 <= x <= 1,  x_e = 0 on dropped arcs.
   LP (1) is coef = 1/cap, offset = 0 (loads per unit capacity); LP (14) is coef = shard/bw,
   offset = alpha, both in the caller's time unit. */
static int step_lp_build(step_lp *s, const tci_bfb_receiver *r, const tci_bfb_step *st, const double *coef,
                         const double *offset, const uint8_t *dropped, tc_error *err) {
  memset(s, 0, sizeof *s);
  int64_t entries = st->allow_off[st->njobs];
  int64_t nz = 2 * entries + r->narcs;
  if (entries > INT32_MAX / 4 || r->narcs > INT32_MAX / 4)
    return tc_error_set(err, TC_ERANGE, "bfb-glpk: step LP with %lld variables is too large", (long long)entries);
  s->ia = malloc((size_t)(nz + 1) * sizeof *s->ia);
  s->ja = malloc((size_t)(nz + 1) * sizeof *s->ja);
  s->ar = malloc((size_t)(nz + 1) * sizeof *s->ar);
  s->lp = glp_create_prob();
  if (!s->ia || !s->ja || !s->ar || !s->lp) {
    step_lp_free(s);
    return tc_error_set(err, TC_ENOMEM, "bfb-glpk: out of memory");
  }
  glp_prob *lp = s->lp;
  glp_set_obj_dir(lp, GLP_MIN);
  glp_add_cols(lp, (int)(1 + entries));
  glp_set_col_bnds(lp, 1, GLP_LO, 0.0, 0.0);
  glp_set_obj_coef(lp, 1, 1.0);
  for (int64_t e = 0; e < entries; e++) {
    int32_t a = st->allow[e];
    if (dropped && dropped[a]) glp_set_col_bnds(lp, (int)(2 + e), GLP_FX, 0.0, 0.0);
    else glp_set_col_bnds(lp, (int)(2 + e), GLP_DB, 0.0, 1.0);
  }
  glp_add_rows(lp, r->narcs + st->njobs);
  for (int32_t a = 0; a < r->narcs; a++) {
    if (dropped && dropped[a]) glp_set_row_bnds(lp, 1 + a, GLP_FR, 0.0, 0.0);
    else glp_set_row_bnds(lp, 1 + a, GLP_UP, 0.0, -offset[a]);
  }
  for (int32_t i = 0; i < st->njobs; i++) glp_set_row_bnds(lp, 1 + r->narcs + i, GLP_FX, 1.0, 1.0);
  int k = 0;
  for (int32_t a = 0; a < r->narcs; a++) {
    k++;
    s->ia[k] = 1 + a, s->ja[k] = 1, s->ar[k] = -1.0;
  }
  for (int32_t i = 0; i < st->njobs; i++)
    for (int64_t e = st->allow_off[i]; e < st->allow_off[i + 1]; e++) {
      int32_t a = st->allow[e];
      k++;
      s->ia[k] = 1 + a, s->ja[k] = (int)(2 + e), s->ar[k] = coef[a];
      k++;
      s->ia[k] = 1 + r->narcs + i, s->ja[k] = (int)(2 + e), s->ar[k] = 1.0;
    }
  glp_load_matrix(lp, k, s->ia, s->ja, s->ar);
  return TC_OK;
}

static int step_lp_solve(step_lp *s, int32_t u, int32_t t, tc_error *err) {
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  int rc = glp_simplex(s->lp, &parm);
  if (rc || glp_get_status(s->lp) != GLP_OPT)
    return tc_error_set(err, TC_EFAIL, "bfb-glpk: simplex failed on the LP of receiver %d step %d (code %d, status %d)",
                        u, t, rc, glp_get_status(s->lp));
  return TC_OK;
}

static int check_step(const tci_bfb_receiver *r, int32_t t, tc_error *err) {
  if (t < 1 || t > r->depth)
    return tc_error_set(err, TC_EINPUT, "bfb-glpk: step %d outside 1..%d for receiver %d", t, r->depth, r->u);
  return TC_OK;
}

int tci_bfb_step_solve_glpk(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, double *U, double *x,
                           tc_error *err) {
  int rc = check_step(r, t, err);
  if (rc) return rc;
  const tci_bfb_step *st = &r->step[t - 1];
  double *coef = malloc((size_t)(r->narcs ? r->narcs : 1) * sizeof *coef);
  double *offset = calloc((size_t)(r->narcs ? r->narcs : 1), sizeof *offset);
  if (!coef || !offset) rc = tc_error_set(err, TC_ENOMEM, "bfb-glpk: out of memory");
  for (int32_t a = 0; !rc && a < r->narcs; a++) coef[a] = 1.0 / (double)g->cap[r->arc[a]];
  step_lp s = {0};
  if (!rc) rc = step_lp_build(&s, r, st, coef, offset, NULL, err);
  if (!rc) rc = step_lp_solve(&s, r->u, t, err);
  if (!rc) {
    *U = glp_get_obj_val(s.lp);
    for (int64_t e = 0; x && e < st->allow_off[st->njobs]; e++) x[e] = glp_get_col_prim(s.lp, (int)(2 + e));
  }
  step_lp_free(&s);
  free(coef);
  free(offset);
  return rc;
}

int tci_bfb_optima_glpk(const tc_graph *g, double **U, int32_t *diameter, tc_error *err) {
  *U = NULL;
  *diameter = 0;
  if (!g) return tc_error_set(err, TC_EINPUT, "bfb-glpk: no graph given");
  int32_t D = 0;
  int rc = tc_graph_diameter(g, &D, err);
  if (!rc && D < 0) rc = tc_error_set(err, TC_EINPUT, "bfb: graph is not strongly connected");
  if (!rc && D > 0 && !(*U = calloc((size_t)g->n * (size_t)D, sizeof **U)))
    rc = tc_error_set(err, TC_ENOMEM, "bfb-glpk: out of memory");
  /* One receiver at a time: memory stays at one receiver's problems. */
  for (int32_t u = 0; !rc && D > 0 && u < g->n; u++) {
    tci_bfb_receiver r;
    rc = tci_bfb_receiver_build(g, u, &r, err);
    for (int32_t t = 1; !rc && t <= r.depth; t++)
      rc = tci_bfb_step_solve_glpk(g, &r, t, &(*U)[(int64_t)u * D + t - 1], NULL, err);
    tci_bfb_receiver_destroy(&r);
  }
  if (rc) {
    free(*U);
    *U = NULL;
    return rc;
  }
  *diameter = D;
  return TC_OK;
}

/* ---- heterogeneous links, LP (14) ---------------------------------------------------- */

void tci_bfb_hetero_step_destroy(tci_bfb_hetero_step *s) {
  free(s->load);
  free(s->dropped);
  free(s->x);
  memset(s, 0, sizeof *s);
}

static int check_hetero_inputs(const tc_graph *g, const double *alpha, const double *bw, double shard_bytes,
                               tc_error *err) {
  if (!alpha || !bw) return tc_error_set(err, TC_EINPUT, "bfb-hetero: per-arc alpha and bandwidth arrays are required");
  if (!(shard_bytes > 0) || !isfinite(shard_bytes))
    return tc_error_set(err, TC_EINPUT, "bfb-hetero: shard size must be a positive number of bytes");
  for (int64_t a = 0; a < g->m; a++) {
    if (!(alpha[a] >= 0) || !isfinite(alpha[a]))
      return tc_error_set(err, TC_EINPUT, "bfb-hetero: arc %lld (%d -> %d) has latency %g (must be finite and >= 0)",
                          (long long)a, g->src[a], g->dst[a], alpha[a]);
    if (!(bw[a] > 0) || !isfinite(bw[a]))
      return tc_error_set(err, TC_EINPUT, "bfb-hetero: arc %lld (%d -> %d) has bandwidth %g (must be finite and > 0)",
                          (long long)a, g->src[a], g->dst[a], bw[a]);
  }
  return TC_OK;
}

/* Relative tolerance for "carries nothing" and "alpha alone sets U". */
#define HETERO_TOL 1e-9

int tci_bfb_hetero_step_solve(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, const double *alpha,
                             const double *bw, double shard_bytes, tci_bfb_hetero_step *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_step(r, t, err);
  if (!rc) rc = check_hetero_inputs(g, alpha, bw, shard_bytes, err);
  if (rc) return rc;
  const tci_bfb_step *st = &r->step[t - 1];
  int64_t entries = st->allow_off[st->njobs];
  size_t na = (size_t)(r->narcs ? r->narcs : 1);
  double *coef = malloc(na * sizeof *coef), *offset = malloc(na * sizeof *offset);
  out->load = calloc(na, sizeof *out->load);
  out->dropped = calloc(na, 1);
  out->x = calloc((size_t)(entries ? entries : 1), sizeof *out->x);
  if (!coef || !offset || !out->load || !out->dropped || !out->x) rc = tc_error_set(err, TC_ENOMEM, "bfb-hetero: out of memory");
  for (;;) {
    if (rc) break;
    /* Work in a unit where the slowest single-shard time of a remaining arc is 1, so GLPK
       sees O(1) numbers (a deleted huge alpha must not shrink the others to noise). */
    double unit = 0;
    for (int32_t a = 0; a < r->narcs; a++)
      if (!out->dropped[a]) unit = fmax(unit, alpha[r->arc[a]] + shard_bytes / bw[r->arc[a]]);
    for (int32_t a = 0; a < r->narcs; a++) {
      coef[a] = shard_bytes / bw[r->arc[a]] / unit;
      offset[a] = alpha[r->arc[a]] / unit;
    }
    step_lp s;
    rc = step_lp_build(&s, r, st, coef, offset, out->dropped, err);
    if (!rc) rc = step_lp_solve(&s, r->u, t, err);
    if (!rc) {
      double U = glp_get_obj_val(s.lp);
      memset(out->load, 0, na * sizeof *out->load);
      for (int64_t e = 0; e < entries; e++) {
        out->x[e] = glp_get_col_prim(s.lp, (int)(2 + e));
        out->load[st->allow[e]] += out->x[e];
      }
      out->time = U * unit;
      /* An idle arc whose latency alone reaches U should not pay it: delete and re-solve. */
      int deleted = 0;
      for (int32_t a = 0; a < r->narcs; a++)
        if (!out->dropped[a] && out->load[a] <= HETERO_TOL && offset[a] >= U - HETERO_TOL * (U > 1 ? U : 1)) {
          out->dropped[a] = 1;
          deleted = 1;
        }
      step_lp_free(&s);
      if (!deleted) break;
      out->resolves++;
      continue;
    }
    step_lp_free(&s);
  }
  free(coef);
  free(offset);
  if (rc) tci_bfb_hetero_step_destroy(out);
  return rc;
}

int tc_bfb_hetero_time(const tc_graph *g, const double *alpha, const double *bw, double shard_bytes, double *time_s,
                       tc_error *err) {
  *time_s = 0;
  if (!g) return tc_error_set(err, TC_EINPUT, "bfb-hetero: no graph given");
  int rc = check_hetero_inputs(g, alpha, bw, shard_bytes, err);
  double *step_max = calloc((size_t)g->n + 1, sizeof *step_max);
  if (!rc && !step_max) rc = tc_error_set(err, TC_ENOMEM, "bfb-hetero: out of memory");
  int32_t D = 0;
  for (int32_t u = 0; !rc && u < g->n; u++) {
    tci_bfb_receiver r;
    rc = tci_bfb_receiver_build(g, u, &r, err);
    if (rc) break;
    for (int32_t t = 1; !rc && t <= r.depth; t++) {
      tci_bfb_hetero_step s;
      rc = tci_bfb_hetero_step_solve(g, &r, t, alpha, bw, shard_bytes, &s, err);
      if (rc) break;
      if (s.time > step_max[t]) step_max[t] = s.time;
      tci_bfb_hetero_step_destroy(&s);
    }
    if (r.depth > D) D = r.depth;
    tci_bfb_receiver_destroy(&r);
  }
  for (int32_t t = 1; !rc && t <= D; t++) *time_s += step_max[t];
  free(step_max);
  return rc;
}
