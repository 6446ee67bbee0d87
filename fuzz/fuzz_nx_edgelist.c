/*
** fuzz_nx_edgelist.c — the networkx edge list reader (graph/io_nx_edgelist.c: names, data
** dicts as Python literals) on any bytes, and the networkx writers on whatever it accepts.
**
** Invariants: the error contract (harness.h); an accepted graph is well formed; writing it
** as node-link JSON and reading that back gives the same arcs; writing it as a networkx
** edge list and reading that back gives the same arcs too (no node of a graph read from an
** edge list is isolated, so the written names are its ids 0..n-1).
*/
#include "harness.h"
#include "topocoll/graph_io.h"

static void round_trip(const char *what, const tc_graph *g, const char *out,
                       int (*write)(const tc_graph *, const char *, tc_error *),
                       int (*read)(const char *, tc_graph **, tc_error *)) {
  tc_graph *back = NULL;
  tc_error err;
  tc_error_clear(&err);
  if (write(g, out, &err)) tcf_fail("%s: cannot write back an accepted graph: %s", what, err.msg);
  if (read(out, &back, &err)) tcf_fail("%s: cannot read back the written graph: %s", what, err.msg);
  tcf_check_same_graph(what, g, back, 0);
  tc_graph_destroy(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.edges");
  tcf_write_file(in, data, size);
  tc_graph *g = NULL;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_graph_read_nx_edgelist(in, &g, &err);
  tcf_check_result("tc_graph_read_nx_edgelist", rc, &err);
  if (rc) {
    if (g) tcf_fail("tc_graph_read_nx_edgelist failed but returned a graph");
    return 0;
  }
  tcf_check_graph("tc_graph_read_nx_edgelist", g);
  round_trip("node-link round trip", g, tcf_path("out.json"), tc_graph_write_node_link, tc_graph_read_node_link);
  round_trip("nx edge list round trip", g, tcf_path("out.edges"), tc_graph_write_nx_edgelist, tc_graph_read_nx_edgelist);
  tc_graph_destroy(g);
  return 0;
}
