/*
** forest.c — the ForestColl pipeline (contract of tc_forest_build in forest.h):
**   search (Algorithm 1 / 3) -> tree counts U·b_e (Prop. 3) or floor(U*·b_e) -> switch
**   removal (Algorithm 4) -> tree packing on D* (Algorithm 5) -> map-back of each tree edge to
**   the physical paths its units own -> tc_forest_verify.
** Reduce-scatter runs the same on the transpose g^T and reverses the trees (paper 001 §4.6):
** an out-tree of g^T rooted at u is an in-tree of g into u, and a path of g^T read backwards
** is a path of g. Allreduce is reduce-scatter, then allgather.
** Weighted roots (forest.h) change only what the source of every flow gives each compute
** node (k·w_c instead of k) and how many trees each root gets; weights that are all 1 are
** dropped up front, so the unweighted forest is built exactly as before.
*/
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "core/progress.h"
#include "forest/forest_internal.h"
#include "forest/pack.h"
#include "forest/split.h"

static void batch_free(tc_forest_batch *b) {
  free(b->from);
  free(b->to);
  free(b->route_off);
  free(b->route_units);
  free(b->hop_off);
  free(b->hop_arc);
  memset(b, 0, sizeof *b);
}

static void part_free(tc_forest_part *p) {
  for (int64_t i = 0; p->batch && i < p->nbatches; i++) batch_free(&p->batch[i]);
  free(p->batch);
  tc_forest_optimum_destroy(&p->opt);
  memset(p, 0, sizeof *p);
}

void tc_forest_destroy(tc_forest *f) {
  for (int i = 0; i < 2; i++) part_free(&f->part[i]);
  free(f->weights);
  memset(f, 0, sizeof *f);
}

/* Tree units per arc of g: U·b_e exactly (optimal: Prop. 3 makes it integral) or floor. */
static int arc_units(const tc_graph *g, const tc_forest_optimum *o, int64_t *units, tc_error *err) {
  for (int64_t a = 0; a < g->m; a++) {
    __int128 p = (__int128)o->U.num * g->cap[a];
    if (o->optimal && p % o->U.den != 0)
      return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: U·b_e is not an integer (Prop. 3)");
    p /= o->U.den;
    if (p > INT64_MAX / 4) return tc_error_set(err, TC_ERANGE, "forestcoll: U·b_e overflows 64 bits");
    units[a] = (int64_t)p;
  }
  return TC_OK;
}

/* Switch removal needs G({floor(U*·b_e)}) Eulerian; at a fixed k it may not be (§4.5). */
static int check_scaled_eulerian(const tc_graph *g, const int64_t *units, int64_t k, tc_error *err) {
  int64_t *bal = calloc((size_t)g->n, sizeof *bal);
  if (!bal) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory");
  for (int64_t a = 0; a < g->m; a++)
    if (g->src[a] != g->dst[a]) {
      bal[g->src[a]] += units[a];
      bal[g->dst[a]] -= units[a];
    }
  int rc = TC_OK;
  for (int32_t v = 0; v < g->n && !rc; v++)
    if (bal[v])
      rc = tc_error_set(err, TC_EINPUT,
                        "forestcoll: at k = %lld the tree counts floor(U*·b_e) leave node %d with ingress != egress, so "
                        "the switches cannot be removed (paper 001 §4.5); use the optimal k",
                        (long long)k, v);
  free(bal);
  return rc;
}

typedef struct part_ctx {
  const tc_graph *g;        /* the graph the trees are built on (g or g^T) */
  const int64_t *to_orig;   /* its arc -> the original graph's arc (g^T), or NULL */
  int in_trees;
  const int64_t *weights;   /* per node (the same on g^T), or NULL: unweighted */
  const int64_t *node_w;    /* per node: the weights, 1 on compute nodes when unweighted */
} part_ctx;

/* Turn the packed batches into tc_forest_batch with routes, consuming pool units. */
static int map_back(const part_ctx *c, const int32_t *compute, const tci_packing *pk, tci_pools *pools,
                    const tci_capgraph *d, tc_forest_part *part, tc_error *err) {
  part->batch = calloc((size_t)(pk->count ? pk->count : 1), sizeof *part->batch);
  if (!part->batch) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld batches", (long long)pk->count);
  part->nbatches = pk->count;
  tci_piece *pieces = NULL;
  int64_t room = 0;
  int rc = TC_OK;
  for (int64_t bi = 0; !rc && bi < pk->count; bi++) {
    const tci_batch *in = &pk->batch[bi];
    tc_forest_batch *b = &part->batch[bi];
    b->root = compute[in->root];
    b->mult = in->mult;
    b->nedges = in->nedges;
    int64_t count = 0;
    b->from = malloc((size_t)(in->nedges ? in->nedges : 1) * sizeof *b->from);
    b->to = malloc((size_t)(in->nedges ? in->nedges : 1) * sizeof *b->to);
    b->route_off = malloc((size_t)(in->nedges + 1) * sizeof *b->route_off);
    if (!b->from || !b->to || !b->route_off) { rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory"); break; }
    b->route_off[0] = 0;
    for (int32_t i = 0; !rc && i < in->nedges; i++) {
      int32_t x = compute[in->from[i]], y = compute[in->to[i]];
      rc = tci_pools_take(pools, d, x, y, in->mult, &pieces, &count, &room, err);
      b->from[i] = c->in_trees ? y : x;
      b->to[i] = c->in_trees ? x : y;
      b->route_off[i + 1] = count;
    }
    if (rc) break;
    b->nroutes = count;
    int64_t hops = 0;
    for (int64_t r = 0; r < count; r++) hops += pools->path_off[pieces[r].path + 1] - pools->path_off[pieces[r].path];
    b->route_units = malloc((size_t)(count ? count : 1) * sizeof *b->route_units);
    b->hop_off = malloc((size_t)(count + 1) * sizeof *b->hop_off);
    b->hop_arc = malloc((size_t)(hops ? hops : 1) * sizeof *b->hop_arc);
    if (!b->route_units || !b->hop_off || !b->hop_arc) { rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory"); break; }
    b->hop_off[0] = 0;
    for (int64_t r = 0, h = 0; r < count; r++) {
      int64_t p0 = pools->path_off[pieces[r].path], p1 = pools->path_off[pieces[r].path + 1], len = p1 - p0;
      b->route_units[r] = pieces[r].units;
      for (int64_t j = 0; j < len; j++) {
        /* an in-tree walks the transpose's path backwards, on the original arcs */
        int64_t a = c->in_trees ? pools->hop[p1 - 1 - j] : pools->hop[p0 + j];
        b->hop_arc[h + j] = c->to_orig ? c->to_orig[a] : a;
      }
      h += len;
      b->hop_off[r + 1] = h;
    }
  }
  free(pieces);
  return rc;
}

/* D* from d once its switches are gone: the compute nodes renumbered 0..N-1. */
static int make_dstar(const tci_capgraph *d, const int32_t *index, int32_t nc, tci_capgraph *dstar, tc_error *err) {
  int rc = tci_capgraph_init(dstar, nc, err);
  for (int64_t a = 0; !rc && a < d->narcs; a++) {
    if (d->cap[a] == 0) continue;
    if (index[d->src[a]] < 0 || index[d->dst[a]] < 0)
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: internal error: an arc touches a switch after removal");
    else rc = tci_capgraph_add(dstar, index[d->src[a]], index[d->dst[a]], d->cap[a], err);
  }
  if (rc) tci_capgraph_destroy(dstar);
  return rc;
}

/* Switch removal: first greedily on copies, certified by the max-flow test of Theorem 10 on
   the result; if the certificate fails (or exact is asked for), Algorithm 4 with γ. On
   success d, pools and dstar hold the result. */
static int remove_switches(const part_ctx *c, const tc_forest_options *opt, int64_t k, const int32_t *index,
                           int32_t nc, const int64_t *cw, tci_capgraph *d, tci_pools *pools, tci_capgraph *dstar,
                           tc_forest_part *part, tc_error *err) {
  const tc_graph *g = c->g;
  tci_split_stats st = {0};
  int rc = TC_OK;
  if (!opt->exact_split) {
    tci_capgraph d2 = {0}, ds2 = {0};
    tci_pools p2 = {0};
    int ok = 0;
    rc = tci_capgraph_copy(&d2, d, err);
    if (!rc) rc = tci_pools_copy(&p2, pools, err);
    if (!rc) rc = tci_split_switches(&d2, g, k, c->node_w, 1, &p2, &st, opt->progress, opt->progress_ctx, err);
    if (!rc) rc = make_dstar(&d2, index, nc, &ds2, err);
    if (!rc) rc = tci_pack_feasible(&ds2, k, cw, &ok, err);
    part->split_maxflows += st.maxflows + (rc ? 0 : nc);
    if (!rc && ok) {
      tci_capgraph_destroy(d);
      tci_pools_destroy(pools);
      *d = d2;
      *pools = p2;
      *dstar = ds2;
      part->split_greedy = 1;
      return TC_OK;
    }
    tci_capgraph_destroy(&d2);
    tci_capgraph_destroy(&ds2);
    tci_pools_destroy(&p2);
    if (rc) return rc;
  }
  st.maxflows = 0;
  rc = tci_split_switches(d, g, k, c->node_w, 0, pools, &st, opt->progress, opt->progress_ctx, err);
  part->split_maxflows += st.maxflows;
  if (!rc) rc = make_dstar(d, index, nc, dstar, err);
  return rc;
}

static int build_part(const part_ctx *c, const tc_forest_options *opt, tc_forest_part *part, tc_error *err) {
  const tc_graph *g = c->g;
  part->in_trees = c->in_trees;
  tci_progress(opt->progress, opt->progress_ctx, 0, 0, "forest: optimality search");
  int rc = tc_forest_search_optimum_weighted(g, c->weights, opt->k, opt->search, &part->opt, err);
  if (rc) return rc;
  int32_t *compute = NULL, nc = 0, nsw = tc_graph_count_kind(g, TC_NODE_SWITCH);
  int64_t *units = malloc((size_t)(g->m ? g->m : 1) * sizeof *units), *cw = NULL; /* cw: per D* node */
  tci_capgraph d = {0}, dstar = {0};
  tci_pools pools = {0};
  tci_packing pk = {0};
  int32_t *index = malloc((size_t)g->n * sizeof *index);
  if (!units || !index) rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld arcs", (long long)g->m);
  if (!rc) rc = tci_forest_compute_nodes(g, &compute, &nc, err);
  if (!rc && c->weights && !(cw = malloc((size_t)nc * sizeof *cw)))
    rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %d weights", nc);
  for (int32_t i = 0; !rc && cw && i < nc; i++) cw[i] = c->weights[compute[i]];
  if (!rc) rc = arc_units(g, &part->opt, units, err);
  if (!rc && nsw > 0 && !part->opt.optimal) rc = check_scaled_eulerian(g, units, part->opt.k, err);
  if (!rc) rc = tci_capgraph_init(&d, g->n, err);
  for (int64_t a = 0; !rc && a < g->m; a++) rc = tci_capgraph_add(&d, g->src[a], g->dst[a], units[a], err);
  if (!rc) rc = tci_pools_init(&pools, &d, g, units, err);
  if (!rc) {
    for (int32_t v = 0; v < g->n; v++) index[v] = -1;
    for (int32_t i = 0; i < nc; i++) index[compute[i]] = i;
    rc = nsw > 0 ? remove_switches(c, opt, part->opt.k, index, nc, cw, &d, &pools, &dstar, part, err)
                 : make_dstar(&d, index, nc, &dstar, err);
  }
  if (!rc) part->logical_arcs = tci_capgraph_live_arcs(&dstar);
  if (!rc) rc = tci_pack_trees_reported(&dstar, part->opt.k, cw, opt->progress, opt->progress_ctx, &pk, err);
  part->pack_maxflows = pk.maxflows;
  if (!rc) tci_progress(opt->progress, opt->progress_ctx, 0, 0, "forest: mapping trees to paths");
  if (!rc) rc = map_back(c, compute, &pk, &pools, &d, part, err);
  tci_packing_destroy(&pk);
  tci_pools_destroy(&pools);
  tci_capgraph_destroy(&d);
  tci_capgraph_destroy(&dstar);
  free(compute);
  free(units);
  free(cw);
  free(index);
  return rc;
}

/* Arc j of g^T is arc to_orig[j] of g reversed (same capacity); built by matching sorted
   lists, and checked. */
static int transpose_map(const tc_graph *g, const tc_graph *gt, int64_t **out, tc_error *err) {
  int64_t *map = malloc((size_t)(g->m ? g->m : 1) * sizeof *map);
  if (!map) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld arcs", (long long)g->m);
  /* g's arcs entering v, in in_arc order (by source, then capacity), are g^T's arcs leaving v
     in its (dst, cap) order. */
  int64_t j = 0;
  for (int32_t v = 0; v < g->n; v++)
    for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) map[j++] = g->in_arc[i];
  for (int64_t a = 0; a < gt->m; a++) {
    int64_t o = map[a];
    if (g->src[o] != gt->dst[a] || g->dst[o] != gt->src[a] || g->cap[o] != gt->cap[a]) {
      free(map);
      return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: the transpose's arcs do not match");
    }
  }
  *out = map;
  return TC_OK;
}

int tc_forest_build(const tc_graph *g, const tc_forest_options *opt, tc_forest *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (opt->coll != TC_COLL_ALLGATHER && opt->coll != TC_COLL_REDUCE_SCATTER && opt->coll != TC_COLL_ALLREDUCE)
    return tc_error_set(err, TC_EINPUT, "forestcoll: builds allgather, reduce-scatter and allreduce, not %s",
                        tc_collective_name(opt->coll));
  int rc = tc_forest_check_fabric(g, tc_graph_count_kind(g, TC_NODE_SWITCH) > 0, err);
  int64_t *node_w = NULL, total = 0;
  if (!rc) rc = tci_forest_weights(g, opt->weights, &node_w, &total, err);
  if (rc) return rc;
  out->coll = opt->coll;
  out->ncompute = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  out->nswitch = tc_graph_count_kind(g, TC_NODE_SWITCH);
  if (!tci_forest_weights_unit(g, opt->weights)) out->weights = node_w; /* the forest owns it now */
  if (opt->coll != TC_COLL_ALLGATHER) {
    tc_graph *gt = NULL;
    int64_t *map = NULL;
    rc = tc_graph_transpose(g, &gt, err);
    if (!rc) rc = transpose_map(g, gt, &map, err);
    part_ctx c = {gt, map, 1, out->weights, node_w};
    if (!rc) rc = build_part(&c, opt, &out->part[out->nparts++], err);
    free(map);
    tc_graph_destroy(gt);
  }
  if (!rc && opt->coll != TC_COLL_REDUCE_SCATTER) {
    part_ctx c = {g, NULL, 0, out->weights, node_w};
    rc = build_part(&c, opt, &out->part[out->nparts++], err);
  }
  if (!out->weights) free(node_w);
  if (!rc) tci_progress(opt->progress, opt->progress_ctx, 0, 0, "forest: verifying the trees");
  if (!rc) rc = tc_forest_verify(g, out, err);
  if (rc) tc_forest_destroy(out);
  return rc;
}
