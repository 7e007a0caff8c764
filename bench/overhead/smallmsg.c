/* smallmsg.c - communication-heavy benchmark of the tracer's overhead: ranks pair up and
 * ping-pong 8-byte messages, ITERS round trips (2 MPI calls per rank per round trip).
 * Prints "calls_per_rank N", "wall_s T" and "cpu_s C" (rank 0, around the loop; CPU time
 * is the process's, which a loaded machine does not inflate). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long iters = argc > 1 ? atol(argv[1]) : 100000;
  int peer = me ^ 1;
  double buf = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  clock_t c0 = clock();
  for (long i = 0; peer < n && i < iters; i++) {
    if (me % 2 == 0) {
      MPI_Send(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  if (me == 0)
    printf("calls_per_rank %ld\nwall_s %.6f\ncpu_s %.6f\n", 2 * iters + 2, t, cpu);
  MPI_Finalize();
  return 0;
}
