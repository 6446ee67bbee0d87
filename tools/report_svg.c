/*
** report_svg.c — the report's SVG writer (contract in report_svg.h). Plain fprintf of
** elements: the page needs a few dozen shapes per plot, positions computed here, so a
** plotting program would add a process and a parser for nothing the tests could check.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_svg.h"

/* Margins of a plot's data area, in pixels. */
enum { LEFT = 78, RIGHT = 16, TOP = 12, BOTTOM = 44 };

double tc_svg_pos(const tc_svg_axis *a, double v) {
  double lo = a->lo, hi = a->hi;
  if (a->log) {
    lo = log10(lo);
    hi = log10(hi);
    v = log10(v);
  }
  double f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
  return a->p0 + f * (a->p1 - a->p0);
}

int tc_svg_ticks(const tc_svg_axis *a, double *out, int max) {
  int n = 0;
  if (a->log) {
    /* a small tolerance, so that lo = 1e-6 computed as 9.99e-7 still has its tick */
    for (int k = (int)ceil(log10(a->lo) - 1e-9); k <= (int)floor(log10(a->hi) + 1e-9) && n < max; k++)
      out[n++] = pow(10, k);
    return n;
  }
  double span = a->hi - a->lo;
  if (!(span > 0)) {
    if (max > 0) out[n++] = a->lo;
    return n;
  }
  double unit = pow(10, floor(log10(span)) - 1);
  static const double mult[] = {1, 2, 5, 10, 20, 50, 100};
  double step = unit * 100;
  for (size_t i = 0; i < sizeof mult / sizeof mult[0]; i++)
    if (floor(a->hi / (unit * mult[i]) + 1e-9) - ceil(a->lo / (unit * mult[i]) - 1e-9) + 1 <= 6) {
      step = unit * mult[i];
      break;
    }
  for (double k = ceil(a->lo / step - 1e-9); k * step <= a->hi * (1 + 1e-12) + 1e-300 && n < max; k++)
    out[n++] = k * step == 0 ? 0 : k * step;
  return n;
}

/* v in the largest of the units (ascending scales) it reaches, in the fewest digits that
   still say it exactly: "%.6g" drops the trailing zeros and the noise of v / scale
   (1e-4 / 1e-6 = 100.00000000000001 is "100"). */
static void scaled(double v, const double *scale, const char *const *unit, int n, char *buf, size_t size) {
  if (v == 0) {
    snprintf(buf, size, "0");
    return;
  }
  int u = 0;
  while (u + 1 < n && fabs(v) >= scale[u + 1] * (1 - 1e-9)) u++;
  snprintf(buf, size, "%.6g %s", v / scale[u], unit[u]);
}

void tc_svg_tick_time(double v, char *buf, size_t size) {
  static const double scale[] = {1e-9, 1e-6, 1e-3, 1};
  static const char *const unit[] = {"ns", "us", "ms", "s"};
  scaled(v, scale, unit, 4, buf, size);
}

void tc_svg_tick_bw(double v, char *buf, size_t size) {
  static const double scale[] = {1, 1e3, 1e6, 1e9, 1e12};
  static const char *const unit[] = {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"};
  scaled(v, scale, unit, 5, buf, size);
}

void tc_svg_escape(FILE *fp, const char *s) {
  for (; *s; s++) switch (*s) {
    case '&': fputs("&amp;", fp); break;
    case '<': fputs("&lt;", fp); break;
    case '>': fputs("&gt;", fp); break;
    case '"': fputs("&quot;", fp); break;
    case '\'': fputs("&#39;", fp); break;
    default: fputc(*s, fp);
    }
}

const char *tc_svg_color(int i) {
  static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return palette[(i < 0 ? -i : i) % 10];
}

void tc_svg_plot_begin(tc_svg_plot *pl, FILE *fp, const char *id, int width, int height, int legend_rows,
                       tc_svg_axis x, tc_svg_axis y, const char *xlabel, const char *ylabel, tc_svg_format xfmt,
                       tc_svg_format yfmt) {
  pl->fp = fp;
  pl->hidden = 0;
  pl->legend_rows = legend_rows;
  pl->width = width;
  pl->height = height;
  pl->x = x;
  pl->y = y;
  pl->x.p0 = LEFT;
  pl->x.p1 = width - RIGHT;
  pl->y.p0 = height - BOTTOM;
  pl->y.p1 = TOP;
  fprintf(fp, "<svg id=\"%s\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
              "viewBox=\"0 0 %d %d\">\n", id, width, height + 14 * legend_rows, width, height + 14 * legend_rows);
  fprintf(fp, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
          LEFT, TOP, width - LEFT - RIGHT, height - TOP - BOTTOM);
  double t[64];
  char buf[64];
  int n = tc_svg_ticks(&pl->x, t, 64);
  for (int i = 0; i < n; i++) {
    double px = tc_svg_pos(&pl->x, t[i]);
    xfmt(t[i], buf, sizeof buf);
    fprintf(fp, "<g class=\"xtick\"><line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#ddd\"/>"
                "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">", px, TOP, px, height - BOTTOM, px,
            height - BOTTOM + 14);
    tc_svg_escape(fp, buf);
    fputs("</text></g>\n", fp);
  }
  n = tc_svg_ticks(&pl->y, t, 64);
  size_t widest = 0; /* characters of the longest y tick label: the axis title goes left of it */
  for (int i = 0; i < n; i++) {
    double py = tc_svg_pos(&pl->y, t[i]);
    yfmt(t[i], buf, sizeof buf);
    if (strlen(buf) > widest) widest = strlen(buf);
    fprintf(fp, "<g class=\"ytick\"><line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#ddd\"/>"
                "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" font-size=\"11\">", LEFT, py, width - RIGHT, py,
            LEFT - 4, py + 4);
    tc_svg_escape(fp, buf);
    fputs("</text></g>\n", fp);
  }
  fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">", (LEFT + width - RIGHT) / 2,
          height - 8);
  tc_svg_escape(fp, xlabel);
  /* The rotated title's glyphs reach about 10 px left of its baseline x; an 11 px label's
     characters are at most about 6.5 px wide (sans-serif digits and units). */
  int title_x = LEFT - 4 - (int)(6.5 * (double)widest) - 6;
  if (title_x < 12) title_x = 12;
  fprintf(fp, "</text>\n<text class=\"ytitle\" transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\" "
              "font-size=\"12\">", title_x, (TOP + height - BOTTOM) / 2);
  tc_svg_escape(fp, ylabel);
  fputs("</text>\n", fp);
}

void tc_svg_plot_end(tc_svg_plot *pl) { fputs("</svg>\n", pl->fp); }

static int drawable(const tc_svg_plot *pl, double x, double y) {
  return isfinite(x) && isfinite(y) && (!pl->x.log || x > 0) && (!pl->y.log || y > 0);
}

void tc_svg_series(tc_svg_plot *pl, const char *name, int color, const double *x, const double *y, int n,
                   int lines, int markers, int dashed, tc_svg_format xfmt, tc_svg_format yfmt) {
  FILE *fp = pl->fp;
  const char *c = tc_svg_color(color);
  fputs("<g class=\"series\" data-series=\"", fp);
  tc_svg_escape(fp, name);
  fputs(pl->hidden ? "\" style=\"display:none\">\n" : "\">\n", fp);
  if (lines) {
    fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"", c,
            dashed ? " stroke-dasharray=\"5,3\"" : "");
    for (int i = 0; i < n; i++)
      if (drawable(pl, x[i], y[i])) fprintf(fp, "%.2f,%.2f ", tc_svg_pos(&pl->x, x[i]), tc_svg_pos(&pl->y, y[i]));
    fputs("\"/>\n", fp);
  }
  for (int i = 0; markers && i < n; i++) {
    if (!drawable(pl, x[i], y[i])) continue;
    char bx[64], by[64];
    xfmt(x[i], bx, sizeof bx);
    yfmt(y[i], by, sizeof by);
    fprintf(fp, "<circle class=\"marker\" cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\"><title>",
            tc_svg_pos(&pl->x, x[i]), tc_svg_pos(&pl->y, y[i]), c);
    tc_svg_escape(fp, name);
    fputs(": ", fp);
    tc_svg_escape(fp, bx);
    fputs(", ", fp);
    tc_svg_escape(fp, by);
    fputs("</title></circle>\n", fp);
  }
  fputs("</g>\n", fp);
}

static void ref_label(FILE *fp, double px, double py, const char *anchor, const char *label) {
  fprintf(fp, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" fill=\"#555\" text-anchor=\"%s\">", px, py, anchor);
  tc_svg_escape(fp, label);
  fputs("</text>\n", fp);
}

void tc_svg_vline(tc_svg_plot *pl, double v, const char *label) {
  double px = tc_svg_pos(&pl->x, v);
  fprintf(pl->fp, "<line class=\"ref\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\" "
                  "stroke-dasharray=\"2,3\"/>\n", px, pl->y.p1, px, pl->y.p0);
  ref_label(pl->fp, px + 3, pl->y.p1 + 10, "start", label);
}

void tc_svg_hline(tc_svg_plot *pl, double v, const char *label) {
  double py = tc_svg_pos(&pl->y, v);
  fprintf(pl->fp, "<line class=\"ref\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\" "
                  "stroke-dasharray=\"2,3\"/>\n", pl->x.p0, py, pl->x.p1, py);
  ref_label(pl->fp, pl->x.p1 - 3, py - 3, "end", label);
}

void tc_svg_bar(tc_svg_plot *pl, double at, double v, double w, int color, const char *title) {
  double x = tc_svg_pos(&pl->x, at), y = tc_svg_pos(&pl->y, v);
  fprintf(pl->fp, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>",
          x - w / 2, y, w, pl->y.p0 - y, tc_svg_color(color));
  tc_svg_escape(pl->fp, title);
  fputs("</title></rect>\n", pl->fp);
}

void tc_svg_span(tc_svg_plot *pl, double x0, double x1, double top, double h, int color, const char *title) {
  double a = tc_svg_pos(&pl->x, x0), b = tc_svg_pos(&pl->x, x1);
  fprintf(pl->fp, "<rect class=\"span\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                  "stroke=\"#fff\" stroke-width=\"0.5\"><title>", a, top, b - a, h, tc_svg_color(color));
  tc_svg_escape(pl->fp, title);
  fputs("</title></rect>\n", pl->fp);
}

void tc_svg_legend(tc_svg_plot *pl, const char *const *names, const int *colors, const int *hidden, int n) {
  FILE *fp = pl->fp;
  int below = pl->legend_rows > 0;
  for (int i = 0; i < n; i++) {
    double y = below ? pl->height + 14 * i + 4 : pl->y.p1 + 14 + 14 * i;
    fputs("<g class=\"legend\" data-series=\"", fp);
    tc_svg_escape(fp, names[i]);
    /* opacity 0.4 is the page script's mark of a hidden series: its click shows it */
    fprintf(fp, "\" style=\"cursor:pointer%s\"><rect x=\"%.2f\" y=\"%.2f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\">", hidden && hidden[i] ? ";opacity:0.4" : "", pl->x.p0 + 8, y - 9, tc_svg_color(colors[i]),
            pl->x.p0 + 22, y);
    tc_svg_escape(fp, names[i]);
    fputs("</text></g>\n", fp);
  }
}

void tc_svg_heatmap(FILE *fp, const char *id, int width, int height, int rows, int cols, const double *value,
                    const char *const *row_name, const char *col_title) {
  fprintf(fp, "<svg id=\"%s\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
              "viewBox=\"0 0 %d %d\">\n", id, width, height, width, height);
  double cw = (double)(width - LEFT - RIGHT) / (cols > 0 ? cols : 1);
  double ch = (double)(height - TOP - BOTTOM) / (rows > 0 ? rows : 1);
  int every = rows / 24 + 1; /* at most about 24 row labels */
  /* Cells on whole pixels, each ending where the next begins, drawn without anti-aliasing:
     fractional edges left hairline seams of the white background between neighbours, which
     read as grid lines (at 6 steps they fell exactly where the size plots' decades do). */
  fputs("<g class=\"cells\" shape-rendering=\"crispEdges\">\n", fp);
  for (int r = 0; r < rows; r++) {
    if (r % every == 0) {
      fprintf(fp, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" font-size=\"9\">", LEFT - 4, TOP + (r + 0.8) * ch);
      tc_svg_escape(fp, row_name[r]);
      fputs("</text>\n", fp);
    }
    for (int c = 0; c < cols; c++) {
      double v = value[(size_t)r * cols + c];
      /* white (idle) to dark blue (as busy as the step's busiest link) */
      int shade = (int)lround(255 * (1 - (v < 0 ? 0 : v > 1 ? 1 : v)));
      long x0 = lround(LEFT + c * cw), x1 = lround(LEFT + (c + 1) * cw);
      long y0 = lround(TOP + r * ch), y1 = lround(TOP + (r + 1) * ch);
      fprintf(fp, "<rect class=\"cell\" x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%ld\" fill=\"rgb(%d,%d,255)\">"
                  "<title>", x0, y0, x1 - x0, y1 - y0, shade, shade);
      tc_svg_escape(fp, row_name[r]);
      fprintf(fp, ", %s %d: %.3g</title></rect>\n", col_title, c + 1, v);
    }
  }
  fputs("</g>\n", fp);
  for (int c = 0; c < cols; c++)
    if (cols <= 32 || c % (cols / 16 + 1) == 0)
      fprintf(fp, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%d</text>\n",
              LEFT + (c + 0.5) * cw, height - BOTTOM + 14, c + 1);
  fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">", (LEFT + width - RIGHT) / 2,
          height - 8);
  tc_svg_escape(fp, col_title);
  fputs("</text>\n</svg>\n", fp);
}
