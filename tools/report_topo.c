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

static void full_dot(FILE *fp, const tc_graph *g) {
  int32_t size, k = tc_report_groups(g->n, &size);
  double slots = g->n + (k > 1 ? k : 0);
  double radius = fmax(120, 9.0 * slots / (2 * PI)); /* about 9 pt between neighbours */
  int big = g->n > TC_REPORT_FULL_MAX;
  fprintf(fp, "digraph topology {\n  node [shape=%s, width=%s, fontsize=8, style=filled, fillcolor=\"#dbe8f5\"];\n"
              "  edge [arrowsize=0.4, color=\"#1f77b480\"];\n", big ? "point" : "circle", big ? "0.06" : "0.3");
  for (int32_t v = 0; v < g->n; v++) {
    double x, y;
    ring_pos(v + (k > 1 ? v / size : 0), slots, radius, &x, &y);
    int sw = g->kind && g->kind[v] == TC_NODE_SWITCH; /* switches: grey boxes */
    fprintf(fp, "  n%d [label=\"%d\", pos=\"%.1f,%.1f\"%s];\n", v, v, x, y,
            sw ? ", shape=box, fillcolor=\"#d9d9d9\"" : "");
  }
  for (int64_t a = 0; a < g->m; a++) {
    int32_t u = g->src[a], v = g->dst[a];
    if (u == v) continue; /* a self-loop carries nothing between nodes */
    int pair = tc_graph_arc_multiplicity(g, v, u) > 0;
    if (pair && u > v) continue; /* drawn once, from its smaller end */
    fprintf(fp, "  n%d -> n%d%s;\n", u, v, pair ? " [dir=none]" : "");
  }
  fputs("}\n", fp);
}

static void grouped_dot(FILE *fp, const tc_graph *g) {
  int32_t size, k = tc_report_groups(g->n, &size);
  int64_t *links = calloc((size_t)k * k, sizeof *links);
  if (!links) return;
  for (int64_t a = 0; a < g->m; a++)
    if (g->src[a] != g->dst[a]) links[(size_t)(g->src[a] / size) * k + g->dst[a] / size]++;
  int64_t most = 1;
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++)
      if (links[(size_t)i * k + j] + links[(size_t)j * k + i] > most) most = links[(size_t)i * k + j] + links[(size_t)j * k + i];
  double radius = fmax(150, 60.0 * k / (2 * PI));
  fputs("graph groups {\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#dbe8f5\", fontsize=9];\n"
        "  edge [color=\"#1f77b4a0\", fontsize=8];\n", fp);
  for (int i = 0; i < k; i++) {
    double x, y;
    ring_pos(i, k, radius, &x, &y);
    int32_t last = (i + 1) * size - 1 < g->n - 1 ? (i + 1) * size - 1 : g->n - 1;
    fprintf(fp, "  g%d [label=\"%d-%d\\n%lld inside\", pos=\"%.1f,%.1f\"];\n", i, i * size, last,
            (long long)links[(size_t)i * k + i], x, y);
  }
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++) {
      int64_t c = links[(size_t)i * k + j] + links[(size_t)j * k + i];
      if (c) fprintf(fp, "  g%d -- g%d [penwidth=%.2f, tooltip=\"%lld arcs\"];\n", i, j, 0.5 + 3.5 * c / most, (long long)c);
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
