/*
** expand_predict.c — the finder's closed-form predictions for the expansions of paper 000
** §5 (Table 3, App. D; §5.4: predicted, not constructed). Nothing is built: each rule maps the (steps, tau)
** and the structural flags of its input(s) to those of the expanded topology, citing the
** theorem that makes the value exact or a bound.
**
**   line graph L(G)     (n, d) -> (dn, d)    steps + 1; tau + 1/n: exact by Thm 10 when the
**                       input's costs are its optimal BFB schedule's and every node has >= 2
**                       distinct out-neighbours (then L(G)'s costs are its optimal BFB
**                       schedule's too, so Cor 10.1 follows by iteration); else the Thm 7
**                       bound (Cor 7.1 when iterated).
**   degree G*k          (n, d) -> (kn, kd)   G loop-free; steps + 1; tau + (k-1)/(kn) (Thm 11).
**   power G^□k          (n, d) -> (n^k, kd)  k·steps; tau·n/(n-1)·(n^k-1)/n^k (Thm 12); when
**                       G is simple with a BW-optimal BFB schedule, Thm 13 also makes the
**                       power's optimal BFB schedule BW-optimal (so it can be a factor).
**   product G1□G2       sizes multiply, degrees add; both simple with BW-optimal BFB
**                       schedules: steps = D1 + D2, tau = (N-1)/N (Thm 13).
**   closure G ∪ G^T     (n, d) -> (n, 2d)    G reverse-symmetric and unidirectional; costs
**                       unchanged (A.6).
** Structural facts carried along (and why):
**   - L(G) never has parallel arcs (an arc a -> b of L(G) is a pair of arcs of G), has a
**     loop exactly where G has one, and gives node uv the d distinct out-neighbours vw:
**     >= 2 of them besides itself when d >= 3, or when d == 2 and there are no loops;
**     D(L(G)) = D(G) + 1;
**   - G*k has no loops (G has none) and parallel arcs only where G has them;
**   - products and powers keep the loops and parallel arcs of their factors, and their
**     diameters add;
**   - line graphs are unidirectional; products, powers and degree expansions of
**     bidirectional graphs are bidirectional; every expansion keeps reverse symmetry.
** A rule whose exact arithmetic would overflow, or whose spec would not fit, declines (0).
*/
#include <stdio.h>
#include <string.h>

#include "find_internal.h"

/* Fig. 15 class of an expansion: the op letter followed by the input's class when the input
   is itself an expansion, with repeats collapsed: L(L(C)) is "LC", L(circulant) is "L". */
static void op_label(char *out, size_t size, char op, const tc_find_cand *x) {
  if (x->ops == 0) snprintf(out, size, "%c", op);
  else if (x->c.label[0] == op) snprintf(out, size, "%s", x->c.label);
  else snprintf(out, size, "%c%.29s", op, x->c.label);
}

/* Inherit everything an expansion keeps by default from its input. */
static void inherit(tc_find_cand *out, const tc_find_cand *x, int32_t nodes, int32_t degree, int32_t steps, tc_rat tau,
                    uint32_t flags, int32_t diameter) {
  tci_find_cand_init(out, nodes, degree, steps, tau, flags, x->c.reverse_symmetric, x->c.bidirectional, diameter);
  out->c.tau_is_bound = x->c.tau_is_bound;
  out->ops = x->ops + 1;
}

int tci_find_line(const tc_find_cand *x, tc_find_cand *out) {
  const tc_candidate *c = &x->c;
  int64_t nodes = (int64_t)c->nodes * c->degree;
  if (c->degree < 2 || nodes > TC_FIND_MAX_NODES) return 0;
  tc_rat tau;
  if (tc_rat_add(c->tau, (tc_rat){1, c->nodes}, &tau, NULL)) return 0;
  int exact = (tci_find_caps(x) & TC_FIND_CAP_THM10) && !c->tau_is_bound;
  int loops = (c->flags & TC_CAND_SELF_LOOPS) != 0;
  uint32_t flags = (exact ? TC_CAND_BFB : 0) | (loops ? TC_CAND_SELF_LOOPS : TC_CAND_SIMPLE) |
                   ((c->degree >= 3 || !loops) ? TC_CAND_DISTINCT2 : 0) | (c->flags & TC_CAND_CONJECTURE);
  /* L(L^k(Y)) is written line(Y,k+1), and its rule is named for all k+1 iterations: the
     value is exact only if every one of them was (x's tau is exact iff the earlier ones
     were, and `exact` requires that). */
  int32_t k = 1, inner_len = (int32_t)strlen(c->spec), src_len = (int32_t)strlen(c->source);
  const char *inner = c->spec;
  if (x->line_k > 0) {
    k = x->line_k + 1;
    inner = c->spec + 5;
    inner_len = x->line_spec_len;
    src_len = x->line_src_len;
  }
  inherit(out, x, (int32_t)nodes, c->degree, c->steps + 1, tau, flags, c->diameter >= 0 ? c->diameter + 1 : -1);
  out->c.tau_is_bound = !exact;
  out->c.bidirectional = 0;
  out->ops = x->line_k > 0 ? x->ops : x->ops + 1;
  out->line_k = k;
  out->line_spec_len = inner_len;
  out->line_src_len = src_len;
  char label[32], source[160], rule[48];
  op_label(label, sizeof label, 'L', x);
  if (k == 1) snprintf(rule, sizeof rule, "%s", exact ? "Thm 10" : "Thm 7 bound");
  else snprintf(rule, sizeof rule, "%s (k=%d)", exact ? "Cor 10.1" : "Cor 7.1 bound", (int)k);
  snprintf(source, sizeof source, "%.*s; %s", (int)src_len, c->source, rule);
  if (k == 1) return tci_find_cand_name(out, label, source, "line(%.*s)", (int)inner_len, inner);
  return tci_find_cand_name(out, label, source, "line(%.*s,%d)", (int)inner_len, inner, (int)k);
}

int tci_find_degree(const tc_find_cand *x, int32_t k, tc_find_cand *out) {
  const tc_candidate *c = &x->c;
  int64_t nodes = (int64_t)c->nodes * k, degree = (int64_t)c->degree * k;
  if (k < 2 || (c->flags & TC_CAND_SELF_LOOPS) || nodes > TC_FIND_MAX_NODES || degree > TC_FIND_MAX_DEGREE) return 0;
  tc_rat extra, tau;
  if (tc_rat_make(k - 1, nodes, &extra, NULL) || tc_rat_add(c->tau, extra, &tau, NULL)) return 0;
  uint32_t flags = (c->flags & (TC_CAND_BW_OPTIMAL | TC_CAND_SIMPLE | TC_CAND_CONJECTURE)) | TC_CAND_DISTINCT2;
  inherit(out, x, (int32_t)nodes, (int32_t)degree, c->steps + 1, tau, flags, -1);
  char label[32], source[160];
  op_label(label, sizeof label, 'D', x);
  snprintf(source, sizeof source, "%s; Thm 11", c->source);
  return tci_find_cand_name(out, label, source, "degree(%s,%d)", c->spec, (int)k);
}

int tci_find_power(const tc_find_cand *x, int32_t k, tc_find_cand *out) {
  const tc_candidate *c = &x->c;
  int64_t n = c->nodes, nk = 1, degree = (int64_t)c->degree * k;
  if (k < 2 || n < 2 || degree > TC_FIND_MAX_DEGREE) return 0;
  for (int32_t i = 0; i < k; i++) {
    if (nk > TC_FIND_MAX_NODES / n) return 0;
    nk *= n;
  }
  /* Thm 12: tau · n/(n-1) · (n^k - 1)/n^k. */
  tc_rat tau, f1, f2;
  if (tc_rat_make(n, n - 1, &f1, NULL) || tc_rat_make(nk - 1, nk, &f2, NULL) || tc_rat_mul(c->tau, f1, &tau, NULL) ||
      tc_rat_mul(tau, f2, &tau, NULL))
    return 0;
  int thm13 = (tci_find_caps(x) & TC_FIND_CAP_PRODUCT) != 0;
  uint32_t flags = (c->flags & (TC_CAND_BW_OPTIMAL | TC_CAND_SELF_LOOPS | TC_CAND_SIMPLE | TC_CAND_CONJECTURE)) |
                   TC_CAND_DISTINCT2 | (thm13 ? TC_CAND_BFB : 0);
  inherit(out, x, (int32_t)nk, (int32_t)degree, c->steps * k, tau, flags, c->diameter >= 0 ? c->diameter * k : -1);
  char label[32], source[160];
  op_label(label, sizeof label, 'P', x);
  snprintf(source, sizeof source, "%s; %s", c->source, thm13 ? "Thm 12/13" : "Thm 12");
  return tci_find_cand_name(out, label, source, "power(%s,%d)", c->spec, (int)k);
}

/* The factor list of a product operand: "F1,F2" for product(F1,F2), else its spec. */
static void factor_list(const tc_find_cand *x, const char **text, int *len) {
  if (x->factors > 1) {
    *text = x->c.spec + 8; /* after "product(" */
    *len = (int)strlen(x->c.spec) - 9;
  } else {
    *text = x->c.spec;
    *len = (int)strlen(x->c.spec);
  }
}

int tci_find_product(const tc_find_cand *a, const tc_find_cand *b, tc_find_cand *out) {
  uint32_t need = TC_FIND_CAP_PRODUCT;
  if ((tci_find_caps(a) & need) != need || (tci_find_caps(b) & need) != need) return 0;
  int64_t nodes = (int64_t)a->c.nodes * b->c.nodes, degree = (int64_t)a->c.degree + b->c.degree;
  if (nodes > TC_FIND_MAX_NODES || degree > TC_FIND_MAX_DEGREE) return 0;
  int rs = a->c.reverse_symmetric == 1 && b->c.reverse_symmetric == 1 ? 1 : -1;
  uint32_t flags = TC_CAND_BFB | TC_CAND_BW_OPTIMAL | TC_CAND_SIMPLE | TC_CAND_DISTINCT2 |
                   ((a->c.flags | b->c.flags) & TC_CAND_CONJECTURE);
  int32_t steps = a->c.steps + b->c.steps;
  tci_find_cand_init(out, (int32_t)nodes, (int32_t)degree, steps, tci_find_bw_tau(nodes), flags, rs,
                    a->c.bidirectional && b->c.bidirectional, steps);
  out->ops = a->ops + b->ops + 1;
  out->factors = (a->factors > 1 ? a->factors : 1) + (b->factors > 1 ? b->factors : 1);
  const char *ta, *tb;
  int la, lb;
  factor_list(a, &ta, &la);
  factor_list(b, &tb, &lb);
  char source[160];
  snprintf(source, sizeof source, "Thm 13 (D = %d + %d)", (int)a->c.steps, (int)b->c.steps);
  return tci_find_cand_name(out, "C", source, "product(%.*s,%.*s)", la, ta, lb, tb);
}

int tci_find_bidir(const tc_find_cand *x, tc_find_cand *out) {
  const tc_candidate *c = &x->c;
  int64_t degree = 2 * (int64_t)c->degree;
  if (c->reverse_symmetric != 1 || c->bidirectional || degree > TC_FIND_MAX_DEGREE || c->nodes < 3) return 0;
  /* G ∪ G^T may pair an arc with an existing opposite arc into a parallel link, so it is
     not known to be simple; with n >= 3 and strong connectivity every node has >= 2
     distinct neighbours. */
  uint32_t flags = (c->flags & (TC_CAND_BW_OPTIMAL | TC_CAND_SELF_LOOPS | TC_CAND_CONJECTURE)) | TC_CAND_DISTINCT2;
  inherit(out, x, c->nodes, (int32_t)degree, c->steps, c->tau, flags, -1);
  out->c.reverse_symmetric = 1;
  out->c.bidirectional = 1;
  char label[32], source[160];
  snprintf(label, sizeof label, "bidir(%.24s)", c->label);
  snprintf(source, sizeof source, "%s; A.6", c->source);
  return tci_find_cand_name(out, label, source, "bidir(%s)", c->spec);
}
