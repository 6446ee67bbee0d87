/*
** calibration.c — α and the link bandwidth from measured times, to a file and back
** (contract in fit.h, tc_calibration; issue #14 §8: from measurement back to the plan).
**
** The fit is the α-β model's own (tc_fit_cost_model, paper 000 App. A.2): t(M) = steps·α +
** tau·M/(degree·b) is a line in M, so its intercept gives α and its slope the link
** bandwidth b, for the schedule whose cost c the times were measured on. A noisy run can
** fit a negative intercept or slope; those are refused rather than clamped, because a plan
** made with them would be fiction. The file is small JSON (docs/formats.md), written
** atomically and read strictly, so a plan never runs on a half-written or mistyped one.
*/
#include "topocoll/fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/io_atomic.h"
#include "core/json_read.h"

int tc_calibration_fit(const tc_cost *c, const double *bytes, const double *times, int n, tc_calibration *out,
                       tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_cost_fit fit;
  /* the configured α and bandwidth only feed tc_cost_fit's relative errors, unused here */
  int rc = tc_fit_cost_model(c, 0, 1, bytes, times, n, &fit, err);
  if (rc) return rc;
  if (!(fit.alpha_s >= 0))
    return tc_error_set(err, TC_EINPUT, "the measured times fit a negative alpha (%.3g s): they do not follow the "
                        "alpha-beta model; measure more sizes or more iterations", fit.alpha_s);
  if (!(fit.inv_bw_s_per_byte > 0))
    return tc_error_set(err, TC_EINPUT, "the measured times do not grow with the size (slope %.3g s/B): no "
                        "bandwidth to fit; measure larger sizes", fit.line.b);
  out->alpha_s = fit.alpha_s;
  out->link_bw = 1.0 / (fit.inv_bw_s_per_byte * (double)c->degree);
  out->sizes = n;
  for (int i = 0; i < n; i++) {
    double rel = fabs(tc_cost_time(c, out->alpha_s, out->link_bw, bytes[i]) - times[i]) / times[i];
    if (rel > out->max_rel_err) out->max_rel_err = rel;
  }
  return TC_OK;
}

/* A JSON string body: the source is a command line, so escape what JSON requires. */
static void put_string(FILE *fp, const char *s) {
  fputc('"', fp);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(fp, "\\%c", ch);
    else if (ch < 0x20) fprintf(fp, "\\u%04x", ch);
    else fputc(ch, fp);
  }
  fputc('"', fp);
}

int tc_calibration_write(const tc_calibration *cal, const char *source, const char *path, tc_error *err) {
  if (!(cal->alpha_s >= 0) || !isfinite(cal->alpha_s) || !(cal->link_bw > 0) || !isfinite(cal->link_bw))
    return tc_error_set(err, TC_EINPUT, "a calibration needs alpha >= 0 and a positive link bandwidth");
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  fprintf(af.fp, "{\n  \"format\": \"topocoll-calibration\",\n  \"version\": 1,\n  \"alpha_s\": %.17g,\n"
                 "  \"link_bw_Bps\": %.17g,\n  \"max_rel_err\": %.17g,\n  \"sizes\": %d",
          cal->alpha_s, cal->link_bw, cal->max_rel_err, (int)cal->sizes);
  if (source) {
    fputs(",\n  \"source\": ", af.fp);
    put_string(af.fp, source);
  }
  fputs("\n}\n", af.fp);
  return tci_atomic_commit(&af, err);
}

/* A finite number member >= lo (strictly above when strict). */
static int member_number(tc_json_reader *r, json_t *root, const char *key, double lo, int strict, double *out) {
  int rc = TC_OK;
  json_t *j = tci_json_require(r, root, "", key, &rc);
  if (!j) return rc;
  if (!json_is_number(j)) return tci_json_fail(r, key, "expected a number");
  double v = json_number_value(j);
  if (!isfinite(v) || v < lo || (strict && v == lo))
    return tci_json_fail(r, key, "%.17g must be %s %g", v, strict ? ">" : ">=", lo);
  *out = v;
  return TC_OK;
}

int tc_calibration_read(const char *path, tc_calibration *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_json_reader r = {.path = path, .err = err, .format = "topocoll-calibration", .version = 1};
  static const char *const known[] = {"format", "version", "alpha_s", "link_bw_Bps", "max_rel_err", "sizes", "source",
                                      NULL};
  int rc = TC_OK;
  json_t *root = tci_json_load_object(&r, &rc);
  if (!root) return rc;
  rc = tci_json_check_header(&r, root);
  if (!rc) rc = tci_json_check_keys(&r, root, "", known);
  if (!rc) rc = member_number(&r, root, "alpha_s", 0, 0, &out->alpha_s);
  if (!rc) rc = member_number(&r, root, "link_bw_Bps", 0, 1, &out->link_bw);
  json_t *e = rc ? NULL : json_object_get(root, "max_rel_err");
  if (e && !rc) rc = member_number(&r, root, "max_rel_err", 0, 0, &out->max_rel_err);
  long long sizes = 0;
  if (!rc && json_object_get(root, "sizes")) rc = tci_json_member_int(&r, root, "", "sizes", 0, INT32_MAX, &sizes);
  out->sizes = (int32_t)sizes;
  json_decref(root);
  if (rc) memset(out, 0, sizeof *out);
  return rc;
}
