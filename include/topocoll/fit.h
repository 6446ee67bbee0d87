/*
** fit.h — fitting the α-β cost model to measured (or simulated) collective times, the
** validation of paper 000 App. A.2.
**
** tc_fit_line(x, y, w, n, out): weighted least squares y ≈ a + b·x, minimising
** Σ w_i (a + b·x_i − y_i)² (w == NULL: every weight 1), solved in centred form (means
** first, then b = Σ w (x−x̄)(y−ȳ) / Σ w (x−x̄)², a = ȳ − b·x̄) so that sizes spanning nine
** decades do not cancel catastrophically. Exact data y_i = a + b·x_i give a and b back
** to rounding (exactly, when every intermediate is representable, e.g. small integers).
** Needs n >= 2, finite values, weights >= 0 and two distinct x of positive weight;
** anything else is TC_EINPUT.
**
** tc_fit_cost_model(c, alpha, link_bw, bytes, times, n, out): the A.2 method for one
** schedule whose cost is c (cost.h), run at sizes bytes[i] taking times[i] seconds.
** The model says t(M) = steps·α + tau·M/B with B = degree·link_bw, a line in M; the fit
** t ≈ a + b·M uses relative weights w_i = 1/t_i² (each size counts by its relative
** residual, so the small sizes fix a, as A.2 fits T_L on 1 KB runs, and the large ones
** fix b, as it fits T_B on 1 GB runs). Then
**     alpha_s            = a / steps            (the fitted per-step latency)
**     inv_bw_s_per_byte  = b / tau              (the fitted 1/B, B the node bandwidth)
**     alpha_rel_err      = (alpha_s − α) / α    (NAN when the configured α is 0)
**     inv_bw_rel_err     = (inv_bw_s_per_byte − 1/B) · B
**     max_rel_err        = max_i |model_i − t_i| / t_i, model_i = tc_cost_time(c, α, link_bw, M_i)
** Errors (TC_EINPUT): steps < 1 or tau == 0 (nothing to fit), a time <= 0, fewer than two
** distinct sizes, α < 0 or link_bw <= 0.
*/
#ifndef TOPOCOLL_FIT_H
#define TOPOCOLL_FIT_H

#include "topocoll/export.h"

#include "topocoll/cost.h"
#include "topocoll/error.h"

#include <stdint.h>

typedef struct tc_fit_line {
  double a; /* intercept */
  double b; /* slope */
} tc_fit_line;

TC_API int tc_fit_line_weighted(const double *x, const double *y, const double *w, int n, tc_fit_line *out,
                                tc_error *err);

typedef struct tc_cost_fit {
  tc_fit_line line;         /* t ≈ line.a + line.b · M, seconds and seconds per byte */
  double alpha_s;           /* a / steps */
  double inv_bw_s_per_byte; /* b / tau */
  double alpha_rel_err;     /* against the configured α; NAN when α == 0 */
  double inv_bw_rel_err;    /* against 1 / (degree · link_bw) */
  double max_rel_err;       /* of the model against the times */
} tc_cost_fit;

TC_API int tc_fit_cost_model(const tc_cost *c, double alpha_s, double link_bw, const double *bytes,
                             const double *times,
                             int n, tc_cost_fit *out, tc_error *err);

/* A calibration (issue #14 §8): α and the link bandwidth fitted from one schedule's measured
   times (tc_fit_cost_model's line: α = a/steps, link_bw = 1/((b/tau)·degree)), written by
   `run --calibration-out FILE` and read by `plan --calibration FILE` (docs/formats.md,
   "Calibration file"). tc_calibration_fit refuses (TC_EINPUT) times that fit a negative α
   or a bandwidth that is not positive, naming the value; max_rel_err is the fitted model's
   largest relative error against the times. The writer replaces the file atomically; the
   reader is strict (format "topocoll-calibration", version 1, alpha_s >= 0 and
   link_bw_Bps > 0 finite, no unknown keys) and names the file and key of a problem. */
typedef struct tc_calibration {
  double alpha_s;     /* fitted per-step latency (s) */
  double link_bw;     /* fitted bandwidth of one link (bytes/s) */
  double max_rel_err; /* of the fitted model against the times */
  int32_t sizes;      /* measurements fitted */
} tc_calibration;

TC_API int tc_calibration_fit(const tc_cost *c, const double *bytes, const double *times, int n,
                              tc_calibration *out, tc_error *err);
/* `source` (may be NULL) says what was measured, e.g. "run plan-16/allreduce.json". */
TC_API int tc_calibration_write(const tc_calibration *cal, const char *source, const char *path, tc_error *err);
TC_API int tc_calibration_read(const char *path, tc_calibration *out, tc_error *err);

#endif
