/*
** plan_links.c — the plan's cabling (issue #14 §3): duplex cables or simplex fibres, and
** what the other choice would give.
**
** Most NICs and cables are duplex: a link is a pair of opposite arcs on one port of each
** end, so a duplex plan searches only bidirectional topologies (find.bidirectional) and
** wiring.csv has one duplex row per pair. Simplex fibres (patch-panel optics) allow any
** digraph, and the finder's best digraph is sometimes a little faster. Which one pays is
** the user's call, so the plan also runs the finder with the other cabling — prediction
** only, the same allreduce sizes, a few milliseconds — and summary.md states both
** predicted times. All-to-alls are left out of that comparison: the other frontier's MCF is
** not certified (it would cost a minute per member), so the comparison says "allreduce".
*/
#include <stdio.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/units.h"

tc_wiring_links tc_plan_wiring_links(const tc_plan *p) {
  return p->fabric ? TC_WIRING_AUTO : p->find.bidirectional ? TC_WIRING_DUPLEX : TC_WIRING_SIMPLEX;
}

int tci_plan_other_links(tc_plan *p, tc_error *err) {
  tc_find_options other = p->find;
  other.bidirectional = !other.bidirectional;
  other.build = 0;
  tc_frontier f;
  tc_error why;
  tc_error_clear(&why);
  int rc = tc_find(&other, &f, &why);
  if (rc == TC_EINPUT) { /* e.g. duplex links on odd N with odd d: noted, not fatal */
    snprintf(p->other_links_note, sizeof p->other_links_note, "%s", why.msg);
    return TC_OK;
  }
  if (rc) {
    *err = why;
    return rc;
  }
  tc_workload allreduce_only = p->workload;
  allreduce_only.a2a_bytes = 0;
  allreduce_only.a2a_weight = 0;
  if (f.count > 0) {
    p->other_links = f.member[tc_frontier_choose(&f, &allreduce_only)];
    p->other_links_found = 1;
  } else {
    snprintf(p->other_links_note, sizeof p->other_links_note, "the finder has no topology with %s links",
             other.bidirectional ? "duplex" : "simplex");
  }
  tc_frontier_destroy(&f);
  return TC_OK;
}

void tci_plan_links_summary(FILE *f, const tc_plan *p) {
  const tc_graph *g = p->graph;
  int duplex = p->find.bidirectional;
  fprintf(f, "## Cabling\n\n");
  if (duplex)
    fprintf(f, "**Duplex cables**: every link is a pair of opposite arcs on one port of each end, one cable: "
               "%lld cables (`wiring.csv`, kind `duplex`).",
            (long long)(g->m / 2));
  else
    fprintf(f, "**Simplex fibres**: one fibre per arc, from the transmit side of a port to the receive side "
               "of another: %lld fibres (`wiring.csv`, kind `simplex`).",
            (long long)g->m);
  const char *other = duplex ? "Simplex fibres (`--links simplex`)" : "Duplex cables (`--links duplex`)";
  if (!p->other_links_found) {
    fprintf(f, " %s: not possible here (%s).\n\n", other, p->other_links_note);
    return;
  }
  const tc_candidate *c = &p->frontier.member[p->chosen], *o = &p->other_links;
  if (!strcmp(o->spec, c->spec)) {
    fprintf(f, " %s would choose the same topology.\n\n", other);
    return;
  }
  double ours = tc_candidate_allreduce_time(c, &p->workload), theirs = tc_candidate_allreduce_time(o, &p->workload);
  char t1[64], t2[64];
  tc_units_format_time(ours, TC_UNITS_TIME_MICRO_SIGN, t1, sizeof t1);
  tc_units_format_time(theirs, TC_UNITS_TIME_MICRO_SIGN, t2, sizeof t2);
  fprintf(f, " %s would choose `%s` (%s): expected allreduce time %s against %s for this plan's choice, ", other,
          o->spec, o->label, t2, t1);
  if (theirs < ours) fprintf(f, "%.1f %% less", 100 * (ours - theirs) / ours);
  else if (theirs > ours) fprintf(f, "%.1f %% more", 100 * (theirs - ours) / ours);
  else fprintf(f, "the same");
  fprintf(f, " (the finder's predictions for both; all-to-alls not included).\n\n");
}
