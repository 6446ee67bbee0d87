/*
** report_svg.h — the report's SVG writer (docs/report.md says why not gnuplot): plots on
** linear or log-log axes, series, markers, reference lines, a legend, and heatmap cells,
** written straight into the page as inline SVG.
**
** Every number drawn is a pixel position computed here from the data by tc_svg_pos, so the
** tests can assert coordinates exactly. Every name taken from data goes through
** tc_svg_escape. A series is one <g class="series" data-series="NAME">; the legend entries
** carry the same data-series, which the page's small script uses to toggle a series. Each
** marker carries a <title> with its values: hovering shows them, without JavaScript.
*/
#ifndef TC_TOOLS_REPORT_SVG_H
#define TC_TOOLS_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* One axis: data range lo..hi (log: both > 0) onto pixels p0..p1 (p1 < p0 for y). */
typedef struct tc_svg_axis {
  double lo, hi;
  int log;
  double p0, p1;
} tc_svg_axis;

/* Pixel of value v on axis a (values outside the range map outside the pixels). */
double tc_svg_pos(const tc_svg_axis *a, double v);

/* Tick values of a, ascending, at most max: on a log axis every power of ten in lo..hi;
   on a linear one the multiples of the first of 1, 2, 5 x 10^k giving at most 6 ticks.
   Returns how many. */
int tc_svg_ticks(const tc_svg_axis *a, double *out, int max);

/* Write s with & < > " ' escaped (element text and attribute values). */
void tc_svg_escape(FILE *fp, const char *s);

/* A tick label: v written for people into buf. */
typedef void (*tc_svg_format)(double v, char *buf, size_t size);

/* Tick labels in the shortest exact form, in the largest unit the value reaches: a time in
   seconds as "100 ms", "10 ms", "1 ms", "100 us", "2.5 s", "0"; a bandwidth in bytes per
   second as "100 KB/s", "10 GB/s" (decimal units). (Sizes: tc_units_format_size is already
   exact and short.) Hover titles keep the CLI's formats (topocoll/units.h). */
void tc_svg_tick_time(double v, char *buf, size_t size);
void tc_svg_tick_bw(double v, char *buf, size_t size);

/* A plot being written: the frame is 'width' x 'height' pixels, the data area inside the
   margins. */
typedef struct tc_svg_plot {
  FILE *fp;
  tc_svg_axis x, y;
  int width, height;
  int legend_rows; /* rows of room for the legend below the x axis (0: the legend goes inside,
                      top left) */
  int hidden; /* 1: the series written now start hidden (display:none), for the legend to show */
} tc_svg_plot;

/* Open <svg id=ID class="plot"> and draw the frame, ticks, grid and the axis labels.
   x and y carry lo, hi and log; their pixels are set here. The svg is `height` plus
   legend_rows rows of 14 pixels tall. */
void tc_svg_plot_begin(tc_svg_plot *pl, FILE *fp, const char *id, int width, int height, int legend_rows,
                       tc_svg_axis x, tc_svg_axis y, const char *xlabel, const char *ylabel, tc_svg_format xfmt,
                       tc_svg_format yfmt);
void tc_svg_plot_end(tc_svg_plot *pl);

/* The colour of series i (a fixed palette, cycled). */
const char *tc_svg_color(int i);

/* A series: a polyline through (x[i], y[i]) (lines 1) and/or a marker per point
   (markers 1, each with a <title> "name: x, y" in the formatters' words); dashed 1 dashes
   the line. Points with a non-positive value on a log axis are left out. */
void tc_svg_series(tc_svg_plot *pl, const char *name, int color, const double *x, const double *y, int n,
                   int lines, int markers, int dashed, tc_svg_format xfmt, tc_svg_format yfmt);

/* A vertical (at x = v) or horizontal (y = v) dashed reference line with a label. */
void tc_svg_vline(tc_svg_plot *pl, double v, const char *label);
void tc_svg_hline(tc_svg_plot *pl, double v, const char *label);

/* A bar from the bottom of the data area up to y = v, centred on x = at, w pixels wide,
   with a <title> "title". */
void tc_svg_bar(tc_svg_plot *pl, double at, double v, double w, int color, const char *title);

/* A rectangle over x = x0..x1 and the pixel rows top..top+h (timelines), with a <title>. */
void tc_svg_span(tc_svg_plot *pl, double x0, double x1, double top, double h, int color, const char *title);

/* A legend: one row per name, in its colour, with data-series = name; entries with
   hidden[i] (hidden NULL: none) are dimmed as the page script dims a hidden series. */
void tc_svg_legend(tc_svg_plot *pl, const char *const *names, const int *colors, const int *hidden, int n);

/* A heatmap of rows x cols cells with values in 0..1 (row-major), one
   <rect class="cell"> each with a <title> "row_name[r], col c+1: value", in a
   width x height <svg id=ID class="plot">; the rows are labelled every so often. */
void tc_svg_heatmap(FILE *fp, const char *id, int width, int height, int rows, int cols, const double *value,
                    const char *const *row_name, const char *col_title);

#endif
