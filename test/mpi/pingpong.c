/* pingpong.c - ranks 0 and 1 exchange messages of growing size (8 B to 4 MiB, REPS round
 * trips each), the other ranks idle. Prints "measured_s T" (rank 0, MPI_Wtime from the
 * first to the last message) for test/mpi/predict.sh, which compares it with the replay. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int reps = argc > 1 ? atoi(argv[1]) : 20;
  char *buf = calloc(4 << 20, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int size = 8; size <= (4 << 20); size *= 4)
    for (int i = 0; i < reps && me < 2; i++) {
      if (me == 0) {
        MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
  double t = MPI_Wtime() - t0;
  if (me == 0)
    printf("measured_s %.6f\n", t);
  free(buf);
  MPI_Finalize();
  return 0;
}
