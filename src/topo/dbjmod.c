/*
** dbjmod.c — the modified de Bruijn graphs DBJMod(d,n) of paper 000 (Fig. 20, Table 9
** rows 12-15), reconstructed.
**
** THE CONSTRUCTION
**   Start from de Bruijn B(d,n): nodes 0..d^n-1 (the base-d words x_1..x_n), arcs
**   x -> d*x + a (mod d^n), a = 0..d-1. Fig. 20's caption: "the modification rewires the
**   self loops and 2-cycles in de Bruijn graph to form a single long cycle without
**   violating degree constraint". Read as:
**     1. S = the nodes on a self-loop or a 2-cycle. Their loop/2-cycle arcs form a
**        permutation of S (a loop x->x; a 2-cycle x->y->x), so deleting ALL of those arcs
**        (both arcs of every 2-cycle) frees exactly one out-port and one in-port at every
**        node of S and touches no other node.
**     2. Add one directed Hamiltonian cycle on S (re-using the freed ports), none of whose
**        arcs repeats a kept arc. The result is d-regular in and out, loop-free, simple.
**   Deleting only one arc of a 2-cycle is the special case where the new cycle runs
**   through the other one; e.g. the DBJMod(2,3) and DBJMod(2,4) cycles below keep 2->5
**   and 5->10, so under either reading these graphs are the same.
**
** WHICH CYCLE (found by search; the figure is not in the extracted text)
**   generators/search_fig_topologies.py enumerates the cycles in lexicographic order of the
**   successor vector (sigma(s_1), sigma(s_2), ...) over S in increasing node order and
**   keeps the first one whose graph has Table 9's properties: reverse symmetry as listed,
**   a BW-optimal allgather with exactly the listed T_L steps (decided exactly by an LP over
**   weighted time-respecting broadcast trees, GLPK column generation) and none with T_L-1,
**   BFB alone not BW-optimal, and the diameters Table 7 implies (DBJMod(2,4): 4, from
**   D(DBJMod(2,4)^□2) = 8; DBJMod(4,2): 3, from D(L(DBJMod(4,2))) = 4). In all four cases
**   the very first valid cycle passes, so the rule is simply "the lexicographically
**   smallest valid cycle". The choice among passing cycles is ours:
**     DBJMod(2,3): all 6 cycles pass (3 isomorphism classes; all reverse-symmetric, T_L 4);
**     DBJMod(2,4): 4 of 6 pass (2 classes; the others have diameter 5 or are
**     reverse-symmetric); DBJMod(3,2): 3760 of 3784 cycles pass (632 of 634 classes);
**     DBJMod(4,2): 16-node Hamiltonian cycles, too many to enumerate.
**   Re-run: `python3 generators/search_fig_topologies.py dbjmod D N` (seconds to a few minutes;
**   --no-census skips the full enumeration).
**
** GUARANTEES
**   Only (d,n) in {(2,3), (2,4), (3,2), (4,2)} are accepted (the instances of Table 9);
**   anything else is TC_EINPUT, because no property of other sizes is known. Node ids are
**   the de Bruijn ids and every node is labelled with its base-d word (e.g. "010"). For each
**   instance a verified BW-optimal schedule with the Table 9 step count is stored in
**   tests/data/fig_schedules/dbjmod_D_N.json, and tests/test_topo_fig.c replays it.
*/
#include <stddef.h>

#include "topocoll/topo.h"

typedef struct dbjmod_instance {
  int d, n;
  int cycle_len;
  const int32_t *cycle; /* the new Hamiltonian cycle on S, in cycle order */
} dbjmod_instance;

/* Cycles as found by the search (successor vectors over S in the comments). */
static const int32_t cycle_2_3[] = {0, 2, 5, 7};   /* sigma over S={0,2,5,7}: 2,5,7,0 */
static const int32_t cycle_2_4[] = {0, 5, 10, 15}; /* sigma over S={0,5,10,15}: 5,10,15,0 */
static const int32_t cycle_3_2[] = {0, 3, 4, 6, 7, 8, 5, 2, 1}; /* sigma: 3,0,1,4,6,2,7,8,5 */
static const int32_t cycle_4_2[] = {0, 4, 5, 8, 9, 10, 12, 13, 14, 15, 11, 7, 6, 3, 2, 1};
/* DBJMod(4,2) sigma over S = 0..15: 4,0,1,2,5,8,3,6,9,10,12,7,13,14,15,11 */

static const dbjmod_instance instances[] = {
    {2, 3, 4, cycle_2_3},
    {2, 4, 4, cycle_2_4},
    {3, 2, 9, cycle_3_2},
    {4, 2, 16, cycle_4_2},
};

static const dbjmod_instance *find_instance(int64_t d, int64_t n) {
  for (size_t i = 0; i < sizeof instances / sizeof instances[0]; i++)
    if (instances[i].d == d && instances[i].n == n) return &instances[i];
  return NULL;
}

/* 1 if the de Bruijn arc x -> y lies on a self-loop or a 2-cycle (y -> x is an arc). */
static int on_short_cycle(int64_t d, int64_t size, int64_t x, int64_t y) {
  if (x == y) return 1;
  for (int64_t a = 0; a < d; a++)
    if ((d * y + a) % size == x) return 1;
  return 0;
}

/* Node u's base-d word of n letters, most significant first. */
static int label_node(tc_graph_builder *b, int64_t d, int64_t n, int64_t u, tc_error *err) {
  char word[8];
  for (int64_t i = n - 1, x = u; i >= 0; i--, x /= d) word[i] = (char)('0' + x % d);
  word[n] = '\0';
  return tc_graph_builder_set_label(b, u, word, err);
}

int tc_topo_dbjmod(int64_t d, int64_t n, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "dbjmod: output pointer is NULL");
  *out = NULL;
  const dbjmod_instance *inst = find_instance(d, n);
  if (!inst)
    return tc_error_set(err, TC_EINPUT,
                        "dbjmod: DBJMod(%lld,%lld) is not defined; only (d,n) = (2,3), (2,4), (3,2), "
                        "(4,2) exist (paper 000 Table 9)",
                        (long long)d, (long long)n);
  int64_t size = 1;
  for (int i = 0; i < inst->n; i++) size *= inst->d;

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, size, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, size * d, err);
  for (int64_t x = 0; x < size && !rc; x++) {
    rc = label_node(&b, d, n, x, err);
    for (int64_t a = 0; a < d && !rc; a++) {
      int64_t y = (d * x + a) % size;
      if (!on_short_cycle(d, size, x, y)) rc = tc_graph_builder_add_arc(&b, x, y, 1, err);
    }
  }
  for (int i = 0; i < inst->cycle_len && !rc; i++)
    rc = tc_graph_builder_add_arc(&b, inst->cycle[i], inst->cycle[(i + 1) % inst->cycle_len], 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
