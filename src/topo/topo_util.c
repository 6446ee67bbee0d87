/*
** topo_util.c — helpers shared by family generators (see topo_util.h).
*/
#include "topo_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int tci_topo_label_coordinates(tc_graph_builder *b, const int64_t *dims, int k, int64_t nodes, tc_error *err) {
  size_t room = (size_t)k * 21 + 3; /* each coordinate < 2^63 prints in <= 20 chars + ',' */
  char *text = malloc(room);
  if (!text) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = TC_OK;
  for (int64_t u = 0; u < nodes && !rc; u++) {
    int64_t rest = u, weight = nodes;
    size_t len = 0;
    text[len++] = '(';
    for (int i = 0; i < k; i++) {
      weight /= dims[i];
      len += (size_t)snprintf(text + len, room - len, i ? ",%lld" : "%lld", (long long)(rest / weight));
      rest %= weight;
    }
    snprintf(text + len, room - len, ")");
    rc = tc_graph_builder_set_label(b, u, text, err);
  }
  free(text);
  return rc;
}

int tci_topo_labelf(tc_graph_builder *b, int64_t u, tc_error *err, const char *fmt, ...) {
  char text[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  return tc_graph_builder_set_label(b, u, text, err);
}

/* Fisher–Yates (single_cycle = 0) or Sattolo (single_cycle = 1) on the identity. */
static void shuffle_identity(int32_t *perm, int64_t k, tc_rng *rng, int single_cycle) {
  for (int64_t i = 0; i < k; i++) perm[i] = (int32_t)i;
  for (int64_t i = k - 1; i > 0; i--) {
    int64_t j = (int64_t)tci_rng_below(rng, (uint64_t)i + 1 - (uint64_t)single_cycle);
    int32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

void tci_topo_random_permutation(int32_t *perm, int64_t k, tc_rng *rng) { shuffle_identity(perm, k, rng, 0); }

void tci_topo_random_cycle(int32_t *perm, int64_t k, tc_rng *rng) { shuffle_identity(perm, k, rng, 1); }
