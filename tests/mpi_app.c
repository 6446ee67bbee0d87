/*
** mpi_app.c — an "unmodified" MPI program for the PMPI interposer test (mpi_pmpi.sh): it
** knows nothing of topocoll and only calls MPI_Allreduce, MPI_Allgather,
** MPI_Reduce_scatter_block and MPI_Alltoall, checking every result against a closed form
** it computes itself (N ranks, rank r, element i):
**   allreduce      in = 3r + i%11:  sum 3N(N-1)/2 + N(i%11), max 3(N-1) + i%11, min i%11
**                  in = r + i/2 (double, in place): sum N(N-1)/2 + N i/2
**   allgather      in = 100000 r + i: out[k*count + i] = 100000 k + i (also in place)
**   reduce-scatter in[k*count + i] = r + k + i: rank r's block sums to N(N-1)/2 + N(r + i)
**   alltoall       in[t*count + i] = (64 r + t) * 8192 + i: out[s*count + i] = (64 s + r) * 8192 + i
**                  (int, and double in place)
** at counts 1, 7, 1000 and 4099, on MPI_COMM_WORLD and on a congruent duplicate of it —
** calls the interposer can serve — and then calls it must leave to MPI: MPI_PROD, an
** unsigned type, a communicator of half the ranks, an allgather and an alltoall whose send
** and receive types differ. Rank 0 prints how many calls of each kind it made:
**   mpi_app: servable allreduce A allgather G reduce-scatter R alltoall T, unservable U
** and every rank exits 1 if any result on any rank was wrong (the first wrong one printed).
** With --init-thread it starts with MPI_Init_thread (MPI_THREAD_FUNNELED) instead of MPI_Init.
*/
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nranks, wrong;
static long long servable_ar, servable_ag, servable_rs, servable_a2a, unservable;

static void check(int ok, const char *what, int count, long long i, double got, double want) {
  if (ok || wrong++) return;
  fprintf(stderr, "mpi_app: rank %d: %s, count %d, element %lld: got %.17g, expected %.17g\n", rank, what, count, i,
          got, want);
}

static void allreduce_cases(int count, MPI_Comm comm) {
  int n = nranks;
  int *in = malloc(sizeof *in * (size_t)count), *out = malloc(sizeof *out * (size_t)count);
  long long *lin = malloc(sizeof *lin * (size_t)count), *lout = malloc(sizeof *lout * (size_t)count);
  float *fin = malloc(sizeof *fin * (size_t)count), *fout = malloc(sizeof *fout * (size_t)count);
  double *d = malloc(sizeof *d * (size_t)count);
  for (int i = 0; i < count; i++) {
    in[i] = 3 * rank + i % 11;
    lin[i] = in[i];
    fin[i] = (float)in[i];
    d[i] = rank + i / 2.0;
  }
  MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, comm);
  MPI_Allreduce(lin, lout, count, MPI_LONG_LONG, MPI_MAX, comm);
  MPI_Allreduce(fin, fout, count, MPI_FLOAT, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, d, count, MPI_DOUBLE, MPI_SUM, comm);
  for (int i = 0; i < count; i++) {
    int sum = 3 * n * (n - 1) / 2 + n * (i % 11), max = 3 * (n - 1) + i % 11, min = i % 11;
    double dsum = n * (n - 1) / 2.0 + n * (i / 2.0);
    check(out[i] == sum, "allreduce int sum", count, i, out[i], sum);
    check(lout[i] == max, "allreduce long long max", count, i, (double)lout[i], max);
    check(fout[i] == (float)min, "allreduce float min", count, i, fout[i], min);
    check(d[i] == dsum, "allreduce double sum in place", count, i, d[i], dsum);
  }
  servable_ar += 4;
  free(in);
  free(out);
  free(lin);
  free(lout);
  free(fin);
  free(fout);
  free(d);
}

static void allgather_cases(int count, MPI_Comm comm) {
  size_t total = (size_t)count * (size_t)nranks;
  int *in = malloc(sizeof *in * (size_t)count), *out = malloc(sizeof *out * total);
  double *d = malloc(sizeof *d * total);
  for (int i = 0; i < count; i++) {
    in[i] = 100000 * rank + i;
    d[(size_t)rank * (size_t)count + (size_t)i] = in[i];
  }
  MPI_Allgather(in, count, MPI_INT, out, count, MPI_INT, comm);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, count, MPI_DOUBLE, comm);
  for (int k = 0; k < nranks; k++)
    for (int i = 0; i < count; i++) {
      size_t at = (size_t)k * (size_t)count + (size_t)i;
      check(out[at] == 100000 * k + i, "allgather int", count, (long long)at, out[at], 100000 * k + i);
      check(d[at] == 100000.0 * k + i, "allgather double in place", count, (long long)at, d[at], 100000.0 * k + i);
    }
  servable_ag += 2;
  free(in);
  free(out);
  free(d);
}

static void reduce_scatter_cases(int count, MPI_Comm comm) {
  int n = nranks;
  size_t total = (size_t)count * (size_t)n;
  int *in = malloc(sizeof *in * total), *out = malloc(sizeof *out * (size_t)count);
  long long *l = malloc(sizeof *l * total);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < count; i++) {
      size_t at = (size_t)k * (size_t)count + (size_t)i;
      in[at] = rank + k + i;
      l[at] = in[at];
    }
  MPI_Reduce_scatter_block(in, out, count, MPI_INT, MPI_SUM, comm);
  MPI_Reduce_scatter_block(MPI_IN_PLACE, l, count, MPI_LONG_LONG, MPI_SUM, comm);
  for (int i = 0; i < count; i++) {
    long long want = (long long)n * (n - 1) / 2 + (long long)n * (rank + i);
    check(out[i] == want, "reduce-scatter int sum", count, i, out[i], (double)want);
    check(l[i] == want, "reduce-scatter long long sum in place", count, i, (double)l[i], (double)want);
  }
  servable_rs += 2;
  free(in);
  free(out);
  free(l);
}

/* A distinct value for every (sender, destination, element): a block in the wrong place
   or from the wrong rank shows (N <= 64, count <= 8192). */
static int a2a_value(int from, int to, int i) { return (64 * from + to) * 8192 + i; }

static void alltoall_cases(int count, MPI_Comm comm) {
  int n = nranks;
  size_t total = (size_t)count * (size_t)n;
  int *in = malloc(sizeof *in * total), *out = malloc(sizeof *out * total);
  double *d = malloc(sizeof *d * total);
  for (int t = 0; t < n; t++)
    for (int i = 0; i < count; i++) {
      size_t at = (size_t)t * (size_t)count + (size_t)i;
      in[at] = a2a_value(rank, t, i);
      d[at] = -in[at];
    }
  MPI_Alltoall(in, count, MPI_INT, out, count, MPI_INT, comm);
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, count, MPI_DOUBLE, comm);
  for (int s = 0; s < n; s++)
    for (int i = 0; i < count; i++) {
      size_t at = (size_t)s * (size_t)count + (size_t)i;
      int want = a2a_value(s, rank, i);
      check(out[at] == want, "alltoall int", count, (long long)at, out[at], want);
      check(d[at] == -want, "alltoall double in place", count, (long long)at, d[at], -want);
    }
  servable_a2a += 2;
  free(in);
  free(out);
  free(d);
}

/* Calls no plan may serve; their results are checked all the same. */
static void unservable_cases(void) {
  int n = nranks, count = 5;
  int in[5], out[5];
  for (int i = 0; i < count; i++) in[i] = i % 2 ? 1 : 2;
  MPI_Allreduce(in, out, count, MPI_INT, MPI_PROD, MPI_COMM_WORLD); /* op */
  for (int i = 0; i < count; i++) {
    int prod = i % 2 ? 1 : 1 << n;
    check(out[i] == prod, "allreduce int prod", count, i, out[i], prod);
  }
  unsigned uin[5], uout[5];
  for (int i = 0; i < count; i++) uin[i] = (unsigned)(rank + i);
  MPI_Allreduce(uin, uout, count, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD); /* type */
  for (int i = 0; i < count; i++) {
    unsigned sum = (unsigned)(n * (n - 1) / 2 + n * i);
    check(uout[i] == sum, "allreduce unsigned sum", count, i, uout[i], sum);
  }
  MPI_Comm half; /* communicator: ranks of one parity */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hsize, hsum = 0;
  MPI_Comm_size(half, &hsize);
  for (int q = rank % 2; q < n; q += 2) hsum += q;
  MPI_Allreduce(&rank, out, 1, MPI_INT, MPI_SUM, half);
  check(out[0] == hsum, "allreduce on half the ranks", 1, 0, out[0], hsum);
  MPI_Comm_free(&half);
  int *pairs = malloc(sizeof *pairs * 2 * (size_t)n); /* types: 2 MPI_INT sent, one 2-int type received */
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_commit(&two);
  int mine[2] = {rank, -rank};
  MPI_Allgather(mine, 2, MPI_INT, pairs, 1, two, MPI_COMM_WORLD);
  for (int k = 0; k < n; k++)
    check(pairs[2 * k] == k && pairs[2 * k + 1] == -k, "allgather of mixed types", 1, k, pairs[2 * k], k);
  int *sent = malloc(sizeof *sent * 2 * (size_t)n); /* the same for alltoall */
  for (int t = 0; t < n; t++) sent[2 * t] = a2a_value(rank, t, 0), sent[2 * t + 1] = a2a_value(rank, t, 1);
  MPI_Alltoall(sent, 2, MPI_INT, pairs, 1, two, MPI_COMM_WORLD);
  for (int k = 0; k < n; k++)
    check(pairs[2 * k] == a2a_value(k, rank, 0) && pairs[2 * k + 1] == a2a_value(k, rank, 1),
          "alltoall of mixed types", 1, k, pairs[2 * k], a2a_value(k, rank, 0));
  MPI_Type_free(&two);
  free(sent);
  free(pairs);
  unservable += 5;
}

int main(int argc, char **argv) {
  int provided = 0;
  if (argc > 1 && !strcmp(argv[1], "--init-thread")) MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  else MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  MPI_Comm twin;
  MPI_Comm_dup(MPI_COMM_WORLD, &twin);
  const int counts[] = {1, 7, 1000, 4099};
  for (int c = 0; c < 4; c++) {
    MPI_Comm comm = c % 2 ? twin : MPI_COMM_WORLD;
    allreduce_cases(counts[c], comm);
    allgather_cases(counts[c], comm);
    reduce_scatter_cases(counts[c], comm);
    alltoall_cases(counts[c], comm);
  }
  unservable_cases();
  MPI_Comm_free(&twin);
  int any = 0;
  MPI_Reduce(&wrong, &any, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Bcast(&any, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("mpi_app: servable allreduce %lld allgather %lld reduce-scatter %lld alltoall %lld, unservable %lld%s\n",
           servable_ar, servable_ag, servable_rs, servable_a2a, unservable, any ? " (WRONG RESULTS)" : "");
  MPI_Finalize();
  return any ? 1 : 0;
}
