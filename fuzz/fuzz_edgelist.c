/*
** fuzz_edgelist.c — the edge list reader (graph/io_edgelist.c) on any bytes, and its
** writer on whatever it accepts.
**
** Invariants: the error contract (harness.h); an accepted graph is well formed; writing it
** succeeds, and reading the written file gives the same nodes and arcs.
*/
#include "harness.h"
#include "topocoll/graph_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.txt"), *out = tcf_path("out.txt");
  tcf_write_file(in, data, size);
  tc_graph *g = NULL, *back = NULL;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_graph_read_edgelist(in, &g, &err);
  tcf_check_result("tc_graph_read_edgelist", rc, &err);
  if (rc) {
    if (g) tcf_fail("tc_graph_read_edgelist failed but returned a graph");
    return 0;
  }
  tcf_check_graph("tc_graph_read_edgelist", g);
  rc = tc_graph_write_edgelist(g, out, &err);
  if (rc) tcf_fail("cannot write back an accepted graph: %s", err.msg);
  rc = tc_graph_read_edgelist(out, &back, &err);
  if (rc) tcf_fail("cannot read back the written graph: %s", err.msg);
  tcf_check_same_graph("edge list round trip", g, back, 0);
  tc_graph_destroy(g);
  tc_graph_destroy(back);
  return 0;
}
