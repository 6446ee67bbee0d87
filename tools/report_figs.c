/*
** report_figs.c — the report's figures (contract in report_figs.h). Each figure states in
** its caption what to read from it; the numbers come from plan.json, the schedule file and
** the user's saved results, never from a second model: every curve's time is tc_cost_time.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_figs.h"
#include "report_svg.h"
#include "topocoll/units.h"

enum { WIDTH = 720, HEIGHT = 380, POINTS = 41 };

/* ---- formatting ---- */

static void fmt_size(double v, char *buf, size_t n) { tc_units_format_size((int64_t)llround(v), buf, n); }
static void fmt_time(double v, char *buf, size_t n) { tc_units_format_time(v, 0, buf, n); }
static void fmt_bw(double v, char *buf, size_t n) { snprintf(buf, n, "%.4g GB/s", v * 1e-9); }
static void fmt_num(double v, char *buf, size_t n) { snprintf(buf, n, "%.4g", v); }

static void figure_open(FILE *fp, const char *id, const char *title) {
  fprintf(fp, "<figure id=\"%s\">\n<h2>", id);
  tc_svg_escape(fp, title);
  fputs("</h2>\n", fp);
}

static void figure_close(FILE *fp, const char *caption) {
  fputs("<figcaption>", fp);
  tc_svg_escape(fp, caption);
  fputs("</figcaption>\n</figure>\n", fp);
}

/* Powers of ten around lo..hi. */
static void decades(double *lo, double *hi) {
  *lo = pow(10, floor(log10(*lo)));
  *hi = pow(10, ceil(log10(*hi)));
  if (*hi <= *lo) *hi = *lo * 10;
}

void tc_report_size_range(const tc_report_plan *p, double *lo, double *hi) {
  *lo = 1e3;
  *hi = 1e9;
  for (int i = 0; i < p->nsizes; i++) {
    if (p->bytes[i] / 10 < *lo) *lo = p->bytes[i] / 10;
    if (p->bytes[i] * 10 > *hi) *hi = p->bytes[i] * 10;
  }
  decades(lo, hi);
}

/* Bars are numbered 1, 2, ...: no label between them. */
static void fmt_index(double v, char *buf, size_t n) {
  if (v == floor(v)) snprintf(buf, n, "%.0f", v);
  else if (n) buf[0] = '\0';
}

/* ---- the frontier ---- */

void tc_report_fig_frontier(FILE *fp, const tc_report_plan *p) {
  int n = p->nmembers;
  if (n == 0) return;
  double *x = calloc(2 * (size_t)n, sizeof *x), *y = x ? x + n : NULL;
  if (!x) return;
  double bx = p->bound_steps, by = tc_rat_to_double(p->bound_tau);
  double xlo = bx, xhi = bx, yhi = by;
  int chosen = -1;
  for (int i = 0; i < n; i++) {
    x[i] = p->member[i].steps;
    y[i] = tc_rat_to_double(p->member[i].tau);
    if (p->member[i].chosen) chosen = i;
    xlo = fmin(xlo, x[i]);
    xhi = fmax(xhi, x[i]);
    yhi = fmax(yhi, y[i]);
  }
  figure_open(fp, "fig-frontier", "Pareto frontier: T_L against T_B (paper 000 Table 7)");
  tc_svg_plot pl;
  tc_svg_axis ax = {xlo - 1 < 0 ? 0 : xlo - 1, xhi + 1, 0, 0, 0}, ay = {0, yhi * 1.15, 0, 0, 0};
  /* the legend below the plot: inside, top left, it ran into the Moore bound's label */
  tc_svg_plot_begin(&pl, fp, "plot-frontier", WIDTH, HEIGHT, 2, ax, ay, "allgather T_L / alpha (steps)",
                    "allgather T_B / (M/B)", fmt_num, fmt_num);
  tc_svg_vline(&pl, bx, "T_L* (Moore bound)");
  tc_svg_hline(&pl, by, "T_B* = (N-1)/N");
  tc_svg_series(&pl, "frontier members", 0, x, y, n, 1, 1, 0, fmt_num, fmt_num);
  if (chosen >= 0) {
    char name[300];
    snprintf(name, sizeof name, "chosen: %s", p->member[chosen].spec);
    tc_svg_series(&pl, name, 1, &x[chosen], &y[chosen], 1, 0, 1, 0, fmt_num, fmt_num);
    const char *names[2] = {"frontier members", name};
    int colors[2] = {0, 1};
    tc_svg_legend(&pl, names, colors, NULL, 2);
  }
  tc_svg_plot_end(&pl);
  fputs("<table class=\"frontier\"><tr><th>topology</th><th>class</th><th>T_L / alpha</th><th>T_B / (M/B)</th>"
        "<th>all-to-all f</th></tr>\n", fp);
  for (int i = 0; i < n; i++) {
    const tc_plan_json_member *m = &p->member[i];
    fprintf(fp, "<tr%s><td>", i == chosen ? " class=\"chosen\"" : "");
    tc_svg_escape(fp, m->spec);
    fputs("</td><td>", fp);
    tc_svg_escape(fp, m->label);
    fprintf(fp, "</td><td>%lld</td><td>%lld/%lld</td><td>", (long long)m->steps, (long long)m->tau.num,
            (long long)m->tau.den);
    if (m->has_a2a_f) fprintf(fp, "%lld/%lld", (long long)m->a2a_f.num, (long long)m->a2a_f.den);
    else fputs("-", fp);
    fputs("</td></tr>\n", fp);
  }
  fputs("</table>\n", fp);
  figure_close(fp, "Read: each point is a Pareto-efficient topology as the finder predicts its allgather; lower "
                   "left is faster, no topology crosses the dashed bounds, and the red point is the one chosen "
                   "for your sizes.");
  free(x);
}

/* ---- time and algorithmic bandwidth against message size ---- */

/* Where the pipelining depth " P=<digits>" sits in a curve's name (the baselines of one
   algorithm at several depths differ by it alone), else NULL. */
static const char *depth_at(const char *name) {
  for (const char *d = strstr(name, " P="); d; d = strstr(d + 1, " P="))
    if (d[3] >= '0' && d[3] <= '9') return d;
  return NULL;
}

/* The name of a curve without its depth: "dbt P=2 on X" and "dbt on X" are both "dbt on X". */
static void family_of(const char *name, char *out, size_t n) {
  const char *d = depth_at(name);
  if (!d) {
    snprintf(out, n, "%s", name);
    return;
  }
  const char *rest = d + 3;
  while (*rest >= '0' && *rest <= '9') rest++;
  snprintf(out, n, "%.*s%s", (int)(d - name), name, rest);
}

/* The curve time (algbw 0) or algbw at size x. */
static double curve_value(const tc_report_plan *p, const tc_report_curve *k, double x, int algbw) {
  double t = tc_cost_time(&k->cost, p->alpha_s, p->link_bw, x);
  return algbw ? x / t : t;
}

/* One legend entry. */
typedef struct entry {
  char name[sizeof ((tc_report_curve *)0)->name + 64];
  int color, hidden;
} entry;

void tc_report_fig_curves(FILE *fp, const tc_report_plan *p, int algbw) {
  if (p->ncurves == 0) return;
  double lo, hi;
  tc_report_size_range(p, &lo, &hi);
  int n = p->ncurves;
  double xs[POINTS], *ys = malloc((size_t)n * POINTS * sizeof *ys);
  /* family[c]: the first curve of c's family when the family has several depths, else -1 */
  int *family = malloc((size_t)n * sizeof *family);
  entry *legend = calloc((size_t)2 * n, sizeof *legend);
  if (!ys || !family || !legend) {
    free(ys);
    free(family);
    free(legend);
    return;
  }
  double ylo = INFINITY, yhi = 0;
  for (int k = 0; k < POINTS; k++) xs[k] = lo * pow(hi / lo, (double)k / (POINTS - 1));
  for (int c = 0; c < n; c++)
    for (int k = 0; k < POINTS; k++) {
      double v = curve_value(p, &p->curve[c], xs[k], algbw);
      ys[c * POINTS + k] = v;
      if (v > 0 && isfinite(v)) {
        ylo = fmin(ylo, v);
        yhi = fmax(yhi, v);
      }
    }
  for (int c = 0; c < n; c++) {
    char mine[sizeof p->curve->name], other[sizeof p->curve->name];
    int members = 0, first = -1;
    family_of(p->curve[c].name, mine, sizeof mine);
    for (int d = 0; d < n; d++) {
      family_of(p->curve[d].name, other, sizeof other);
      if (strcmp(p->curve[d].kind, "chosen") && !strcmp(mine, other)) {
        members++;
        if (first < 0) first = d;
      }
    }
    family[c] = members > 1 && strcmp(p->curve[c].kind, "chosen") ? first : -1;
  }
  if (!(yhi > 0)) {
    free(ys);
    free(family);
    free(legend);
    return;
  }
  decades(&ylo, &yhi);
  tc_svg_format tick = algbw ? tc_svg_tick_bw : tc_svg_tick_time, value = algbw ? fmt_bw : fmt_time;
  int nl = 0; /* legend entries: every curve, and one envelope per family of depths */
  for (int c = 0; c < n; c++) nl += 1 + (family[c] == c);
  figure_open(fp, algbw ? "fig-algbw" : "fig-time",
              algbw ? "Algorithmic bandwidth against message size" : "Allreduce time against message size");
  tc_svg_plot pl;
  tc_svg_axis ax = {lo, hi, 1, 0, 0}, ay = {ylo, yhi, 1, 0, 0};
  tc_svg_plot_begin(&pl, fp, algbw ? "plot-algbw" : "plot-time", WIDTH, HEIGHT, nl <= 24 ? nl : 0, ax, ay,
                    "message size M", algbw ? "algbw = M / time" : "predicted allreduce time", fmt_size, tick);
  for (int i = 0; i < p->nsizes; i++) {
    char label[64];
    fmt_size(p->bytes[i], label, sizeof label);
    tc_svg_vline(&pl, p->bytes[i], label);
  }
  int ne = 0;
  for (int c = 0; c < n; c++) {
    const tc_report_curve *k = &p->curve[c];
    int chosen = !strcmp(k->kind, "chosen"), color = chosen ? 1 : c + 1;
    double wx[64], wy[64]; /* the workload's sizes, marked on each curve with their values */
    for (int i = 0; i < p->nsizes; i++) wx[i] = p->bytes[i];
    if (family[c] == c) {
      /* a family of depths: first its lower envelope — the best depth at each size, which
         is the one an implementation tuned per size would run — drawn and listed */
      double env[POINTS];
      for (int i = 0; i < p->nsizes; i++) wy[i] = curve_value(p, k, wx[i], algbw);
      for (int q = 0; q < POINTS; q++) env[q] = ys[c * POINTS + q];
      for (int d = c + 1; d < n; d++) {
        if (family[d] != c) continue;
        for (int q = 0; q < POINTS; q++)
          env[q] = algbw ? fmax(env[q], ys[d * POINTS + q]) : fmin(env[q], ys[d * POINTS + q]);
        for (int i = 0; i < p->nsizes; i++) {
          double v = curve_value(p, &p->curve[d], wx[i], algbw);
          wy[i] = algbw ? fmax(wy[i], v) : fmin(wy[i], v);
        }
      }
      entry *e = &legend[ne++];
      char base[sizeof k->name];
      family_of(k->name, base, sizeof base);
      const char *sp = strchr(base, ' '); /* "dbt on X" -> "dbt (best ...) on X" */
      snprintf(e->name, sizeof e->name, "%.*s (best pipelining depth at each size)%s",
               sp ? (int)(sp - base) : (int)strlen(base), base, sp ? sp : "");
      e->color = color;
      tc_svg_series(&pl, e->name, color, xs, env, POINTS, 1, 0, 0, fmt_size, value);
      tc_svg_series(&pl, e->name, color, wx, wy, p->nsizes, 0, 1, 0, fmt_size, value);
    }
    /* a depth of a family: hidden until its legend entry is clicked, dashed, in its own colour */
    pl.hidden = family[c] >= 0;
    if (pl.hidden) color = c + 2;
    for (int i = 0; i < p->nsizes; i++) wy[i] = curve_value(p, k, wx[i], algbw);
    tc_svg_series(&pl, k->name, color, xs, ys + c * POINTS, POINTS, 1, 0,
                  pl.hidden || (!chosen && !strcmp(k->kind, "member")), fmt_size, value);
    tc_svg_series(&pl, k->name, color, wx, wy, p->nsizes, 0, 1, 0, fmt_size, value);
    pl.hidden = 0;
    snprintf(legend[ne].name, sizeof legend[ne].name, "%s", k->name);
    legend[ne].color = color;
    legend[ne++].hidden = family[c] >= 0;
  }
  /* the legend: shown curves first, then the hidden depths */
  const char *names[128];
  int colors[128], hidden[128], m = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < ne && m < 128; i++)
      if (legend[i].hidden == pass) {
        names[m] = legend[i].name;
        colors[m] = legend[i].color;
        hidden[m++] = pass;
      }
  if (nl <= 24) tc_svg_legend(&pl, names, colors, hidden, m);
  tc_svg_plot_end(&pl);
  int families = 0;
  for (int c = 0; c < n; c++) families += family[c] == c;
  fputs("<figcaption>", fp);
  tc_svg_escape(fp, algbw ? "Read: higher is better; where two curves cross, the lead changes hands (paper 000 "
                            "§5.4); the dotted lines are your workload's sizes."
                          : "Read: lower is better; at small sizes the step count T_L decides, at large ones the "
                            "bandwidth term T_B; the dotted lines are your workload's sizes, where the markers "
                            "give each allreduce's time.");
  if (families)
    tc_svg_escape(fp, " A baseline run at several pipelining depths P is one curve, its best depth at each size (the "
                      "lower envelope of its depths' times, what a per-size tuned implementation runs); each depth "
                      "alone is listed dimmed below it, hidden until clicked.");
  tc_svg_escape(fp, " Click a legend entry to hide or show a curve.");
  fputs("</figcaption>\n</figure>\n", fp);
  free(ys);
  free(family);
  free(legend);
}

/* ---- link utilisation ---- */

int tc_report_utilisation(const tc_graph *g, const tc_schedule *s, double **out, tc_error *err) {
  *out = NULL;
  int32_t steps = s->steps;
  double *u = calloc((size_t)g->m * (steps > 0 ? steps : 1), sizeof *u);
  double *most = calloc((size_t)(steps > 0 ? steps : 1), sizeof *most);
  if (!u || !most) {
    free(u);
    free(most);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    if (x->step < 1 || x->step > steps || x->arc < 0 || x->arc >= g->m) continue;
    u[x->arc * steps + x->step - 1] += (double)(x->hi - x->lo) / (double)s->units / (double)g->cap[x->arc];
  }
  for (int64_t a = 0; a < g->m; a++)
    for (int32_t t = 0; t < steps; t++) most[t] = fmax(most[t], u[a * steps + t]);
  for (int64_t a = 0; a < g->m; a++)
    for (int32_t t = 0; t < steps; t++) u[a * steps + t] = most[t] > 0 ? u[a * steps + t] / most[t] : 0;
  free(most);
  *out = u;
  return TC_OK;
}

int tc_report_heat_rows(int64_t m, int64_t *per) {
  *per = (m + TC_REPORT_HEAT_ROWS - 1) / TC_REPORT_HEAT_ROWS;
  if (*per < 1) *per = 1;
  return (int)((m + *per - 1) / *per);
}

int tc_report_fig_heatmap(FILE *fp, const tc_graph *g, const tc_schedule *s, const char *file, tc_error *err) {
  double *u;
  int rc = tc_report_utilisation(g, s, &u, err);
  if (rc) return rc;
  int32_t steps = s->steps;
  int64_t per;
  int rows = tc_report_heat_rows(g->m, &per);
  char **names = calloc((size_t)rows + 1, sizeof *names);
  char *text = malloc((size_t)rows * 48 + 1);
  double *v = calloc((size_t)rows * (steps > 0 ? steps : 1), sizeof *v);
  if (!names || !text || !v) {
    free(u);
    free(names);
    free(text);
    free(v);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  /* a row is one arc, or the mean of `per` consecutive arcs (sorted by source) */
  for (int r = 0; r < rows; r++) {
    int64_t a0 = r * per, a1 = a0 + per < g->m ? a0 + per : g->m;
    names[r] = text + (size_t)r * 48;
    if (per == 1) snprintf(names[r], 48, "%d->%d", g->src[a0], g->dst[a0]);
    else snprintf(names[r], 48, "arcs %lld-%lld (from %d-%d)", (long long)a0, (long long)a1 - 1, g->src[a0], g->src[a1 - 1]);
    for (int32_t t = 0; t < steps; t++) {
      double sum = 0;
      for (int64_t a = a0; a < a1; a++) sum += u[a * steps + t];
      v[(size_t)r * steps + t] = sum / (double)(a1 - a0);
    }
  }
  figure_open(fp, "fig-links", "Link utilisation per step of the chosen allgather");
  fputs("<p class=\"note\">From ", fp);
  tc_svg_escape(fp, file);
  fprintf(fp, ": %d steps on %lld links", steps, (long long)g->m);
  if (per > 1) fprintf(fp, "; each row is the mean of %lld consecutive links (hover for which)", (long long)per);
  fputs(".</p>\n", fp);
  int height = rows <= 64 ? 24 + 12 * rows : 720;
  tc_svg_heatmap(fp, "plot-links", WIDTH, height + 56, rows, steps, v, (const char *const *)names, "step");
  figure_close(fp, "Read: one row per link, one column per step; dark is as busy as the step's busiest link, white "
                   "idle. A column that is dark all down uses every link; pale cells are bandwidth left on the table.");
  free(names);
  free(text);
  free(v);
  free(u);
  return TC_OK;
}

/* ---- the user's results ---- */

static double get_num(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The (size, time) points of a results array: time_key per entry. Returns how many. */
static int points_of(json_t *results, const char *time_key, double *x, double *y, int max) {
  int n = 0;
  for (size_t i = 0; i < json_array_size(results) && n < max; i++) {
    json_t *r = json_array_get(results, i);
    double s = get_num(r, "size_bytes"), t = get_num(r, time_key);
    if (s > 0 && t > 0) {
      x[n] = s;
      y[n] = t;
      n++;
    }
  }
  return n;
}

void tc_report_fig_measured(FILE *fp, const tc_report_plan *p, const tc_doc *docs, int ndocs) {
  int any = 0;
  for (int i = 0; i < ndocs; i++) any |= docs[i].kind == TC_DOC_RUN || docs[i].kind == TC_DOC_SIMULATE;
  if (!any) return;
  enum { MAXP = 256 };
  double x[MAXP], y[MAXP];
  double lo, hi, tlo = INFINITY, thi = 0;
  tc_report_size_range(p, &lo, &hi);
  for (int i = 0; i < ndocs; i++) {
    if (docs[i].kind != TC_DOC_RUN && docs[i].kind != TC_DOC_SIMULATE) continue;
    int n = points_of(json_object_get(docs[i].root, "results"), docs[i].kind == TC_DOC_RUN ? "time_s" : "sim_time_s",
                      x, y, MAXP);
    for (int k = 0; k < n; k++) {
      lo = fmin(lo, x[k]);
      hi = fmax(hi, x[k]);
      tlo = fmin(tlo, y[k]);
      thi = fmax(thi, y[k]);
    }
  }
  const tc_report_curve *chosen = NULL;
  for (int c = 0; c < p->ncurves; c++)
    if (!strcmp(p->curve[c].kind, "chosen")) chosen = &p->curve[c];
  double xs[POINTS], ys[POINTS];
  decades(&lo, &hi);
  for (int k = 0; k < POINTS; k++) {
    xs[k] = lo * pow(hi / lo, (double)k / (POINTS - 1));
    ys[k] = chosen ? tc_cost_time(&chosen->cost, p->alpha_s, p->link_bw, xs[k]) : NAN;
    if (ys[k] > 0) {
      tlo = fmin(tlo, ys[k]);
      thi = fmax(thi, ys[k]);
    }
  }
  if (!(thi > 0)) return;
  decades(&tlo, &thi);
  figure_open(fp, "fig-measured", "Simulated and measured times over the model");
  tc_svg_plot pl;
  tc_svg_axis ax = {lo, hi, 1, 0, 0}, ay = {tlo, thi, 1, 0, 0};
  int rows = 1; /* the model, then each file and its fit */
  for (int i = 0; i < ndocs; i++) rows += docs[i].kind == TC_DOC_RUN ? 1 : docs[i].kind == TC_DOC_SIMULATE ? 2 : 0;
  tc_svg_plot_begin(&pl, fp, "plot-measured", WIDTH, HEIGHT, rows < 30 ? rows : 30, ax, ay, "message size M", "time",
                    fmt_size, tc_svg_tick_time);
  const char *names[32];
  int colors[32], nl = 0;
  if (chosen) {
    tc_svg_series(&pl, "model: chosen allreduce", 1, xs, ys, POINTS, 1, 0, 0, fmt_size, fmt_time);
    names[nl] = "model: chosen allreduce";
    colors[nl++] = 1;
  }
  char labels[32][300];
  for (int i = 0; i < ndocs && nl < 30; i++) {
    if (docs[i].kind != TC_DOC_RUN && docs[i].kind != TC_DOC_SIMULATE) continue;
    int sim = docs[i].kind == TC_DOC_SIMULATE;
    int n = points_of(json_object_get(docs[i].root, "results"), sim ? "sim_time_s" : "time_s", x, y, MAXP);
    snprintf(labels[nl], sizeof labels[nl], "%s: %s", sim ? "simulated" : "measured", docs[i].name);
    tc_svg_series(&pl, labels[nl], nl + 2, x, y, n, 0, 1, 0, fmt_size, fmt_time);
    names[nl] = labels[nl];
    colors[nl] = nl + 2;
    nl++;
    json_t *fit = json_object_get(docs[i].root, "fit");
    double a = get_num(fit, "intercept_s"), b = get_num(fit, "slope_s_per_byte");
    if (sim && isfinite(a) && isfinite(b)) {
      double fy[POINTS];
      for (int k = 0; k < POINTS; k++) fy[k] = a + b * xs[k];
      snprintf(labels[nl], sizeof labels[nl], "alpha/beta fit: %s", docs[i].name);
      tc_svg_series(&pl, labels[nl], nl + 1, xs, fy, POINTS, 1, 0, 1, fmt_size, fmt_time);
      names[nl] = labels[nl];
      colors[nl] = nl + 1;
      nl++;
    }
  }
  tc_svg_legend(&pl, names, colors, NULL, nl);
  tc_svg_plot_end(&pl);
  figure_close(fp, "Read: the markers are what SimGrid simulated and MPI measured; the closer they sit on the "
                   "model line, the better the alpha-beta model predicts your cluster; the dashed line is the "
                   "alpha/beta fit to the simulation.");
}

void tc_report_fig_forest(FILE *fp, const tc_doc *docs, int ndocs) {
  double bw[64], bound[64];
  char label[64][200];
  int n = 0;
  for (int i = 0; i < ndocs && n < 64; i++) {
    if (docs[i].kind != TC_DOC_FOREST) continue;
    json_t *r = docs[i].root, *opt = json_object_get(r, "optimum");
    if (json_is_object(opt)) { /* forest --k-scan --json: every k against the optimum */
      json_t *scan = json_object_get(r, "k_scan");
      double best = get_num(opt, "algbw_float");
      for (size_t k = 0; k < json_array_size(scan) && n < 64; k++) {
        json_t *row = json_array_get(scan, k);
        bw[n] = get_num(row, "algbw_float");
        bound[n] = best;
        snprintf(label[n++], 200, "%s k=%lld", docs[i].name, (long long)json_integer_value(json_object_get(row, "k")));
      }
      continue;
    }
    /* a forest document: the collective's algbw against N / (1/x*), the bottleneck cut's bound */
    double nc = get_num(r, "compute_nodes");
    const char *inv = json_string_value(json_object_get(r, "inv_x"));
    long long pn = 0, pd = 1;
    double b = NAN;
    if (inv && sscanf(inv, "%lld/%lld", &pn, &pd) >= 1 && pn > 0 && pd > 0) b = nc * (double)pd / (double)pn;
    bw[n] = get_num(r, "algbw_float");
    bound[n] = b;
    snprintf(label[n++], 200, "%s (%s)", docs[i].name,
             json_string_value(json_object_get(r, "collective")) ? json_string_value(json_object_get(r, "collective")) : "?");
  }
  if (!n) return;
  double top = 0;
  for (int i = 0; i < n; i++) top = fmax(top, fmax(isfinite(bw[i]) ? bw[i] : 0, isfinite(bound[i]) ? bound[i] : 0));
  if (!(top > 0)) return;
  figure_open(fp, "fig-forest", "ForestColl: algorithmic bandwidth against the cut bound");
  tc_svg_plot pl;
  tc_svg_axis ax = {0.5, n + 0.5, 0, 0, 0}, ay = {0, top * 1.15, 0, 0, 0};
  tc_svg_plot_begin(&pl, fp, "plot-forest", WIDTH, HEIGHT, 0, ax, ay, "forest (hover a bar for its file)",
                    "algbw (x link bandwidth, or as forest printed)", fmt_index, fmt_num);
  double w = fmin((pl.x.p1 - pl.x.p0) / n * 0.6, 80);
  for (int i = 0; i < n; i++) {
    char t[300];
    snprintf(t, sizeof t, "%.199s: algbw %.6g, cut bound %.6g", label[i], bw[i], bound[i]);
    if (isfinite(bw[i])) tc_svg_bar(&pl, i + 1, bw[i], w, 0, t);
    if (isfinite(bound[i])) {
      double y = tc_svg_pos(&pl.y, bound[i]), x = tc_svg_pos(&pl.x, i + 1);
      fprintf(fp, "<line class=\"ref\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#d62728\" "
                  "stroke-width=\"2\"/>\n", x - w / 2 - 4, y, x + w / 2 + 4, y);
    }
  }
  tc_svg_plot_end(&pl);
  figure_close(fp, "Read: each bar is ForestColl's algorithmic bandwidth and the red tick above it the bound of the "
                   "bottleneck cut; a bar that reaches its tick is throughput-optimal (paper 001).");
}

void tc_report_fig_alltoall(FILE *fp, const tc_report_plan *p, const tc_doc *docs, int ndocs) {
  int plan_has = 0, any = 0;
  for (int i = 0; i < p->nmembers; i++) plan_has |= p->member[i].has_a2a_f;
  for (int i = 0; i < ndocs; i++) any |= docs[i].kind == TC_DOC_A2A;
  if (!plan_has && !any) return;
  figure_open(fp, "fig-alltoall", "All-to-all");
  if (plan_has)
    fputs("<p class=\"note\">The plan certified each frontier member's all-to-all throughput f: the column "
          "\"all-to-all f\" of the frontier table above.</p>\n", fp);
  if (any) {
    fputs("<table class=\"a2a\"><tr><th>file</th><th>topology</th><th>f</th><th>lower bound</th><th>upper bound</th>"
          "<th>time</th></tr>\n", fp);
    for (int i = 0; i < ndocs; i++) {
      if (docs[i].kind != TC_DOC_A2A) continue;
      json_t *r = docs[i].root, *f = json_object_get(r, "f");
      char t[64] = "-", fs[64];
      if (json_is_number(json_object_get(r, "time_s"))) fmt_time(get_num(r, "time_s"), t, sizeof t);
      if (json_is_string(f)) snprintf(fs, sizeof fs, "%s", json_string_value(f));
      else snprintf(fs, sizeof fs, "%.6g", json_number_value(f));
      fputs("<tr><td>", fp);
      tc_svg_escape(fp, docs[i].name);
      fputs("</td><td>", fp);
      tc_svg_escape(fp, json_string_value(json_object_get(r, "spec")) ? json_string_value(json_object_get(r, "spec")) : "");
      fputs("</td><td>", fp);
      tc_svg_escape(fp, fs);
      fprintf(fp, "</td><td>%.6g</td><td>%.6g</td><td>%s</td></tr>\n", get_num(r, "lower_bound"),
              get_num(r, "upper_bound"), t);
    }
    fputs("</table>\n", fp);
  }
  figure_close(fp, "Read: f is the fraction of every node's link bandwidth each all-to-all pair gets at once "
                   "(paper 003); the nearer the lower and upper bounds, the tighter the certificate.");
}

/* The timeline's y ticks name its lanes: communication in 0..1, compute in 1..2. */
static void fmt_lane(double v, char *buf, size_t n) {
  snprintf(buf, n, "%s", v == 0.5 ? "comm" : v == 1.5 ? "compute" : "");
}

void tc_report_fig_train(FILE *fp, const tc_doc *doc) {
  json_t *r = doc->root, *tl = json_object_get(r, "timeline");
  double end = get_num(r, "iteration_time_s");
  for (size_t i = 0; i < json_array_size(tl); i++) end = fmax(end, get_num(json_array_get(tl, i), "end_s"));
  if (!(end > 0)) return;
  figure_open(fp, "fig-train", "One training iteration (paper 000 Fig. 16)");
  char a[64], b[64], c[64], d[64];
  fmt_time(get_num(r, "iteration_time_s"), a, sizeof a);
  fmt_time(get_num(r, "compute_s"), b, sizeof b);
  fmt_time(get_num(r, "allreduce_exposed_s"), c, sizeof c);
  fmt_time(get_num(r, "alltoall_s"), d, sizeof d);
  fputs("<p class=\"note\">From ", fp);
  tc_svg_escape(fp, doc->name);
  fprintf(fp, ": iteration <span class=\"num\" data-key=\"iteration_time_s\">%s</span>, compute %s, exposed "
              "allreduce %s, all-to-all %s.</p>\n", a, b, c, d);
  tc_svg_plot pl;
  tc_svg_axis ax = {0, end, 0, 0, 0}, ay = {0, 2, 0, 0, 0};
  tc_svg_plot_begin(&pl, fp, "plot-train", WIDTH, 200, 4, ax, ay, "time in the iteration", "lane",
                    tc_svg_tick_time, fmt_lane);
  static const char *const kinds[] = {"forward", "backward", "allreduce", "alltoall"};
  for (size_t i = 0; i < json_array_size(tl); i++) {
    json_t *e = json_array_get(tl, i);
    const char *stream = json_string_value(json_object_get(e, "stream"));
    const char *kind = json_string_value(json_object_get(e, "kind"));
    double s = get_num(e, "start_s"), t = get_num(e, "end_s");
    if (!stream || !kind || !(t >= s)) continue;
    int comm = !strcmp(stream, "comm"), color = 7;
    for (int k = 0; k < 4; k++)
      if (!strcmp(kind, kinds[k])) color = k;
    double top = tc_svg_pos(&pl.y, comm ? 1 : 2) + 6, h = tc_svg_pos(&pl.y, 0) - tc_svg_pos(&pl.y, 1) - 12;
    char title[200], ts[64], te[64];
    fmt_time(s, ts, sizeof ts);
    fmt_time(t, te, sizeof te);
    snprintf(title, sizeof title, "%s layer %lld: %s .. %s", kind, (long long)json_integer_value(json_object_get(e, "layer")),
             ts, te);
    tc_svg_span(&pl, s, t, top, h, color, title);
  }
  const int colors[4] = {0, 1, 2, 3};
  tc_svg_legend(&pl, kinds, colors, NULL, 4);
  tc_svg_plot_end(&pl);
  figure_close(fp, "Read: the upper lane is compute, the lower communication; communication that runs under "
                   "compute is hidden, what sticks out past the last backward pass is the exposed time.");
}
