/*
** netcost.c — network sizes and prices (contract in netcost.h; paper 002 §4.4, Listing 4.1,
** Eqs. 2.13, 4.9-4.13).
**
** Sizes are exact integers (overflow-checked); prices are doubles, as the fitted lines are.
** Every family is priced on one rack layout, with §4.4.2's assumptions as the constants below:
** cables inside a rack electrical, between racks optical at their Manhattan length plus
** overhead (the tori's excepted: folded, all electrical), switches by f_switch of their
** radix. The 2dfc's layout is the text's (Eqs. 4.9-4.13); the others' are ours, one function
** each, as docs/multiport.md describes.
** The search helpers walk a family's one parameter upwards: sizes grow with it, so the
** first configuration past the target is the answer (or its predecessor, for routers).
*/
#include "topocoll/netcost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/intmath.h"

/* ---- prices ---- */

/* The dissertation's fits, as printed (§4.4.2). */
double tc_price_electrical(double metres) { return 22.76 * metres + 111.41; }
double tc_price_optical(double metres) { return 6.76 * metres + 624.68; }
double tc_price_switch(double ports) { return 414.25 * ports + 8806.20; }

/* Least squares line through (x[i], y[i]). */
static tc_price_line least_squares(const double *x, const double *y, int n) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (int i = 0; i < n; i++) mx += x[i] / n, my += y[i] / n;
  for (int i = 0; i < n; i++) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  tc_price_line l = {sxy / sxx, my - sxy / sxx * mx};
  return l;
}

void tc_price_fits(tc_price_line *electrical, tc_price_line *optical, tc_price_line *sw) {
  /* Listing 4.1: EDR copper 1 m $134.17 and 3 m $179.69 — the printed f_el is exactly the
     line through these two (the other copper cables lie off it) */
  static const double el_m[] = {1, 3}, el_usd[] = {134.17, 179.69};
  /* the VCSEL optical cables of 1-30 m (the 50 m one, $1211.09, is not in the printed fit) */
  static const double op_m[] = {1, 3, 5, 10, 15, 20, 30},
                      op_usd[] = {668.44, 639.69, 649.27, 673.23, 710.36, 751.09, 848.12};
  /* Switch-IB 2 (36 ports), Quantum HDR (40), Quantum-2 QM9700 (64) */
  static const double sw_ports[] = {36, 40, 64}, sw_usd[] = {19139, 30720, 34555};
  *electrical = least_squares(el_m, el_usd, 2);
  *optical = least_squares(op_m, op_usd, 7);
  *sw = least_squares(sw_ports, sw_usd, 3);
}

/* ---- configurations ---- */

static const char *const NAMES[TC_NET_FAMILIES] = {"2dfc100", "2dfc50", "2dfc25", "dragonfly",
                                                   "slimfly", "torus3d", "torus5d"};

const char *tc_net_family_name(tc_net_family f) {
  return (unsigned)f < TC_NET_FAMILIES ? NAMES[f] : "unknown";
}

/* Endpoints must stay below 2^62 so that every product here fits. */
#define NET_MAX (INT64_C(1) << 62)

static int mul3(int64_t a, int64_t b, int64_t c, int64_t *out, const char *what, tc_error *err) {
  int64_t ab;
  if (tci_mul64(a, b, &ab) || tci_mul64(ab, c, out) || *out > NET_MAX)
    return tc_error_set(err, TC_ERANGE, "%s: more than 2^62 endpoints", what);
  return TC_OK;
}

/* ---- layouts (§4.4.2) ---- */

/* Racks are 1 x 1 x 2 m, on the ground: adjacent racks' centres are one metre apart. */
#define RACK_PITCH_M 1.0
/* Every cable inside a rack (router-router or router-endpoint) is electrical of §4.4.2's
   average intra-rack length ("assumed to be one meter"). */
#define INTRA_RACK_M 1.0
/* Overhead added to each link between racks: Eq. 4.10's one metre (the prose just before
   Listing 4.1 says two; docs/reproduction.md, paper 002, garble 13). */
#define GLOBAL_OVERHEAD_M 1.0
/* A folded torus ("tori have folded design that do not require the optical links", §4.4.2)
   puts ring neighbours two rack positions apart (folding interleaves the ring's two halves):
   its links between racks are electrical, two metres plus the overhead. */
#define TORUS_FOLD_SPAN_M 2.0

/* Columns of the rack grid: the most nearly square one, ceil(sqrt(racks)) wide, filled row
   by row. */
static int64_t grid_columns(int64_t racks) {
  int64_t w = (int64_t)sqrt((double)racks);
  while (w * w < racks) w++;
  while (w > 1 && (w - 1) * (w - 1) >= racks) w--;
  return w;
}

/* Σ_{j=j0}^{j1} L (n - L), L = a j + b: over the gaps between grid columns (rows), the racks
   on one side of gap j times those on the other, i.e. how many rack pairs the gap separates. */
static double gap_sum(int64_t j0, int64_t j1, double a, double b, double n) {
  if (j1 < j0) return 0;
  double hi = (double)j1, lo = (double)j0 - 1;
  double count = hi - lo, s1 = hi * (hi + 1) / 2 - lo * (lo + 1) / 2,
         s2 = hi * (hi + 1) * (2 * hi + 1) / 6 - lo * (lo + 1) * (2 * lo + 1) / 6;
  return -a * a * s2 + a * (n - 2 * b) * s1 + b * (n - b) * count; /* expanded L (n - L) */
}

/* Σ over the unordered pairs of racks on the grid of their Manhattan distance, in pitches:
   each gap between adjacent columns (rows) adds one per pair it separates. */
static double grid_pair_distance(int64_t racks) {
  int64_t w = grid_columns(racks), full = racks / w, rest = racks % w, rows = full + (rest > 0);
  double n = (double)racks;
  /* left of column gap j: j (full + 1) racks while j <= rest, then j full + rest */
  double dx = gap_sum(1, rest < w - 1 ? rest : w - 1, (double)full + 1, 0, n) +
              gap_sum(rest + 1, w - 1, (double)full, (double)rest, n);
  double dy = gap_sum(1, rows - 1, (double)w, 0, n); /* below row gap j: j w racks */
  return dx + dy;
}

/* `per_pair` optical links between every two racks of the grid, each its Manhattan length
   plus overhead. f_op is linear, so the sum is the pair count times f_op of the mean length. */
static double grid_optical(int64_t racks, double per_pair) {
  double pairs = (double)racks * (double)(racks - 1) / 2;
  if (pairs == 0) return 0;
  return per_pair * pairs * tc_price_optical(GLOBAL_OVERHEAD_M + RACK_PITCH_M * grid_pair_distance(racks) / pairs);
}

static void total(tc_net_config *c) {
  c->switches = (double)c->routers * tc_price_switch((double)c->radix);
  c->total = c->optical + c->electrical + c->switches;
}

/* Optical cables of one fully connected line of m routers, one rack apart (Eq. 4.11):
   Σ_{x=1}^{m-1} (m-x) f_op(x + 1). f_op is linear and Σ (m-x) x = (m^3 - m)/6 (Eq. 4.9), so
   the m(m-1)/2 cables cost as many times f_op of their mean span (m+1)/3 plus overhead —
   constant time, so that walking m up to 2^21 in the searches stays fast. */
static double line_optical(int64_t m) {
  double n = (double)m, cables = n * (n - 1) / 2;
  return cables * tc_price_optical((n + 1) / 3 * RACK_PITCH_M + GLOBAL_OVERHEAD_M);
}

/* The text's 2dfc layout (§4.4.2): m2 x m1 racks, one router each; each row and column is a
   fully connected line (Eq. 4.12); T endpoints per rack (Eq. 4.13). */
static void price_2dfc(int64_t m2, int64_t m1, tc_net_config *c) {
  c->racks = c->routers;
  c->optical = (double)m2 * line_optical(m1) + (double)m1 * line_optical(m2);
  c->electrical = (double)c->endpoints * tc_price_electrical(INTRA_RACK_M);
  total(c);
}

/* Dragonfly: one group of a routers per rack (its local links electrical inside the rack),
   the g racks on the grid; g = ah + 1 makes the ah global links of a group reach every other
   group exactly once, so every rack pair has one optical link. */
static void price_dragonfly(int64_t a, int64_t g, tc_net_config *c) {
  c->racks = g;
  c->optical = grid_optical(g, 1);
  double local = (double)g * (double)a * (double)(a - 1) / 2;
  c->electrical = (local + (double)c->endpoints) * tc_price_electrical(INTRA_RACK_M);
  total(c);
}

/* Slim Fly MMS: routers (s, x, y), s in {0, 1}, x, y in F_q. Rack x holds the two subgroups
   (0, x, .) and (1, x, .): 2q routers. Inside a rack: each subgroup's own links (q |X| / 2
   each, |X| = k' - q) and the q links (0, x, y)-(1, x, c) with y = x·x + c; between racks x
   and m: (0, x, y)-(1, m, c) with y = m x + c and (0, m, y)-(1, x, c) with y = x m + c,
   2q optical links for every rack pair. Racks on the grid. */
static void price_slimfly(int64_t q, int64_t k, tc_net_config *c) {
  c->racks = q;
  c->optical = grid_optical(q, 2 * (double)q);
  double local = (double)q * (double)q * (double)(k - q + 1);
  c->electrical = (local + (double)c->endpoints) * tc_price_electrical(INTRA_RACK_M);
  total(c);
}

/* Folded k^D torus: one ring of dimension 0 (k routers) per rack, its k links electrical
   inside the rack; the links of dimensions 1..D-1 join racks and are electrical of the
   folded span plus overhead (TORUS_FOLD_SPAN_M): no optical cable at all. */
static void price_torus(int dims, int64_t k, tc_net_config *c) {
  c->racks = c->routers / k;
  c->optical = 0;
  c->electrical = ((double)c->routers + (double)c->endpoints) * tc_price_electrical(INTRA_RACK_M) +
                  (double)c->routers * (dims - 1) * tc_price_electrical(TORUS_FOLD_SPAN_M + GLOBAL_OVERHEAD_M);
  total(c);
}

int tc_net_2dfc(int64_t m2, int64_t m1, int64_t T, tc_net_config *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (m2 < 2 || m1 < 2 || T < 1)
    return tc_error_set(err, TC_EINPUT, "2dfc: needs m2, m1 >= 2 and T >= 1 (got %lldx%lld, T=%lld)", (long long)m2,
                        (long long)m1, (long long)T);
  int rc = mul3(m2, m1, T, &out->endpoints, "2dfc", err);
  if (rc) return rc;
  snprintf(out->name, sizeof out->name, "2dfc %lldx%lld, T=%lld", (long long)m2, (long long)m1, (long long)T);
  out->routers = m2 * m1;
  out->radix = m1 - 1 + m2 - 1 + T;
  out->bisection = (double)(m1 < m2 ? m1 : m2) / (2.0 * (double)T); /* Eq. 2.13 */
  price_2dfc(m2, m1, out);
  return TC_OK;
}

int tc_net_dragonfly(int64_t p, tc_net_config *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (p < 1) return tc_error_set(err, TC_EINPUT, "dragonfly: needs p >= 1 (got %lld)", (long long)p);
  if (p > (INT64_C(1) << 15)) return tc_error_set(err, TC_ERANGE, "dragonfly: more than 2^62 endpoints");
  int64_t a = 2 * p, g = a * p + 1; /* balanced: a = 2p = 2h, g = a h + 1 */
  int rc = mul3(a, g, p, &out->endpoints, "dragonfly", err);
  if (rc) return rc;
  snprintf(out->name, sizeof out->name, "dragonfly p=%lld (a=%lld, h=%lld, g=%lld)", (long long)p, (long long)a,
           (long long)p, (long long)g);
  out->routers = a * g;
  out->radix = p + (a - 1) + p;
  double n = (double)out->endpoints;
  out->bisection = (n + 2.0 * (double)(p * p) - 1) / (2 * n); /* footnote 6 */
  price_dragonfly(a, g, out);
  return TC_OK;
}

/* 1 if q is a power of a prime. */
static int prime_power(int64_t q) {
  int64_t r = 2;
  while (r * r <= q && q % r) r++;
  if (q % r) return q > 1; /* q itself is prime */
  while (q % r == 0) q /= r;
  return q == 1;
}

int tc_net_slimfly(int64_t q, tc_net_config *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int64_t delta = q % 4 == 0 ? 0 : q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 2;
  if (q < 3 || delta == 2 || !prime_power(q))
    return tc_error_set(err, TC_EINPUT, "slimfly: q must be a prime power 4w + delta, delta in {-1, 0, 1}, q >= 3 "
                        "(got %lld)", (long long)q);
  if (q > (INT64_C(1) << 19)) return tc_error_set(err, TC_ERANGE, "slimfly: more than 2^62 endpoints");
  int64_t k = (3 * q - delta) / 2, p = (k + 1) / 2; /* network radix k', p = ceil(k'/2) */
  int rc = mul3(2 * q, q, p, &out->endpoints, "slimfly", err);
  if (rc) return rc;
  snprintf(out->name, sizeof out->name, "slimfly q=%lld (k'=%lld, p=%lld)", (long long)q, (long long)k, (long long)p);
  out->routers = 2 * q * q;
  out->radix = k + p;
  out->bisection = -1; /* "better than Dragonfly, below 100%": no formula in the text */
  price_slimfly(q, k, out);
  return TC_OK;
}

int tc_net_torus(int dims, int64_t k, int64_t p, tc_net_config *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (dims < 1 || dims > 16 || k < 3 || p < 1)
    return tc_error_set(err, TC_EINPUT, "torus: needs 1..16 dimensions, k >= 3 and p >= 1 (got %d, %lld, %lld)", dims,
                        (long long)k, (long long)p);
  int64_t routers = 1;
  for (int i = 0; i < dims; i++)
    if (tci_mul64(routers, k, &routers) || routers > NET_MAX)
      return tc_error_set(err, TC_ERANGE, "torus: more than 2^62 endpoints");
  int rc = mul3(routers, p, 1, &out->endpoints, "torus", err);
  if (rc) return rc;
  snprintf(out->name, sizeof out->name, "torus %lld^%d, p=%lld", (long long)k, dims, (long long)p);
  out->routers = routers;
  out->radix = 2 * dims + p;
  out->bisection = -1; /* footnote 6's formula is garbled (docs/multiport.md) */
  price_torus(dims, k, out);
  return TC_OK;
}

/* ---- one parameter per family ---- */

static int64_t first_parameter(tc_net_family f) {
  return f == TC_NET_SLIMFLY ? 3 : f == TC_NET_DRAGONFLY ? 1 : f >= TC_NET_TORUS3D ? 3 : 2;
}

/* The next valid parameter after x. */
static int64_t next_parameter(tc_net_family f, int64_t x) {
  if (f == TC_NET_2DFC100) return x + 2; /* T = m/2: m even */
  if (f != TC_NET_SLIMFLY) return x + 1;
  do x++;
  while (x % 4 == 2 || !prime_power(x));
  return x;
}

static int configure(tc_net_family f, int64_t x, tc_net_config *c, tc_error *err) {
  switch (f) {
  case TC_NET_2DFC100: return tc_net_2dfc(x, x, x / 2, c, err);
  case TC_NET_2DFC50: return tc_net_2dfc(x, x, x, c, err);
  case TC_NET_2DFC25: return tc_net_2dfc(x, x, 2 * x, c, err);
  case TC_NET_DRAGONFLY: return tc_net_dragonfly(x, c, err);
  case TC_NET_SLIMFLY: return tc_net_slimfly(x, c, err);
  case TC_NET_TORUS3D: return tc_net_torus(3, x, 1, c, err);
  case TC_NET_TORUS5D: return tc_net_torus(5, x, 1, c, err);
  }
  return tc_error_set(err, TC_EINPUT, "unknown network family %d", (int)f);
}

int tc_net_for_endpoints(tc_net_family f, int64_t endpoints, tc_net_config *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (endpoints < 1 || endpoints > NET_MAX)
    return tc_error_set(err, TC_EINPUT, "endpoints must be in 1..2^62 (got %lld)", (long long)endpoints);
  for (int64_t x = first_parameter(f);; x = next_parameter(f, x)) {
    int rc = configure(f, x, out, err);
    if (rc || out->endpoints >= endpoints) return rc;
  }
}

int tc_net_for_routers(tc_net_family f, int64_t routers, tc_net_config *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (routers < 1 || routers > NET_MAX)
    return tc_error_set(err, TC_EINPUT, "routers must be in 1..2^62 (got %lld)", (long long)routers);
  tc_net_config prev;
  int have = 0;
  for (int64_t x = first_parameter(f);; x = next_parameter(f, x)) {
    int rc = configure(f, x, out, err);
    if (rc) return rc;
    if (out->routers >= routers) {
      /* nearer on the log axis: compare prev/target with target/this, i.e. prev*this with target^2 */
      if (have && (double)prev.routers * (double)out->routers >= (double)routers * (double)routers) *out = prev;
      return TC_OK;
    }
    prev = *out;
    have = 1;
  }
}
