/*
** route_io.c — route files (contract in a2a_route.h, format in docs/formats.md, "Route
** files"): one line per path, its weight and the nodes it visits.
**
**   topocoll-routes 1
**   nodes 8
**   algorithm ewsp
**   1/2 0 1 3
**
** A hop names the node it reaches; when the graph has several arcs from the previous node
** to it, "v:i" names the i-th of them in arc-id order (":0" is not written), so a file
** means the same arcs on every reading. The writer streams through core/io_atomic.h; the
** reader takes lines one at a time, reports "file:line: problem" for the first bad token,
** and hands the paths to tc_a2a_routing_finish, whose problems (a broken path, weights
** that do not sum to 1) it reports as "file: problem".
*/
#include "a2a/route_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/io_atomic.h"
#include "core/io_text.h"

#define FORMAT_NAME "topocoll-routes"
#define FORMAT_VERSION 1

/* An algorithm name a file can hold: one word of visible bytes (no space, tab, control
   byte or DEL), shorter than the routing's field. The one rule of reader and writer. */
static int name_ok(const char *s, size_t len) {
  if (!len || len >= sizeof((tc_a2a_routing *)0)->algorithm) return 0;
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f) return 0;
  return 1;
}

/* ---- writer ---- */

/* Which of the arcs from src[a] to dst[a] a is, in arc-id order (0 for the first). */
static int64_t parallel_index(const tc_graph *g, int64_t a) {
  int64_t i = 0;
  while (a - i > g->out_off[g->src[a]] && g->dst[a - i - 1] == g->dst[a]) i++;
  return i;
}

int tc_a2a_routing_write(const tc_graph *g, const char *spec, const tc_a2a_routing *r, const char *path,
                         tc_error *err) {
  if (!r->first) return tc_error_set(err, TC_EINPUT, "cannot write %s: the routing is not finished", path);
  if (g->n != r->nodes)
    return tc_error_set(err, TC_EINPUT, "cannot write %s: the routing is for %d nodes but the graph has %d", path,
                        r->nodes, g->n);
  if (spec && strpbrk(spec, "\n\r"))
    return tc_error_set(err, TC_EINPUT, "cannot write %s: the spec holds a line break", path);
  if (r->algorithm[0] && !name_ok(r->algorithm, strlen(r->algorithm)))
    return tc_error_set(err, TC_EINPUT, "cannot write %s: the algorithm name holds a space or control byte", path);
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  fprintf(fp, "%s %d\n", FORMAT_NAME, FORMAT_VERSION);
  if (spec) fprintf(fp, "# spec %s\n", spec);
  fprintf(fp, "nodes %d\nalgorithm %s\n# weight, then the nodes of the path from its source to its destination\n",
          r->nodes, r->algorithm[0] ? r->algorithm : "-");
  for (int64_t p = 0; p < r->npaths; p++) {
    char w[48];
    tc_rat_format(r->weight[p], w, sizeof w);
    fprintf(fp, "%s %d", w, r->commodity[p] / r->nodes);
    for (int64_t h = r->hop_off[p]; h < r->hop_off[p + 1]; h++) {
      int64_t a = r->arc[h], i = parallel_index(g, a);
      if (i) fprintf(fp, " %d:%" PRId64, g->dst[a], i);
      else fprintf(fp, " %d", g->dst[a]);
    }
    fputc('\n', fp);
  }
  return tci_atomic_commit(&af, err);
}

/* ---- reader ---- */

typedef struct reader {
  const char *path;
  FILE *fp;
  char *line;
  size_t room;
  int64_t lineno;
  tc_error *err;
} reader;

static int fail(reader *rd, const char *fmt, const char *token, size_t len) {
  tc_io_quoted q = tci_io_quote(token, len);
  char msg[TC_ERRMSG_MAX];
  snprintf(msg, sizeof msg, fmt, q.text);
  return tc_error_set(rd->err, TC_EINPUT, "%s:%" PRId64 ": %s", rd->path, rd->lineno, msg);
}

/* The next line that is not blank or a comment, without its newline; 0 at the end. */
static int next_line(reader *rd, int *got) {
  for (;;) {
    errno = 0;
    ssize_t n = getline(&rd->line, &rd->room, rd->fp);
    if (n < 0) {
      *got = 0;
      if (ferror(rd->fp)) return tc_error_set(rd->err, TC_EIO, "cannot read %s: %s", rd->path, strerror(errno));
      return TC_OK;
    }
    rd->lineno++;
    if ((size_t)n != strlen(rd->line)) return tc_error_set(rd->err, TC_EINPUT, "%s:%" PRId64 ": a NUL byte", rd->path,
                                                           rd->lineno);
    while (n > 0 && (rd->line[n - 1] == '\n' || rd->line[n - 1] == '\r')) rd->line[--n] = '\0';
    const char *c = rd->line + strspn(rd->line, " \t");
    if (*c && *c != '#') {
      *got = 1;
      return TC_OK;
    }
  }
}

/* A decimal integer in lo..hi spanning exactly [s, s+len). */
static int parse_int(const char *s, size_t len, long long lo, long long hi, long long *out) {
  if (!len || len > 20) return -1;
  char buf[24];
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (buf[0] == '+' || (buf[0] == '-' && lo >= 0)) return -1;
  char *end;
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  if (errno || *end || end == buf || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* "keyword value": the value's token, or a failure naming what was expected. */
static int header(reader *rd, const char *keyword, const char **value, size_t *len) {
  int got = 0, rc = next_line(rd, &got);
  if (rc) return rc;
  if (!got)
    return tc_error_set(rd->err, TC_EINPUT, "%s:%" PRId64 ": ends before the line \"%s ...\"", rd->path, rd->lineno,
                        keyword);
  char *c = rd->line + strspn(rd->line, " \t");
  size_t k = strcspn(c, " \t");
  if (k != strlen(keyword) || strncmp(c, keyword, k))
    return tc_error_set(rd->err, TC_EINPUT, "%s:%" PRId64 ": expected \"%s ...\", found %s", rd->path, rd->lineno,
                        keyword, tci_io_quote(c, k).text);
  c += k + strspn(c + k, " \t");
  *len = strcspn(c, " \t");
  *value = c;
  if (!*len || c[*len + strspn(c + *len, " \t")])
    return tc_error_set(rd->err, TC_EINPUT, "%s:%" PRId64 ": expected one value after \"%s\"", rd->path, rd->lineno,
                        keyword);
  return TC_OK;
}

/* "p/q" or "p", 0 < p/q <= 1. */
static int parse_weight(reader *rd, const char *s, size_t len, tc_rat *out) {
  const char *slash = memchr(s, '/', len);
  long long p, q = 1;
  if (parse_int(s, slash ? (size_t)(slash - s) : len, 1, INT64_MAX, &p) ||
      (slash && parse_int(slash + 1, len - (size_t)(slash - s) - 1, 1, INT64_MAX, &q)))
    return fail(rd, "weight %s is not a positive integer or fraction p/q", s, len);
  if (p > q) return fail(rd, "weight %s is more than 1", s, len);
  return tc_rat_make(p, q, out, rd->err);
}

/* One path line: weight, source, hops "v" or "v:i". */
static int parse_path(reader *rd, const tc_graph *g, int64_t *arcs, tc_a2a_routing *r) {
  char *c = rd->line + strspn(rd->line, " \t");
  size_t k = strcspn(c, " \t");
  tc_rat w;
  int rc = parse_weight(rd, c, k, &w);
  if (rc) return rc;
  c += k + strspn(c + k, " \t");
  k = strcspn(c, " \t");
  long long s, v, i;
  if (parse_int(c, k, 0, g->n - 1, &s)) return fail(rd, "source %s is not a node of the graph", c, k);
  int32_t len = 0, u = (int32_t)s;
  for (c += k + strspn(c + k, " \t"); *c; c += k + strspn(c + k, " \t")) {
    k = strcspn(c, " \t");
    const char *colon = memchr(c, ':', k);
    size_t vlen = colon ? (size_t)(colon - c) : k;
    if (parse_int(c, vlen, 0, g->n - 1, &v)) return fail(rd, "hop %s does not name a node of the graph", c, k);
    i = 0;
    if (colon && parse_int(colon + 1, k - vlen - 1, 0, INT64_MAX, &i))
      return fail(rd, "hop %s: the arc index after ':' is not an integer >= 0", c, k);
    if (len >= g->n) return fail(rd, "the path is longer than the graph has nodes (at %s)", c, k);
    int64_t a = g->out_off[u];
    while (a < g->out_off[u + 1] && g->dst[a] != v) a++;
    if (a == g->out_off[u + 1] || a + i >= g->out_off[u + 1] || g->dst[a + i] != v)
      return fail(rd, "hop %s: the graph has no such arc from the previous node", c, k);
    arcs[len++] = a + i;
    u = (int32_t)v;
  }
  if (!len) return fail(rd, "a path needs a destination after its source %s", rd->line, strlen(rd->line));
  rc = tc_a2a_routing_add(r, (int32_t)s, u, arcs, len, w, rd->err);
  if (rc) tc_error_prefix(rd->err, "%s:%" PRId64, rd->path, rd->lineno);
  return rc;
}

static int read_all(reader *rd, const tc_graph *g, tc_a2a_routing *out) {
  const char *v;
  size_t len;
  long long n = 0;
  int rc = header(rd, FORMAT_NAME, &v, &len);
  if (rc) return rc;
  if (parse_int(v, len, FORMAT_VERSION, FORMAT_VERSION, &n)) return fail(rd, "unsupported version %s (expected 1)", v, len);
  if ((rc = header(rd, "nodes", &v, &len))) return rc;
  if (parse_int(v, len, 1, INT32_MAX, &n) || n != g->n) {
    tc_io_quoted q = tci_io_quote(v, len);
    return tc_error_set(rd->err, TC_EINPUT, "%s:%" PRId64 ": nodes %s, but the graph has %d", rd->path, rd->lineno,
                        q.text, g->n);
  }
  if ((rc = header(rd, "algorithm", &v, &len))) return rc;
  if (!name_ok(v, len)) return fail(rd, "algorithm %s is not one word of at most 31 visible bytes", v, len);
  char name[sizeof out->algorithm];
  snprintf(name, sizeof name, "%.*s", len == 1 && *v == '-' ? 0 : (int)len, v); /* "-": no name */
  if ((rc = tc_a2a_routing_init(out, g->n, name, rd->err))) return rc;
  int64_t *arcs = malloc((size_t)g->n * sizeof *arcs);
  if (!arcs) return tc_error_set(rd->err, TC_ENOMEM, "out of memory");
  int got = 1;
  while (!rc && !(rc = next_line(rd, &got)) && got) rc = parse_path(rd, g, arcs, out);
  free(arcs);
  if (!rc && (rc = tc_a2a_routing_finish(g, out, rd->err))) tc_error_prefix(rd->err, "%s", rd->path);
  return rc;
}

int tc_a2a_routing_read(const char *path, const tc_graph *g, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  reader rd = {path, fopen(path, "r"), NULL, 0, 0, err};
  if (!rd.fp) return tc_error_set(err, TC_EIO, "cannot read %s: %s", path, strerror(errno));
  int rc = read_all(&rd, g, out);
  free(rd.line);
  fclose(rd.fp);
  if (rc) tc_a2a_routing_destroy(out);
  return rc;
}
