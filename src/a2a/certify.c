/*
** certify.c — the certificate of an MCF value, independent of any solver (contract in
** a2a_internal.h; paper 003 §3.1's F, docs/alltoall.md).
**
** Lower bound. Integer flows (units of 1/den) are checked, not trusted: loads against
** capacities and host caps, and conservation in the paper's form (3) — no node other than
** the source sends more than it receives. A flow that conserves decomposes into paths from
** the source and cycles, and the paths ending at t carry exactly t's net inflow, so that is
** what t receives. A node that does send more than it receives is treated as an extra source
** of its surplus; in the worst case all of it reaches each sink, so the total surplus is
** subtracted from every sink's inflow and the bound remains valid. Overloaded arcs or host
** caps scale the whole flow down by the largest load/capacity, which makes it feasible.
**
** Upper bound. For any lengths l >= 0 a feasible routing at rate F gives
**   F · Σ_{s≠t} dist_l(s,t) <= Σ_paths rate·length = Σ_e l_e load_e <= Σ_e c_e l_e
** (weak LP duality); host caps add node lengths on the same argument. Distances are exact
** integer Dijkstra on integer lengths, so the bound is an exact rational. All sums are
** 128-bit; a result that does not fit int64 is TC_ERANGE, never wrapped.
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"
#include "core/intmath.h"

typedef __int128 wide;

/* num/den of 128 bits reduced into a tc_rat; 1 if it does not fit. */
static int narrow(wide num, wide den, tc_rat *out) {
  if (den < 0) num = -num, den = -den;
  wide g = tci_gcd128(num, den);
  if (g > 1) num /= g, den /= g;
  if (num > INT64_MAX || num < -INT64_MAX || den > INT64_MAX || den == 0) return 1;
  out->num = (int64_t)num;
  out->den = (int64_t)den;
  return 0;
}

int tci_a2a_certify_lower(const tc_graph *g, tc_rat host_cap, int32_t nflows, const int32_t *src,
                          const int32_t *dst, const int64_t *units, int64_t den, tci_a2a_lower *out,
                          tc_error *err) {
  memset(out, 0, sizeof *out);
  out->value.den = out->delivered.den = out->load.den = 1;
  out->worst_arc = -1, out->worst_node = -1, out->short_src = -1, out->short_dst = -1;
  out->deficit_node = -1, out->deficit_flow = -1;
  const int32_t n = g->n;
  const int64_t m = g->m;
  if (den < 1) return tc_error_set(err, TC_EFAIL, "a2a certify: denominator %lld", (long long)den);
  wide *in = malloc(sizeof *in * (size_t)n), *outf = malloc(sizeof *outf * (size_t)n);
  wide *load = calloc((size_t)(m > 0 ? m : 1), sizeof *load);
  wide *hin = calloc((size_t)n, sizeof *hin), *hout = calloc((size_t)n, sizeof *hout);
  int rc = TC_OK;
  if (!in || !outf || !load || !hin || !hout) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a certify: out of memory");
    goto done;
  }
  int have_min = 0;
  wide min_deliv = 0, total_deficit = 0;
  for (int32_t k = 0; k < nflows; k++) {
    const int64_t *x = units + (int64_t)k * m;
    memset(in, 0, sizeof *in * (size_t)n);
    memset(outf, 0, sizeof *outf * (size_t)n);
    for (int64_t a = 0; a < m; a++) {
      if (x[a] < 0) {
        rc = tc_error_set(err, TC_EFAIL, "a2a certify: flow %d is negative on arc %lld", k, (long long)a);
        goto done;
      }
      outf[g->src[a]] += x[a];
      in[g->dst[a]] += x[a];
      load[a] += x[a];
    }
    wide deficit = 0;
    for (int32_t u = 0; u < n; u++) {
      hout[u] += outf[u];
      hin[u] += in[u];
      if (u != src[k] && outf[u] > in[u]) {
        deficit += outf[u] - in[u];
        if (out->deficit_node < 0) out->deficit_node = u, out->deficit_flow = k;
      }
    }
    total_deficit += deficit;
    for (int32_t t = 0; t < n; t++) {
      if (t == src[k] || (dst[k] >= 0 && t != dst[k])) continue;
      wide got = in[t] - outf[t] - deficit;
      if (!have_min || got < min_deliv) {
        have_min = 1;
        min_deliv = got;
        out->short_src = src[k], out->short_dst = t;
      }
    }
  }
  if (total_deficit > INT64_MAX) total_deficit = INT64_MAX;
  out->deficit = (int64_t)total_deficit;
  if (min_deliv < 0) min_deliv = 0;
  /* the largest load / capacity: ln / ld, starting from 1/1 (no scaling) */
  wide ln = 1, ld = 1;
  for (int64_t a = 0; a < m; a++) {
    wide cap = (wide)g->cap[a] * den;
    if (load[a] * ld > ln * cap) ln = load[a], ld = cap, out->worst_arc = a;
  }
  if (host_cap.num > 0)
    for (int32_t u = 0; u < n; u++) {
      wide hl = hout[u] > hin[u] ? hout[u] : hin[u];
      wide num = hl * host_cap.den, cap = (wide)host_cap.num * den;
      if (num * ld > ln * cap) ln = num, ld = cap, out->worst_node = u, out->worst_arc = -1;
    }
  if (narrow(min_deliv, den, &out->delivered) || narrow(ln, ld, &out->load) ||
      narrow(min_deliv * ld, (wide)den * ln, &out->value)) {
    rc = tc_error_set(err, TC_ERANGE, "a2a certify: the lower bound does not fit 64-bit rationals");
    goto done;
  }
done:
  free(in), free(outf), free(load), free(hin), free(hout);
  return rc;
}

/* A binary min-heap of (distance, node) with lazy deletion. */
typedef struct {
  int64_t *key;
  int32_t *node;
  int64_t size;
} heap;

static void heap_push(heap *h, int64_t key, int32_t node) {
  int64_t i = h->size++;
  while (i > 0) {
    int64_t p = (i - 1) / 2;
    if (h->key[p] <= key) break;
    h->key[i] = h->key[p], h->node[i] = h->node[p];
    i = p;
  }
  h->key[i] = key, h->node[i] = node;
}

static void heap_pop(heap *h, int64_t *key, int32_t *node) {
  *key = h->key[0], *node = h->node[0];
  int64_t k = h->key[--h->size];
  int32_t v = h->node[h->size];
  int64_t i = 0;
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= h->size) break;
    if (c + 1 < h->size && h->key[c + 1] < h->key[c]) c++;
    if (h->key[c] >= k) break;
    h->key[i] = h->key[c], h->node[i] = h->node[c];
    i = c;
  }
  h->key[i] = k, h->node[i] = v;
}

int tci_a2a_certify_upper(const tc_graph *g, tc_rat host_cap, const int64_t *len, const int64_t *hlen,
                          tc_rat *out, tc_error *err) {
  out->num = 0, out->den = 1;
  const int32_t n = g->n;
  const int64_t m = g->m;
  const int use_host = host_cap.num > 0 && hlen;
  int64_t *w = malloc(sizeof *w * (size_t)(m > 0 ? m : 1)), *dist = malloc(sizeof *dist * (size_t)n);
  heap h = {malloc(sizeof(int64_t) * (size_t)(m + n)), malloc(sizeof(int32_t) * (size_t)(m + n)), 0};
  int rc = TC_OK;
  if (!w || !dist || !h.key || !h.node) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a certify: out of memory");
    goto done;
  }
  wide cl = 0, hsum = 0;
  for (int64_t a = 0; a < m; a++) {
    if (len[a] < 0 || (use_host && (hlen[g->src[a]] < 0 || hlen[n + g->dst[a]] < 0))) {
      rc = tc_error_set(err, TC_EFAIL, "a2a certify: a negative length");
      goto done;
    }
    cl += (wide)g->cap[a] * len[a];
    if (tci_add64(len[a], use_host ? hlen[g->src[a]] + hlen[n + g->dst[a]] : 0, &w[a])) {
      rc = tc_error_set(err, TC_ERANGE, "a2a certify: lengths beyond 64 bits");
      goto done;
    }
  }
  if (use_host)
    for (int32_t u = 0; u < 2 * n; u++) hsum += hlen[u];
  wide total = 0;
  for (int32_t s = 0; s < n; s++) {
    for (int32_t v = 0; v < n; v++) dist[v] = -1;
    h.size = 0;
    heap_push(&h, 0, s);
    while (h.size) {
      int64_t d;
      int32_t u;
      heap_pop(&h, &d, &u);
      if (dist[u] >= 0) continue;
      dist[u] = d;
      for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
        if (dist[g->dst[a]] < 0) heap_push(&h, d + w[a], g->dst[a]); /* at most m pushes */
    }
    for (int32_t v = 0; v < n; v++) {
      if (dist[v] < 0) {
        rc = tc_error_set(err, TC_EINPUT, "a2a certify: node %d cannot reach node %d", s, v);
        goto done;
      }
      total += dist[v];
    }
  }
  if (total == 0) {
    rc = tc_error_set(err, TC_EFAIL, "a2a certify: all distances are 0 under these lengths: no upper bound");
    goto done;
  }
  wide num = use_host ? cl * host_cap.den + hsum * host_cap.num : cl;
  wide dd = use_host ? total * host_cap.den : total;
  if (narrow(num, dd, out)) rc = tc_error_set(err, TC_ERANGE, "a2a certify: the upper bound does not fit 64-bit rationals");
done:
  free(w), free(dist), free(h.key), free(h.node);
  return rc;
}
