/*
** rank_ports.c — the plan's ranks.csv: rank -> node -> port, beside wiring.csv (contract in
** rank_map.h; issue #14 §8: the cables, the ranks and the schedules agree).
**
** One row per end of every cable: the rank that plays the node (tc_rank_map: compute nodes
** in id order; empty for a switch), the node and its label, the port, the direction
** ("duplex", "loopback", or "tx" / "rx" for the two ends of a simplex fibre), the peer at the
** other end (its rank, node and port) and the cable number of wiring.csv. Ports and cables
** come from tc_graph_wiring_cables, the wiring plan's own numbering, so the two files cannot
** disagree. Rows are by node, then port, then direction.
**
** Reading one back (export --rank-map) checks it against the graph the schedule runs on:
** every row must be the one that graph's wiring gives — the same ports, peers and cables —
** and the rank column may only be renumbered consistently (a bijection of the compute nodes
** onto 0..ranks-1, the same for a node wherever it appears, peer_rank included). What
** comes back is the node each rank plays, which the exporter applies (a relabelled
** schedule) when it is not the identity.
*/
#include "topocoll/rank_map.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/io_atomic.h"
#include "core/io_text.h"

#define HEADER "rank,node,label,port,direction,peer_rank,peer_node,peer_port,cable"

typedef struct port_row {
  int32_t node, peer;
  int64_t port, peer_port, cable;
  const char *direction;
} port_row;

static int cmp_row(const void *a, const void *b) {
  const port_row *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  if (x->port != y->port) return x->port < y->port ? -1 : 1;
  return strcmp(y->direction, x->direction); /* "tx" before "rx" */
}

/* Both ends of every cable of g's wiring, sorted; *rows malloc'ed. */
static int port_rows(const tc_graph *g, tc_wiring_links links, port_row **rows, int64_t *count, tc_error *err) {
  tc_cable *c = NULL;
  int64_t n = 0;
  *rows = NULL;
  int rc = tc_graph_wiring_cables(g, links, &c, &n, err);
  if (rc) return rc;
  port_row *v = malloc((size_t)(2 * n + 1) * sizeof *v);
  if (!v) {
    free(c);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    int simplex = !strcmp(c[i].kind, "simplex"), loop = !strcmp(c[i].kind, "loopback");
    v[k++] = (port_row){c[i].u, c[i].v, c[i].u_port, c[i].v_port, c[i].cable, simplex ? "tx" : c[i].kind};
    if (!loop) v[k++] = (port_row){c[i].v, c[i].u, c[i].v_port, c[i].u_port, c[i].cable, simplex ? "rx" : c[i].kind};
  }
  free(c);
  qsort(v, (size_t)k, sizeof *v, cmp_row);
  *rows = v;
  *count = k;
  return TC_OK;
}

static void put_rank(FILE *fp, int32_t rank) {
  if (rank >= 0) fprintf(fp, "%d", rank);
}

int tc_rank_ports_write(const tc_graph *g, tc_wiring_links links, const char *path, tc_error *err) {
  tc_rank_map map;
  port_row *rows = NULL;
  int64_t n = 0;
  int rc = tc_rank_map_init(&map, g, err);
  if (!rc) rc = port_rows(g, links, &rows, &n, err);
  tc_atomic_file af;
  if (!rc) rc = tci_atomic_open(&af, path, err);
  if (!rc) {
    fputs(HEADER "\n", af.fp);
    for (int64_t i = 0; i < n; i++) {
      const port_row *r = &rows[i];
      put_rank(af.fp, map.rank[r->node]);
      fprintf(af.fp, ",%d,", r->node);
      tci_csv_put_field(af.fp, tc_graph_label(g, r->node));
      fprintf(af.fp, ",%lld,%s,", (long long)r->port, r->direction);
      put_rank(af.fp, map.rank[r->peer]);
      fprintf(af.fp, ",%d,%lld,%lld\n", r->peer, (long long)r->peer_port, (long long)r->cable);
    }
    rc = tci_atomic_commit(&af, err);
  }
  free(rows);
  tc_rank_map_destroy(&map);
  return rc;
}

/* ---- reading ---- */

#define FIELDS 9

/* Split one CSV line (RFC 4180 quoting) into FIELDS fields in place; 0 on a wrong count. */
static int split(char *line, char **field) {
  int n = 0;
  char *p = line;
  for (;;) {
    if (n == FIELDS) return 0;
    char *out = p;
    field[n++] = p;
    if (*p == '"') {
      char *q = p + 1;
      for (;;) {
        if (!*q) return 0;
        if (*q == '"' && q[1] == '"') {
          *out++ = '"';
          q += 2;
        } else if (*q == '"') {
          q++;
          break;
        } else {
          *out++ = *q++;
        }
      }
      p = q;
      if (*p && *p != ',') return 0;
    } else {
      while (*p && *p != ',') p++;
      out = p;
    }
    int last = *p == '\0';
    *out = '\0';
    if (last) return n == FIELDS;
    p++;
  }
}

/* A decimal integer field in lo..hi; -1 stands for an empty field when empty_ok. */
static int get_int(const char *s, long long lo, long long hi, int empty_ok, long long *out) {
  if (!*s && empty_ok) {
    *out = -1;
    return 1;
  }
  char *end;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end || s[0] == '+' || s[0] == ' ' || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

/* One row against the expected one; records the rank of its node and peer. */
static int check_row(const tc_graph *g, const char *path, int64_t line, char **f, const port_row *want,
                     int32_t *rank_of, tc_error *err) {
  long long rank, node, port, prank, peer, pport, cable;
  if (!get_int(f[0], 0, g->n - 1, 1, &rank) || !get_int(f[1], 0, g->n - 1, 0, &node) ||
      !get_int(f[3], 0, INT64_MAX, 0, &port) || !get_int(f[5], 0, g->n - 1, 1, &prank) ||
      !get_int(f[6], 0, g->n - 1, 0, &peer) || !get_int(f[7], 0, INT64_MAX, 0, &pport) ||
      !get_int(f[8], 0, INT64_MAX, 0, &cable))
    return tc_error_set(err, TC_EINPUT, "%s: line %lld: a number is missing or out of range", path, (long long)line);
  if (node != want->node || port != want->port || strcmp(f[4], want->direction) || peer != want->peer ||
      pport != want->peer_port || cable != want->cable)
    return tc_error_set(err, TC_EINPUT,
                        "%s: line %lld: node %lld port %lld %s to node %lld port %lld (cable %lld), but this "
                        "topology's wiring has node %d port %lld %s to node %d port %lld (cable %lld)",
                        path, (long long)line, node, port, f[4], peer, pport, cable, want->node,
                        (long long)want->port, want->direction, want->peer, (long long)want->peer_port,
                        (long long)want->cable);
  const long long ends[2][2] = {{node, rank}, {peer, prank}};
  for (int e = 0; e < 2; e++) {
    int32_t u = (int32_t)ends[e][0];
    int compute = g->kind[u] == TC_NODE_COMPUTE;
    if (compute != (ends[e][1] >= 0))
      return tc_error_set(err, TC_EINPUT, "%s: line %lld: node %d is a %s and %s a rank", path, (long long)line, u,
                          compute ? "compute node" : "switch", compute ? "needs" : "has no");
    if (rank_of[u] == -2) rank_of[u] = (int32_t)ends[e][1];
    else if (rank_of[u] != ends[e][1])
      return tc_error_set(err, TC_EINPUT, "%s: line %lld: node %d is rank %d on an earlier line and %lld here", path,
                          (long long)line, u, rank_of[u], ends[e][1]);
  }
  return TC_OK;
}

static int read_rows(FILE *fp, const tc_graph *g, const char *path, const port_row *want, int64_t n,
                     int32_t *rank_of, tc_error *err) {
  char buf[4096];
  char *f[FIELDS];
  if (!fgets(buf, sizeof buf, fp) || strcmp(buf, HEADER "\n"))
    return tc_error_set(err, TC_EINPUT, "%s: line 1: expected the header '%s'", path, HEADER);
  int64_t i = 0, line = 1;
  while (fgets(buf, sizeof buf, fp)) {
    line++;
    size_t len = strlen(buf);
    if (len == 0 || buf[len - 1] != '\n')
      return tc_error_set(err, TC_EINPUT, "%s: line %lld: too long or not ended by a newline", path, (long long)line);
    buf[len - 1] = '\0';
    if (!split(buf, f))
      return tc_error_set(err, TC_EINPUT, "%s: line %lld: expected %d fields", path, (long long)line, FIELDS);
    if (i == n)
      return tc_error_set(err, TC_EINPUT, "%s: line %lld: more rows than the %lld port ends of the wiring", path,
                          (long long)line, (long long)n);
    int rc = check_row(g, path, line, f, &want[i++], rank_of, err);
    if (rc) return rc;
  }
  if (i < n)
    return tc_error_set(err, TC_EINPUT, "%s: %lld rows, but the wiring has %lld port ends", path, (long long)i,
                        (long long)n);
  return TC_OK;
}

/* How the file cables g: simplex when its first row is a fibre's end ("tx", "rx") or g has
   one-way arcs, else duplex. */
static tc_wiring_links file_links(const tc_graph *g, FILE *fp) {
  char buf[4096];
  char *f[FIELDS];
  tc_wiring_links links = g->bidirectional ? TC_WIRING_DUPLEX : TC_WIRING_SIMPLEX;
  if (fgets(buf, sizeof buf, fp) && fgets(buf, sizeof buf, fp)) {
    buf[strcspn(buf, "\n")] = '\0';
    if (split(buf, f) && (!strcmp(f[4], "tx") || !strcmp(f[4], "rx"))) links = TC_WIRING_SIMPLEX;
  }
  rewind(fp);
  return links;
}

int tc_rank_ports_read(const tc_graph *g, const char *path, int32_t *node_of_rank, tc_error *err) {
  port_row *want = NULL;
  int64_t n = 0;
  int32_t ranks = tc_rank_count(g);
  int32_t *rank_of = malloc((size_t)(g->n ? g->n : 1) * sizeof *rank_of);
  if (!rank_of) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t u = 0; u < g->n; u++) rank_of[u] = -2; /* not seen */
  FILE *fp = fopen(path, "r");
  int rc = fp ? TC_OK : tc_error_set(err, TC_EINPUT, "cannot read %s: %s", path, strerror(errno));
  if (!rc) rc = port_rows(g, file_links(g, fp), &want, &n, err);
  if (!rc) rc = read_rows(fp, g, path, want, n, rank_of, err);
  if (fp) fclose(fp);
  for (int32_t r = 0; !rc && r < ranks; r++) node_of_rank[r] = -1;
  for (int32_t u = 0; !rc && u < g->n; u++) {
    if (g->kind[u] != TC_NODE_COMPUTE) continue;
    int32_t r = rank_of[u];
    if (r == -2) rc = tc_error_set(err, TC_EINPUT, "%s: node %d has no row (it has no port?)", path, u);
    else if (r >= ranks)
      rc = tc_error_set(err, TC_EINPUT, "%s: node %d is rank %d, but there are %d ranks", path, u, r, ranks);
    else if (node_of_rank[r] >= 0)
      rc = tc_error_set(err, TC_EINPUT, "%s: rank %d plays both node %d and node %d", path, r, node_of_rank[r], u);
    else node_of_rank[r] = u;
  }
  free(want);
  free(rank_of);
  return rc;
}
