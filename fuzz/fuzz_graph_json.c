/*
** fuzz_graph_json.c — the JSON graph reader (graph/io_json.c) on any bytes, and its writer
** on whatever it accepts.
**
** Invariants: the error contract (harness.h); an accepted graph is well formed; writing it
** succeeds (every label the reader accepts is valid UTF-8), and reading the written file
** gives the same graph, kinds and labels included.
*/
#include "harness.h"
#include "topocoll/graph_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.json"), *out = tcf_path("out.json");
  tcf_write_file(in, data, size);
  tc_graph *g = NULL, *back = NULL;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_graph_read_json(in, &g, &err);
  tcf_check_result("tc_graph_read_json", rc, &err);
  if (rc) {
    if (g) tcf_fail("tc_graph_read_json failed but returned a graph");
    return 0;
  }
  tcf_check_graph("tc_graph_read_json", g);
  rc = tc_graph_write_json(g, NULL, out, &err);
  if (rc) tcf_fail("cannot write back an accepted graph: %s", err.msg);
  rc = tc_graph_read_json(out, &back, &err);
  if (rc) tcf_fail("cannot read back the written graph: %s", err.msg);
  tcf_check_same_graph("JSON round trip", g, back, 1);
  tc_graph_destroy(g);
  tc_graph_destroy(back);
  return 0;
}
