/* stencil.c - a 1D-decomposed 2D Jacobi stencil: each rank owns N x N/np points, and per
 * iteration updates them (computation), exchanges its boundary rows with its neighbours
 * (isend/irecv/waitall) and every 10 iterations allreduces the residual. Prints
 * "measured_s T" (rank 0, MPI_Wtime around the iterations) for test/mpi/predict.sh. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int n = argc > 1 ? atoi(argv[1]) : 512, iters = argc > 2 ? atoi(argv[2]) : 50;
  int rows = n / np;
  double *a = calloc((size_t)(rows + 2) * n, sizeof *a), *b = calloc((size_t)(rows + 2) * n, sizeof *b);
  for (int j = 0; j < n; j++)
    a[j] = me == 0 ? 1.0 : 0.0;
  int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me < np - 1 ? me + 1 : MPI_PROC_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iters; it++) {
    MPI_Request rq[4];
    MPI_Irecv(a, n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(a + (size_t)(rows + 1) * n, n, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(a + n, n, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &rq[2]);
    MPI_Isend(a + (size_t)rows * n, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    double res = 0;
    for (int i = 1; i <= rows; i++)
      for (int j = 1; j < n - 1; j++) {
        size_t k = (size_t)i * n + j;
        b[k] = 0.25 * (a[k - 1] + a[k + 1] + a[k - n] + a[k + n]);
        res += (b[k] - a[k]) * (b[k] - a[k]);
      }
    double *t = a;
    a = b;
    b = t;
    if (it % 10 == 9)
      MPI_Allreduce(MPI_IN_PLACE, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double t = MPI_Wtime() - t0;
  if (me == 0)
    printf("measured_s %.6f\n", t);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
