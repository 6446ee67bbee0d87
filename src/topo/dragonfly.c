/* dragonfly.c — placeholder; replaced by its implementation in this issue. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "topocoll/topo.h"
int tc_topo_dragonfly(int64_t a, int64_t h, int64_t g, tc_graph **out, tc_error *err) { (void)out; (void)0; return tc_error_set(err, TC_EFAIL, "not implemented"); }
