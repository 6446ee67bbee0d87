/*
** kautz_p2p.c — point-to-point on K(d,2) over one path or several (paper 002 §3.3; the
** three path types in kautz_common.h, the schedule's contract in kautz.h).
**
** Why these paths: each starts on its own out-port of s (the shortest on (y,z) or on t
** itself, alternative k on (y,k), k never the shortest's letter), and they are pairwise
** arc-disjoint — so the equal parts never share an arc in any step and the cost is one part
** per step: 3(α + (M/p)β) for p paths of at most 3 hops, 1 or 2 hops alone for the single
** path. Type 3 leaves the out-port towards (y,x) unused: its only way on to (y,z) would be
** a length-4 path, which §3.3.1 excludes; on K(2,2) type 3 therefore has the direct arc
** alone.
*/
#include <stdlib.h>
#include <string.h>

#include "synth/kautz_common.h"
#include "topocoll/kautz.h"

int tci_kautz2_p2p_type(int32_t d, int32_t s, int32_t t) {
  int32_t x, y, z, w;
  tci_kautz2_letters(d, s, &x, &y);
  tci_kautz2_letters(d, t, &z, &w);
  if (z != y) return 1;
  return w == x ? 2 : 3;
}

int32_t tci_kautz2_p2p_paths(int32_t d, int32_t s, int32_t t, int multipath, int32_t (*path)[4], int32_t *len) {
  int32_t x, y, z, w, type = tci_kautz2_p2p_type(d, s, t), count = 0;
  tci_kautz2_letters(d, s, &x, &y);
  tci_kautz2_letters(d, t, &z, &w);
  if (type == 1) { /* <x y z w> */
    path[0][0] = s, path[0][1] = tci_kautz2_node(d, y, z), path[0][2] = t, len[0] = 2;
  } else { /* the arc s -> t */
    path[0][0] = s, path[0][1] = t, len[0] = 1;
  }
  count = 1;
  for (int32_t k = 0; multipath && k <= d; k++) {
    if (k == y || (type == 1 && k == z) || (type != 1 && (k == x || k == w))) continue;
    /* type 1: <x y k z w>; types 2, 3: <x y k y w> (the letter after k is z == y) */
    path[count][0] = s;
    path[count][1] = tci_kautz2_node(d, y, k);
    path[count][2] = tci_kautz2_node(d, k, z);
    path[count][3] = t;
    len[count++] = 3;
  }
  return count;
}

int tc_kautz_p2p(const tc_graph *g, int32_t src, int32_t dst, int multipath, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  const char *name = multipath ? "kautz-mp" : "kautz-sp";
  int32_t d = 0;
  int rc = tci_kautz2_check(g, name, &d, err);
  if (rc) return rc;
  if (src < 0 || src >= g->n || dst < 0 || dst >= g->n || src == dst)
    return tc_error_set(err, TC_EINPUT, "%s: needs two different nodes in 0..%d (got source %d, destination %d)", name,
                        g->n - 1, src, dst);
  int32_t(*path)[4] = malloc((size_t)d * sizeof *path);
  int32_t *len = malloc((size_t)d * sizeof *len);
  if (!path || !len) rc = tc_error_set(err, TC_ENOMEM, "%s: out of memory", name);
  int32_t count = rc ? 0 : tci_kautz2_p2p_paths(d, src, dst, multipath, path, len);
  if (!rc) rc = tc_schedule_init_rooted(out, TC_COLL_P2P, g->n, src, dst, count, name, err);
  for (int32_t j = 0; !rc && j < count; j++) /* part j: units [j, j+1), hop h in step h */
    for (int32_t h = 0; !rc && h < len[j]; h++) {
      int32_t vx, vy;
      tci_kautz2_letters(d, path[j][h + 1], &vx, &vy);
      rc = tc_schedule_add(out, 0, tci_kautz2_arc(g, d, path[j][h], vy), h + 1, j, j + 1, err);
    }
  free(path);
  free(len);
  if (rc) {
    tc_schedule_destroy(out);
    memset(out, 0, sizeof *out);
  }
  return rc;
}
