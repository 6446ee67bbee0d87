/*
** lp_allreduce.c — LP (6) of paper 001 App. E written out for GLPK (contract in
** lp_allreduce.h; the solve and the exact certificate are lp_exact.c's).
**
** Every constraint is written as a row "Σ ±var <= b" with b a link capacity or 0:
**   link p (direct):        c^RE_p + c^BC_p                         <= b_p
**   link p (routed):        Σ_α r^α_p                               <= b_p
**   commodity α, node w≠α:  out(r^α, w) - in(r^α, w) + b'(α, w)     <= 0   (b' = c^RE + c^BC
**                                                                          of logical arc α->w,
**                                                                          0 at a switch)
**   gadget (stage, t), node w of its network:
**                           out(f, w) - in(f, w) - x_w              <= 0   (w ≠ t)
**                           out(f, t) - in(f, t) + Σ_{v≠t} x_v      <= 0
**   gadget arc a:           f_a - c^stage_a                         <= 0
** The paper's source arcs s -> v of capacity x_v are substituted: a flow of value Σ x out of
** s saturates all of them, so f_sv = x_v and node v simply supplies x_v (every node of a
** gadget network is a compute node). It saves N columns and N rows per gadget and changes
** nothing else.
**
** Column and row numbers come from one layout (struct layout), computed before anything is
** allocated so that the size limit is checked first. The reduce gadget of t is the
** broadcast gadget on the reversed network: F(t, s) with arcs v -> s equals F(s, t) in G^T
** with arcs s -> v, so both stages share one writer and differ only in arc direction.
*/
#include "forest/lp_allreduce.h"
#include "topocoll/forest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "forest/lp_exact.h"

typedef __int128 wide;

/* The links of g: parallel arcs summed, loops dropped, capacities divided by their gcd. */
typedef struct links {
  int64_t count;
  int32_t *src, *dst;
  int64_t *cap;
  int64_t gcd;
} links;

/* The network the flow gadgets run on: the links themselves (direct) or the logical complete
   digraph of the compute nodes (routed, node i = compute node i). */
typedef struct gadget_net {
  int64_t arcs;
  const int32_t *from, *to;
  const int32_t *root; /* N: the node of compute node i */
} gadget_net;

typedef struct layout {
  int32_t N, n, K; /* compute nodes, graph nodes, gadget network nodes */
  int64_t L;       /* gadget network arcs */
  int routed;
  /* first column of each block (1-based) */
  int64_t col_x, col_re, col_bc, col_route, col_gadget;
  /* first row of each block */
  int64_t row_link, row_route, row_gadget;
  int64_t rows, cols, nnz;
} layout;

/* Sizes in 128 bits, so that an absurd graph is measured, not overflowed; the block offsets
   only when the sizes fit GLPK. */
static void plan_layout(layout *lo, int32_t N, int32_t n, int64_t nlinks, int routed, int64_t route_nnz,
                        wide *cols, wide *rows, wide *nnz) {
  memset(lo, 0, sizeof *lo);
  lo->N = N, lo->n = n, lo->routed = routed;
  lo->K = routed ? N : n;
  lo->L = routed ? (int64_t)N * (N - 1) : nlinks;
  wide W = N, L = lo->L, K = lo->K, gadget_cols = L, gadget_rows = K + L;
  wide route_cols = routed ? W * nlinks : 0;
  *cols = W + 2 * L + route_cols + 2 * W * gadget_cols;
  *rows = nlinks + (routed ? W * (n - 1) : 0) + 2 * W * gadget_rows;
  /* a gadget: 4 entries per arc (out, in, and the capacity row's two) and 2(N-1) supplies
     (each x_v at its node, and at t); a link row: its two c's (direct) or N routings
     (routed, counted with the commodity rows in route_nnz) */
  *nnz = 2 * W * (4 * L + 2 * (W - 1)) + (routed ? route_nnz + 2 * L : 2 * (wide)nlinks);
  if (*cols <= INT32_MAX && *rows <= INT32_MAX && *nnz <= INT32_MAX) {
    lo->cols = (int64_t)*cols, lo->rows = (int64_t)*rows, lo->nnz = (int64_t)*nnz;
    lo->col_x = 1;
    lo->col_re = lo->col_x + N;
    lo->col_bc = lo->col_re + lo->L;
    lo->col_route = lo->col_bc + lo->L;
    lo->col_gadget = lo->col_route + (int64_t)route_cols;
    lo->row_link = 1;
    lo->row_route = lo->row_link + nlinks;
    lo->row_gadget = lo->row_route + (routed ? (int64_t)N * (n - 1) : 0);
  }
}

static void links_destroy(links *l) {
  free(l->src);
  free(l->dst);
  free(l->cap);
  memset(l, 0, sizeof *l);
}

static int links_make(const tc_graph *g, links *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  size_t room = (size_t)(g->m ? g->m : 1);
  out->src = malloc(room * sizeof *out->src);
  out->dst = malloc(room * sizeof *out->dst);
  out->cap = malloc(room * sizeof *out->cap);
  if (!out->src || !out->dst || !out->cap) {
    links_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "lp-allreduce: out of memory for %lld arcs", (long long)g->m);
  }
  /* arcs are sorted by (src, dst): parallel ones are adjacent */
  for (int64_t a = 0; a < g->m; a++) {
    int32_t u = g->src[a], v = g->dst[a];
    if (u == v) continue;
    int64_t k = out->count;
    if (k > 0 && out->src[k - 1] == u && out->dst[k - 1] == v) {
      if (tci_add64(out->cap[k - 1], g->cap[a], &out->cap[k - 1])) {
        links_destroy(out);
        return tc_error_set(err, TC_ERANGE, "lp-allreduce: the arcs %d -> %d add up beyond 64 bits", u, v);
      }
      continue;
    }
    out->src[k] = u, out->dst[k] = v, out->cap[k] = g->cap[a];
    out->count++;
  }
  for (int64_t p = 0; p < out->count; p++) out->gcd = tci_gcd64(out->gcd, out->cap[p]);
  for (int64_t p = 0; p < out->count; p++) out->cap[p] /= out->gcd;
  return TC_OK;
}

/* Every compute node must reach every other (through any nodes): otherwise no allreduce
   exists and LP (6) is 0. Checked as: all reached from the first, and all reach it. */
static int check_reach(const tc_graph *g, const int32_t *comp, int32_t N, tc_error *err) {
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  uint8_t *seen = malloc((size_t)g->n);
  if (!queue || !seen) {
    free(queue);
    free(seen);
    return tc_error_set(err, TC_ENOMEM, "lp-allreduce: out of memory for %d nodes", g->n);
  }
  int rc = TC_OK;
  for (int dir = 0; !rc && dir < 2; dir++) {
    memset(seen, 0, (size_t)g->n);
    int32_t head = 0, tail = 0;
    queue[tail++] = comp[0];
    seen[comp[0]] = 1;
    while (head < tail) {
      int32_t u = queue[head++];
      int64_t lo = dir ? g->in_off[u] : g->out_off[u], hi = dir ? g->in_off[u + 1] : g->out_off[u + 1];
      for (int64_t e = lo; e < hi; e++) {
        int32_t v = dir ? g->src[g->in_arc[e]] : g->dst[e];
        if (!seen[v]) seen[v] = 1, queue[tail++] = v;
      }
    }
    for (int32_t i = 1; !rc && i < N; i++)
      if (!seen[comp[i]])
        rc = tc_error_set(err, TC_EINPUT,
                          "lp-allreduce: compute node %d cannot reach compute node %d, so no allreduce exists",
                          dir ? comp[i] : comp[0], dir ? comp[0] : comp[i]);
  }
  free(queue);
  free(seen);
  return rc;
}

/* Row of commodity i (source node alpha) at node w != alpha. */
static int64_t route_row(const layout *lo, int32_t i, int32_t alpha, int32_t w) {
  return lo->row_route + (int64_t)i * (lo->n - 1) + (w < alpha ? w : w - 1);
}

/* Link rows and, routed, the multi-commodity routing of every logical arc's b'. */
static int write_links(tci_lp *lp, const layout *lo, const links *ln, const int32_t *comp, tc_error *err) {
  int rc = TC_OK;
  for (int64_t p = 0; p < ln->count; p++) lp->rhs[lo->row_link + p] = ln->cap[p];
  if (!lo->routed) {
    for (int64_t p = 0; !rc && p < ln->count; p++) {
      rc = tci_lp_entry(lp, lo->row_link + p, lo->col_re + p, 1, err);
      if (!rc) rc = tci_lp_entry(lp, lo->row_link + p, lo->col_bc + p, 1, err);
    }
    return rc;
  }
  for (int32_t i = 0; !rc && i < lo->N; i++) {
    int32_t alpha = comp[i];
    for (int64_t p = 0; !rc && p < ln->count; p++) {
      int64_t c = lo->col_route + (int64_t)i * ln->count + p;
      rc = tci_lp_entry(lp, lo->row_link + p, c, 1, err);
      if (!rc && ln->src[p] != alpha) rc = tci_lp_entry(lp, route_row(lo, i, alpha, ln->src[p]), c, 1, err);
      if (!rc && ln->dst[p] != alpha) rc = tci_lp_entry(lp, route_row(lo, i, alpha, ln->dst[p]), c, -1, err);
    }
    /* the demand b'(alpha, beta) = c^RE + c^BC of logical arc (i, j) at beta */
    for (int32_t j = 0; !rc && j < lo->N; j++) {
      if (j == i) continue;
      int64_t l = (int64_t)i * (lo->N - 1) + (j < i ? j : j - 1), row = route_row(lo, i, alpha, comp[j]);
      rc = tci_lp_entry(lp, row, lo->col_re + l, 1, err);
      if (!rc) rc = tci_lp_entry(lp, row, lo->col_bc + l, 1, err);
    }
  }
  return rc;
}

/* Gadget k: broadcast to compute node t = k for k < N, reduce from t = k - N after. */
static int write_gadget(tci_lp *lp, const layout *lo, const gadget_net *net, int32_t k, tc_error *err) {
  int reduce = k >= lo->N;
  int32_t t = reduce ? k - lo->N : k;
  int64_t col = lo->col_gadget + (int64_t)k * lo->L;
  int64_t row = lo->row_gadget + (int64_t)k * (lo->K + lo->L);
  int64_t cap_col = reduce ? lo->col_re : lo->col_bc;
  int rc = TC_OK;
  for (int64_t a = 0; !rc && a < net->arcs; a++) {
    int32_t tail = reduce ? net->to[a] : net->from[a], head = reduce ? net->from[a] : net->to[a];
    rc = tci_lp_entry(lp, row + tail, col + a, 1, err);
    if (!rc) rc = tci_lp_entry(lp, row + head, col + a, -1, err);
    if (!rc) rc = tci_lp_entry(lp, row + lo->K + a, col + a, 1, err);
    if (!rc) rc = tci_lp_entry(lp, row + lo->K + a, cap_col + a, -1, err);
  }
  for (int32_t i = 0; !rc && i < lo->N; i++) {
    if (i == t) continue;
    rc = tci_lp_entry(lp, row + net->root[i], lo->col_x + i, -1, err);
    if (!rc) rc = tci_lp_entry(lp, row + net->root[t], lo->col_x + i, 1, err);
  }
  return rc;
}

void tci_lp_result_destroy(tci_lp_result *r) {
  free(r->x_float);
  free(r->x);
  memset(r, 0, sizeof *r);
}

/* x_v and the optimum, scaled back by the capacities' gcd. */
static int fill_result(const layout *lo, const links *ln, const int32_t *comp, const tci_lp_solution *s,
                       tci_lp_result *out, tc_error *err) {
  out->value_float = s->value_float * (double)ln->gcd;
  out->lower = s->lower, out->upper = s->upper, out->certified = s->lower && s->upper;
  out->resolved = s->resolved;
  memcpy(out->why_lower, s->why_lower, sizeof out->why_lower);
  memcpy(out->why_upper, s->why_upper, sizeof out->why_upper);
  tc_rat gcd = {ln->gcd, 1};
  int rc = tc_rat_mul(s->value, gcd, &out->value, err);
  out->x_float = calloc((size_t)out->n, sizeof *out->x_float);
  if (!rc && !out->x_float) rc = tc_error_set(err, TC_ENOMEM, "lp-allreduce: out of memory for the result");
  if (!rc && s->lower) {
    out->x = calloc((size_t)out->n, sizeof *out->x);
    if (!out->x) rc = tc_error_set(err, TC_ENOMEM, "lp-allreduce: out of memory for the result");
    for (int32_t v = 0; !rc && v < out->n; v++) out->x[v] = (tc_rat){0, 1};
  }
  for (int32_t i = 0; !rc && i < lo->N; i++) {
    int64_t j = lo->col_x + i;
    out->x_float[comp[i]] = s->xfloat[j] * (double)ln->gcd;
    if (s->lower) rc = tc_rat_mul(s->x[j], gcd, &out->x[comp[i]], err);
  }
  if (rc) tc_error_prefix(err, "lp-allreduce");
  return rc;
}

static int solve(const tc_graph *g, tci_lp_form form, int least_flow, const int32_t *comp, const int32_t *cidx,
                 int32_t N, tci_lp_result *out, tc_error *err) {
  links ln;
  int rc = links_make(g, &ln, err);
  if (rc) return rc;
  int routed = form == TCI_LP_ROUTED;
  int64_t route_nnz = 0; /* routing entries: a link row each, and its ends unless at alpha */
  for (int64_t p = 0; routed && p < ln.count; p++)
    route_nnz += 3 * (int64_t)N - (cidx[ln.src[p]] >= 0) - (cidx[ln.dst[p]] >= 0);
  layout lo;
  wide cols, rows, nnz;
  plan_layout(&lo, N, g->n, ln.count, routed, route_nnz, &cols, &rows, &nnz);
  if (cols > TCI_LP_MAX_COLS) {
    rc = tc_error_set(err, TC_ERANGE,
                      "lp-allreduce: LP (6) on %d compute nodes and %lld links would have %lld variables, "
                      "beyond the limit of %d (it certifies small fabrics)",
                      N, (long long)ln.count, cols > INT64_MAX ? (long long)INT64_MAX : (long long)cols,
                      TCI_LP_MAX_COLS);
    links_destroy(&ln);
    return rc;
  }
  int32_t *lfrom = NULL, *lto = NULL, *root = malloc((size_t)N * sizeof *root);
  if (routed) {
    lfrom = malloc((size_t)lo.L * sizeof *lfrom);
    lto = malloc((size_t)lo.L * sizeof *lto);
  }
  tci_lp lp = {0};
  if (!root || (routed && (!lfrom || !lto))) rc = tc_error_set(err, TC_ENOMEM, "lp-allreduce: out of memory");
  if (!rc) rc = tci_lp_init(&lp, lo.rows, lo.cols, lo.nnz, err);
  gadget_net net = {0};
  if (!rc) {
    for (int32_t i = 0; i < N; i++) root[i] = routed ? i : comp[i];
    for (int32_t i = 0, l = 0; routed && i < N; i++)
      for (int32_t j = 0; j < N; j++)
        if (j != i) lfrom[l] = i, lto[l] = j, l++;
    net = (gadget_net){lo.L, routed ? lfrom : ln.src, routed ? lto : ln.dst, root};
    for (int32_t i = 0; i < N; i++) lp.obj[lo.col_x + i] = 1;
    rc = write_links(&lp, &lo, &ln, comp, err);
  }
  for (int32_t k = 0; !rc && k < 2 * N; k++) rc = write_gadget(&lp, &lo, &net, k, err);
  if (!rc && lp.nnz != lp.room)
    rc = tc_error_set(err, TC_EFAIL, "lp-allreduce: wrote %lld of the %lld entries planned", (long long)lp.nnz,
                      (long long)lp.room);
  tci_lp_solution s = {0};
  if (!rc) {
    rc = tci_lp_solve(&lp, least_flow, &s, err);
    if (rc) tc_error_prefix(err, "lp-allreduce");
  }
  if (!rc) {
    out->form = routed ? TCI_LP_ROUTED : TCI_LP_DIRECT;
    out->rows = lo.rows, out->cols = lo.cols, out->nnz = lo.nnz;
    rc = fill_result(&lo, &ln, comp, &s, out, err);
  }
  tci_lp_solution_destroy(&s);
  tci_lp_destroy(&lp);
  free(root);
  free(lfrom);
  free(lto);
  links_destroy(&ln);
  return rc;
}

int tci_forest_lp_allreduce_opts(const tc_graph *g, const tci_lp_opts *opts, tci_lp_result *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!g) return tc_error_set(err, TC_EINPUT, "lp-allreduce: no graph given");
  tci_lp_form form = opts ? opts->form : TCI_LP_AUTO;
  if (form != TCI_LP_AUTO && form != TCI_LP_DIRECT && form != TCI_LP_ROUTED)
    return tc_error_set(err, TC_EINPUT, "lp-allreduce: unknown formulation %d", (int)form);
  int32_t N = tc_graph_count_kind(g, TC_NODE_COMPUTE), first_switch = -1;
  for (int32_t v = g->n - 1; v >= 0; v--)
    if (g->kind[v] == TC_NODE_SWITCH) first_switch = v;
  if (N < 2)
    return tc_error_set(err, TC_EINPUT, "lp-allreduce: an allreduce needs at least 2 compute nodes (the graph has %d)",
                        N);
  if (form == TCI_LP_DIRECT && first_switch >= 0)
    return tc_error_set(err, TC_EINPUT,
                        "lp-allreduce: the direct formulation of LP (6) needs a switch-free graph "
                        "(node %d is a switch)",
                        first_switch);
  if (form == TCI_LP_AUTO) form = first_switch >= 0 ? TCI_LP_ROUTED : TCI_LP_DIRECT;
  int32_t *comp = malloc((size_t)N * sizeof *comp), *cidx = malloc((size_t)g->n * sizeof *cidx);
  int rc = (!comp || !cidx) ? tc_error_set(err, TC_ENOMEM, "lp-allreduce: out of memory for %d nodes", g->n) : TC_OK;
  for (int32_t v = 0, i = 0; !rc && v < g->n; v++) {
    cidx[v] = g->kind[v] == TC_NODE_COMPUTE ? i : -1;
    if (cidx[v] >= 0) comp[i++] = v;
  }
  if (!rc) rc = check_reach(g, comp, N, err);
  if (!rc) {
    out->n = g->n;
    rc = solve(g, form, opts && opts->least_flow, comp, cidx, N, out, err);
  }
  free(comp);
  free(cidx);
  if (rc) tci_lp_result_destroy(out);
  return rc;
}

int tci_forest_lp_allreduce(const tc_graph *g, tci_lp_result *out, tc_error *err) {
  return tci_forest_lp_allreduce_opts(g, NULL, out, err);
}

int tc_forest_lp_allreduce(const tc_graph *g, tc_rat *value, int *upper, int *lower, tc_error *err) {
  tci_lp_result r;
  int rc = tci_forest_lp_allreduce(g, &r, err);
  if (rc) return rc;
  *value = r.value;
  *upper = r.upper;
  *lower = r.lower;
  tci_lp_result_destroy(&r);
  return TC_OK;
}
