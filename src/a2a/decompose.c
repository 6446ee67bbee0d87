/*
** decompose.c — exact conservation for one commodity's flow: the post-processing of paper
** 003 §3.1.1 ("from d back to s"), done exactly on integer units (contract in
** a2a_internal.h).
**
** An LP's flow for commodity (s,t) may carry slack: flow entering a node and never leaving
** it (conservation (3) is an inequality), cycles, flow beyond t. Walking from s along arcs
** with flow left, a walk that reaches t is a path and keeps its bottleneck, a walk that
** closes a cycle cancels it, and a walk stuck at a node other than t drops the arc it came
** in on. Each step empties an arc or extends a walk of at most n nodes, so this ends after
** O(n·m) steps, and the kept flow is a sum of s-to-t paths: it conserves exactly at every
** node but s and t, uses no arc more than before, and delivers to t what it keeps.
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"

int64_t tci_a2a_decompose(const tc_graph *g, int32_t s, int32_t t, int64_t *units) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  int64_t *rem = malloc(sizeof *rem * (size_t)(m > 0 ? m : 1));
  int64_t *ptr = malloc(sizeof *ptr * (size_t)n);
  int64_t *pa = malloc(sizeof *pa * (size_t)n);       /* arcs of the walk */
  int32_t *pn = malloc(sizeof *pn * ((size_t)n + 1)); /* nodes of the walk */
  int32_t *pos = malloc(sizeof *pos * (size_t)n);     /* a node's place on the walk, or -1 */
  if (!rem || !ptr || !pa || !pn || !pos) { /* before units is touched */
    free(rem), free(ptr), free(pa), free(pn), free(pos);
    return -1;
  }
  memcpy(rem, units, sizeof *rem * (size_t)m);
  memset(units, 0, sizeof *units * (size_t)m);
  for (int32_t u = 0; u < n; u++) ptr[u] = g->out_off[u], pos[u] = -1;
  int64_t delivered = 0;
  int32_t depth = 0;
  pn[0] = s, pos[s] = 0;
  for (;;) {
    int32_t u = pn[depth];
    if (u == t) {
      int64_t b = rem[pa[0]];
      for (int32_t i = 1; i < depth; i++)
        if (rem[pa[i]] < b) b = rem[pa[i]];
      for (int32_t i = 0; i < depth; i++) rem[pa[i]] -= b, units[pa[i]] += b;
      delivered += b;
      for (int32_t i = 1; i <= depth; i++) pos[pn[i]] = -1;
      depth = 0;
      continue;
    }
    while (ptr[u] < g->out_off[u + 1] && rem[ptr[u]] == 0) ptr[u]++;
    if (ptr[u] == g->out_off[u + 1]) { /* stuck: what came in here goes nowhere */
      if (depth == 0) break;
      pos[u] = -1;
      rem[pa[--depth]] = 0;
      continue;
    }
    int64_t a = ptr[u];
    int32_t v = g->dst[a];
    if (pos[v] >= 0) { /* a cycle v .. u -> v: cancel it */
      int64_t b = rem[a];
      for (int32_t i = pos[v]; i < depth; i++)
        if (rem[pa[i]] < b) b = rem[pa[i]];
      rem[a] -= b;
      for (int32_t i = pos[v]; i < depth; i++) rem[pa[i]] -= b;
      for (int32_t i = pos[v] + 1; i <= depth; i++) pos[pn[i]] = -1;
      depth = pos[v];
      continue;
    }
    pa[depth++] = a;
    pn[depth] = v;
    pos[v] = depth;
  }
  free(rem), free(ptr), free(pa), free(pn), free(pos);
  return delivered;
}
