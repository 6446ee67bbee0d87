/*
** mpi_rooted_app.c — an "unmodified" MPI program for the interposer's rooted collectives
** (mpi_pmpi.sh): it knows nothing of topocoll and calls MPI_Bcast, MPI_Reduce, MPI_Scatter
** and MPI_Gather, checking every result against a closed form (N ranks, rank r, element
** i, root R):
**   broadcast  the root's buf[i] = 1000 R + i (int), i / 4 - R (double)
**   reduce     in = 3r + i%11: sum 3N(N-1)/2 + N(i%11) (out of place); max 3(N-1) + i%11
**              (in place at the root)
**   scatter    the root's send[k*count + i] = 100000 k + i: rank r gets 100000 r + i (out
**              of place; in place at the root: its block stays in the send buffer)
**   gather     send[i] = 100000 r + i: the root's recv[k*count + i] = 100000 k + i (out of
**              place; in place at the root: its block already in recv)
** Off the root the buffers MPI ignores are NULL. At counts 1, 7 and 1000, from root 2 — the
** calls a plan for root 2 can serve — and from root 0, then a reduce with MPI_PROD (no
** plan can serve it) and a final MPI_Allreduce of the error flag. Rank 0 prints:
**   mpi_rooted_app: servable broadcast B reduce D scatter C gather G, unservable U
** and every rank exits 1 if any result on any rank was wrong (the first wrong one printed).
** Needs at least 3 ranks.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nranks, wrong;
static long long servable[4], unservable;

static void check(int ok, const char *what, int root, int count, long long i, double got, double want) {
  if (ok || wrong++) return;
  fprintf(stderr, "mpi_rooted_app: rank %d: %s from root %d, count %d, element %lld: got %.17g, expected %.17g\n",
          rank, what, root, count, i, got, want);
}

static void cases(int count, int root) {
  int n = nranks, me = rank == root;
  long long *tally = root == 2 ? NULL : &unservable;
  int *a = malloc(sizeof *a * (size_t)count * (size_t)n), *b = malloc(sizeof *b * (size_t)count * (size_t)n);
  double *d = malloc(sizeof *d * (size_t)count);
  /* broadcast */
  for (int i = 0; i < count; i++) a[i] = me ? 1000 * root + i : -1, d[i] = me ? i / 4.0 - root : 0.5;
  MPI_Bcast(a, count, MPI_INT, root, MPI_COMM_WORLD);
  MPI_Bcast(d, count, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < count; i++) {
    check(a[i] == 1000 * root + i, "broadcast int", root, count, i, a[i], 1000 * root + i);
    check(d[i] == i / 4.0 - root, "broadcast double", root, count, i, d[i], i / 4.0 - root);
  }
  /* reduce */
  for (int i = 0; i < count; i++) a[i] = 3 * rank + i % 11;
  MPI_Reduce(a, me ? b : NULL, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  for (int i = 0; me && i < count; i++)
    check(b[i] == 3 * n * (n - 1) / 2 + n * (i % 11), "reduce sum", root, count, i, b[i],
          3 * n * (n - 1) / 2 + n * (i % 11));
  MPI_Reduce(me ? MPI_IN_PLACE : a, me ? a : NULL, count, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
  for (int i = 0; me && i < count; i++)
    check(a[i] == 3 * (n - 1) + i % 11, "reduce max in place", root, count, i, a[i], 3 * (n - 1) + i % 11);
  /* scatter, out of place then in place at the root */
  for (int inplace = 0; inplace < 2; inplace++) {
    for (long long k = 0; me && k < (long long)n * count; k++) a[k] = 100000 * (int)(k / count) + (int)(k % count);
    int *mine = inplace && me ? a + (size_t)root * (size_t)count : b;
    MPI_Scatter(me ? a : NULL, count, MPI_INT, inplace && me ? MPI_IN_PLACE : b, count, MPI_INT, root,
                MPI_COMM_WORLD);
    for (int i = 0; i < count; i++)
      check(mine[i] == 100000 * rank + i, inplace ? "scatter in place" : "scatter", root, count, i, mine[i],
            100000 * rank + i);
  }
  /* gather, out of place then in place at the root */
  for (int inplace = 0; inplace < 2; inplace++) {
    int *own = inplace && me ? b + (size_t)root * (size_t)count : a;
    for (int i = 0; i < count; i++) own[i] = 100000 * rank + i;
    MPI_Gather(inplace && me ? MPI_IN_PLACE : a, count, MPI_INT, me ? b : NULL, count, MPI_INT, root,
               MPI_COMM_WORLD);
    for (long long k = 0; me && k < (long long)n * count; k++)
      check(b[k] == 100000 * (int)(k / count) + (int)(k % count), inplace ? "gather in place" : "gather", root,
            count, k, b[k], 100000 * (int)(k / count) + (int)(k % count));
  }
  if (tally) *tally += 8;
  else
    for (int c = 0; c < 4; c++) servable[c] += 2;
  free(a);
  free(b);
  free(d);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks < 3) {
    if (rank == 0) fprintf(stderr, "mpi_rooted_app: needs at least 3 ranks\n");
    MPI_Finalize();
    return 2;
  }
  const int counts[] = {1, 7, 1000};
  for (int c = 0; c < 3; c++) {
    cases(counts[c], 2);
    cases(counts[c], 0);
  }
  int one = 1 + (rank == 2), prod = 0;
  MPI_Reduce(&one, &prod, 1, MPI_INT, MPI_PROD, 2, MPI_COMM_WORLD);
  if (rank == 2) check(prod == 2, "reduce prod", 2, 1, 0, prod, 2);
  int any = 0;
  MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  unservable += 2;
  if (rank == 0)
    printf("mpi_rooted_app: servable broadcast %lld reduce %lld scatter %lld gather %lld, unservable %lld\n",
           servable[0], servable[1], servable[2], servable[3], unservable);
  MPI_Finalize();
  return any ? 1 : 0;
}
