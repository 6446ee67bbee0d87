/*
** report_topo.c — the topology drawn by Graphviz (contract in report_topo.h). neato runs
** on a DOT file in a scratch directory (output.h: removed on a signal too) and writes its
** SVG there; the SVG is read back and trimmed to its <svg> element.
*/
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_topo.h"
#include "topocoll/output.h"

extern char **environ;

static const double PI = 3.14159265358979323846;

int tc_report_groups(int32_t n, int32_t *size) {
  int32_t k = (int32_t)ceil(sqrt((double)n));
  if (k < 1) k = 1;
  *size = (n + k - 1) / k;
  return (n + *size - 1) / *size;
}

/* Angle of slot i of `slots`: the ring, with one empty slot between groups. */
static void ring_pos(double slot, double slots, double radius, double *x, double *y) {
  double a = 2 * PI * slot / slots;
  *x = radius * cos(a);
  *y = radius * sin(a);
}

/* Sizes in points (neato -n2 takes positions in points). A labelled node is a circle of
   NODE_PT with its index inside; beyond TC_REPORT_LABEL_MAX nodes a node is a DOT_PT dot
   (its index in the hover title). Slots are spaced so that neighbours never touch: the
   ring's radius follows from the slot count, not the other way round. */
#define NODE_PT 18.0
#define NODE_GAP_PT 27.0 /* centre to centre: 9 pt of air between two labelled circles */
#define DOT_PT 5.0
#define DOT_GAP_PT 9.0
#define BOX_GAP_PT 100.0 /* centre to centre of group boxes, wider than a box (about 80 pt) */

/* A link is drawn once: an arc whose reverse exists (a duplex link) from its smaller end
   only, undirected; a self-loop not at all (it carries nothing between nodes). */
static int drawn_once(const tc_graph *g, int64_t a, int *pair) {
  int32_t u = g->src[a], v = g->dst[a];
  if (u == v) return 0;
  *pair = tc_graph_arc_multiplicity(g, v, u) > 0;
  return !(*pair && u > v);
}

static int cmp_span(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The median, over the links drawn, of how far apart index order puts their ends (in
   positions around the ring, the shorter way). */
static int32_t median_span(const tc_graph *g) {
  int32_t *span = malloc((size_t)(g->m ? g->m : 1) * sizeof *span), n = 0, med = 0;
  if (!span) return 0;
  for (int64_t a = 0; a < g->m; a++) {
    int32_t d = g->src[a] > g->dst[a] ? g->src[a] - g->dst[a] : g->dst[a] - g->src[a];
    if (d) span[n++] = d < g->n - d ? d : g->n - d;
  }
  if (n) {
    qsort(span, (size_t)n, sizeof *span, cmp_span);
    med = span[n / 2];
  }
  free(span);
  return med;
}

int tc_report_ring_order(const tc_graph *g, int32_t *order, int32_t *layer) {
  if ((int64_t)median_span(g) * 16 >= g->n) {
    for (int32_t v = 0; v < g->n; v++) {
      order[v] = v;
      layer[v] = 0;
    }
    return 1;
  }
  for (int32_t v = 0; v < g->n; v++) layer[v] = -1;
  int32_t head = 0, tail = 0, layers = 0;
  for (int32_t root = 0; root < g->n; root++) {
    if (layer[root] >= 0) continue;
    /* a node node 0 does not reach starts a new search, and a new layer */
    int32_t base = layers;
    layer[root] = base;
    order[tail++] = root;
    for (; head < tail; head++) {
      int32_t u = order[head];
      if (layer[u] + 1 > layers) layers = layer[u] + 1;
      for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
        if (layer[g->dst[a]] < 0) {
          layer[g->dst[a]] = layer[u] + 1;
          order[tail++] = g->dst[a];
        }
    }
  }
  return layers;
}

static void full_dot(FILE *fp, const tc_graph *g) {
  int32_t *order = malloc((size_t)(g->n ? g->n : 1) * 2 * sizeof *order), *layer = order ? order + g->n : NULL;
  if (!order) return;
  int32_t layers = tc_report_ring_order(g, order, layer);
  int32_t *slot = malloc((size_t)(g->n ? g->n : 1) * sizeof *slot); /* a node's place: rank + layers before */
  if (!slot) {
    free(order);
    return;
  }
  /* index order keeps the groups' gaps (the grouped drawing's groups); breadth-first
     order leaves one empty slot after each layer */
  int32_t size, k = tc_report_groups(g->n, &size);
  int gaps = layers > 1 ? layers : k > 1 ? k : 0;
  for (int32_t r = 0; r < g->n; r++) slot[order[r]] = r + (layers > 1 ? layer[order[r]] : k > 1 ? r / size : 0);
  double slots = g->n + gaps;
  int labels = g->n <= TC_REPORT_LABEL_MAX;
  double radius = fmax(120, (labels ? NODE_GAP_PT : DOT_GAP_PT) * slots / (2 * PI));
  /* nodesfirst: links are drawn over the nodes, so a link between ring neighbours, short
     and close to both circles, is never hidden under them */
  fprintf(fp, "digraph topology {\n  outputorder=nodesfirst;\n"
              "  node [shape=%s, width=%.3f, fixedsize=true, fontsize=7, fontname=\"sans-serif\", style=filled, fillcolor=\"#dbe8f5\", "
              "color=\"#4a6f94\", penwidth=0.6];\n"
              "  edge [arrowsize=0.35, penwidth=0.6, color=\"#1f77b499\"];\n",
          labels ? "circle" : "point", (labels ? NODE_PT : DOT_PT) / 72);
  for (int32_t v = 0; v < g->n; v++) {
    double x, y;
    ring_pos(slot[v], slots, radius, &x, &y);
    int sw = g->kind && g->kind[v] == TC_NODE_SWITCH; /* switches: grey boxes */
    fprintf(fp, "  n%d [label=\"%d\", tooltip=\"%s %d", v, v, sw ? "switch" : "node", v);
    if (layers > 1) fprintf(fp, ", breadth-first layer %d", layer[v]);
    fprintf(fp, "\", pos=\"%.1f,%.1f\"%s];\n", x, y, sw ? ", shape=box, fillcolor=\"#d9d9d9\"" : "");
  }
  free(slot);
  free(order);
  for (int64_t a = 0; a < g->m; a++) {
    int pair;
    if (drawn_once(g, a, &pair)) fprintf(fp, "  n%d -> n%d%s;\n", g->src[a], g->dst[a], pair ? " [dir=none]" : "");
  }
  fputs("}\n", fp);
}

static void grouped_dot(FILE *fp, const tc_graph *g) {
  int32_t size, k = tc_report_groups(g->n, &size);
  int64_t *links = calloc((size_t)k * k, sizeof *links);
  if (!links) return;
  for (int64_t a = 0; a < g->m; a++) {
    int pair; /* links counted as the full drawing draws them: a duplex link once */
    if (drawn_once(g, a, &pair)) links[(size_t)(g->src[a] / size) * k + g->dst[a] / size]++;
  }
  int64_t most = 1;
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++)
      if (links[(size_t)i * k + j] + links[(size_t)j * k + i] > most) most = links[(size_t)i * k + j] + links[(size_t)j * k + i];
  double radius = fmax(150, BOX_GAP_PT * k / (2 * PI));
  fputs("graph groups {\n  outputorder=nodesfirst;\n"
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#dbe8f5\", fontsize=9, fontname=\"sans-serif\"];\n"
        "  edge [color=\"#1f77b4a0\", fontsize=8];\n", fp);
  for (int i = 0; i < k; i++) {
    double x, y;
    ring_pos(i, k, radius, &x, &y);
    int32_t last = (i + 1) * size - 1 < g->n - 1 ? (i + 1) * size - 1 : g->n - 1;
    long long in = (long long)links[(size_t)i * k + i];
    fprintf(fp, "  g%d [label=\"%d-%d\\n%d nodes\\n%lld link%s inside\", pos=\"%.1f,%.1f\"];\n", i, i * size, last,
            last - i * size + 1, in, in == 1 ? "" : "s", x, y);
  }
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++) {
      long long c = (long long)(links[(size_t)i * k + j] + links[(size_t)j * k + i]);
      if (c)
        fprintf(fp, "  g%d -- g%d [penwidth=%.2f, tooltip=\"%lld link%s between\"];\n", i, j, 0.5 + 3.5 * c / most, c,
                c == 1 ? "" : "s");
    }
  fputs("}\n", fp);
  free(links);
}

void tc_report_topology_dot(FILE *fp, const tc_graph *g, int grouped) {
  if (grouped) grouped_dot(fp, g);
  else full_dot(fp, g);
}

int tc_report_check_graphviz(tc_error *err) {
  const char *path = getenv("PATH");
  if (!path || !*path) path = "/usr/bin:/bin";
  char dir[4096];
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    if (n > 0 && n + sizeof "/neato" < sizeof dir) {
      memcpy(dir, p, n);
      strcpy(dir + n, "/neato");
      if (access(dir, X_OK) == 0) return TC_OK;
    }
    p += n + (p[n] == ':');
  }
  return tc_error_set(err, TC_EINPUT, "Graphviz's neato is not installed (the report draws the topology with it; "
                                      "Debian package graphviz)");
}

/* The whole of path, malloc'd and NUL-terminated. */
static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  char *buf = NULL;
  size_t len = 0, room = 0, got;
  char chunk[65536];
  while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) {
    if (len + got + 1 > room) {
      room = 2 * (len + got + 1);
      char *b = realloc(buf, room);
      if (!b) break;
      buf = b;
    }
    memcpy(buf + len, chunk, got);
    len += got;
  }
  int bad = ferror(fp) || got > 0;
  fclose(fp);
  if (bad || !buf) {
    free(buf);
    return NULL;
  }
  buf[len] = '\0';
  return buf;
}

int tc_report_render(const tc_graph *g, int grouped, char **svg, tc_error *err) {
  *svg = NULL;
  const char *tmpdir = getenv("TMPDIR");
  char dir[4096], in[4200], out[4200], log[4200];
  if (snprintf(dir, sizeof dir, "%s/topocoll-report-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") >= (int)sizeof dir)
    return tc_error_set(err, TC_EINPUT, "TMPDIR is too long");
  int rc = tc_output_make_scratch_dir(dir, err);
  if (rc) return rc;
  snprintf(in, sizeof in, "%s/topology.dot", dir);
  snprintf(out, sizeof out, "%s/topology.svg", dir);
  snprintf(log, sizeof log, "%s/neato.log", dir);
  FILE *fp = fopen(in, "w");
  if (!fp) rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", in, strerror(errno));
  else {
    tc_report_topology_dot(fp, g, grouped);
    if (fclose(fp) != 0) rc = tc_error_set(err, TC_EIO, "cannot write %s", in);
  }
  if (!rc) {
    char *argv[] = {"neato", "-n2", "-Tsvg", "-o", out, in, NULL};
    pid_t pid;
    posix_spawn_file_actions_t fa; /* neato's warnings go to the log, not to our stderr */
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int status = 0, e = posix_spawnp(&pid, "neato", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e) rc = tc_error_set(err, TC_EINPUT, "cannot run Graphviz's neato: %s", strerror(e));
    else if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      rc = tc_error_set(err, TC_EFAIL, "Graphviz's neato failed to draw the topology (exit status %d)",
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  char *text = rc ? NULL : slurp(out);
  if (!rc && !text) rc = tc_error_set(err, TC_EIO, "cannot read neato's drawing %s", out);
  char *start = text ? strstr(text, "<svg") : NULL;
  if (!rc && !start) rc = tc_error_set(err, TC_EFAIL, "Graphviz's neato wrote no <svg> element");
  if (!rc) {
    memmove(text, start, strlen(start) + 1);
    *svg = text;
  } else {
    free(text);
  }
  tc_output_remove_scratch_dir(dir);
  return rc;
}
