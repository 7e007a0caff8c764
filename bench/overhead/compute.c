/* compute.c - compute-heavy benchmark of the tracer's overhead: ITERS steps of PER_STEP
 * iterations of floating-point work (a few ms), each followed by a 1-double MPI_Allreduce
 * (the pattern of an iterative solver). Prints "calls_per_rank N", "wall_s T", "cpu_s C". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double work(long n, double x) {
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-7 * (double)(i & 7);
  return x;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  long iters = argc > 1 ? atol(argv[1]) : 200;
  long per_step = argc > 2 ? atol(argv[2]) : 2000000;
  double x = me, sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  clock_t c0 = clock();
  for (long i = 0; i < iters; i++) {
    x = work(per_step, x);
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    x = sum * 1e-3;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  if (me == 0)
    printf("calls_per_rank %ld\nwall_s %.6f\ncpu_s %.6f\nresult %g\n", iters + 2, t, cpu, x);
  MPI_Finalize();
  return 0;
}
