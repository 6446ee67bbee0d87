/*
** kautz.c — the Kautz digraph K(d,n) in paper 000's convention (Table 9, App. F.2):
** N = (d+1)*d^n nodes, out- and in-degree d, diameter n+1, and K(d,n) = L^n(K_{d+1})
** (the n-th iterated line graph of the complete digraph on d+1 nodes).
**
** Convention warning: paper 002 (§2.1.3) indexes Kautz graphs by their diameter instead,
** so its K(d,k) has (d+1)*d^{k-1} nodes and paper 002's K(d,2) is paper 000's K(d,1)
** (d(d+1) nodes, diameter 2). This file always uses paper 000's n = diameter - 1.
**
** Nodes are the words w_0 w_1 ... w_n of n+1 letters over {0..d} with consecutive letters
** distinct; the arcs are w -> w_1 ... w_n z for every letter z != w_n. Node ids follow the
** lexicographic order of the words. That order has a closed form: write each letter after
** the first as a digit c_i in 0..d-1 (c_i = w_i if w_i < w_{i-1}, else w_i - 1, which is
** increasing in w_i); then
**
**     id = w_0 * d^n + c_1 * d^{n-1} + ... + c_n,
**
** so the successors of a node are computed in O(1) each, without decoding the word.
**
** Labels: when N <= 100000 and the word has at most 64 letters, node u is labelled with
** its word: one character per letter ("0102") for d <= 9, letters joined by '.' for
** d >= 10 ("10.3.12") so the word stays unambiguous.
**
** Degenerate case: d = 1 gives the 2-cycle for every n (words 0101.. and 1010..), whose
** diameter is 1, not n+1; it is accepted because it is what L^n(K_2) is.
**
** Rejected: d < 1 or n < 0 (TC_EINPUT); N > TC_MAX_NODES or N*d > TC_MAX_ARCS (TC_ERANGE,
** computed with overflow guards before anything is allocated).
*/
#include <stdio.h>
#include <string.h>

#include "topocoll/topo.h"

/* Word labels are written only up to this many nodes (beyond it they cost more memory
   than the graph and nobody reads them). */
#define KAUTZ_LABEL_MAX_NODES 100000
#define KAUTZ_LABEL_MAX_LETTERS 64

/* d^n into *pow, or TC_ERANGE once (d+1)*d^n would pass TC_MAX_NODES. d == 1 stops at
   once, so an enormous n cannot make this loop long. */
static int kautz_size(int64_t d, int64_t n, int64_t *pow, int64_t *nodes, tc_error *err) {
  if (d >= TC_MAX_NODES) /* d+1 letters alone exceed the limit; also keeps d+1 finite */
    return tc_error_set(err, TC_ERANGE, "kautz: K(%lld,%lld) has more than %d nodes",
                        (long long)d, (long long)n, TC_MAX_NODES);
  int64_t p = 1;
  for (int64_t i = 0; i < n && d > 1; i++) {
    if (p > TC_MAX_NODES / d)
      return tc_error_set(err, TC_ERANGE, "kautz: K(%lld,%lld) has more than %d nodes",
                          (long long)d, (long long)n, TC_MAX_NODES);
    p *= d;
  }
  /* (d+1)*p is checked by division so the product is only formed once it fits. */
  if (p > TC_MAX_NODES / (d + 1))
    return tc_error_set(err, TC_ERANGE, "kautz: K(%lld,%lld) has more than %d nodes",
                        (long long)d, (long long)n, TC_MAX_NODES);
  *pow = p;
  *nodes = (d + 1) * p;
  if (*nodes * d > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "kautz: K(%lld,%lld) has more than %lld arcs",
                        (long long)d, (long long)n, (long long)TC_MAX_ARCS);
  return TC_OK;
}

/* Writes the word of node `id` into buf (room for KAUTZ_LABEL_MAX_LETTERS letters of up to
   10 digits plus separators). */
static void kautz_word(int64_t id, int64_t d, int64_t n, int64_t pow, char *buf) {
  int64_t letter = id / pow, rest = id % pow;
  size_t len = 0;
  for (int64_t i = 0;; i++) {
    if (d <= 9) buf[len++] = (char)('0' + letter);
    else len += (size_t)sprintf(buf + len, i ? ".%lld" : "%lld", (long long)letter);
    if (i == n) break;
    pow /= d;
    int64_t digit = rest / pow;
    rest %= pow;
    letter = digit + (digit >= letter); /* skip the previous letter */
  }
  buf[len] = '\0';
}

static int label_kautz_nodes(tc_graph_builder *b, int64_t d, int64_t n, int64_t pow,
                             int64_t nodes, tc_error *err) {
  char word[KAUTZ_LABEL_MAX_LETTERS * 12 + 1];
  for (int64_t id = 0; id < nodes; id++) {
    kautz_word(id, d, n, pow, word);
    int rc = tc_graph_builder_set_label(b, id, word, err);
    if (rc) return rc;
  }
  return TC_OK;
}

/* K(d,0) = K_{d+1}: one letter per word, an arc to every other letter. */
static int add_complete_arcs(tc_graph_builder *b, int64_t d, tc_error *err) {
  for (int64_t u = 0; u <= d; u++)
    for (int64_t v = 0; v <= d; v++) {
      if (u == v) continue;
      int rc = tc_graph_builder_add_arc(b, u, v, 1, err);
      if (rc) return rc;
    }
  return TC_OK;
}

/* n >= 1: shifting the word left drops w_0 and c_1 becomes the new first letter w_1; the
   digits c_2..c_n keep their meaning (each is relative to an unchanged predecessor) and
   the new last digit ranges over 0..d-1, i.e. over every letter z != w_n. */
static int add_shift_arcs(tc_graph_builder *b, int64_t d, int64_t pow, int64_t nodes, tc_error *err) {
  int64_t tail = pow / d; /* d^{n-1} */
  for (int64_t id = 0; id < nodes; id++) {
    int64_t w0 = id / pow, c1 = (id / tail) % d, rest = id % tail;
    int64_t w1 = c1 + (c1 >= w0);
    int64_t base = w1 * pow + rest * d;
    for (int64_t c = 0; c < d; c++) {
      int rc = tc_graph_builder_add_arc(b, id, base + c, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

int tc_topo_kautz(int64_t d, int64_t n, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (d < 1) return tc_error_set(err, TC_EINPUT, "kautz: d must be >= 1 (got %lld)", (long long)d);
  if (n < 0) return tc_error_set(err, TC_EINPUT, "kautz: n must be >= 0 (got %lld)", (long long)n);
  int64_t pow = 0, nodes = 0;
  int rc = kautz_size(d, n, &pow, &nodes, err);
  if (rc) return rc;
  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * d, err);
  if (!rc) rc = n == 0 ? add_complete_arcs(&b, d, err) : add_shift_arcs(&b, d, pow, nodes, err);
  if (!rc && nodes <= KAUTZ_LABEL_MAX_NODES && n < KAUTZ_LABEL_MAX_LETTERS)
    rc = label_kautz_nodes(&b, d, n, pow, nodes, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
