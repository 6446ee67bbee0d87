/*
** twodfc_internal.h — the m2 x m1 2dfc as the 2dfc generators see it (twodfc_shape.c):
** node (y, x) with 0 <= y < m2 (row, Y) and 0 <= x < m1 (column, X) is rank y*m1 + x, the
** numbering of hyperx(m2,m1) (twodfc.h). Internal header.
*/
#ifndef TC_SYNTH_TWODFC_INTERNAL_H
#define TC_SYNTH_TWODFC_INTERNAL_H

#include <stdint.h>

#include "topocoll/graph.h"

typedef struct tci_twodfc {
  int32_t m1, m2;    /* X size (columns), Y size (rows) */
  const tc_graph *g; /* borrowed */
} tci_twodfc;

static inline int32_t tci_twodfc_node(const tci_twodfc *f, int32_t y, int32_t x) { return y * f->m1 + x; }

/* *f for g, after checking that g is exactly hyperx(m2,m1): TC_EINPUT naming `algo` and
   the first node or arc that differs, TC_ERANGE beyond alltoall's node limit. */
int tci_twodfc_check(const tc_graph *g, int64_t m2, int64_t m1, const char *algo, tci_twodfc *f, tc_error *err);

/* The one arc u -> v of a checked 2dfc (u, v in one row or one column, u != v). */
int64_t tci_twodfc_arc(const tci_twodfc *f, int32_t u, int32_t v);

#endif
