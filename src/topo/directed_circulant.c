/* directed_circulant.c — placeholder; replaced by its implementation in this issue. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "topocoll/topo.h"
int tc_topo_directed_circulant(int64_t n, const int64_t *offs, int k, tc_graph **out, tc_error *err) { (void)out; (void)0; return tc_error_set(err, TC_EFAIL, "not implemented"); }
