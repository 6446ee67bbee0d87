/*
** report_page.c — assembling report.html (contract in report_page.h): the plan's headline
** numbers, then one figure per concern (report_figs.h), the topology drawn by Graphviz
** (report_topo.h) with its wiring table, then the list of files drawn and not understood.
** The headline numbers sit in <span class="num" data-key="KEY"> with plan.json's value
** printed in full (%.9g), so a reader — or the browser test — can check them against it.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_figs.h"
#include "report_page.h"
#include "report_sniff.h"
#include "report_svg.h"
#include "report_topo.h"
#include "topocoll/graph_io.h"
#include "topocoll/output.h"
#include "topocoll/sched_io.h"
#include "topocoll/units.h"

static const char STYLE[] =
    "body{font-family:sans-serif;max-width:980px;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin:0 0 .4em}"
    "figure{margin:1.5em 0;padding:.8em;border:1px solid #ddd;border-radius:4px}"
    "figure svg{max-width:100%;height:auto;display:block}"
    "figcaption{font-size:.9em;color:#444;margin-top:.4em}"
    "table{border-collapse:collapse;font-size:.85em;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
    "tr.chosen td{background:#fde2e2;font-weight:bold}.note{font-size:.9em;color:#555}"
    "dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:bold}dd{margin:0}";

static const char SCRIPT[] =
    "document.querySelectorAll('.legend').forEach(function(l){l.addEventListener('click',function(){"
    "var s=l.getAttribute('data-series'),svg=l.closest('svg');"
    "svg.querySelectorAll('.series').forEach(function(g){if(g.getAttribute('data-series')===s)"
    "g.style.display=g.style.display==='none'?'':'none';});"
    "l.style.opacity=l.style.opacity==='0.4'?'':'0.4';});});\n"
    "window.addEventListener('load',function(){document.querySelectorAll('figure').forEach(function(f){"
    "var e=f.querySelector('svg')||f,r=e.getBoundingClientRect();"
    "f.setAttribute('data-rendered',Math.round(r.width)+'x'+Math.round(r.height));});});\n";

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static void num(FILE *fp, const char *key, double v) {
  fprintf(fp, "<span class=\"num\" data-key=\"%s\">%.9g</span>", key, v);
}

static const char *str(json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

static void headline(FILE *fp, const tc_report_plan *p) {
  json_t *root = p->root, *ch = json_object_get(root, "chosen");
  char a[64], b[64];
  fputs("<section id=\"summary\"><dl>\n<dt>topology</dt><dd>", fp);
  tc_svg_escape(fp, str(root, "spec"));
  fprintf(fp, " (%lld nodes, %s links)</dd>\n", (long long)json_integer_value(json_object_get(root, "nodes")),
          str(root, "links"));
  tc_units_format_time(p->alpha_s, 0, a, sizeof a);
  tc_units_format_bandwidth(p->link_bw, b, sizeof b);
  fprintf(fp, "<dt>cluster</dt><dd>alpha %s per step, link bandwidth %s</dd>\n<dt>workload</dt><dd>", a, b);
  for (int i = 0; i < p->nsizes; i++) {
    tc_units_format_size((int64_t)p->bytes[i], a, sizeof a);
    fprintf(fp, "%s%s x %g", i ? ", " : "", a, p->weight[i]);
  }
  fputs(" (allreduce size x weight)</dd>\n", fp);
  if (json_object_get(ch, "steps")) {
    json_t *tau = json_object_get(ch, "tau");
    /* people read the unit form first; the exact value follows, as plan.json has it */
    tc_units_format_time(json_number_value(json_object_get(ch, "T_L_s")), 0, a, sizeof a);
    fprintf(fp, "<dt>allreduce T_L</dt><dd>%s = ", a);
    num(fp, "T_L_s", json_number_value(json_object_get(ch, "T_L_s")));
    fprintf(fp, " s: %lld steps of alpha, measured on the verified schedule</dd>\n<dt>allreduce T_B</dt><dd>factor "
                "<span class=\"num\" data-key=\"tau\">%lld/%lld</span> of M/B</dd>\n",
            (long long)json_integer_value(json_object_get(ch, "steps")), (long long)json_integer_value(json_array_get(tau, 0)),
            (long long)json_integer_value(json_array_get(tau, 1)));
  }
  tc_units_format_time(json_number_value(json_object_get(ch, "expected_s")), 0, a, sizeof a);
  fprintf(fp, "<dt>expected allreduce time</dt><dd>%s = ", a);
  num(fp, "expected_s", json_number_value(json_object_get(ch, "expected_s")));
  fputs(" s, weighted over the workload</dd>\n</dl></section>\n", fp);
}

/* The wiring table: wiring.csv's first rows (fields split on commas outside quotes). */
static void wiring_table(FILE *fp, const char *dir) {
  char *path = join(dir, "wiring.csv");
  FILE *in = path ? fopen(path, "r") : NULL;
  free(path);
  if (!in) {
    fputs("<p class=\"note\">No wiring.csv in the plan directory.</p>\n", fp);
    return;
  }
  enum { SHOWN = 32 };
  char line[1024];
  long rows = 0;
  fputs("<table class=\"wiring\">\n", fp);
  while (fgets(line, sizeof line, in)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (rows++ > SHOWN) continue;
    const char *cell = rows == 1 ? "th" : "td";
    fprintf(fp, "<tr><%s>", cell);
    int quoted = 0;
    for (char *c = line; *c; c++) {
      if (*c == '"') quoted = !quoted;
      else if (*c == ',' && !quoted) fprintf(fp, "</%s><%s>", cell, cell);
      else {
        char one[2] = {*c, 0};
        tc_svg_escape(fp, one);
      }
    }
    fprintf(fp, "</%s></tr>\n", cell);
  }
  fclose(in);
  fputs("</table>\n", fp);
  if (rows > SHOWN + 1)
    fprintf(fp, "<p class=\"note\">... and %ld more rows: <a href=\"wiring.csv\">wiring.csv</a>.</p>\n", rows - 1 - SHOWN);
}

static int topology_figure(FILE *fp, const char *dir, const tc_graph *g, const char *full_svg_path, tc_error *err) {
  char *full = NULL, *shown = NULL;
  int grouped = g->n > TC_REPORT_FULL_MAX;
  int rc = tc_report_render(g, 0, &full, err);
  if (!rc && grouped) rc = tc_report_render(g, 1, &shown, err);
  if (!rc) {
    FILE *out = fopen(full_svg_path, "w");
    if (!out || fputs(full, out) < 0 || fclose(out) != 0) {
      if (out) fclose(out);
      rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", full_svg_path, strerror(errno));
    }
  }
  if (!rc) {
    fputs("<figure id=\"fig-topology\">\n<h2>The chosen topology</h2>\n", fp);
    if (grouped) {
      int32_t size, k = tc_report_groups(g->n, &size);
      fprintf(fp, "<p class=\"note\">%d nodes drawn as %d groups of %d consecutive nodes around a ring, each box "
                  "counting the links inside its group; a line joins two groups with links between them, thicker for "
                  "more (hover for the count). Every node and link: "
                  "<a href=\"topology.svg\">topology.svg</a>.</p>\n", g->n, k, size);
    } else {
      fputs("<p class=\"note\">Full drawing alone: <a href=\"topology.svg\">topology.svg</a>.</p>\n", fp);
    }
    fputs(grouped ? shown : full, fp);
    fputs("\n<h2>Wiring</h2>\n", fp);
    wiring_table(fp, dir);
    fputs("<figcaption>Read: nodes sit around the ring in index order, or, when a link in index order would lie "
          "on the ring itself, in breadth-first layers from node 0 (hover a node for its layer); long chords are "
          "the topology's shortcuts; the wiring table is what to cable, port by port.</figcaption>\n"
          "</figure>\n", fp);
  }
  free(full);
  free(shown);
  return rc;
}

static void files_section(FILE *fp, const tc_doc *docs, int ndocs, tc_report_stats *st) {
  static const char *const what[] = {"the plan's numbers", "a file of the plan", "a run result (measured)",
                                     "a simulation result", "a ForestColl result", "an all-to-all result",
                                     "a training timeline", ""};
  fputs("<section id=\"files\"><h2>Files read</h2>\n<ul>\n", fp);
  for (int i = 0; i < ndocs; i++) {
    if (docs[i].kind == TC_DOC_UNKNOWN) continue;
    fputs("<li>", fp);
    tc_svg_escape(fp, docs[i].name);
    fprintf(fp, ": %s</li>\n", what[docs[i].kind]);
  }
  fputs("</ul>\n", fp);
  int first = 1;
  for (int i = 0; i < ndocs; i++) {
    if (docs[i].kind != TC_DOC_UNKNOWN) continue;
    if (first) fputs("<p class=\"note\" id=\"ignored\">Not understood, so not drawn:</p>\n<ul class=\"ignored\">\n", fp);
    first = 0;
    st->ignored++;
    fputs("<li>", fp);
    tc_svg_escape(fp, docs[i].name);
    fputs(": ", fp);
    tc_svg_escape(fp, docs[i].note);
    fputs("</li>\n", fp);
  }
  if (!first) fputs("</ul>\n", fp);
  fputs("</section>\n", fp);
}

static int count_figures(const char *path) {
  FILE *fp = fopen(path, "r");
  if (!fp) return 0;
  char line[256];
  int n = 0;
  while (fgets(line, sizeof line, fp)) n += !strncmp(line, "<figure ", 8);
  fclose(fp);
  return n;
}

/* The page into path; the full drawing into svg_path. */
static int write_page(const char *dir, const tc_report_held *held, const tc_doc *docs, int ndocs,
                      const tc_doc *plan_doc, const char *path, const char *svg_path, tc_report_stats *st,
                      tc_error *err) {
  tc_report_plan p;
  int rc = tc_plan_json_read(plan_doc->root, plan_doc->name, &p, err);
  if (rc) return rc;
  char *gpath = join(dir, "topology.json");
  const char *agname = str(plan_doc->root, "allgather_file");
  char *spath = join(dir, agname);
  tc_graph *g = NULL;
  tc_schedule_doc sd;
  memset(&sd, 0, sizeof sd);
  FILE *fp = NULL;
  if (!gpath || !spath) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc && (strchr(agname, '/') || !*agname))
    rc = tc_error_set(err, TC_EINPUT, "%s: \"allgather_file\" must name a file of the plan directory", plan_doc->name);
  const tc_graph *topo = held ? held->graph : NULL, *ag_graph = topo;
  const tc_schedule *ag = held && held->graph ? held->allgather : NULL;
  if (!rc && !topo && !(rc = tc_graph_read_json(gpath, &g, err))) topo = g;
  if (!rc && !ag && !(rc = tc_schedule_read_json(spath, NULL, &sd, err))) {
    ag = &sd.sched;
    ag_graph = sd.graph;
  }
  if (!rc && !(fp = fopen(path, "w"))) rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", path, strerror(errno));
  if (!rc) {
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>topocoll plan: ", fp);
    tc_svg_escape(fp, str(plan_doc->root, "spec"));
    fprintf(fp, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>topocoll plan: ", STYLE);
    tc_svg_escape(fp, str(plan_doc->root, "spec"));
    fputs("</h1>\n", fp);
    headline(fp, &p);
    rc = topology_figure(fp, dir, topo, svg_path, err);
  }
  if (!rc) {
    tc_report_fig_frontier(fp, &p);
    tc_report_fig_curves(fp, &p, 0);
    tc_report_fig_curves(fp, &p, 1);
    rc = tc_report_fig_heatmap(fp, ag_graph, ag, agname, err);
  }
  if (!rc) {
    tc_report_fig_measured(fp, &p, docs, ndocs);
    tc_report_fig_alltoall(fp, &p, docs, ndocs);
    tc_report_fig_forest(fp, docs, ndocs);
    for (int i = 0; i < ndocs; i++)
      if (docs[i].kind == TC_DOC_TRAIN) tc_report_fig_train(fp, &docs[i]);
    for (int i = 0; i < ndocs; i++) st->results += docs[i].kind >= TC_DOC_RUN && docs[i].kind <= TC_DOC_TRAIN;
    files_section(fp, docs, ndocs, st);
    fprintf(fp, "<script>\n%s</script>\n</body>\n</html>\n", SCRIPT);
  }
  if (fp && fclose(fp) != 0 && !rc) rc = tc_error_set(err, TC_EIO, "cannot write %s", path);
  if (!rc) st->figures = count_figures(path);
  tc_schedule_doc_destroy(&sd);
  tc_graph_destroy(g);
  free(gpath);
  free(spath);
  tc_plan_json_destroy(&p);
  return rc;
}

int tc_report_build(const char *dir, const tc_report_held *held, tc_report_stats *stats, tc_error *err) {
  memset(stats, 0, sizeof *stats);
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return tc_error_set(err, TC_EINPUT, "'%s' is not a directory", dir);
  int rc = tc_report_check_graphviz(err);
  if (rc) return rc;
  tc_doc *docs;
  int ndocs;
  if ((rc = tc_report_read_dir(dir, &docs, &ndocs, err))) return rc;
  const tc_doc *plan = NULL;
  for (int i = 0; i < ndocs; i++)
    if (docs[i].kind == TC_DOC_PLAN) {
      if (plan) {
        tc_error_set(err, TC_EINPUT, "'%s' holds two plan documents (%s and %s); keep one", dir, plan->name,
                     docs[i].name);
        tc_report_docs_destroy(docs, ndocs);
        return TC_EINPUT;
      }
      plan = &docs[i];
    }
  if (!plan) {
    tc_report_docs_destroy(docs, ndocs);
    return tc_error_set(err, TC_EINPUT, "'%s' has no plan.json (a plan directory written by topocoll plan)", dir);
  }
  char *scratch = join(dir, ".report-XXXXXX");
  if (!scratch) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc) rc = tc_output_make_scratch_dir(scratch, err);
  if (!rc) {
    char *page = join(scratch, "report.html"), *svg = join(scratch, "topology.svg");
    char *page_to = join(dir, "report.html"), *svg_to = join(dir, "topology.svg");
    if (!page || !svg || !page_to || !svg_to) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
    if (!rc) rc = write_page(dir, held, docs, ndocs, plan, page, svg, stats, err);
    if (!rc && rename(svg, svg_to) != 0) rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", svg_to, strerror(errno));
    if (!rc && rename(page, page_to) != 0)
      rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", page_to, strerror(errno));
    free(page);
    free(svg);
    free(page_to);
    free(svg_to);
    tc_output_remove_scratch_dir(scratch);
  }
  free(scratch);
  tc_report_docs_destroy(docs, ndocs);
  return rc;
}
