/*
** topo_util.c — helpers shared by family generators (see topo_util.h).
*/
#include "topo_util.h"

#include <stdio.h>
#include <stdlib.h>

int tc_topo_label_coordinates(tc_graph_builder *b, const int64_t *dims, int k, int64_t nodes, tc_error *err) {
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
