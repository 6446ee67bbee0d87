/*
** pareto.c — the Pareto sets the finder keeps per intermediate (n, d') (paper 000 §5.4
** step 4: "a topology is inferior to another only if it is worse in both total-hop latency
** and BW runtime").
**
** Pruning at intermediate sizes must not lose a point of the final frontier. Every
** prediction rule is monotone in (steps, tau) of its input at fixed (n, d') — line graph
** adds 1 and 1/n, degree expansion 1 and (k-1)/(kn), power multiplies by constants, and a
** product only uses the steps of BW-optimal factors — so a candidate may replace another
** when it is no worse in both AND can undergo every expansion the other can
** (its capabilities: no self-loops for degree expansion, Thm 10 exactness for line graphs,
** Thm 13 eligibility for products, A.6 closure and bidirectionality when those are
** asked for). Equal points with equal capabilities keep the preferred one (tci_find_rank),
** so the result does not depend on the order candidates arrive in.
*/
#include <stdlib.h>
#include <string.h>

#include "find_internal.h"

uint32_t tci_find_caps(const tc_find_cand *fc) {
  const tc_candidate *c = &fc->c;
  uint32_t caps = 0;
  if (!(c->flags & TC_CAND_SELF_LOOPS)) caps |= TC_FIND_CAP_LOOPFREE;
  if ((c->flags & TC_CAND_BFB) && (c->flags & TC_CAND_DISTINCT2)) caps |= TC_FIND_CAP_THM10;
  if ((c->flags & TC_CAND_BFB) && (c->flags & TC_CAND_BW_OPTIMAL) && (c->flags & TC_CAND_SIMPLE))
    caps |= TC_FIND_CAP_PRODUCT;
  if (c->reverse_symmetric == 1 && !c->bidirectional) caps |= TC_FIND_CAP_CLOSE;
  if (c->bidirectional) caps |= TC_FIND_CAP_BIDIR;
  return caps;
}

int tci_find_rank(const tc_find_cand *a, const tc_find_cand *b) {
  if (a->c.tau_is_bound != b->c.tau_is_bound) return a->c.tau_is_bound - b->c.tau_is_bound;
  if (a->ops != b->ops) return a->ops < b->ops ? -1 : 1;
  size_t la = strlen(a->c.spec), lb = strlen(b->c.spec);
  if (la != lb) return la < lb ? -1 : 1;
  return strcmp(a->c.spec, b->c.spec);
}

/* 1 if a makes b redundant: no worse in both costs, every capability of b, and strictly
   better somewhere or preferred on a tie. */
static int replaces(const tc_find_cand *a, const tc_find_cand *b, uint32_t capmask) {
  if (a->c.steps > b->c.steps) return 0;
  int tau = tc_rat_cmp(a->c.tau, b->c.tau);
  if (tau > 0) return 0;
  uint32_t ca = tci_find_caps(a) & capmask, cb = tci_find_caps(b) & capmask;
  if ((ca & cb) != cb) return 0;
  if (a->c.steps < b->c.steps || tau < 0) return 1;
  /* The same point: an exact value is never given up for a bound. */
  if (a->c.tau_is_bound && !b->c.tau_is_bound) return 0;
  return ca != cb || tci_find_rank(a, b) <= 0;
}

int tci_find_set_offer(tc_find_set *s, const tc_find_cand *fc, uint32_t capmask, tc_error *err) {
  for (int32_t i = 0; i < s->count; i++)
    if (replaces(&s->v[i], fc, capmask)) return TC_OK;
  int32_t kept = 0;
  for (int32_t i = 0; i < s->count; i++)
    if (!replaces(fc, &s->v[i], capmask)) s->v[kept++] = s->v[i];
  s->count = kept;
  if (s->count == s->room) {
    int32_t room = s->room ? 2 * s->room : 8;
    tc_find_cand *v = realloc(s->v, (size_t)room * sizeof *v);
    if (!v) return tc_error_set(err, TC_ENOMEM, "out of memory");
    s->v = v;
    s->room = room;
  }
  s->v[s->count++] = *fc;
  return TC_OK;
}

void tci_find_set_free(tc_find_set *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}
