/*
** jellyfish.c — Jellyfish: a random d-regular simple undirected graph on n nodes (Singla
** et al.; the "random regular graph" baseline of paper 003 §5.4 / Fig. 10).
**
** Guarantees: n nodes, every node has exactly d links to d distinct other nodes (no
** self-loops, no parallel links), stored as opposite arc pairs (bidirectional), connected,
** unit capacities. The result is a deterministic function of (n, d, seed): all randomness
** comes from src/core/rng.h seeded with `seed`, so every platform builds the same graph.
**
** Method, by regime:
**   - sparse (2d < n, d >= 3): configuration model. The n*d ports ("stubs") are paired by
**     a uniformly random perfect matching; each self-loop and each repeated link is then
**     removed by a random double-edge switch {u,v},{x,y} -> {u,x},{v,y}, accepted only if
**     it creates no loop and no repeated link. A pairing whose defects cannot be switched
**     away within a fixed budget is discarded and redrawn; a simple but disconnected result
**     is discarded too, and the next draw continues the same random stream.
**   - d == 2 (2d < n): the only connected 2-regular graphs are Hamiltonian cycles, so the
**     graph is the cycle through a uniformly random permutation of the nodes (exactly
**     uniform, and no retries: a random 2-regular graph is rarely connected).
**   - dense (2d >= n): a random k-regular graph with k = n-1-d is drawn as above (k < d,
**     connectivity not required) and complemented. Every graph with minimum degree >= n/2
**     is connected (two non-adjacent nodes have a common neighbour), so no retry is needed;
**     this also covers the complete graph (k = 0) and keeps the switching step away from
**     dense graphs, where valid switches are rare.
**
** Distribution caveat: a uniform pairing conditioned on being simple (and connected) is
** exactly uniform over such graphs, since each corresponds to (d!)^n pairings. Repairing
** the defects by switches instead of rejecting the whole pairing (rejection would need
** about e^{(d^2-1)/4} draws, ~e^16 for d = 8) biases the result by an amount we have not
** quantified; it touches only the O(d^2) expected defects, so it should be small when d
** is much smaller than n. The graphs are fine as "random regular" baselines, not as exact
** uniform samples.
**
** Bounded work: at most JELLYFISH_MAX_DRAWS pairings in total, each repaired in at most
** n*d/2 + 1 passes; exhausting the draws returns TC_EFAIL with a message naming the
** parameters (it never hangs). Expected time O(n*d) plus O(d) per switch attempt.
**
** Rejected: d < 1, d >= n, n*d odd, d == 1 with n > 2 (a perfect matching is connected
** only on 2 nodes): TC_EINPUT. n > TC_MAX_NODES or n*d > TC_MAX_ARCS: TC_ERANGE, before
** anything is allocated.
*/
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "topo_util.h"
#include "topocoll/topo.h"

/* Pairings drawn in total before giving up. For d >= 3 a draw fails (defects that resist
   switching, or a disconnected result) with small probability, so this is reached only
   by pathological tiny cases, if ever. */
#define JELLYFISH_MAX_DRAWS 200
/* Random partners tried for one defect before moving on to the next defect. */
#define JELLYFISH_TRIES_PER_DEFECT 64

/* A perfect matching of the n*d stubs; stub s belongs to node s / d. */
typedef struct stub_pairing {
  int64_t n, d, stubs;
  int32_t *mate;    /* mate[s] = the stub paired with s */
  int32_t *scratch; /* stubs entries, for shuffling */
  int64_t *stamp;   /* n entries: scan marks for repair_node */
  int64_t clock;    /* last mark handed out */
} stub_pairing;

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "jellyfish: out of memory"); }

static void pairing_free(stub_pairing *p) {
  free(p->mate);
  free(p->scratch);
  free(p->stamp);
}

static int pairing_init(stub_pairing *p, int64_t n, int64_t d, tc_error *err) {
  p->n = n;
  p->d = d;
  p->stubs = n * d;
  size_t room = (size_t)(p->stubs ? p->stubs : 1);
  p->mate = malloc(room * sizeof *p->mate);
  p->scratch = malloc(room * sizeof *p->scratch);
  p->stamp = calloc((size_t)n, sizeof *p->stamp);
  p->clock = 0;
  if (!p->mate || !p->scratch || !p->stamp) {
    pairing_free(p);
    return oom(err);
  }
  return TC_OK;
}

static int32_t stub_node(const stub_pairing *p, int64_t s) { return (int32_t)(s / p->d); }
static int32_t stub_neighbour(const stub_pairing *p, int64_t s) { return stub_node(p, p->mate[s]); }

/* Uniform random perfect matching: shuffle the stubs and pair them off in order. */
static void draw_pairing(stub_pairing *p, tc_rng *rng) {
  tci_topo_random_permutation(p->scratch, p->stubs, rng);
  for (int64_t i = 0; i + 1 < p->stubs; i += 2) {
    p->mate[p->scratch[i]] = p->scratch[i + 1];
    p->mate[p->scratch[i + 1]] = p->scratch[i];
  }
}

/* 1 if node u has a link to node x (O(d) scan of u's stubs). */
static int linked(const stub_pairing *p, int32_t u, int32_t x) {
  for (int64_t s = (int64_t)u * p->d; s < (int64_t)(u + 1) * p->d; s++)
    if (stub_neighbour(p, s) == x) return 1;
  return 0;
}

/* One random switch attempt for the link at stub s: {u,v},{x,y} -> {u,x},{v,y}. Returns 1
   if it was applied. Rejected when it would create a loop or a link that already exists
   (checked against the current links, which is conservative but always safe). */
static int try_switch(stub_pairing *p, int64_t s, tc_rng *rng) {
  int64_t t = p->mate[s];
  int64_t q = (int64_t)tci_rng_below(rng, (uint64_t)p->stubs);
  int64_t r = p->mate[q];
  if (q == s || q == t) return 0;
  int32_t u = stub_node(p, s), v = stub_node(p, t), x = stub_node(p, q), y = stub_node(p, r);
  if (u == x || v == y) return 0;
  if (u == v && x == y) return 0; /* two loops would become one doubled link */
  if (linked(p, u, x) || linked(p, v, y)) return 0;
  p->mate[s] = (int32_t)q;
  p->mate[q] = (int32_t)s;
  p->mate[t] = (int32_t)r;
  p->mate[r] = (int32_t)t;
  return 1;
}

/* Switches away the defects at node u: stubs leading to u itself (half of a loop) or to
   a neighbour already met among u's earlier stubs (a repeated link). `stamp` marks the
   neighbours met in the current scan. The scan restarts after each successful switch,
   because a switch changes u's neighbour list; a defect that resists all its tries is
   counted in *unfixed and left for the next pass. */
static void repair_node(stub_pairing *p, int32_t u, tc_rng *rng, int64_t *fixed, int64_t *unfixed) {
  int rescan = 1;
  while (rescan) {
    rescan = 0;
    *unfixed = 0;
    int64_t mark = ++p->clock;
    for (int64_t s = (int64_t)u * p->d; s < (int64_t)(u + 1) * p->d && !rescan; s++) {
      int32_t v = stub_neighbour(p, s);
      if (v != u && p->stamp[v] != mark) {
        p->stamp[v] = mark;
        continue;
      }
      for (int k = 0; k < JELLYFISH_TRIES_PER_DEFECT && !rescan; k++) rescan = try_switch(p, s, rng);
      if (rescan) ++*fixed;
      else ++*unfixed;
    }
  }
}

/* Switches defects away. Returns 1 when the pairing is simple, 0 when a full pass made
   no progress (the caller then redraws). A successful switch removes at least one defect
   and creates none, so a node scanned clean stays clean, a pass with nothing left unfixed
   proves the pairing simple, and there are at most stubs/2 + 1 passes. */
static int make_simple(stub_pairing *p, tc_rng *rng) {
  for (;;) {
    int64_t fixed = 0, unfixed = 0;
    for (int32_t u = 0; u < p->n; u++) {
      int64_t left = 0;
      repair_node(p, u, rng, &fixed, &left);
      unfixed += left;
    }
    if (unfixed == 0) return 1;
    if (fixed == 0) return 0;
  }
}

/* A simple pairing, redrawn until simple; each draw spends one unit of *draws_left. */
static int draw_simple_pairing(stub_pairing *p, tc_rng *rng, int *draws_left) {
  while (*draws_left > 0) {
    --*draws_left;
    draw_pairing(p, rng);
    if (make_simple(p, rng)) return 1;
  }
  return 0;
}

static int build_from_pairing(const stub_pairing *p, tc_graph **out, tc_error *err) {
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, p->n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, p->stubs, err);
  for (int64_t s = 0; s < p->stubs && !rc; s++)
    if (s < p->mate[s]) rc = tc_graph_builder_add_edge(&b, stub_node(p, s), stub_neighbour(p, s), 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

static int give_up(int64_t n, int64_t d, tc_error *err) {
  return tc_error_set(err, TC_EFAIL,
                      "jellyfish: no simple connected %lld-regular graph on %lld nodes after %d random draws",
                      (long long)d, (long long)n, JELLYFISH_MAX_DRAWS);
}

/* Sparse regime (d >= 3, 2d < n): simple pairings until one is connected. */
static int sparse_jellyfish(int64_t n, int64_t d, tc_rng *rng, tc_graph **out, tc_error *err) {
  stub_pairing p;
  int rc = pairing_init(&p, n, d, err);
  if (rc) return rc;
  int draws_left = JELLYFISH_MAX_DRAWS;
  while (draw_simple_pairing(&p, rng, &draws_left)) {
    rc = build_from_pairing(&p, out, err);
    if (rc) break;
    if (tc_graph_is_strongly_connected(*out)) break;
    tc_graph_destroy(*out);
    *out = NULL;
  }
  pairing_free(&p);
  if (rc) return rc;
  return *out ? TC_OK : give_up(n, d, err);
}

/* d == 2: the cycle through a random permutation of the nodes. */
static int cycle_jellyfish(int64_t n, tc_rng *rng, tc_graph **out, tc_error *err) {
  int32_t *order = malloc((size_t)n * sizeof *order);
  if (!order) return oom(err);
  tci_topo_random_permutation(order, n, rng);
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, 2 * n, err);
  for (int64_t i = 0; i < n && !rc; i++) rc = tc_graph_builder_add_edge(&b, order[i], order[(i + 1) % n], 1, err);
  free(order);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

/* Links every pair of distinct nodes that the pairing does NOT link. `mark[v] == u`
   flags v as a neighbour of u in the sparse graph. */
static int add_complement_edges(const stub_pairing *p, tc_graph_builder *b, int32_t *mark, tc_error *err) {
  for (int64_t v = 0; v < p->n; v++) mark[v] = -1;
  for (int32_t u = 0; u < p->n; u++) {
    for (int64_t s = (int64_t)u * p->d; s < (int64_t)(u + 1) * p->d; s++) mark[stub_neighbour(p, s)] = u;
    for (int32_t v = u + 1; v < p->n; v++) {
      if (mark[v] == u) continue;
      int rc = tc_graph_builder_add_edge(b, u, v, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

/* Dense regime (2d >= n): complement of a random (n-1-d)-regular simple graph. */
static int dense_jellyfish(int64_t n, int64_t d, tc_rng *rng, tc_graph **out, tc_error *err) {
  int64_t k = n - 1 - d;
  stub_pairing p;
  int rc = pairing_init(&p, n, k, err);
  if (rc) return rc;
  /* k == 0 has no stubs: the empty pairing is already simple. */
  int draws_left = JELLYFISH_MAX_DRAWS;
  if (k > 0 && !draw_simple_pairing(&p, rng, &draws_left)) {
    pairing_free(&p);
    return give_up(n, d, err);
  }
  int32_t *mark = malloc((size_t)n * sizeof *mark);
  if (!mark) {
    pairing_free(&p);
    return oom(err);
  }
  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, n * d, err);
  if (!rc) rc = add_complement_edges(&p, &b, mark, err);
  free(mark);
  pairing_free(&p);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

static int check_jellyfish_params(int64_t n, int64_t d, tc_error *err) {
  if (d < 1) return tc_error_set(err, TC_EINPUT, "jellyfish: d must be >= 1 (got %lld)", (long long)d);
  if (d >= n)
    return tc_error_set(err, TC_EINPUT, "jellyfish: d must be < n (got d = %lld, n = %lld)",
                        (long long)d, (long long)n);
  if (n > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "jellyfish: n = %lld exceeds the node limit %d",
                        (long long)n, TC_MAX_NODES);
  /* d < n <= TC_MAX_NODES: the product below fits easily in int64. */
  if (n * d > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "jellyfish: n*d = %lld arcs exceeds the arc limit %lld",
                        (long long)(n * d), (long long)TC_MAX_ARCS);
  if ((n * d) % 2)
    return tc_error_set(err, TC_EINPUT, "jellyfish: n*d must be even (got n = %lld, d = %lld)",
                        (long long)n, (long long)d);
  if (d == 1 && n > 2)
    return tc_error_set(err, TC_EINPUT,
                        "jellyfish: a 1-regular graph is connected only for n = 2 (got n = %lld)",
                        (long long)n);
  return TC_OK;
}

int tc_topo_jellyfish(int64_t n, int64_t d, uint64_t seed, tc_graph **out, tc_error *err) {
  *out = NULL;
  int rc = check_jellyfish_params(n, d, err);
  if (rc) return rc;
  tc_rng rng;
  tci_rng_seed(&rng, seed);
  if (2 * d >= n) return dense_jellyfish(n, d, &rng, out, err);
  if (d == 2) return cycle_jellyfish(n, &rng, out, err);
  return sparse_jellyfish(n, d, &rng, out, err);
}
