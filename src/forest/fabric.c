/*
** fabric.c — what ForestColl needs of a fabric, checked up front so that every refusal is one
** line naming the node (contract of tc_forest_check_fabric in forest.h): at least two compute
** nodes and at most TC_FOREST_MAX_COMPUTE, every compute node reaching and reached from the
** others (through any nodes), total
** capacity within 64 bits, and — when switches are to be removed — ingress = egress
** capacity at every node (paper 001 §3.1, assumption (b): edge splitting needs an Eulerian
** graph). Self-loops are ignored: they cross no cut. Also the checks of a caller's weights
** (weighted roots, forest.h), which every entry point applies before anything else.
*/
#include <stdio.h>
#include <stdlib.h>

#include "core/intmath.h"
#include "forest/forest_internal.h"

void tci_forest_name_node(const tc_graph *g, int32_t v, char *buf, int size) {
  const char *l = tc_graph_label(g, v);
  if (l) snprintf(buf, (size_t)size, "%d (%s)", v, l);
  else snprintf(buf, (size_t)size, "%d", v);
}

/* Nodes reachable from `from` along arcs (dir TC_OUT) or against them (TC_IN). */
static int reach(const tc_graph *g, int32_t from, tc_dir dir, uint8_t *seen, int32_t *queue) {
  int32_t qh = 0, qt = 0;
  for (int32_t v = 0; v < g->n; v++) seen[v] = 0;
  seen[from] = 1;
  queue[qt++] = from;
  while (qh < qt) {
    int32_t v = queue[qh++];
    int64_t lo = dir == TC_OUT ? g->out_off[v] : g->in_off[v], hi = dir == TC_OUT ? g->out_off[v + 1] : g->in_off[v + 1];
    for (int64_t j = lo; j < hi; j++) {
      int32_t w = dir == TC_OUT ? g->dst[j] : g->src[g->in_arc[j]];
      if (!seen[w]) { seen[w] = 1; queue[qt++] = w; }
    }
  }
  return qt;
}

int tc_forest_check_fabric(const tc_graph *g, int need_eulerian, tc_error *err) {
  int32_t nc = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  if (nc == 0) return tc_error_set(err, TC_EINPUT, "forestcoll: the fabric has no compute node");
  if (nc == 1) return tc_error_set(err, TC_EINPUT, "forestcoll: the fabric has one compute node only: nothing to exchange");
  if (nc > TC_FOREST_MAX_COMPUTE)
    return tc_error_set(err, TC_ERANGE,
                        "forestcoll: %d compute nodes is beyond the %d ForestColl is built for here (1024 take about "
                        "35 s, and the work grows about as N^3)",
                        nc, TC_FOREST_MAX_COMPUTE);
  int64_t total = 0;
  for (int64_t a = 0; a < g->m; a++)
    if (tci_add64(total, g->cap[a], &total))
      return tc_error_set(err, TC_ERANGE, "forestcoll: the fabric's total capacity overflows 64 bits");
  uint8_t *seen = malloc((size_t)g->n);
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  if (!seen || !queue) {
    free(seen);
    free(queue);
    return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %d nodes", g->n);
  }
  int32_t first = 0;
  while (g->kind[first] != TC_NODE_COMPUTE) first++;
  int rc = TC_OK;
  char a[96], b[96];
  for (int pass = 0; pass < 2 && !rc; pass++) {
    reach(g, first, pass ? TC_IN : TC_OUT, seen, queue);
    for (int32_t v = 0; v < g->n && !rc; v++)
      if (g->kind[v] == TC_NODE_COMPUTE && !seen[v]) {
        tci_forest_name_node(g, first, a, sizeof a);
        tci_forest_name_node(g, v, b, sizeof b);
        rc = pass ? tc_error_set(err, TC_EINPUT, "forestcoll: compute node %s cannot reach compute node %s", b, a)
                  : tc_error_set(err, TC_EINPUT, "forestcoll: compute node %s cannot reach compute node %s", a, b);
      }
  }
  for (int32_t v = 0; need_eulerian && v < g->n && !rc; v++) {
    int64_t in = 0, out = 0;
    for (int64_t j = g->out_off[v]; j < g->out_off[v + 1]; j++) out += g->dst[j] == v ? 0 : g->cap[j];
    for (int64_t j = g->in_off[v]; j < g->in_off[v + 1]; j++) in += g->src[g->in_arc[j]] == v ? 0 : g->cap[g->in_arc[j]];
    if (in != out) {
      tci_forest_name_node(g, v, a, sizeof a);
      rc = tc_error_set(err, TC_EINPUT,
                        "forestcoll: node %s has ingress %lld but egress %lld: removing switches needs them equal at "
                        "every node (paper 001 §3.1)",
                        a, (long long)in, (long long)out);
    }
  }
  free(seen);
  free(queue);
  return rc;
}

/* ---- weights ------------------------------------------------------------------------------ */

int tci_forest_weights(const tc_graph *g, const int64_t *weights, int64_t **node_w, int64_t *total, tc_error *err) {
  *node_w = NULL;
  *total = 0;
  int64_t *w = malloc((size_t)g->n * sizeof *w), sum = 0;
  if (!w) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %d weights", g->n);
  char name[96];
  for (int32_t v = 0; v < g->n; v++) {
    int64_t x = weights ? weights[v] : g->kind[v] == TC_NODE_COMPUTE;
    int rc = TC_OK;
    if (x < 0) {
      tci_forest_name_node(g, v, name, sizeof name);
      rc = tc_error_set(err, TC_EINPUT, "forestcoll: node %s has weight %lld; a weight is a number of shares, >= 0",
                        name, (long long)x);
    } else if (x > 0 && g->kind[v] != TC_NODE_COMPUTE) {
      tci_forest_name_node(g, v, name, sizeof name);
      rc = tc_error_set(err, TC_EINPUT, "forestcoll: node %s is a switch and cannot own shares (weight %lld); give "
                        "switches 0", name, (long long)x);
    } else if (tci_add64(sum, x, &sum)) {
      rc = tc_error_set(err, TC_ERANGE, "forestcoll: the weights add up beyond 2^63-1");
    }
    if (rc) {
      free(w);
      return rc;
    }
    w[v] = x;
  }
  if (sum == 0) {
    free(w);
    return tc_error_set(err, TC_EINPUT, "forestcoll: every weight is 0: at least one compute node must own a share of "
                        "the buffer");
  }
  *node_w = w;
  *total = sum;
  return TC_OK;
}

int tci_forest_weights_unit(const tc_graph *g, const int64_t *weights) {
  if (!weights) return 1;
  for (int32_t v = 0; v < g->n; v++)
    if (weights[v] != (g->kind[v] == TC_NODE_COMPUTE)) return 0;
  return 1;
}
