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
