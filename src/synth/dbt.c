/*
** dbt.c — the double binary tree (Sanders, Speck & Träff's two-tree algorithm [71], as NCCL
** uses it for allreduce; paper 000 §8.2 baseline "DBT"), with chunk pipelining.
**
** Trees. Tree positions 1..n form the in-order binary tree in which position p, with h
** trailing zero bits, hangs below the nearer of p - 2^h and p + 2^h that lies in 1..n (the
** one with fewer trailing zeros; neither: p is the root, the largest power of two <= n).
** Odd positions are exactly the leaves; the height is floor(log2 n) (the left spine 2^K,
** 2^(K-1), ..., 1). Tree 0 places position p on index p-1 and tree 1 on index p mod n: the
** interior nodes of tree 0 have odd indices and those of tree 1 even ones, so no node is
** interior in both — every node forwards (and reduces) for at most one tree, the property
** that lets both trees run at full speed at once.
** Layouts. Allreduce: n = N, index = node; shard k (half the data) belongs to tree k's
** root. Broadcast / reduce from R: the trees span the N-1 other nodes (index i is node
** R+1+i mod N) and R is the parent of both tree roots; both shards belong to R.
** Schedule (P chunks per shard, chunk c = [c, c+1) of P units): reduction up tree k — a
** node of height h (leaves 0) sends its partial sum of chunk c to its parent in step
** h+1+c, after all its children's chunk c arrived (their heights are < h); broadcast down
** tree k — the node at depth δ receives chunk c in step δ+c. A tree of height H takes
** H+P-1 steps each way; allreduce is reduction (steps 1..H+P-1) then broadcast.
** Links: a tree link uses one arc each way (tree k takes the (k mod m)-th of m parallel
** arcs, so the DBT's own topology, where a pair joined in both trees has two links, gives
** each tree its own port). Any graph with those arcs works, e.g. the complete graph.
** Guarantees: see baselines.h for T_L and tau; both follow from every arc carrying at most
** one chunk per step and every step being used.
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const DBT = "dbt";

/* Parent position of p in the in-order tree on 1..n, 0 at the root. */
static int64_t position_parent(int64_t p, int64_t n) {
  int64_t low = p & -p, left = p - low, right = p + low;
  int has_left = left >= 1, has_right = right <= n;
  if (!has_left && !has_right) return 0;
  if (!has_left) return right;
  if (!has_right) return left;
  return __builtin_ctzll((unsigned long long)left) < __builtin_ctzll((unsigned long long)right) ? left : right;
}

int tc_baseline_dbt_trees(int32_t n, int32_t root, int32_t *parent, tc_error *err) {
  if (n < 2) return tc_error_set(err, TC_EINPUT, "dbt: needs at least 2 nodes (got %d)", n);
  if (root >= n || root < -1) return tc_error_set(err, TC_EINPUT, "dbt: root %d outside 0..%d", root, n - 1);
  int32_t span = root < 0 ? n : n - 1; /* nodes the two trees are built on */
  for (int t = 0; t < 2; t++) {
    for (int64_t p = 1; p <= span; p++) {
      int64_t pp = position_parent(p, span);
      int64_t idx = t == 0 ? p - 1 : p % span, pidx = t == 0 ? pp - 1 : pp % span;
      int32_t v = (int32_t)(root < 0 ? idx : (root + 1 + idx) % n);
      int32_t pv = (int32_t)(root < 0 ? pidx : (root + 1 + pidx) % n);
      parent[(int64_t)t * n + v] = pp == 0 ? root : pv; /* a tree root hangs below R, or is the root (-1) */
    }
    if (root >= 0) parent[(int64_t)t * n + root] = -1;
  }
  return TC_OK;
}

int tc_baseline_dbt_topology(int32_t n, int32_t root, tc_graph **out, tc_error *err) {
  *out = NULL;
  int32_t *parent = malloc((size_t)2 * (n > 1 ? n : 1) * sizeof *parent);
  if (!parent) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = tc_baseline_dbt_trees(n, root, parent, err);
  tc_graph_builder b;
  memset(&b, 0, sizeof b);
  if (!rc) rc = tc_graph_builder_init(&b, n, err);
  for (int64_t i = 0; !rc && i < 2 * (int64_t)n; i++)
    if (parent[i] >= 0) rc = tc_graph_builder_add_edge(&b, i % n, parent[i], 1, err);
  free(parent);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

/* height[v] (leaves 0) and depth[v] (root 0) in the tree given by parent[0..n-1]. */
static void tree_levels(const int32_t *parent, int32_t n, int32_t *height, int32_t *depth) {
  for (int32_t v = 0; v < n; v++) {
    height[v] = 0;
    depth[v] = 0;
    for (int32_t u = parent[v]; u >= 0; u = parent[u]) depth[v]++;
  }
  for (int32_t v = 0; v < n; v++) /* walk up from every node, raising the heights it passes */
    for (int32_t u = v, h = 0; parent[u] >= 0; u = parent[u]) {
      h++;
      if (height[parent[u]] < h) height[parent[u]] = h;
    }
}

/* The arc tree t uses from u to v. */
static int tree_arc(const tc_graph *g, int t, int32_t u, int32_t v, int64_t *arc, tc_error *err) {
  tc_bl_bundle b;
  int rc = tci_bl_bundle_find(g, u, v, "dbt", &b, err);
  if (rc) return rc;
  if (b.count == 0)
    return tc_error_set(err, TC_EINPUT,
                        "dbt: needs a link between %d and %d for tree %d (the graph has no arc %d -> %d)", u, v, t, u,
                        v);
  *arc = b.first + t % b.count;
  return TC_OK;
}

typedef struct dbt_plan {
  const int32_t *parent; /* 2n */
  const int32_t *height; /* 2n */
  const int32_t *depth;  /* 2n */
  int32_t chunks;
} dbt_plan;

/* Every non-root node sends chunk c of shard t to its parent in step height+1+c. */
static int add_reduction(tc_schedule *s, const tc_graph *g, const dbt_plan *p, tc_error *err) {
  int32_t n = g->n;
  int rc = TC_OK;
  for (int t = 0; t < 2 && !rc; t++)
    for (int32_t v = 0; v < n && !rc; v++) {
      int32_t up = p->parent[t * n + v];
      int64_t arc = 0;
      if (up < 0) continue;
      rc = tree_arc(g, t, v, up, &arc, err);
      for (int32_t c = 0; c < p->chunks && !rc; c++)
        rc = tc_schedule_add(s, t, arc, p->height[t * n + v] + 1 + c, c, c + 1, err);
    }
  return rc;
}

/* Every non-root node receives chunk c of shard t from its parent in step step0+depth+c. */
static int add_broadcast(tc_schedule *s, const tc_graph *g, const dbt_plan *p, int32_t step0, tc_error *err) {
  int32_t n = g->n;
  int rc = TC_OK;
  for (int t = 0; t < 2 && !rc; t++)
    for (int32_t v = 0; v < n && !rc; v++) {
      int32_t up = p->parent[t * n + v];
      int64_t arc = 0;
      if (up < 0) continue;
      rc = tree_arc(g, t, up, v, &arc, err);
      for (int32_t c = 0; c < p->chunks && !rc; c++)
        rc = tc_schedule_add(s, t, arc, step0 + p->depth[t * n + v] + c, c, c + 1, err);
    }
  return rc;
}

static int check_request(const tc_graph *g, tc_collective coll, int32_t root, int32_t chunks, tc_error *err) {
  if (g->n < 2) return tc_error_set(err, TC_EINPUT, "dbt: needs at least 2 nodes (got %d)", g->n);
  if (coll != TC_COLL_ALLREDUCE && coll != TC_COLL_BROADCAST && coll != TC_COLL_REDUCE)
    return tc_error_set(err, TC_EINPUT, "dbt: supports allreduce, broadcast and reduce (not %s)",
                        tc_collective_name(coll));
  if (coll == TC_COLL_ALLREDUCE && root != -1)
    return tc_error_set(err, TC_EINPUT, "dbt: allreduce has no root (the two tree roots own the halves)");
  if (coll != TC_COLL_ALLREDUCE && (root < 0 || root >= g->n))
    return tc_error_set(err, TC_EINPUT, "dbt: %s needs a root in 0..%d (got %d)", tc_collective_name(coll), g->n - 1,
                        root);
  if (chunks < 1) return tc_error_set(err, TC_EINPUT, "dbt: chunks per shard must be >= 1 (got %d)", chunks);
  return tci_bl_check_transfers(DBT, 4 * (int64_t)g->n, chunks, 1, err); /* 2 trees, up and down */
}

/* Build the schedule for the planned trees. */
static int dbt_schedule(const tc_graph *g, tc_collective coll, int32_t root, const dbt_plan *p, tc_schedule *out,
                        tc_error *err) {
  int32_t n = g->n, owner[2];
  for (int t = 0; t < 2; t++) {
    owner[t] = root;
    for (int32_t v = 0; root < 0 && v < n; v++)
      if (p->parent[t * n + v] < 0) owner[t] = v;
  }
  int rc = tc_schedule_init_owned(out, coll, n, 2, owner, p->chunks, DBT, err);
  if (!rc && coll != TC_COLL_BROADCAST) rc = add_reduction(out, g, p, err);
  if (!rc && coll != TC_COLL_REDUCE) {
    int32_t rs = coll == TC_COLL_ALLREDUCE ? out->steps : 0;
    if (coll == TC_COLL_ALLREDUCE) out->rs_steps = rs;
    rc = add_broadcast(out, g, p, rs, err);
  }
  return rc;
}

int tc_baseline_dbt(const tc_graph *g, tc_collective coll, int32_t root, int32_t chunks, tc_schedule *out,
                    tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_request(g, coll, root, chunks, err);
  if (rc) return rc;
  int32_t n = g->n, *buf = malloc((size_t)6 * n * sizeof *buf);
  if (!buf) return tc_error_set(err, TC_ENOMEM, "out of memory");
  dbt_plan p = {buf, buf + 2 * n, buf + 4 * n, chunks};
  rc = tc_baseline_dbt_trees(n, root, buf, err);
  if (!rc)
    for (int t = 0; t < 2; t++) tree_levels(buf + t * n, n, buf + 2 * n + t * n, buf + 4 * n + t * n);
  if (!rc) rc = dbt_schedule(g, coll, root, &p, out, err);
  free(buf);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
