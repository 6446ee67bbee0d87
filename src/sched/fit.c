/*
** fit.c — weighted least-squares line and the α-β cost-model fit (contract in fit.h).
**
** Sums are accumulated in long double: the centred form already avoids the cancellation
** of the textbook normal equations, and the wider accumulator keeps the few remaining
** rounding errors below what a double result can show.
*/
#include "topocoll/fit.h"

#include <math.h>
#include <stdlib.h>

int tc_fit_line_weighted(const double *x, const double *y, const double *w, int n, tc_fit_line *out, tc_error *err) {
  if (n < 2) return tc_error_set(err, TC_EINPUT, "a line fit needs at least 2 points, not %d", n);
  long double sw = 0, swx = 0, swy = 0;
  for (int i = 0; i < n; i++) {
    double wi = w ? w[i] : 1.0;
    if (!isfinite(x[i]) || !isfinite(y[i]) || !isfinite(wi) || wi < 0)
      return tc_error_set(err, TC_EINPUT, "point %d of the fit is not finite or has a negative weight", i);
    sw += wi;
    swx += (long double)wi * x[i];
    swy += (long double)wi * y[i];
  }
  if (!(sw > 0)) return tc_error_set(err, TC_EINPUT, "every point of the fit has weight 0");
  long double xm = swx / sw, ym = swy / sw, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    long double wi = w ? w[i] : 1.0, dx = x[i] - xm;
    sxx += wi * dx * dx;
    sxy += wi * dx * (y[i] - ym);
  }
  if (!(sxx > 0)) return tc_error_set(err, TC_EINPUT, "a line fit needs two distinct x values of positive weight");
  long double b = sxy / sxx;
  out->b = (double)b;
  out->a = (double)(ym - b * xm);
  return TC_OK;
}

int tc_fit_cost_model(const tc_cost *c, double alpha_s, double link_bw, const double *bytes, const double *times,
                      int n, tc_cost_fit *out, tc_error *err) {
  double tau = tc_rat_to_double(c->tau);
  if (c->steps < 1 || !(tau > 0) || c->degree < 1)
    return tc_error_set(err, TC_EINPUT, "the schedule has no steps or moves no data: nothing to fit");
  if (!(alpha_s >= 0) || !(link_bw > 0))
    return tc_error_set(err, TC_EINPUT, "the fit needs alpha >= 0 and a positive link bandwidth");
  double *w = malloc(sizeof *w * (size_t)(n > 0 ? n : 1));
  if (!w) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) {
    if (!(times[i] > 0) || !isfinite(times[i])) {
      free(w);
      return tc_error_set(err, TC_EINPUT, "time %d of the fit is %g, not a positive number of seconds", i, times[i]);
    }
    w[i] = 1.0 / (times[i] * times[i]);
  }
  int rc = tc_fit_line_weighted(bytes, times, w, n, &out->line, err);
  free(w);
  if (rc) {
    if (rc == TC_EINPUT) tc_error_prefix(err, "cost-model fit");
    return rc;
  }
  double node_bw = (double)c->degree * link_bw;
  out->alpha_s = out->line.a / c->steps;
  out->inv_bw_s_per_byte = out->line.b / tau;
  out->alpha_rel_err = alpha_s > 0 ? (out->alpha_s - alpha_s) / alpha_s : NAN;
  out->inv_bw_rel_err = out->inv_bw_s_per_byte * node_bw - 1.0;
  out->max_rel_err = 0;
  for (int i = 0; i < n; i++) {
    double rel = fabs(tc_cost_time(c, alpha_s, link_bw, bytes[i]) - times[i]) / times[i];
    if (rel > out->max_rel_err) out->max_rel_err = rel;
  }
  return TC_OK;
}
