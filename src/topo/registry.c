/*
** registry.c — the table of spec families: name, signature, description for
** `topocoll topo --list`, and an adapter from bound spec arguments to the typed generator.
**
** Adding a family = one generator file in src/topo + one row here. Rows are listed in the
** order `--list` prints them: base families, switch fabrics, then expansions, then file
** input. The constraints column is what `--list` prints and also what the parser checks
** (constraint.c reads its clauses: "n >= 2", "1 <= d < n", "each l_i >= 2", "loops
** keep|drop"...), so a constraint is written once, here; prose clauses are the
** generator's to check.
*/
#include <string.h>

#include "spec_internal.h"
#include "topocoll/expand.h"
#include "topocoll/graph_io.h"
#include "topocoll/topo.h"

#define A const tc_spec_args *a, tc_graph **out, tc_error *err

static int b_complete(A) { return tc_topo_complete(a->ints[0], out, err); }
static int b_bipartite(A) { return tc_topo_bipartite(a->ints[0], out, err); }
static int b_hamming(A) { return tc_topo_hamming(a->ints[0], a->ints[1], out, err); }
static int b_hypercube(A) { return tc_topo_hypercube(a->ints[0], out, err); }
static int b_twisted_hypercube(A) { return tc_topo_twisted_hypercube(a->ints[0], out, err); }
static int b_uniring(A) { return tc_topo_uniring(a->ints[0], a->ints[1], out, err); }
static int b_biring(A) { return tc_topo_biring(a->ints[0], a->ints[1], out, err); }
static int b_torus(A) { return tc_topo_torus(a->list_ints, a->list_len, out, err); }
static int b_twisted_torus(A) { return tc_topo_twisted_torus(a->ints[0], a->ints[1], a->ints[2], out, err); }
static int b_circulant(A) {
  if (a->list_len == 0) return tc_topo_min_circulant(a->ints[0], 4, out, err);
  return tc_topo_circulant(a->ints[0], a->list_ints, a->list_len, 1, out, err);
}
static int b_min_circulant(A) { return tc_topo_min_circulant(a->ints[0], a->ints[1], out, err); }
static int b_dcirculant(A) { return tc_topo_directed_circulant(a->ints[0], a->list_ints, a->list_len, out, err); }
static int b_genkautz(A) {
  tc_loop_policy policy;
  if (!strcmp(a->words[2], "keep")) policy = TC_LOOPS_KEEP;
  else if (!strcmp(a->words[2], "drop")) policy = TC_LOOPS_DROP;
  else return tc_error_set(err, TC_EINPUT, "genkautz: loops must be 'keep' or 'drop' (got '%s')", a->words[2]);
  return tc_topo_genkautz(a->ints[0], a->ints[1], policy, out, err);
}
static int b_kautz(A) { return tc_topo_kautz(a->ints[0], a->ints[1], out, err); }
static int b_debruijn(A) { return tc_topo_debruijn(a->ints[0], a->ints[1], out, err); }
static int b_dbjmod(A) { return tc_topo_dbjmod(a->ints[0], a->ints[1], out, err); }
static int b_diamond(A) { (void)a; return tc_topo_diamond(out, err); }
static int b_drg(A) { return tc_topo_drg(a->words[0], out, err); }
static int b_hyperx(A) { return tc_topo_hyperx(a->list_ints, a->list_len, out, err); }
static int b_dragonfly(A) { return tc_topo_dragonfly(a->ints[0], a->ints[1], a->ints[2], out, err); }
static int b_jellyfish(A) { return tc_topo_jellyfish(a->ints[0], a->ints[1], (uint64_t)a->ints[2], out, err); }
static int b_xpander(A) { return tc_topo_xpander(a->ints[0], a->ints[1], (uint64_t)a->ints[2], out, err); }
static int b_dgx_a100(A) { return tc_topo_dgx_a100(a->ints[0], out, err); }
static int b_mi250(A) { return tc_topo_mi250(a->ints[0], a->ints[1], out, err); }
static int b_fattree(A) { return tc_topo_fattree(a->ints[0], a->ints[1], out, err); }
static int b_fig2toy(A) { return tc_topo_fig2toy(a->ints[0], out, err); }
static int b_line(A) { return tc_graph_line_power(a->graphs[0], a->ints[1], out, err); }
static int b_degree(A) { return tc_graph_degree_expand(a->graphs[0], a->ints[1], out, err); }
static int b_power(A) { return tc_graph_power(a->graphs[0], a->ints[1], out, err); }
static int b_bidir(A) { return tc_graph_bidir_closure(a->graphs[0], out, err); }
static int b_transpose(A) { return tc_graph_transpose(a->graphs[0], out, err); }
static int b_without(A) { return tc_graph_without_links(a->graphs[0], a->list_ints, a->list_len, 0, out, err); }
/* The file of file(...) and nx(...) is named by the spec, i.e. by the user: one that
   cannot be read is bad input (TC_EINPUT, exit 2) like any other bad argument, not an I/O
   failure of ours. */
static int b_file(A) {
  int rc = tc_graph_read_file(a->words[0], out, err);
  if (rc == TC_EIO) rc = err->code = TC_EINPUT;
  return rc;
}
static int b_nx(A) {
  int rc = tc_graph_read_nx_file(a->words[0], out, err);
  if (rc == TC_EIO) rc = err->code = TC_EINPUT;
  return rc;
}
static int b_product(A) {
  if (a->list_len < 2) return tc_error_set(err, TC_EINPUT, "product: needs at least two graphs");
  tc_graph *acc = NULL;
  int rc = tc_graph_product(a->list_graphs[0], a->list_graphs[1], &acc, err);
  for (int i = 2; !rc && i < a->list_len; i++) {
    tc_graph *next = NULL;
    rc = tc_graph_product(acc, a->list_graphs[i], &next, err);
    tc_graph_destroy(acc);
    acc = next;
  }
  if (rc) { tc_graph_destroy(acc); return rc; }
  *out = acc;
  return TC_OK;
}

static const tc_family families[] = {
    {{"complete", "n", "n >= 2", "complete graph K_n, bidirectional, degree n-1"}, "n:i", b_complete},
    {{"bipartite", "d", "d >= 1", "complete bipartite K_{d,d}: 2d nodes, degree d"}, "d:i", b_bipartite},
    {{"hamming", "n, q", "n >= 1, q >= 2", "Hamming graph H(n,q) = K_q^n: q^n nodes, degree n(q-1)"}, "n:i q:i", b_hamming},
    {{"hypercube", "n", "n >= 1", "hypercube Q_n: 2^n nodes, degree n"}, "n:i", b_hypercube},
    {{"twistedhypercube", "n", "n >= 3", "twisted n-cube (Esfahanian-Ni-Sagan): Q_n with one 4-cycle crossed"}, "n:i", b_twisted_hypercube},
    {{"uniring", "d, m", "d >= 1, m >= 2", "unidirectional ring of m nodes, d parallel arcs to the next node"}, "d:i m:i", b_uniring},
    {{"biring", "d, m", "even d >= 2, m >= 3", "bidirectional ring of m nodes, d/2 parallel links to each neighbour"}, "d:i m:i", b_biring},
    {{"torus", "l1, l2, ...", "each l_i >= 2", "torus of any dimensions; a length-2 dimension adds one link (K_2)"}, "dims:i+", b_torus},
    {{"twistedtorus", "a, b, twist", "a >= 2, b >= 2", "a x b torus whose wrap-around links in the 2nd dimension shift by twist"}, "a:i b:i twist:i", b_twisted_torus},
    {{"circulant", "n, a1, a2, ...", "distinct a_i in 1..n/2, gcd(n, a..) = 1", "circulant C(n,{a1..ak}), degree 2k; circulant(n) = Boesch-Wang C(n,{m,m+1})"}, "n:i offsets:i*", b_circulant},
    {{"mincirculant", "n, d=4", "n > 6, d >= 4, d multiple of 4", "minimum-diameter C(n,{m,m+1}) (paper 000 Thm 22), d/4 parallel links"}, "n:i d:i=4", b_min_circulant},
    {{"dcirculant", "n, a1, a2, ...", "distinct a_i in 1..n-1", "directed circulant: i -> i + a_j (mod n)"}, "n:i offsets:i+", b_dcirculant},
    {{"genkautz", "d, m, loops=keep", "d >= 1, m >= d+1, loops keep|drop", "generalized Kautz Pi_{d,m}: x -> -(dx+a) mod m, a = 1..d"}, "d:i m:i loops:w=keep", b_genkautz},
    {{"kautz", "d, n", "d >= 1, n >= 0", "Kautz K(d,n) = L^n(K_{d+1}): (d+1)d^n nodes, diameter n+1 (paper 000 convention; paper 002's K(d,k) is kautz(d,k-1))"}, "d:i n:i", b_kautz},
    {{"debruijn", "d, n", "d >= 2, n >= 1", "de Bruijn B(d,n): d^n nodes, x -> dx + a mod d^n"}, "d:i n:i", b_debruijn},
    {{"dbjmod", "d, n", "Table 9 sizes", "modified de Bruijn (paper 000 Fig. 20): loops and 2-cycles rewired into one cycle"}, "d:i n:i", b_dbjmod},
    {{"diamond", "", "", "Diamond (paper 000 Fig. 19): 8 nodes, degree 2, diameter 3"}, "", b_diamond},
    {{"drg", "name", "a Table 8 name", "distance-regular graph of paper 000 Table 8 (degree 4)"}, "name:w", b_drg},
    {{"hyperx", "..., m2, m1", "each m_i >= 2", "HyperX / nD fully connected: adjacent iff one coordinate differs; "
      "paper 002's m2 x m1 2dfc is hyperx(m2,m1)"}, "dims:i+", b_hyperx},
    {{"dragonfly", "a, h, g=0", "(g-1) | a*h; g = 0 means a*h+1", "Dragonfly routers: g groups of a, h global links per router"}, "a:i h:i g:i=0", b_dragonfly},
    {{"jellyfish", "n, d, seed=1", "n*d even, 1 <= d < n", "random d-regular graph (Jellyfish), connected"}, "n:i d:i seed:i=1", b_jellyfish},
    {{"xpander", "d, lift, seed=1", "d >= 1, lift >= 1", "Xpander: random lift of K_{d+1}, (d+1)*lift nodes"}, "d:i lift:i seed:i=1", b_xpander},
    {{"dgx_a100", "n", "n >= 1", "n clusters of 8 A100: NVSwitch 300, NIC and 2 IB switches 25 GB/s (paper 001 §5.3)"}, "n:i", b_dgx_a100},
    {{"mi250", "n, gcds=16", "n >= 1, gcds 8 or 16", "n clusters of MI250 GCDs: Infinity Fabric 50/link, IB switch 16 GB/s (paper 001 §5.2)"}, "n:i gcds:i=16", b_mi250},
    {{"fattree", "k, bw=1", "even k >= 2, bw >= 1", "k-ary fat-tree (Al-Fares): k^3/4 hosts, 5k^2/4 switches, links of bw"}, "k:i bw:i=1", b_fattree},
    {{"fig2toy", "b=1", "b >= 1", "paper 001 Fig. 2 toy: 2 clusters of 4, switches w1, w2 (10b) and w0 (b)"}, "b:i=1", b_fig2toy},
    {{"line", "G, k=1", "k >= 0", "line digraph L^k(G) (paper 000 Def. 12)"}, "g:g k:i=1", b_line},
    {{"degree", "G, n", "n >= 1, G loop-free", "degree expansion G*n (paper 000 Def. 13)"}, "g:g n:i", b_degree},
    {{"product", "G1, G2, ...", "two or more graphs", "Cartesian product G1 x G2 x ... (paper 000 Def. 3)"}, "gs:g+", b_product},
    {{"power", "G, k", "k >= 1", "Cartesian power G^k"}, "g:g k:i", b_power},
    {{"bidir", "G", "", "bidirectional closure G u G^T (paper 000 A.6)"}, "g:g", b_bidir},
    {{"transpose", "G", "", "transpose G^T: every arc reversed"}, "g:g", b_transpose},
    {{"without", "G, u1, v1, u2, v2, ...", "", "G without the links u-v of node pairs (a duplex pair when G is bidirectional, else the arc): a degraded cluster"}, "g:g ends:i+", b_without},
    {{"file", "path", ".json or edge list", "a graph read from a file (docs/formats.md)"}, "path:w", b_file},
    {{"nx", "path", ".json node-link or edge list", "a graph read from networkx's node-link JSON or edge list"}, "path:w", b_nx},
};

int tci_family_table_size(void) { return (int)(sizeof families / sizeof families[0]); }
const tc_family *tci_family_at(int i) { return &families[i]; }

const tc_family *tci_family_find(const char *name, size_t len) {
  for (int i = 0; i < tci_family_table_size(); i++)
    if (strlen(families[i].info.name) == len && !strncmp(families[i].info.name, name, len)) return &families[i];
  return NULL;
}
