/*
** drg.c — the distance-regular graphs of paper 000 Table 8 (App. F.3), all
** 4-regular, built from their mathematical definitions and returned as bidirectional,
** simple, unit-capacity tc_graphs with node labels.
**
**   name            Table 8 row                                   N    diameter
**   octahedron      Octahedron J(4,2): 2-subsets of {0..3},        6    2
**                   adjacent iff they meet in one element
**   paley9          Paley graph P9 (≅ H(2,3)): GF(9) = GF(3)[i]/   9    2
**                   (i^2+1), x ~ y iff x - y is a nonzero square
**   k55-i           K_{5,5} minus a perfect matching: a_i ~ b_j,   10   3
**                   i != j
**   heawood-dist3   distance-3 graph of the Heawood graph          14   3
**   petersen-line   line graph of the Petersen graph (Kneser       15   3
**                   graph of 2-subsets of {0..4}, disjoint ~)
**   q4              4-cube: 4-bit words, one bit apart             16   4
**   heawood-line    line graph of the Heawood graph                21   3
**   pg23            incidence graph of PG(2,3): point i on line j  26   3
**                   iff i - j mod 13 lies in the perfect
**                   difference set {0,1,3,9}
**   ag24-minus      incidence graph of AG(2,4) minus a parallel    32   4
**                   class (drg_geom.c)
**   odd4            Odd graph O4: 3-subsets of {0..6}, disjoint ~  35   3
**   tutte8-line     line graph of Tutte's 8-cage, the incidence    45   4
**                   graph of GQ(2,2): 15 duads of {0..5} and the
**                   15 synthemes (perfect matchings of K6)
**   doubled-odd4    doubled Odd graph: 3- and 4-subsets of         70   7
**                   {0..6}, adjacent iff contained
**   gq33            incidence graph of GQ(3,3) = W(3) (drg_geom.c) 80   4
**   tutte12-line    line graph of Tutte's 12-cage, the incidence   189  6
**                   graph of the split Cayley hexagon H(2)
**   gh33            incidence graph of GH(3,3) = H(3) (drg_geom.c) 728  6
**
** The Heawood graph is the incidence graph of the Fano plane (point i on line j iff
** i - j mod 7 lies in the difference set {0,1,3}). Incidence graphs number points first,
** then lines. tc_topo_drg also accepts Table 8's symbols as aliases, case-insensitively:
** J(4,2), P9, H(2,3), K5,5-I, Q4, H(4,2), PG(2,3), O4, D(O4), GQ(3,3), W(3), GH(3,3).
** Correctness is checked in tests/test_drg.c by an independent distance-regularity
** checker against the standard intersection arrays.
*/
#include <stdio.h>
#include <string.h>

#include "drg_internal.h"
#include "topocoll/topo.h"

/* ---------------------------------------------------------------------------------- */
/* Subset graphs: J(4,2), Kneser K(5,2), Odd O4, doubled Odd.                           */

typedef int (*subset_relation)(uint32_t a, uint32_t b);

static int popcount32(uint32_t x) {
  int c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

/* The k-subsets of {0..n-1} as bit masks in increasing numeric order; returns the count. */
static int32_t list_subsets(int n, int k, uint32_t *masks) {
  int32_t count = 0;
  for (uint32_t s = 0; s < (1u << n); s++)
    if (popcount32(s) == k) masks[count++] = s;
  return count;
}

static int label_subset(drg_edges *es, int32_t id, uint32_t mask, tc_error *err) {
  char buf[48];
  int len = 0;
  for (int i = 0; i < 32; i++)
    if ((mask >> i) & 1) len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%d", len ? "," : "{", i);
  return tci_drg_edges_set_label(es, id, err, "%s}", buf);
}

/* Nodes: the ka-subsets of {0..n-1} (ids 0..A-1) and, when kb != ka, the kb-subsets after
   them; an edge joins two subsets for which `adjacent` holds (within the one family when
   ka == kb, across the two families otherwise). */
static int build_subset_graph(int n, int ka, int kb, subset_relation adjacent, drg_edges *es, tc_error *err) {
  uint32_t a[128], b[128];
  int32_t na = list_subsets(n, ka, a), nb = ka == kb ? 0 : list_subsets(n, kb, b);
  int rc = tci_drg_edges_init(es, na + nb, err);
  for (int32_t i = 0; !rc && i < na; i++)
    for (int32_t j = i + 1; !rc && nb == 0 && j < na; j++)
      if (adjacent(a[i], a[j])) rc = tci_drg_edges_add(es, i, j, err);
  for (int32_t i = 0; !rc && i < na; i++)
    for (int32_t j = 0; !rc && j < nb; j++)
      if (adjacent(a[i], b[j])) rc = tci_drg_edges_add(es, i, na + j, err);
  for (int32_t i = 0; !rc && i < na; i++) rc = label_subset(es, i, a[i], err);
  for (int32_t j = 0; !rc && j < nb; j++) rc = label_subset(es, na + j, b[j], err);
  if (rc) tci_drg_edges_free(es);
  return rc;
}

static int meet_in_one(uint32_t a, uint32_t b) { return popcount32(a & b) == 1; }
static int disjoint(uint32_t a, uint32_t b) { return (a & b) == 0; }
static int contained(uint32_t a, uint32_t b) { return (a & b) == a; }

static int build_octahedron(drg_edges *es, tc_error *err) { return build_subset_graph(4, 2, 2, meet_in_one, es, err); }
static int build_odd4(drg_edges *es, tc_error *err) { return build_subset_graph(7, 3, 3, disjoint, es, err); }
static int build_doubled_odd4(drg_edges *es, tc_error *err) { return build_subset_graph(7, 3, 4, contained, es, err); }

/* Line graph of a base graph produced by `build_base`. */
static int line_graph_of(int (*build_base)(drg_edges *, tc_error *), drg_edges *es, tc_error *err) {
  drg_edges base;
  int rc = build_base(&base, err);
  if (rc) return rc;
  rc = tci_drg_edges_line_graph(&base, es, err);
  tci_drg_edges_free(&base);
  return rc;
}

static int build_petersen(drg_edges *es, tc_error *err) { return build_subset_graph(5, 2, 2, disjoint, es, err); }
static int build_petersen_line(drg_edges *es, tc_error *err) { return line_graph_of(build_petersen, es, err); }

/* ---------------------------------------------------------------------------------- */
/* Small algebraic graphs.                                                              */

/* GF(9) element a + b·i (i^2 = -1, irreducible since -1 is a non-square mod 3) is node
   3a + b. */
static int gf9_mul(int x, int y) {
  int a = x / 3, b = x % 3, c = y / 3, d = y % 3;
  int re = ((a * c - b * d) % 3 + 3) % 3, im = (a * d + b * c) % 3;
  return 3 * re + im;
}

static int gf9_sub(int x, int y) {
  return 3 * ((x / 3 - y / 3 + 3) % 3) + (x % 3 - y % 3 + 3) % 3;
}

static int build_paley9(drg_edges *es, tc_error *err) {
  int square[9] = {0};
  for (int x = 1; x < 9; x++) square[gf9_mul(x, x)] = 1;
  int rc = tci_drg_edges_init(es, 9, err);
  /* q = 9 ≡ 1 (mod 4): -1 is a square, so "x - y is a square" is symmetric. */
  for (int x = 0; !rc && x < 9; x++)
    for (int y = x + 1; !rc && y < 9; y++)
      if (square[gf9_sub(x, y)]) rc = tci_drg_edges_add(es, x, y, err);
  for (int x = 0; !rc && x < 9; x++) rc = tci_drg_edges_set_label(es, x, err, "%d+%di", x / 3, x % 3);
  if (rc) tci_drg_edges_free(es);
  return rc;
}

/* a_i is node i, b_j is node 5 + j. */
static int build_k55_minus_matching(drg_edges *es, tc_error *err) {
  int rc = tci_drg_edges_init(es, 10, err);
  for (int i = 0; !rc && i < 5; i++)
    for (int j = 0; !rc && j < 5; j++)
      if (i != j) rc = tci_drg_edges_add(es, i, 5 + j, err);
  for (int i = 0; !rc && i < 5; i++) rc = tci_drg_edges_set_label(es, i, err, "a%d", i);
  for (int j = 0; !rc && j < 5; j++) rc = tci_drg_edges_set_label(es, 5 + j, err, "b%d", j);
  if (rc) tci_drg_edges_free(es);
  return rc;
}

static int build_q4(drg_edges *es, tc_error *err) {
  int rc = tci_drg_edges_init(es, 16, err);
  for (int x = 0; !rc && x < 16; x++)
    for (int bit = 0; !rc && bit < 4; bit++)
      if (!((x >> bit) & 1)) rc = tci_drg_edges_add(es, x, x | (1 << bit), err);
  for (int x = 0; !rc && x < 16; x++)
    rc = tci_drg_edges_set_label(es, x, err, "%d%d%d%d", (x >> 3) & 1, (x >> 2) & 1, (x >> 1) & 1, x & 1);
  if (rc) tci_drg_edges_free(es);
  return rc;
}

/* Incidence graph of the cyclic projective plane of order n - 1 given by a perfect
   difference set D mod v = n^2 - n + 1: point i (node i) lies on line j (node v + j) iff
   i - j mod v is in D. */
static int build_cyclic_plane(int v, const int *diffset, int k, drg_edges *es, tc_error *err) {
  int rc = tci_drg_edges_init(es, 2 * v, err);
  for (int j = 0; !rc && j < v; j++)
    for (int t = 0; !rc && t < k; t++) rc = tci_drg_edges_add(es, (j + diffset[t]) % v, v + j, err);
  for (int i = 0; !rc && i < v; i++) rc = tci_drg_edges_set_label(es, i, err, "p%d", i);
  for (int j = 0; !rc && j < v; j++) rc = tci_drg_edges_set_label(es, v + j, err, "L%d", j);
  if (rc) tci_drg_edges_free(es);
  return rc;
}

static int build_heawood(drg_edges *es, tc_error *err) {
  static const int fano[3] = {0, 1, 3};
  return build_cyclic_plane(7, fano, 3, es, err);
}

static int build_pg23(drg_edges *es, tc_error *err) {
  static const int pg23[4] = {0, 1, 3, 9};
  return build_cyclic_plane(13, pg23, 4, es, err);
}

static int build_heawood_line(drg_edges *es, tc_error *err) { return line_graph_of(build_heawood, es, err); }

static int build_heawood_dist3(drg_edges *es, tc_error *err) {
  drg_edges base;
  int rc = build_heawood(&base, err);
  if (rc) return rc;
  rc = tci_drg_edges_distance_graph(&base, 3, es, err);
  tci_drg_edges_free(&base);
  return rc;
}

/* GQ(2,2) (Sylvester's duads and synthemes): duads = 2-subsets of {0..5} (nodes 0..14),
   synthemes = partitions of {0..5} into three duads (nodes 15..29); a duad is incident
   with the synthemes that contain it. Its incidence graph is Tutte's 8-cage. */
static int build_tutte8(drg_edges *es, tc_error *err) {
  uint32_t duad[15], synth[15][3];
  list_subsets(6, 2, duad);
  int ns = 0;
  for (int a = 1; a < 6; a++) { /* 0 pairs with a; the smallest remaining with c */
    int rest[4], r = 0;
    for (int x = 1; x < 6; x++)
      if (x != a) rest[r++] = x;
    for (int c = 1; c < 4; c++) {
      int others[2], o = 0;
      for (int x = 1; x < 4; x++)
        if (x != c) others[o++] = rest[x];
      synth[ns][0] = 1u | (1u << a);
      synth[ns][1] = (1u << rest[0]) | (1u << rest[c]);
      synth[ns][2] = (1u << others[0]) | (1u << others[1]);
      ns++;
    }
  }
  int rc = tci_drg_edges_init(es, 30, err);
  for (int d = 0; !rc && d < 15; d++)
    for (int s = 0; !rc && s < 15; s++)
      if (duad[d] == synth[s][0] || duad[d] == synth[s][1] || duad[d] == synth[s][2]) rc = tci_drg_edges_add(es, d, 15 + s, err);
  for (int d = 0; !rc && d < 15; d++) rc = label_subset(es, d, duad[d], err);
  for (int s = 0; !rc && s < 15; s++) {
    int p[6], k = 0;
    for (int t = 0; t < 3; t++)
      for (int x = 0; x < 6; x++)
        if ((synth[s][t] >> x) & 1) p[k++] = x;
    rc = tci_drg_edges_set_label(es, 15 + s, err, "%d%d|%d%d|%d%d", p[0], p[1], p[2], p[3], p[4], p[5]);
  }
  if (rc) tci_drg_edges_free(es);
  return rc;
}

static int build_tutte8_line(drg_edges *es, tc_error *err) { return line_graph_of(build_tutte8, es, err); }

/* ---------------------------------------------------------------------------------- */
/* Finite geometries (drg_geom.c).                                                      */

static int build_gq33(drg_edges *es, tc_error *err) { return tci_drg_build_symplectic_gq(3, es, err); }
static int build_tutte12(drg_edges *es, tc_error *err) { return tci_drg_build_split_cayley(2, es, err); }
static int build_tutte12_line(drg_edges *es, tc_error *err) { return line_graph_of(build_tutte12, es, err); }
static int build_gh33(drg_edges *es, tc_error *err) { return tci_drg_build_split_cayley(3, es, err); }

/* ---------------------------------------------------------------------------------- */
/* Registry.                                                                            */

typedef int (*drg_builder)(drg_edges *es, tc_error *err);

/* Table 8 order. The two arrays are parallel; the names array is NULL-terminated. */
static const char *const drg_names[] = {
    "octahedron", "paley9",     "k55-i",       "heawood-dist3", "petersen-line",
    "q4",         "heawood-line", "pg23",      "ag24-minus",    "odd4",
    "tutte8-line", "doubled-odd4", "gq33",     "tutte12-line",  "gh33",
    NULL};
static const drg_builder drg_builders[] = {
    build_octahedron, build_paley9,       build_k55_minus_matching, build_heawood_dist3, build_petersen_line,
    build_q4,         build_heawood_line, build_pg23,               tci_drg_build_ag24_minus, build_odd4,
    build_tutte8_line, build_doubled_odd4, build_gq33,              build_tutte12_line,  build_gh33};
_Static_assert(sizeof drg_names / sizeof drg_names[0] == sizeof drg_builders / sizeof drg_builders[0] + 1,
               "every DRG name needs a builder");

/* Table 8's symbols, accepted as aliases of the canonical names. */
static const char *const drg_aliases[][2] = {
    {"J(4,2)", "octahedron"}, {"P9", "paley9"},   {"H(2,3)", "paley9"},   {"K5,5-I", "k55-i"},
    {"Q4", "q4"},             {"H(4,2)", "q4"},   {"PG(2,3)", "pg23"},    {"O4", "odd4"},
    {"D(O4)", "doubled-odd4"}, {"GQ(3,3)", "gq33"}, {"W(3)", "gq33"},     {"GH(3,3)", "gh33"}};

static int same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
    char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* Index of `name` (canonical or alias) in drg_names, or -1. */
static int find_drg(const char *name) {
  for (size_t a = 0; a < sizeof drg_aliases / sizeof drg_aliases[0]; a++)
    if (same_ignoring_case(name, drg_aliases[a][0])) name = drg_aliases[a][1];
  for (int i = 0; drg_names[i]; i++)
    if (same_ignoring_case(name, drg_names[i])) return i;
  return -1;
}

static int unknown_name(const char *name, tc_error *err) {
  char valid[TC_ERRMSG_MAX];
  size_t len = 0;
  valid[0] = '\0';
  for (int i = 0; drg_names[i] && len < sizeof valid; i++)
    len += (size_t)snprintf(valid + len, sizeof valid - len, "%s%s", i ? ", " : "", drg_names[i]);
  return tc_error_set(err, TC_EINPUT, "drg: unknown graph '%.60s' (valid: %s)", name, valid);
}

int tc_topo_drg(const char *name, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "drg: no output graph given");
  *out = NULL;
  if (!name) return tc_error_set(err, TC_EINPUT, "drg: graph name must not be NULL");
  int i = find_drg(name);
  if (i < 0) return unknown_name(name, err);
  drg_edges es;
  int rc = drg_builders[i](&es, err);
  if (rc) return rc;
  rc = tci_drg_edges_to_graph(&es, out, err);
  tci_drg_edges_free(&es);
  return rc;
}

const char *const *tc_topo_drg_names(void) { return drg_names; }
