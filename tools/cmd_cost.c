/*
** cmd_cost.c — `topocoll cost`: network sizes and hardware prices per family (netcost.h;
** paper 002 §4.4, Figs. 4.16 and 4.19).
**
** Three reports, one at a time: every family at a number of endpoints (its smallest
** configuration with at least that many, priced on its rack layout, relative to 2dfc25 per
** endpoint: Fig. 4.19's comparison), every family at a number of routers (Fig.
** 4.16's), or one 2dfc's price broken down by Eqs. 4.12, 4.13 and the switches.
*/
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "topocoll/netcost.h"

void tc_cmd_cost_help(void) {
  printf(
      "usage: topocoll cost [--endpoints N | --routers R | --2dfc M2,M1,T]\n"
      "\n"
      "Network size and hardware price of the topologies paper 002 sec. 4.4 compares: 2dfc with\n"
      "100%%, 50%% and 25%% bisection bandwidth (m x m routers, T = m/2, m, 2m endpoints each:\n"
      "B_B = min(m1,m2)/(2T), Eq. 2.13), balanced Dragonfly, Slim Fly (MMS), 3D and 5D torus\n"
      "(one endpoint per router). Prices in USD from the dissertation's fits to its Listing\n"
      "4.1 (f_el, f_op, f_switch) on one rack layout per family: 1 x 1 x 2 m racks one metre\n"
      "apart, cables inside a rack electrical of 1 m, cables between racks optical of their\n"
      "Manhattan length + 1 m (Eq. 4.10). 2dfc: one router per rack (Eqs. 4.9-4.13);\n"
      "Dragonfly: one group per rack; Slim Fly: two MMS subgroups per rack; torus: folded, one\n"
      "dimension-0 ring per rack, links between racks electrical of 3 m. Racks other than the\n"
      "2dfc's lie on a square grid. docs/multiport.md has the model and its readings.\n"
      "\n"
      "  --endpoints N   every family's smallest configuration with at least N endpoints,\n"
      "                  priced per endpoint relative to 2dfc25 (default: 100000, Fig. 4.19)\n"
      "  --routers R     every family's configuration with the router count nearest R on a\n"
      "                  log scale (Fig. 4.16: R = 1000)\n"
      "  --2dfc M2,M1,T  the price of the M2 x M1 2dfc with T endpoints per router, by part\n"
      TC_CLI_MAX_MEMORY_HELP);
}

typedef struct cost_options {
  const char *endpoints_text, *routers_text, *twodfc;
  int64_t endpoints, routers;
} cost_options;

#define NET_LIMIT 4611686018427387904LL /* 2^62 */

static const tc_cli_option cost_table[] = {
    {.name = "--endpoints", .kind = TC_CLI_INT64, .text = offsetof(cost_options, endpoints_text),
     .value = offsetof(cost_options, endpoints), .lo = 1, .hi = NET_LIMIT},
    {.name = "--routers", .kind = TC_CLI_INT64, .text = offsetof(cost_options, routers_text),
     .value = offsetof(cost_options, routers), .lo = 1, .hi = NET_LIMIT},
    {.name = "--2dfc", .kind = TC_CLI_STRING, .text = offsetof(cost_options, twodfc), .needs = "M2,M1,T"},
};
static const tc_cli_command cost_cli = {
    .name = "cost", .help = tc_cmd_cost_help, .options = cost_table, .noptions = TC_CLI_COUNT(cost_table),
    .npositional = 0, .extra_argument = "unexpected argument '%s'"};

static void bisection_text(double b, char *buf, size_t size) {
  if (b < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.3f", b);
}

static int by_endpoints(int64_t endpoints) {
  tc_net_config c[TC_NET_FAMILIES];
  tc_error err;
  for (int f = 0; f < TC_NET_FAMILIES; f++)
    if (tc_net_for_endpoints((tc_net_family)f, endpoints, &c[f], &err)) return tc_cli_fail("cost", &err);
  double base = c[TC_NET_2DFC25].total / (double)c[TC_NET_2DFC25].endpoints;
  printf("at least %lld endpoints; price relative to 2dfc25 per endpoint\n\n", (long long)endpoints);
  printf("%-10s %-40s %9s %10s %6s %9s %9s %15s %10s %8s\n", "family", "configuration", "routers", "endpoints",
         "radix", "bisection", "racks", "price (USD)", "USD/endp.", "relative");
  for (int f = 0; f < TC_NET_FAMILIES; f++) {
    char bis[32];
    bisection_text(c[f].bisection, bis, sizeof bis);
    double per = c[f].total / (double)c[f].endpoints;
    printf("%-10s %-40s %9lld %10lld %6lld %9s %9lld %15.2f %10.2f %8.3f\n", tc_net_family_name((tc_net_family)f),
           c[f].name, (long long)c[f].routers, (long long)c[f].endpoints, (long long)c[f].radix, bis,
           (long long)c[f].racks, c[f].total, per, per / base);
  }
  return TC_EXIT_OK;
}

static int by_routers(int64_t routers) {
  printf("router count nearest %lld (log scale)\n\n", (long long)routers);
  printf("%-10s %-40s %9s %10s %6s %9s\n", "family", "configuration", "routers", "endpoints", "radix", "bisection");
  for (int f = 0; f < TC_NET_FAMILIES; f++) {
    tc_net_config c;
    tc_error err;
    if (tc_net_for_routers((tc_net_family)f, routers, &c, &err)) return tc_cli_fail("cost", &err);
    char bis[32];
    bisection_text(c.bisection, bis, sizeof bis);
    printf("%-10s %-40s %9lld %10lld %6lld %9s\n", tc_net_family_name((tc_net_family)f), c.name,
           (long long)c.routers, (long long)c.endpoints, (long long)c.radix, bis);
  }
  return TC_EXIT_OK;
}

static int one_twodfc(const char *text) {
  long long v[3];
  const char *p = text;
  for (int i = 0; i < 3; i++) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char piece[32];
    if ((i < 2 && !end) || (i == 2 && end) || len == 0 || len >= sizeof piece)
      return tc_cli_usage_error("cost", "--2dfc expects M2,M1,T (three integers), got '%s'", text);
    memcpy(piece, p, len);
    piece[len] = '\0';
    static const char *const what[] = {"--2dfc M2", "--2dfc M1", "--2dfc T"};
    int rc = tc_cli_parse_integer("cost", what[i], piece, i < 2 ? 2 : 1, NET_LIMIT, &v[i]);
    if (rc) return rc;
    p = end ? end + 1 : p + len;
  }
  tc_net_config c;
  tc_error err;
  if (tc_net_2dfc(v[0], v[1], v[2], &c, &err)) return tc_cli_fail("cost", &err);
  printf("network           %s\n", c.name);
  printf("routers           %lld (radix %lld)\n", (long long)c.routers, (long long)c.radix);
  printf("endpoints         %lld\n", (long long)c.endpoints);
  printf("bisection         %.3f (B_B = min(m1,m2)/(2T))\n", c.bisection);
  printf("optical cables    %.2f USD (Eq. 4.12)\n", c.optical);
  printf("electrical cables %.2f USD (Eq. 4.13)\n", c.electrical);
  printf("switches          %.2f USD\n", c.switches);
  printf("total             %.2f USD, %.2f per endpoint\n", c.total, c.total / (double)c.endpoints);
  return TC_EXIT_OK;
}

int tc_cmd_cost(int argc, char **argv) {
  cost_options o;
  memset(&o, 0, sizeof o);
  int status = tc_cli_parse(&cost_cli, argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  if ((o.endpoints_text != NULL) + (o.routers_text != NULL) + (o.twodfc != NULL) > 1)
    return tc_cli_usage_error("cost", "--endpoints, --routers and --2dfc are exclusive (give one)");
  if (o.twodfc) return one_twodfc(o.twodfc);
  o.endpoints = 100000;
  status = tc_cli_convert(&cost_cli, &o, "--endpoints", "--routers", NULL);
  if (status) return status;
  return o.routers_text ? by_routers(o.routers) : by_endpoints(o.endpoints);
}
