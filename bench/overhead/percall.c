/* percall.c - the tracer's cost per MPI call, without a network in the way: one rank sends
 * 8-byte messages to itself (MPI_Send then MPI_Recv, both traced, eager), ITERS times.
 * Prints "calls_per_rank N", "wall_s T" and "cpu_s C" (process CPU time, which a loaded
 * machine does not inflate). Run with np=1: the difference between traced and untraced
 * CPU time divided by the calls is the per-call cost of tracing. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  long iters = argc > 1 ? atol(argv[1]) : 1000000;
  double buf = 0;
  double t0 = MPI_Wtime();
  clock_t c0 = clock();
  for (long i = 0; i < iters; i++) {
    MPI_Send(&buf, 1, MPI_DOUBLE, me, 0, MPI_COMM_SELF);
    MPI_Recv(&buf, 1, MPI_DOUBLE, me, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  }
  double t = MPI_Wtime() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  if (me == 0)
    printf("calls_per_rank %ld\nwall_s %.6f\ncpu_s %.6f\n", 2 * iters, t, cpu);
  MPI_Finalize();
  return 0;
}
