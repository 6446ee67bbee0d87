/*
** fuzz_node_link.c — the networkx node-link JSON reader (graph/io_node_link.c) on any
** bytes, and its writer on whatever it accepts.
**
** Invariants: the error contract (harness.h); an accepted graph is well formed; writing it
** succeeds and reading the written file gives the same arcs and node kinds (labels too
** when the writer could use them as ids, which the unit tests pin).
*/
#include "harness.h"
#include "topocoll/graph_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.json"), *out = tcf_path("out.json");
  tcf_write_file(in, data, size);
  tc_graph *g = NULL, *back = NULL;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_graph_read_node_link(in, &g, &err);
  tcf_check_result("tc_graph_read_node_link", rc, &err);
  if (rc) {
    if (g) tcf_fail("tc_graph_read_node_link failed but returned a graph");
    return 0;
  }
  tcf_check_graph("tc_graph_read_node_link", g);
  rc = tc_graph_write_node_link(g, out, &err);
  if (rc) tcf_fail("cannot write back an accepted graph: %s", err.msg);
  rc = tc_graph_read_node_link(out, &back, &err);
  if (rc) tcf_fail("cannot read back the written graph: %s", err.msg);
  tcf_check_same_graph("node-link round trip", g, back, 0);
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] != back->kind[u]) tcf_fail("node-link round trip: node %d changed kind", u);
  tc_graph_destroy(g);
  tc_graph_destroy(back);
  return 0;
}
