/*
** netcost.h — how many endpoints a network of a given family connects with how many
** routers, and what the 2dfc's hardware costs (paper 002 §4.4: Fig. 4.16's scalability,
** §4.4.2's cost model behind Fig. 4.19).
**
** Prices (USD, Listing 4.1, Colfax Direct 2025) enter only through the dissertation's three
** fitted lines, used as printed: f_el(x) = 22.76 x + 111.41 for an electrical cable of x
** metres, f_op(x) = 6.76 x + 624.68 for an optical one, f_switch(x) = 414.25 x + 8806.20 for
** a switch of x ports. tc_price_fits recomputes them from the listing, as the dissertation
** must have: f_el is the line through the 1 m and 3 m EDR copper cables, f_op the least
** squares line over the optical cables without the 50 m one, f_switch the least squares line
** over the three switches (each rounds to the printed coefficients; docs/multiport.md).
**
** Families (every configuration is one parameter set; routers are the switches, endpoints
** the nodes):
**   2dfc       m2 x m1 routers, T endpoints each (one top-of-rack switch per rack), radix
**              (m1 - 1) + (m2 - 1) + T, normalised bisection B_B = min(m1,m2) / (2T)
**              (Eq. 2.13). The classes 2dfc100, 2dfc50, 2dfc25 are the square m x m with
**              T = m/2, m, 2m (B_B = 1, 1/2, 1/4).
**   dragonfly  balanced (a = 2p = 2h, g = ah + 1): a g routers, p endpoints each, radix
**              4p - 1, bisection (N + 2p^2 - 1) / (2N) (footnote 6).
**   slimfly    the MMS graph of a prime power q = 4w + delta (delta in {-1, 0, 1}): 2 q^2
**              routers, network radix k' = (3q - delta)/2, p = ceil(k'/2) endpoints each.
**   torus      D-dimensional k^D torus (k >= 3), p endpoints per router (the classes
**              torus3d, torus5d take p = 1: "about 1000 nodes at 1000 switches").
** Price (USD) = optical cables + electrical cables + switches, on one rack layout per family
** under §4.4.2's assumptions: 1 x 1 x 2 m racks on the ground, one metre apart; every cable
** inside a rack (router-router, router-endpoint) electrical f_el(1); every cable between
** racks optical, f_op(Manhattan distance + 1 m overhead, Eq. 4.10); every router
** f_switch(radix). Racks that are not the text's own lie on the most nearly square grid
** (ceil(sqrt(racks)) columns, filled row by row).
**   2dfc       the text's layout (Eqs. 4.9-4.13): one router per rack on the m2 x m1 grid,
**              optical m2 Σ_{x=1}^{m1-1} (m1-x) f_op(x+1) + m1 Σ_{x=1}^{m2-1} (m2-x) f_op(x+1),
**              electrical m2 m1 T f_el(1).
**   dragonfly  one group (a routers) per rack: a(a-1)/2 electrical local links per rack, one
**              optical global link between every two racks.
**   slimfly    rack x holds the MMS subgroups (0,x,.) and (1,x,.): 2q routers, q^2 (k'-q+1)
**              electrical links inside racks in all, 2q optical links between every two racks.
**   torus      folded, no optical cable (§4.4.2): one dimension-0 ring (k routers) per rack,
**              its k links f_el(1); every other link joins racks folded two positions apart,
**              electrical f_el(2 + 1).
** The layouts other than the 2dfc's are ours: the dissertation takes those prices from the
** Slim Fly paper's script, which it only cites (docs/reproduction.md compares with Fig. 4.19).
*/
#ifndef TOPOCOLL_NETCOST_H
#define TOPOCOLL_NETCOST_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"

TC_API double tc_price_electrical(double metres);
TC_API double tc_price_optical(double metres);
TC_API double tc_price_switch(double ports);

/* price = slope * x + intercept */
typedef struct tc_price_line {
  double slope, intercept;
} tc_price_line;
/* The three fits recomputed from Listing 4.1's prices (unrounded). */
TC_API void tc_price_fits(tc_price_line *electrical, tc_price_line *optical, tc_price_line *sw);

typedef enum {
  TC_NET_2DFC100 = 0,
  TC_NET_2DFC50,
  TC_NET_2DFC25,
  TC_NET_DRAGONFLY,
  TC_NET_SLIMFLY,
  TC_NET_TORUS3D,
  TC_NET_TORUS5D
} tc_net_family;
#define TC_NET_FAMILIES 7

/* "2dfc100", "2dfc50", "2dfc25", "dragonfly", "slimfly", "torus3d", "torus5d". */
TC_API const char *tc_net_family_name(tc_net_family f);

typedef struct tc_net_config {
  char name[128];      /* "2dfc 32x32, T=16", "dragonfly p=6 (...)", "slimfly q=23 (...)", "torus 10^3, p=1" */
  int64_t routers, endpoints;
  int64_t radix;       /* ports per router, endpoint ports included */
  double bisection;    /* normalised bisection bandwidth where the text gives it, else -1 */
  int64_t racks;       /* of the family's layout (above) */
  double optical, electrical, switches, total; /* USD */
} tc_net_config;

/* One configuration; TC_EINPUT naming the bad parameter, TC_ERANGE beyond 2^62 endpoints. */
TC_API int tc_net_2dfc(int64_t m2, int64_t m1, int64_t T, tc_net_config *out, tc_error *err);
TC_API int tc_net_dragonfly(int64_t p, tc_net_config *out, tc_error *err);
TC_API int tc_net_slimfly(int64_t q, tc_net_config *out, tc_error *err);
TC_API int tc_net_torus(int dims, int64_t k, int64_t p, tc_net_config *out, tc_error *err);

/* The family's smallest configuration (in its parameter m, p, q or k) with at least
   `endpoints` endpoints. */
TC_API int tc_net_for_endpoints(tc_net_family f, int64_t endpoints, tc_net_config *out, tc_error *err);
/* The family's configuration whose router count is nearest `routers` on a log scale (Fig.
   4.16's axis; the smaller on a tie). */
TC_API int tc_net_for_routers(tc_net_family f, int64_t routers, tc_net_config *out, tc_error *err);

#endif
