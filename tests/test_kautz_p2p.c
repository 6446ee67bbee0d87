/*
** test_kautz_p2p.c — multi-path point-to-point on K(d,2) (paper 002 §3.3; kautz.h,
** kautz_common.h). Paper 002's K(d,2) is our kautz(d,1).
**
** Checked for d = 2, 3, 4, 8, 16, every source and destination:
**   - the type counts per source (§3.3.2): d^2 - 1 of type 1, one of type 2, d - 1 of type 3;
**   - the paths: d of them for types 1 and 2, d - 1 for type 3 (one on K(2,2)), the shortest
**     first (2 hops for type 1, 1 otherwise), the others 3 hops, every hop an arc of the
**     graph, each path from s to t, distinct first hops and pairwise arc-disjoint.
*/
#include <stdio.h>

#include "synth/kautz_common.h"
#include "tc_test.h"

static const int32_t DS[] = {2, 3, 4, 8, 16};
#define NDS 5

static void paths_and_types(void **state) {
  (void)state;
  for (int i = 0; i < NDS; i++) {
    int32_t d = DS[i], n = d * (d + 1);
    char spec[32];
    snprintf(spec, sizeof spec, "kautz(%d,1)", d);
    tc_graph *g = tc_test_spec(spec);
    int32_t(*path)[4] = malloc((size_t)d * sizeof *path);
    int32_t *len = malloc((size_t)d * sizeof *len);
    int64_t *used = malloc((size_t)g->m * sizeof *used); /* arc -> last (pair, path) that used it */
    for (int64_t a = 0; a < g->m; a++) used[a] = -1;
    for (int32_t s = 0; s < n; s++) {
      int32_t types[4] = {0, 0, 0, 0};
      for (int32_t t = 0; t < n; t++) {
        if (t == s) continue;
        int type = tci_kautz2_p2p_type(d, s, t);
        assert_true(type >= 1 && type <= 3);
        types[type]++;
        int32_t p = tci_kautz2_p2p_paths(d, s, t, 1, path, len);
        assert_int_equal(p, type == 3 ? d - 1 : d);
        assert_int_equal(len[0], type == 1 ? 2 : 1);
        assert_int_equal(tci_kautz2_p2p_paths(d, s, t, 0, path, len), 1);
        p = tci_kautz2_p2p_paths(d, s, t, 1, path, len);
        int64_t pair = (int64_t)s * n + t;
        for (int32_t j = 0; j < p; j++) {
          if (j) assert_int_equal(len[j], 3);
          assert_int_equal(path[j][0], s);
          assert_int_equal(path[j][len[j]], t);
          for (int32_t h = 0; h < len[j]; h++) {
            int32_t u = path[j][h], v = path[j][h + 1];
            assert_int_equal(tc_graph_arc_multiplicity(g, u, v), 1);
            int32_t vx, vy;
            tci_kautz2_letters(d, v, &vx, &vy);
            int64_t a = tci_kautz2_arc(g, d, u, vy);
            assert_int_equal(g->dst[a], v);
            /* arc-disjoint within the pair: no earlier path of this pair used a */
            if (used[a] >= pair * d) fail_msg("K(%d,2) %d -> %d: paths %lld and %d share arc %lld", d, s, t,
                                              (long long)(used[a] - pair * d), j, (long long)a);
            used[a] = pair * d + j;
          }
        }
      }
      assert_int_equal(types[1], d * d - 1);
      assert_int_equal(types[2], 1);
      assert_int_equal(types[3], d - 1);
    }
    free(path);
    free(len);
    free(used);
    tc_graph_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(paths_and_types),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
