/*
** fuzz_routes.c — the route file reader (a2a/route_io.c) on any bytes, against one fixed
** graph with parallel arcs, and everything downstream of a routing it accepts.
**
** The graph (4 nodes): the cycle 0 -> 1 -> 2 -> 3 -> 0 both ways, a second arc 0 -> 1 and
** a chord 0 -> 2, so hops may name ":1". Invariants: the error contract (harness.h); an
** accepted routing is finished and has a path for every pair; writing it succeeds and
** reading the written file gives the same routing (paths, weights, arcs, order, name);
** its fluid load and its lowering succeed or refuse a common denominator past 2^62
** (TC_ERANGE), and a lowered schedule passes the verifier; the layering succeeds and
** puts every path in a layer.
*/
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "topocoll/a2a_route.h"
#include "topocoll/verify.h"

static const tc_graph *fixed_graph(void) {
  static tc_graph *g;
  if (g) return g;
  static const int arcs[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 0}, {2, 1}, {3, 2}, {0, 3}, {0, 1}, {0, 2}};
  tc_graph_builder b;
  tc_error err;
  if (tc_graph_builder_init(&b, 4, &err)) tcf_fail("graph: %s", err.msg);
  for (size_t i = 0; i < sizeof arcs / sizeof arcs[0]; i++)
    if (tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], 1, &err)) tcf_fail("graph: %s", err.msg);
  if (tc_graph_builder_finish(&b, &g, &err)) tcf_fail("graph: %s", err.msg);
  return g;
}

static void check_same(const tc_a2a_routing *a, const tc_a2a_routing *b) {
  if (a->npaths != b->npaths || strcmp(a->algorithm, b->algorithm)) tcf_fail("route round trip: the header changed");
  for (int64_t p = 0; p < a->npaths; p++) {
    if (a->commodity[p] != b->commodity[p] || a->weight[p].num != b->weight[p].num ||
        a->weight[p].den != b->weight[p].den || a->hop_off[p + 1] != b->hop_off[p + 1])
      tcf_fail("route round trip: path %lld changed", (long long)p);
    for (int64_t h = a->hop_off[p]; h < a->hop_off[p + 1]; h++)
      if (a->arc[h] != b->arc[h]) tcf_fail("route round trip: hop %lld of path %lld changed", (long long)h, (long long)p);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const tc_graph *g = fixed_graph();
  const char *in = tcf_path("in.routes"), *out = tcf_path("out.routes");
  tcf_write_file(in, data, size);
  tc_a2a_routing r, back;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_a2a_routing_read(in, g, &r, &err);
  tcf_check_result("tc_a2a_routing_read", rc, &err);
  if (rc) {
    if (r.npaths || r.first || r.arc || r.weight) tcf_fail("a failed read left something to free");
    return 0;
  }
  if (!r.first) tcf_fail("an accepted routing is not finished");
  for (int32_t k = 0; k < 16; k++)
    if ((k / 4 != k % 4) != (r.first[k + 1] > r.first[k])) tcf_fail("commodity %d: paths where none belong, or none", k);
  if ((rc = tc_a2a_routing_write(g, NULL, &r, out, &err))) tcf_fail("cannot write back an accepted routing: %s", err.msg);
  if ((rc = tc_a2a_routing_read(out, g, &back, &err))) tcf_fail("cannot read back the written routing: %s", err.msg);
  check_same(&r, &back);
  tc_a2a_routing_destroy(&back);

  tc_a2a_load load;
  tc_schedule s;
  rc = tc_a2a_routing_load(g, &r, &load, &err);
  if (rc && rc != TC_ERANGE) tcf_fail("fluid load: %s", err.msg);
  tc_a2a_load_destroy(&load);
  rc = tc_a2a_routing_lower(g, &r, &s, &err);
  if (rc && rc != TC_ERANGE) tcf_fail("lowering: %s", err.msg);
  if (!rc && tc_schedule_verify(g, &s, &err)) tcf_fail("a lowered routing fails verification: %s", err.msg);
  tc_schedule_destroy(&s);
  int32_t *layer = malloc((size_t)r.npaths * sizeof *layer), n = 0;
  if (!layer || tc_a2a_routing_layers(g, &r, layer, &n, &err)) tcf_fail("layers: %s", layer ? err.msg : "no memory");
  for (int64_t p = 0; p < r.npaths; p++)
    if (layer[p] < 0 || layer[p] >= n) tcf_fail("path %lld in layer %d of %d", (long long)p, layer[p], n);
  free(layer);
  tc_a2a_routing_destroy(&r);
  return 0;
}
