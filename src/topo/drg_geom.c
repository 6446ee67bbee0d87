/*
** drg_geom.c — incidence graphs of finite geometries for the distance-regular graphs of
** paper 000 Table 8 (contract in drg_internal.h):
**
**   AG(2,4) minus a parallel class: points (x,y) of GF(4)^2, lines y = m x + b (the
**     vertical lines x = c, one parallel class, are left out). 16 + 16 nodes, 4-regular.
**   W(q): points of PG(3,q); lines are the totally isotropic lines of the symplectic form
**     f(x,y) = x0 y1 - x1 y0 + x2 y3 - x3 y2. A generalized quadrangle of order (q,q):
**     (q+1)(q^2+1) points and as many lines.
**   H(q), the split Cayley hexagon (Tits 1959; coordinates as in H. Van Maldeghem,
**     "Generalized Polygons", 1998): points are all points of the parabolic quadric
**     Q(6,q): x0 x4 + x1 x5 + x2 x6 = x3^2; lines are the lines of Q(6,q) whose Grassmann
**     coordinates p_ij = x_i y_j - x_j y_i satisfy
**       p12 = p34, p54 = p32, p20 = p35, p65 = p30, p01 = p36, p46 = p31.
**     A generalized hexagon of order (q,q): (q^6-1)/(q-1) points and as many lines.
**
** Fields are prime (GF(q), q prime) except GF(4), which is GF(2)[w]/(w^2+w+1) with
** element e = bit0 + bit1·w. Each construction checks the counts its geometry must have
** (points, lines, q+1 lines per point) and fails with TC_EFAIL rather than returning a
** wrong graph; tests/test_drg.c additionally verifies the intersection arrays.
*/
#include "drg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEOM_MAX_DIM 7

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "out of memory"); }

static int mod_q(int x, int q) { return ((x % q) + q) % q; }

/* Multiplicative inverse in GF(q), q prime, x != 0 (q is tiny: a scan is enough). */
static int inv_q(int x, int q) {
  for (int y = 1; y < q; y++)
    if (x * y % q == 1) return y;
  return 0;
}

static int is_small_prime(int q) {
  return q == 2 || q == 3 || q == 5 || q == 7;
}

/* ---------------------------------------------------------------------------------- */
/* Projective spaces PG(dim-1, q) restricted to a point set, with their lines.          */

typedef int (*point_pred)(const int *x, int q);
typedef int (*pair_pred)(const int *x, const int *y, int q);

typedef struct pspace {
  int q, dim;
  int32_t ncodes;  /* q^dim: vector code = base-q digits, coordinate 0 most significant */
  int32_t npts;    /* selected projective points */
  int *coord;      /* npts * dim normalized coordinates (first nonzero entry is 1) */
  int32_t *index;  /* ncodes entries: code of a normalized vector -> point id, else -1 */
  int32_t nlines;
  int32_t *line;   /* nlines * (q+1) point ids */
} pspace;

static void pspace_free(pspace *ps) {
  free(ps->coord);
  free(ps->index);
  free(ps->line);
  memset(ps, 0, sizeof *ps);
}

static int32_t vec_code(const int *x, int dim, int q) {
  int32_t c = 0;
  for (int i = 0; i < dim; i++) c = c * q + x[i];
  return c;
}

static void vec_decode(int32_t c, int dim, int q, int *x) {
  for (int i = dim - 1; i >= 0; i--) {
    x[i] = (int)(c % q);
    c /= q;
  }
}

/* Scale x so that its first nonzero coordinate is 1 (x != 0). */
static void vec_normalize(int *x, int dim, int q) {
  int i = 0;
  while (i < dim && x[i] == 0) i++;
  if (i == dim) return;
  int s = inv_q(x[i], q);
  for (int j = i; j < dim; j++) x[j] = x[j] * s % q;
}

static int vec_is_normalized(const int *x, int dim) {
  for (int i = 0; i < dim; i++)
    if (x[i]) return x[i] == 1;
  return 0; /* the zero vector is no projective point */
}

/* The projective points of PG(dim-1,q) satisfying `keep`, in increasing code order. */
static int pspace_init(pspace *ps, int q, int dim, point_pred keep, tc_error *err) {
  memset(ps, 0, sizeof *ps);
  ps->q = q;
  ps->dim = dim;
  ps->ncodes = 1;
  for (int i = 0; i < dim; i++) ps->ncodes *= q;
  ps->index = malloc((size_t)ps->ncodes * sizeof *ps->index);
  ps->coord = malloc((size_t)ps->ncodes * (size_t)dim * sizeof *ps->coord);
  if (!ps->index || !ps->coord) { pspace_free(ps); return oom(err); }
  int x[GEOM_MAX_DIM];
  for (int32_t c = 0; c < ps->ncodes; c++) {
    ps->index[c] = -1;
    vec_decode(c, dim, q, x);
    if (!vec_is_normalized(x, dim) || !keep(x, q)) continue;
    ps->index[c] = ps->npts;
    memcpy(ps->coord + (size_t)ps->npts * (size_t)dim, x, (size_t)dim * sizeof *x);
    ps->npts++;
  }
  return TC_OK;
}

static const int *pspace_point(const pspace *ps, int32_t i) { return ps->coord + (size_t)i * (size_t)ps->dim; }

/* Point ids of the q+1 points of the line through points i and j: j itself and
   i + a·j for a = 0..q-1. Returns 0 if some of them is not in the point set. */
static int span_points(const pspace *ps, int32_t i, int32_t j, int32_t *ids) {
  const int *x = pspace_point(ps, i), *y = pspace_point(ps, j);
  int z[GEOM_MAX_DIM];
  ids[0] = j;
  for (int a = 0; a < ps->q; a++) {
    for (int k = 0; k < ps->dim; k++) z[k] = (x[k] + a * y[k]) % ps->q;
    vec_normalize(z, ps->dim, ps->q);
    ids[a + 1] = ps->index[vec_code(z, ps->dim, ps->q)];
    if (ids[a + 1] < 0) return 0;
  }
  return 1;
}

/* A line is found once per pair of its points; keep it only for the pair of its two
   smallest point ids so that each line is stored exactly once. */
static int is_first_pair(const int32_t *ids, int count, int32_t i, int32_t j) {
  for (int k = 0; k < count; k++)
    if (ids[k] != i && ids[k] != j && ids[k] < j) return 0;
  return 1;
}

static int pspace_push_line(pspace *ps, const int32_t *ids, int32_t *room, tc_error *err) {
  int per = ps->q + 1;
  if (ps->nlines == *room) {
    int32_t grow = *room ? 2 * *room : 64;
    int32_t *l = realloc(ps->line, (size_t)grow * (size_t)per * sizeof *l);
    if (!l) return oom(err);
    ps->line = l;
    *room = grow;
  }
  memcpy(ps->line + (size_t)ps->nlines * (size_t)per, ids, (size_t)per * sizeof *ids);
  ps->nlines++;
  return TC_OK;
}

/* All lines spanned by two points i < j with on_line(x_i, x_j) whose q+1 points all lie
   in the point set. */
static int pspace_find_lines(pspace *ps, pair_pred on_line, const char *what, tc_error *err) {
  int32_t ids[GEOM_MAX_DIM + 1], room = 0;
  if (ps->q + 1 > (int)(sizeof ids / sizeof ids[0]))
    return tc_error_set(err, TC_EFAIL, "drg: internal error: field too large for %s", what);
  for (int32_t i = 0; i < ps->npts; i++)
    for (int32_t j = i + 1; j < ps->npts; j++) {
      if (!on_line(pspace_point(ps, i), pspace_point(ps, j), ps->q)) continue;
      if (!span_points(ps, i, j, ids))
        return tc_error_set(err, TC_EFAIL, "drg: internal error: a line of %s leaves its point set", what);
      if (!is_first_pair(ids, ps->q + 1, i, j)) continue;
      int rc = pspace_push_line(ps, ids, &room, err);
      if (rc) return rc;
    }
  return TC_OK;
}

/* A generalized polygon of order (q,q) has as many lines as points and q+1 lines
   through every point; anything else means the construction is wrong. */
static int check_order_qq(const pspace *ps, int32_t want_points, const char *what, tc_error *err) {
  if (ps->npts != want_points || ps->nlines != want_points)
    return tc_error_set(err, TC_EFAIL, "drg: internal error: %s has %ld points and %ld lines (expected %ld each)",
                        what, (long)ps->npts, (long)ps->nlines, (long)want_points);
  int32_t *deg = calloc((size_t)ps->npts, sizeof *deg);
  if (!deg) return oom(err);
  int per = ps->q + 1, bad = 0;
  for (int64_t k = 0; k < (int64_t)ps->nlines * per; k++) deg[ps->line[k]]++;
  for (int32_t p = 0; p < ps->npts; p++)
    if (deg[p] != per) bad = 1;
  free(deg);
  if (bad)
    return tc_error_set(err, TC_EFAIL, "drg: internal error: %s has a point not on %d lines", what, per);
  return TC_OK;
}

static int label_point(drg_edges *es, const pspace *ps, int32_t i, tc_error *err) {
  char buf[64];
  int len = 0;
  const int *x = pspace_point(ps, i);
  for (int k = 0; k < ps->dim; k++)
    len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%d", k ? "," : "(", x[k]);
  return tci_drg_edges_set_label(es, i, err, "%s)", buf);
}

/* Incidence graph: point i is node i, line l is node npts + l. */
static int pspace_incidence_graph(const pspace *ps, drg_edges *es, tc_error *err) {
  int per = ps->q + 1;
  int rc = tci_drg_edges_init(es, ps->npts + ps->nlines, err);
  for (int32_t l = 0; !rc && l < ps->nlines; l++)
    for (int k = 0; !rc && k < per; k++) rc = tci_drg_edges_add(es, ps->line[(size_t)l * (size_t)per + (size_t)k], ps->npts + l, err);
  for (int32_t i = 0; !rc && i < ps->npts; i++) rc = label_point(es, ps, i, err);
  for (int32_t l = 0; !rc && l < ps->nlines; l++) rc = tci_drg_edges_set_label(es, ps->npts + l, err, "L%ld", (long)l);
  if (rc) tci_drg_edges_free(es);
  return rc;
}

/* ---------------------------------------------------------------------------------- */
/* W(q): the symplectic generalized quadrangle.                                         */

static int any_point(const int *x, int q) {
  (void)x;
  (void)q;
  return 1;
}

/* Two points span a totally isotropic line iff they are orthogonal under the alternating
   form (every vector is isotropic for an alternating form). */
static int symplectic_orthogonal(const int *x, const int *y, int q) {
  return mod_q(x[0] * y[1] - x[1] * y[0] + x[2] * y[3] - x[3] * y[2], q) == 0;
}

int tci_drg_build_symplectic_gq(int q, drg_edges *es, tc_error *err) {
  memset(es, 0, sizeof *es);
  if (!is_small_prime(q)) return tc_error_set(err, TC_EFAIL, "drg: internal error: W(q) needs a prime q <= 7 (got %d)", q);
  pspace ps;
  int rc = pspace_init(&ps, q, 4, any_point, err);
  if (rc) return rc;
  int32_t want = (q + 1) * (q * q + 1);
  rc = pspace_find_lines(&ps, symplectic_orthogonal, "W(q)", err);
  if (!rc) rc = check_order_qq(&ps, want, "W(q)", err);
  if (!rc) rc = pspace_incidence_graph(&ps, es, err);
  pspace_free(&ps);
  return rc;
}

/* ---------------------------------------------------------------------------------- */
/* H(q): the split Cayley hexagon on Q(6,q).                                            */

static int on_parabolic_quadric(const int *x, int q) {
  return mod_q(x[0] * x[4] + x[1] * x[5] + x[2] * x[6] - x[3] * x[3], q) == 0;
}

/* Polar form of the quadric: B(x,y) = Q(x+y) - Q(x) - Q(y). Two singular points span a
   line of Q(6,q) iff B(x,y) = 0 (Q(a x + b y) = a^2 Q(x) + b^2 Q(y) + a b B(x,y)). */
static int quadric_orthogonal(const int *x, const int *y, int q) {
  return mod_q(x[0] * y[4] + x[4] * y[0] + x[1] * y[5] + x[5] * y[1] + x[2] * y[6] + x[6] * y[2] -
                   2 * x[3] * y[3], q) == 0;
}

static int grassmann(const int *x, const int *y, int i, int j, int q) {
  return mod_q(x[i] * y[j] - x[j] * y[i], q);
}

/* Tits' six linear conditions on the Grassmann coordinates of a hexagon line. They are
   homogeneous, so any two points of the line give the same verdict. */
static int split_cayley_line(const int *x, const int *y, int q) {
  if (!quadric_orthogonal(x, y, q)) return 0;
  return grassmann(x, y, 1, 2, q) == grassmann(x, y, 3, 4, q) &&
         grassmann(x, y, 5, 4, q) == grassmann(x, y, 3, 2, q) &&
         grassmann(x, y, 2, 0, q) == grassmann(x, y, 3, 5, q) &&
         grassmann(x, y, 6, 5, q) == grassmann(x, y, 3, 0, q) &&
         grassmann(x, y, 0, 1, q) == grassmann(x, y, 3, 6, q) &&
         grassmann(x, y, 4, 6, q) == grassmann(x, y, 3, 1, q);
}

int tci_drg_build_split_cayley(int q, drg_edges *es, tc_error *err) {
  memset(es, 0, sizeof *es);
  if (!is_small_prime(q) || q > 5)
    return tc_error_set(err, TC_EFAIL, "drg: internal error: H(q) needs a prime q <= 5 (got %d)", q);
  pspace ps;
  int rc = pspace_init(&ps, q, 7, on_parabolic_quadric, err);
  if (rc) return rc;
  int32_t want = 0;
  for (int i = 0, pw = 1; i < 6; i++, pw *= q) want += pw; /* (q^6-1)/(q-1) */
  rc = pspace_find_lines(&ps, split_cayley_line, "H(q)", err);
  if (!rc) rc = check_order_qq(&ps, want, "H(q)", err);
  if (!rc) rc = pspace_incidence_graph(&ps, es, err);
  pspace_free(&ps);
  return rc;
}

/* ---------------------------------------------------------------------------------- */
/* AG(2,4) minus the vertical parallel class.                                           */

/* Product in GF(4) = GF(2)[w]/(w^2 + w + 1): carry-less multiply, then w^2 -> w + 1. */
static int gf4_mul(int a, int b) {
  int r = 0;
  for (int i = 0; i < 2; i++)
    if ((b >> i) & 1) r ^= a << i;
  if (r & 4) r ^= 7;
  return r;
}

static const char *gf4_name(int a) {
  static const char *const names[4] = {"0", "1", "w", "w2"}; /* w2 = w^2 = w + 1 */
  return names[a];
}

/* Point (x,y) is node 4x + y; line y = m x + b is node 16 + 4m + b. */
int tci_drg_build_ag24_minus(drg_edges *es, tc_error *err) {
  int rc = tci_drg_edges_init(es, 32, err);
  for (int x = 0; !rc && x < 4; x++)
    for (int y = 0; !rc && y < 4; y++)
      for (int m = 0; !rc && m < 4; m++) {
        int b = gf4_mul(m, x) ^ y; /* y = m x + b  <=>  b = y - m x = y + m x */
        rc = tci_drg_edges_add(es, 4 * x + y, 16 + 4 * m + b, err);
      }
  for (int x = 0; !rc && x < 4; x++)
    for (int y = 0; !rc && y < 4; y++) rc = tci_drg_edges_set_label(es, 4 * x + y, err, "(%s,%s)", gf4_name(x), gf4_name(y));
  for (int m = 0; !rc && m < 4; m++)
    for (int b = 0; !rc && b < 4; b++) rc = tci_drg_edges_set_label(es, 16 + 4 * m + b, err, "y=%sx+%s", gf4_name(m), gf4_name(b));
  if (rc) tci_drg_edges_free(es);
  return rc;
}
