/*
** iso.c — isomorphism and reverse symmetry of topocoll multigraphs (contract in iso.h).
**
** WHAT IT DOES
**   tc_graph_isomorphism() decides whether two tc_graphs are isomorphic as directed
**   multigraphs with capacities and node kinds, and returns the node map. The search is
**   done by BLISS (through igraph 0.10), which only knows simple coloured digraphs, so
**   each tc_graph is first encoded as one:
**
**     - every node becomes a vertex whose colour stands for (node kind, multiset of its
**       self-loop capacities); the loops themselves are dropped;
**     - every bundle of arcs u->v (u != v) that is exactly one arc of capacity 1 becomes a
**       plain edge u->v;
**     - every other bundle (parallel arcs, or any capacity != 1) becomes a path
**       u -> b -> v through a new "bundle vertex" b whose colour stands for the multiset
**       of capacities of the bundle.
**
**   Colours are numbered jointly for both graphs (so equal meanings get equal numbers)
**   and node colours sort before bundle colours, so BLISS can only map nodes to nodes
**   and bundles to bundles of the same multiset. Hence the encodings are isomorphic
**   exactly when the tc_graphs are, and the node part of an encoding isomorphism is a
**   tc_graph isomorphism. A simple unit-capacity graph has no bundle vertices at all:
**   its encoding is the graph itself (the fast path).
**
**   Cheap necessary conditions are tested before BLISS runs: equal n and m, equal
**   bundle counts, equal sorted (colour, out-degree, in-degree) node profiles and equal
**   sorted bundle colours.
**
**   tc_graph_automorphism_generators() asks BLISS for generators of G's automorphism group
**   on the same encoding (so they respect multiplicities, capacities and kinds) and checks
**   every one before it is reported.
**
**   tc_graph_reverse_symmetry() is isomorphism between G and its transpose; a
**   bidirectional G equals its transpose, so the identity is returned without search.
**
**   tc_graph_check_isomorphism() is an independent checker that does not use igraph:
**   it compares, for every node u, the sorted list of (map(v), capacity) over the
**   out-arcs u->v of g1 with the out-list of map(u) in g2 (already sorted by the graph
**   builder). Cost O(n + m log d) time and O(n + d) memory, d the largest out-degree.
**
** GUARANTEES
**   - found = 1 is reported only for a map that tc_graph_check_isomorphism accepts; a map
**     from igraph that fails the check is reported as TC_EFAIL, never passed on.
**   - found = 0 rests on BLISS's canonical labelling being correct (there is no cheap
**     certificate of non-isomorphism); tests cross-check it against brute force.
**   - `map` is written only when found = 1.
**   - No igraph object outlives a call; every path frees what it made.
**
** IGRAPH AND THREADS
**   igraph's error handler, warning handler and cleanup stack are process-wide unless the
**   library was built thread-safe (IGRAPH_THREAD_SAFE; Debian's 0.10 is not). While BLISS
**   runs we install the "ignore" handlers, so an igraph failure comes back as an error
**   code (default: abort the program; warnings: print), and restore the caller's handlers
**   afterwards. When igraph is not thread-safe those steps and the BLISS call are
**   serialised by one mutex: the only file-level state here, and it holds no data.
**   Other modules that call igraph concurrently without this mutex are not protected.
**
** LIMITS
**   BLISS is exponential in the worst case and grows faster than linearly on the families
**   topocoll builds. Reverse symmetry measured (one core, RelWithDebInfo): Π_{4,10^4}
**   0.06 s, DBJ(2,10) 0.002 s, directed 32^3 torus 0.4 s, Π_{4,10^5} 3 s, DBJ(2,17)
**   0.6 s, DBJ(2,20) 13 s, DBJ(4,10) 50-80 s, Π_{4,3*10^5} 40 s. There is no timeout and
**   no progress report while BLISS runs. The checker alone takes 0.15 s at 4*10^6 arcs.
*/
#include "topocoll/iso.h"

#include <igraph.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "out of memory"); }

/* ---------------------------------------------------------------------------------
** Arc bundles. Arcs are sorted by (src, dst, cap), so all arcs u->v form one run whose
** capacities are already in ascending order: a run is its own capacity multiset.
*/

/* One past the last arc of the run of arcs that share arc a's (src, dst). */
static int64_t bundle_end(const tc_graph *g, int64_t a) {
  int64_t b = a + 1;
  while (b < g->m && g->src[b] == g->src[a] && g->dst[b] == g->dst[a]) b++;
  return b;
}

/* A single unit arc needs no bundle vertex: a plain edge says everything about it. */
static int bundle_is_plain(const tc_graph *g, int64_t first, int64_t end) {
  return end - first == 1 && g->cap[first] == 1;
}

/* The run of self-loops at u (possibly empty): out-arcs are ordered by destination. */
static void find_loops(const tc_graph *g, int32_t u, int64_t *first, int64_t *len) {
  int64_t a = g->out_off[u], end = g->out_off[u + 1];
  while (a < end && g->dst[a] < u) a++;
  int64_t b = a;
  while (b < end && g->dst[b] == u) b++;
  *first = a;
  *len = b - a;
}

/* ---------------------------------------------------------------------------------
** The simple coloured digraph handed to BLISS: vertices 0..n-1 are the nodes, vertices
** n..n+n_bundles-1 the bundle vertices, in the order the arc scan meets the bundles.
*/
typedef struct encoding {
  const tc_graph *g;
  int64_t n_bundles;
  int64_t *bundle_first;      /* first arc of each subdivided bundle */
  int64_t *bundle_len;
  int64_t n_edges;            /* edges of the encoding: plain arcs + 2 per bundle */
  igraph_integer_t *colour;   /* n + n_bundles vertex colours */
} encoding;

static void encoding_free(encoding *e) {
  free(e->bundle_first);
  free(e->bundle_len);
  free(e->colour);
  memset(e, 0, sizeof *e);
}

/* Find the subdivided bundles and count the edges of the encoding. Two passes over the
   arcs: one to size the arrays, one to fill them. */
static int encoding_scan(const tc_graph *g, encoding *e, tc_error *err) {
  memset(e, 0, sizeof *e);
  e->g = g;
  int64_t bundles = 0, edges = 0;
  for (int64_t a = 0, b; a < g->m; a = b) {
    b = bundle_end(g, a);
    if (g->src[a] == g->dst[a]) continue; /* loops live in the node colour */
    if (bundle_is_plain(g, a, b)) edges += 1;
    else { bundles++; edges += 2; }
  }
  if ((int64_t)g->n + bundles > INT32_MAX || 2 * edges > IGRAPH_INTEGER_MAX)
    return tc_error_set(err, TC_ERANGE, "graph too large to encode for BLISS (%d nodes, %lld bundles)",
                        g->n, (long long)bundles);
  e->n_bundles = bundles;
  e->n_edges = edges;
  e->bundle_first = malloc(((size_t)bundles + 1) * sizeof *e->bundle_first);
  e->bundle_len = malloc(((size_t)bundles + 1) * sizeof *e->bundle_len);
  e->colour = malloc(((size_t)g->n + (size_t)bundles + 1) * sizeof *e->colour);
  if (!e->bundle_first || !e->bundle_len || !e->colour) { encoding_free(e); return oom(err); }
  int64_t k = 0;
  for (int64_t a = 0, b; a < g->m; a = b) {
    b = bundle_end(g, a);
    if (g->src[a] == g->dst[a] || bundle_is_plain(g, a, b)) continue;
    e->bundle_first[k] = a;
    e->bundle_len[k] = b - a;
    k++;
  }
  return TC_OK;
}

/* ---------------------------------------------------------------------------------
** Joint colouring. Every node and bundle of both graphs gets a key (tag, capacity
** multiset); sorting all keys together and numbering the distinct ones gives both graphs
** the same colour for the same meaning. Tags order node colours before bundle colours.
*/
enum { TAG_BUNDLE = 2 }; /* tags 0 and 1 are TC_NODE_COMPUTE and TC_NODE_SWITCH */

typedef struct colour_key {
  int32_t tag;
  int64_t len;
  const int64_t *cap;         /* len capacities, ascending */
  igraph_integer_t *slot;     /* where this key's colour number is written */
} colour_key;

static int compare_keys(const void *pa, const void *pb) {
  const colour_key *a = pa, *b = pb;
  if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
  if (a->len != b->len) return a->len < b->len ? -1 : 1;
  for (int64_t i = 0; i < a->len; i++)
    if (a->cap[i] != b->cap[i]) return a->cap[i] < b->cap[i] ? -1 : 1;
  return 0;
}

static colour_key *add_keys(const encoding *e, colour_key *k) {
  const tc_graph *g = e->g;
  for (int32_t u = 0; u < g->n; u++, k++) {
    int64_t first, len;
    find_loops(g, u, &first, &len);
    *k = (colour_key){g->kind[u], len, g->cap + first, e->colour + u};
  }
  for (int64_t i = 0; i < e->n_bundles; i++, k++)
    *k = (colour_key){TAG_BUNDLE, e->bundle_len[i], g->cap + e->bundle_first[i], e->colour + g->n + i};
  return k;
}

static int assign_joint_colours(encoding *e1, encoding *e2, tc_error *err) {
  size_t total = (size_t)e1->g->n + (size_t)e1->n_bundles + (size_t)e2->g->n + (size_t)e2->n_bundles;
  colour_key *keys = malloc((total + 1) * sizeof *keys);
  if (!keys) return oom(err);
  add_keys(e2, add_keys(e1, keys));
  qsort(keys, total, sizeof *keys, compare_keys);
  igraph_integer_t colour = 0;
  for (size_t i = 0; i < total; i++) {
    if (i > 0 && compare_keys(&keys[i - 1], &keys[i]) != 0) colour++;
    *keys[i].slot = colour;
  }
  free(keys);
  return TC_OK;
}

/* ---------------------------------------------------------------------------------
** Quick rejection: invariants that any isomorphism preserves, compared as sorted lists.
*/
static int compare_int64_triples(const void *pa, const void *pb) {
  const int64_t *a = pa, *b = pb;
  for (int i = 0; i < 3; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

static int compare_int64(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* Sorted (colour, out-degree, in-degree) per node, then sorted bundle colours. */
static int64_t *invariant_profile(const encoding *e) {
  const tc_graph *g = e->g;
  size_t n = (size_t)g->n, b = (size_t)e->n_bundles;
  int64_t *p = malloc((3 * n + b + 1) * sizeof *p);
  if (!p) return NULL;
  for (size_t u = 0; u < n; u++) {
    p[3 * u] = e->colour[u];
    p[3 * u + 1] = tc_graph_out_degree(g, (int32_t)u);
    p[3 * u + 2] = tc_graph_in_degree(g, (int32_t)u);
  }
  qsort(p, n, 3 * sizeof *p, compare_int64_triples);
  for (size_t i = 0; i < b; i++) p[3 * n + i] = e->colour[n + i];
  qsort(p + 3 * n, b, sizeof *p, compare_int64);
  return p;
}

/* Sets *same to whether the profiles agree (callers have checked n, m, bundle counts). */
static int profiles_agree(const encoding *e1, const encoding *e2, int *same, tc_error *err) {
  int64_t *p1 = invariant_profile(e1), *p2 = invariant_profile(e2);
  if (!p1 || !p2) { free(p1); free(p2); return oom(err); }
  size_t len = 3 * (size_t)e1->g->n + (size_t)e1->n_bundles;
  *same = memcmp(p1, p2, len * sizeof *p1) == 0;
  free(p1);
  free(p2);
  return TC_OK;
}

/* ---------------------------------------------------------------------------------
** The independent checker.
*/
typedef struct image_arc {
  int32_t dst;
  int64_t cap;
} image_arc;

static int compare_image_arcs(const void *pa, const void *pb) {
  const image_arc *a = pa, *b = pb;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  return (a->cap > b->cap) - (a->cap < b->cap);
}

/* Out-lists are short in every topology we build: insertion sort beats qsort's call
   overhead there; long lists (switch nodes) fall back to qsort. */
static void sort_image_arcs(image_arc *buf, int64_t len) {
  if (len > 16) { qsort(buf, (size_t)len, sizeof *buf, compare_image_arcs); return; }
  for (int64_t i = 1; i < len; i++) {
    image_arc x = buf[i];
    int64_t j = i;
    for (; j > 0 && compare_image_arcs(&buf[j - 1], &x) > 0; j--) buf[j] = buf[j - 1];
    buf[j] = x;
  }
}

/* map sends u's out-arcs onto map(u)'s out-arcs, as multisets of (head, capacity)? */
static int out_list_maps_onto(const tc_graph *g1, const tc_graph *g2, const int32_t *map, int32_t u,
                              image_arc *buf) {
  int64_t first = g1->out_off[u], len = tc_graph_out_degree(g1, u);
  int32_t w = map[u];
  if (tc_graph_out_degree(g2, w) != len) return 0;
  for (int64_t i = 0; i < len; i++) buf[i] = (image_arc){map[g1->dst[first + i]], g1->cap[first + i]};
  sort_image_arcs(buf, len);
  int64_t base = g2->out_off[w];
  for (int64_t i = 0; i < len; i++)
    if (buf[i].dst != g2->dst[base + i] || buf[i].cap != g2->cap[base + i]) return 0;
  return 1;
}

/* 1: isomorphism; 0: not; -1: out of memory (so callers can tell the two apart). */
static int check_map(const tc_graph *g1, const tc_graph *g2, const int32_t *map) {
  if (g1->n != g2->n || g1->m != g2->m) return 0;
  int32_t n = g1->n;
  uint8_t *hit = calloc((size_t)n + 1, 1);
  image_arc *buf = malloc(((size_t)tc_graph_max_out_degree(g1) + 1) * sizeof *buf);
  int ok = hit && buf ? 1 : -1;
  for (int32_t u = 0; ok == 1 && u < n; u++) {
    int32_t w = map[u];
    if (w < 0 || w >= n || hit[w] || g1->kind[u] != g2->kind[w]) ok = 0;
    else hit[w] = 1;
  }
  for (int32_t u = 0; ok == 1 && u < n; u++) ok = out_list_maps_onto(g1, g2, map, u, buf);
  free(hit);
  free(buf);
  return ok;
}

int tc_graph_check_isomorphism(const tc_graph *g1, const tc_graph *g2, const int32_t *map) {
  if (!g1 || !g2 || (!map && g1->n > 0)) return 0;
  /* Out of memory counts as "not verified": the checker never vouches for what it
     could not inspect. */
  return check_map(g1, g2, map) == 1;
}

/* ---------------------------------------------------------------------------------
** igraph side: build the encodings and run BLISS with our handlers installed.
*/
#if !IGRAPH_THREAD_SAFE
static pthread_mutex_t igraph_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static int igraph_failure(igraph_error_t code, tc_error *err) {
  if (code == IGRAPH_ENOMEM) return tc_error_set(err, TC_ENOMEM, "out of memory inside igraph");
  return tc_error_set(err, TC_EFAIL, "igraph failed during isomorphism search: %s", igraph_strerror(code));
}

/* Edge list of the encoding: plain arcs as they are, bundles as two edges through their
   bundle vertex (numbered in the order encoding_scan met them). */
static igraph_integer_t *encoding_edge_list(const encoding *e) {
  const tc_graph *g = e->g;
  igraph_integer_t *ends = malloc(((size_t)e->n_edges * 2 + 1) * sizeof *ends), *p = ends;
  if (!ends) return NULL;
  igraph_integer_t bundle_vertex = g->n;
  for (int64_t a = 0, b; a < g->m; a = b) {
    b = bundle_end(g, a);
    if (g->src[a] == g->dst[a]) continue;
    if (bundle_is_plain(g, a, b)) {
      *p++ = g->src[a];
      *p++ = g->dst[a];
    } else {
      *p++ = g->src[a];
      *p++ = bundle_vertex;
      *p++ = bundle_vertex++;
      *p++ = g->dst[a];
    }
  }
  return ends;
}

static igraph_error_t make_igraph(const encoding *e, const igraph_integer_t *ends, igraph_t *out) {
  /* igraph's view() fills a struct it takes by const pointer: zero it to keep the
     compiler's uninitialised-read analysis (and readers) at ease. */
  igraph_vector_int_t edges = {0};
  igraph_vector_int_view(&edges, ends, 2 * (igraph_integer_t)e->n_edges);
  return igraph_create(out, &edges, (igraph_integer_t)e->g->n + (igraph_integer_t)e->n_bundles,
                       IGRAPH_DIRECTED);
}

/* Runs BLISS on the two encodings; on *iso, node_map[u] (u < n) is the image of node u. */
static igraph_error_t bliss_on_encodings(const encoding *e1, const igraph_integer_t *ends1,
                                         const encoding *e2, const igraph_integer_t *ends2,
                                         igraph_bool_t *iso, int32_t *node_map) {
  igraph_integer_t vertices = (igraph_integer_t)e1->g->n + (igraph_integer_t)e1->n_bundles;
  igraph_vector_int_t colour1 = {0}, colour2 = {0}, map12; /* views: see make_igraph */
  igraph_vector_int_view(&colour1, e1->colour, vertices);
  igraph_vector_int_view(&colour2, e2->colour, vertices);
  igraph_t ig1, ig2;
  igraph_error_t rc = make_igraph(e1, ends1, &ig1);
  if (rc != IGRAPH_SUCCESS) return rc;
  rc = make_igraph(e2, ends2, &ig2);
  if (rc != IGRAPH_SUCCESS) { igraph_destroy(&ig1); return rc; }
  rc = igraph_vector_int_init(&map12, 0);
  if (rc == IGRAPH_SUCCESS) {
    /* The splitting heuristics F, FL, FLM and FSM ran within 15% of each other on Kautz,
       de Bruijn and torus graphs; FL is igraph's suggested default. */
    rc = igraph_isomorphic_bliss(&ig1, &ig2, &colour1, &colour2, iso, &map12, NULL, IGRAPH_BLISS_FL,
                                 NULL, NULL);
    if (rc == IGRAPH_SUCCESS && *iso)
      for (int32_t u = 0; u < e1->g->n; u++) node_map[u] = (int32_t)VECTOR(map12)[u];
    igraph_vector_int_destroy(&map12);
  }
  igraph_destroy(&ig1);
  igraph_destroy(&ig2);
  return rc;
}

/* bliss_on_encodings with igraph's process-wide handlers set to "return the code" for the
   duration of the call, and restored after it. */
static igraph_error_t bliss_guarded(const encoding *e1, const igraph_integer_t *ends1, const encoding *e2,
                                    const igraph_integer_t *ends2, igraph_bool_t *iso, int32_t *node_map) {
#if !IGRAPH_THREAD_SAFE
  pthread_mutex_lock(&igraph_lock);
#endif
  igraph_error_handler_t *old_error = igraph_set_error_handler(igraph_error_handler_ignore);
  igraph_warning_handler_t *old_warning = igraph_set_warning_handler(igraph_warning_handler_ignore);
  igraph_error_t rc = bliss_on_encodings(e1, ends1, e2, ends2, iso, node_map);
  igraph_set_warning_handler(old_warning);
  igraph_set_error_handler(old_error);
#if !IGRAPH_THREAD_SAFE
  pthread_mutex_unlock(&igraph_lock);
#endif
  return rc;
}

/* Runs BLISS and verifies its answer; *found and node_map as for the public call. */
static int search_encodings(const encoding *e1, const encoding *e2, int *found, int32_t *node_map,
                            tc_error *err) {
  igraph_integer_t *ends1 = encoding_edge_list(e1), *ends2 = encoding_edge_list(e2);
  if (!ends1 || !ends2) { free(ends1); free(ends2); return oom(err); }
  igraph_bool_t iso = 0;
  igraph_error_t irc = bliss_guarded(e1, ends1, e2, ends2, &iso, node_map);
  free(ends1);
  free(ends2);
  if (irc != IGRAPH_SUCCESS) return igraph_failure(irc, err);
  if (!iso) return TC_OK;
  int verdict = check_map(e1->g, e2->g, node_map);
  if (verdict < 0) return oom(err);
  if (verdict == 0)
    return tc_error_set(err, TC_EFAIL,
                        "igraph BLISS returned a node map that is not an isomorphism of the multigraphs "
                        "(%d nodes, %lld arcs); refusing to report it", e1->g->n, (long long)e1->g->m);
  *found = 1;
  return TC_OK;
}

/* Everything after the n/m test: encode, colour, compare invariants, search. */
static int isomorphism_of_same_size(const tc_graph *g1, const tc_graph *g2, int *found, int32_t *node_map,
                                    tc_error *err) {
  encoding e1, e2;
  int rc = encoding_scan(g1, &e1, err);
  if (rc) return rc;
  rc = encoding_scan(g2, &e2, err);
  if (rc) { encoding_free(&e1); return rc; }
  int same = e1.n_bundles == e2.n_bundles && e1.n_edges == e2.n_edges;
  if (same) rc = assign_joint_colours(&e1, &e2, err);
  if (same && !rc) rc = profiles_agree(&e1, &e2, &same, err);
  if (same && !rc) rc = search_encodings(&e1, &e2, found, node_map, err);
  encoding_free(&e1);
  encoding_free(&e2);
  return rc;
}

int tc_graph_isomorphism(const tc_graph *g1, const tc_graph *g2, int *found, int32_t *map, tc_error *err) {
  if (!g1 || !g2 || !found) return tc_error_set(err, TC_EINPUT, "isomorphism: graph or result pointer is NULL");
  *found = 0;
  if (g1->n != g2->n || g1->m != g2->m) return TC_OK;
  if (g1->n == 0) { *found = 1; return TC_OK; }
  /* BLISS writes into a scratch map so the caller's is untouched unless found = 1. */
  int32_t *node_map = malloc((size_t)g1->n * sizeof *node_map);
  if (!node_map) return oom(err);
  int rc = isomorphism_of_same_size(g1, g2, found, node_map, err);
  if (!rc && *found && map) memcpy(map, node_map, (size_t)g1->n * sizeof *map);
  free(node_map);
  return rc;
}

/* BLISS's generators of the encoding's automorphism group, the node part of each in gens
   (count·n entries, allocated here), with igraph's handlers guarded as for isomorphisms. */
static igraph_error_t bliss_generators(const encoding *e, const igraph_integer_t *ends, int32_t **gens,
                                       int32_t *count) {
  igraph_integer_t vertices = (igraph_integer_t)e->g->n + (igraph_integer_t)e->n_bundles;
  igraph_vector_int_t colour = {0}; /* a view: see make_igraph */
  igraph_vector_int_view(&colour, e->colour, vertices);
  igraph_vector_int_list_t list;
  igraph_t ig;
  *gens = NULL;
  *count = 0;
  igraph_error_t rc = make_igraph(e, ends, &ig);
  if (rc != IGRAPH_SUCCESS) return rc;
  rc = igraph_vector_int_list_init(&list, 0);
  if (rc == IGRAPH_SUCCESS) {
    rc = igraph_automorphism_group(&ig, &colour, &list, IGRAPH_BLISS_FL, NULL);
    igraph_integer_t k = rc == IGRAPH_SUCCESS ? igraph_vector_int_list_size(&list) : 0;
    if (k > 0 && !(*gens = malloc((size_t)k * (size_t)e->g->n * sizeof **gens))) rc = IGRAPH_ENOMEM;
    for (igraph_integer_t i = 0; rc == IGRAPH_SUCCESS && i < k; i++) {
      igraph_vector_int_t *v = igraph_vector_int_list_get_ptr(&list, i);
      for (int32_t u = 0; u < e->g->n; u++) (*gens)[i * e->g->n + u] = (int32_t)VECTOR(*v)[u];
    }
    if (rc == IGRAPH_SUCCESS) *count = (int32_t)k;
    igraph_vector_int_list_destroy(&list);
  }
  igraph_destroy(&ig);
  return rc;
}

int tc_graph_automorphism_generators(const tc_graph *g, int32_t **gens, int32_t *count, tc_error *err) {
  *gens = NULL;
  *count = 0;
  if (g->n == 0) return TC_OK;
  encoding e, twin;
  int rc = encoding_scan(g, &e, err);
  if (rc) return rc;
  if ((rc = encoding_scan(g, &twin, err))) { encoding_free(&e); return rc; }
  rc = assign_joint_colours(&e, &twin, err); /* one graph: its own colours, numbered as for a pair */
  encoding_free(&twin);
  igraph_integer_t *ends = rc ? NULL : encoding_edge_list(&e);
  if (!rc && !ends) rc = oom(err);
  if (rc) { encoding_free(&e); return rc; }
#if !IGRAPH_THREAD_SAFE
  pthread_mutex_lock(&igraph_lock);
#endif
  igraph_error_handler_t *old_error = igraph_set_error_handler(igraph_error_handler_ignore);
  igraph_warning_handler_t *old_warning = igraph_set_warning_handler(igraph_warning_handler_ignore);
  igraph_error_t irc = bliss_generators(&e, ends, gens, count);
  igraph_set_warning_handler(old_warning);
  igraph_set_error_handler(old_error);
#if !IGRAPH_THREAD_SAFE
  pthread_mutex_unlock(&igraph_lock);
#endif
  free(ends);
  encoding_free(&e);
  if (irc != IGRAPH_SUCCESS) {
    free(*gens);
    *gens = NULL;
    *count = 0;
    return igraph_failure(irc, err);
  }
  for (int32_t i = 0; i < *count; i++) {
    int verdict = check_map(g, g, *gens + (int64_t)i * g->n);
    if (verdict <= 0) {
      free(*gens);
      *gens = NULL;
      *count = 0;
      return verdict < 0 ? oom(err)
                         : tc_error_set(err, TC_EFAIL, "igraph BLISS returned a generator that is not an automorphism "
                                                       "(%d nodes, %lld arcs); refusing to report it",
                                        g->n, (long long)g->m);
    }
  }
  return TC_OK;
}

int tc_graph_reverse_symmetry(const tc_graph *g, int *found, int32_t *map, tc_error *err) {
  if (!g || !found) return tc_error_set(err, TC_EINPUT, "reverse symmetry: graph or result pointer is NULL");
  *found = 0;
  if (g->bidirectional) {
    /* Arcs pair up into opposite arcs of equal capacity, so G^T has exactly G's arcs. */
    if (map)
      for (int32_t u = 0; u < g->n; u++) map[u] = u;
    *found = 1;
    return TC_OK;
  }
  tc_graph *t = NULL;
  int rc = tc_graph_transpose(g, &t, err);
  if (rc) return rc;
  rc = tc_graph_isomorphism(g, t, found, map, err);
  tc_graph_destroy(t);
  return rc;
}
