/*
** twisted_torus.c — the 2D twisted torus (paper 000 §6.2 and ref. [26], Cámara, Moretó,
** Vallejo, Beivide, Miguel-Alonso, Martínez, Navaridas, "Twisted torus topologies for
** enhanced interconnection networks", IEEE TPDS 21(12), 2010).
**
** The paper names the twisted torus (used by TPU v4) but does not define it; we follow
** Cámara et al.: an a x b torus whose wrap-around links in the second dimension are
** shifted by `twist` along the first. Node (x, y), 0 <= x < a, 0 <= y < b, has id x b + y
** (row-major, as tc_topo_torus). Links:
**   - first dimension:  (x, y) ~ ((x + 1) mod a, y)          (a plain ring of length a)
**   - second dimension: (x, y) ~ (x, y + 1)                   for y < b-1
**   - twisted wrap:     (x, b-1) ~ ((x + twist) mod a, 0)
** twist = 0 gives exactly tc_topo_torus({a, b}). The rectangular twisted torus of Cámara
** et al. is a = 2c, b = c, twist = c, i.e. (x, c-1) ~ ((x + c) mod 2c, 0); its diameter is
** c, against c + floor(c/2) for the untwisted 2c x c torus.
**
** Length-2 dimensions follow the torus convention (one link, K_2): for a = 2 the first
** dimension adds one link per pair; for b = 2 with twist = 0 the wrap link would repeat the
** (x,0)~(x,1) link and is not added twice (with twist != 0 it is a different link).
**
** Guarantees: a b nodes, bidirectional, no self-loops, no parallel arcs; every node has
** the same degree (a == 2 ? 1 : 2) + (b == 2 && twist == 0 ? 1 : 2). Nodes are labelled
** "(x,y)" when a b <= 65536.
**
** Parameters: a >= 2, b >= 2, 0 <= twist < a. a b beyond TC_MAX_NODES gives TC_ERANGE
** before anything is allocated (the arc count, at most 4 a b, then always fits).
*/
#include "topocoll/topo.h"

#include <stddef.h>
#include <stdio.h>

#define TWISTED_TORUS_LABEL_MAX_NODES 65536

/* Every node has degree <= 4, so a node count within TC_MAX_NODES keeps the arc count
   within TC_MAX_ARCS; should the limits ever change, this stops the build rather than
   letting the builder fail after allocating. */
_Static_assert(4 * (int64_t)TC_MAX_NODES <= TC_MAX_ARCS, "twisted_torus needs a runtime arc-count check");

static int add_first_dimension_links(tc_graph_builder *b, int64_t a, int64_t bl, tc_error *err) {
  for (int64_t x = 0; x < a; x++) {
    if (a == 2 && x == 1) continue; /* K_2: the single link was added from x = 0 */
    for (int64_t y = 0; y < bl; y++) {
      int rc = tc_graph_builder_add_edge(b, x * bl + y, ((x + 1) % a) * bl + y, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

static int add_second_dimension_links(tc_graph_builder *b, int64_t a, int64_t bl, int64_t twist, tc_error *err) {
  for (int64_t x = 0; x < a; x++) {
    for (int64_t y = 0; y + 1 < bl; y++) {
      int rc = tc_graph_builder_add_edge(b, x * bl + y, x * bl + y + 1, 1, err);
      if (rc) return rc;
    }
    if (bl == 2 && twist == 0) continue; /* the wrap would duplicate (x,0)~(x,1) */
    int rc = tc_graph_builder_add_edge(b, x * bl + bl - 1, ((x + twist) % a) * bl, 1, err);
    if (rc) return rc;
  }
  return TC_OK;
}

static int label_coordinates(tc_graph_builder *b, int64_t a, int64_t bl, tc_error *err) {
  char text[48];
  for (int64_t x = 0; x < a; x++)
    for (int64_t y = 0; y < bl; y++) {
      snprintf(text, sizeof text, "(%lld,%lld)", (long long)x, (long long)y);
      int rc = tc_graph_builder_set_label(b, x * bl + y, text, err);
      if (rc) return rc;
    }
  return TC_OK;
}

int tc_topo_twisted_torus(int64_t a, int64_t b, int64_t twist, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "twisted_torus: output pointer is NULL");
  *out = NULL;
  if (a < 2) return tc_error_set(err, TC_EINPUT, "twisted_torus: a must be >= 2 (got %lld)", (long long)a);
  if (b < 2) return tc_error_set(err, TC_EINPUT, "twisted_torus: b must be >= 2 (got %lld)", (long long)b);
  if (twist < 0 || twist >= a)
    return tc_error_set(err, TC_EINPUT, "twisted_torus: twist must be in 0..%lld (got %lld)", (long long)(a - 1),
                        (long long)twist);
  if (a > TC_MAX_NODES / b)
    return tc_error_set(err, TC_ERANGE, "twisted_torus: %lld x %lld exceeds %d nodes", (long long)a, (long long)b,
                        TC_MAX_NODES);
  int64_t nodes = a * b;
  int64_t degree = (a == 2 ? 1 : 2) + (b == 2 && twist == 0 ? 1 : 2);
  /* degree <= 4, so the arc count is within TC_MAX_ARCS (asserted at compile time above). */

  tc_graph_builder gb;
  int rc = tc_graph_builder_init(&gb, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&gb, nodes * degree, err);
  if (!rc) rc = add_first_dimension_links(&gb, a, b, err);
  if (!rc) rc = add_second_dimension_links(&gb, a, b, twist, err);
  if (!rc && nodes <= TWISTED_TORUS_LABEL_MAX_NODES) rc = label_coordinates(&gb, a, b, err);
  if (rc) {
    tc_graph_builder_destroy(&gb);
    return rc;
  }
  return tc_graph_builder_finish(&gb, out, err);
}
