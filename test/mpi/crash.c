/* crash.c - a rank that dies: test/mpi/crash.sh checks its trace is still readable.
 *
 * usage: mpirun -np 2 tir-trace -o DIR -- ./crash segv|kill|exit
 * Rank 1 sends one message to rank 0 (`1 send 0 9 4`), then dies: segv raises SIGSEGV
 * (the tracer's handler closes the file, then the signal proceeds), kill computes for
 * 3 s then SIGKILLs itself (no handler runs: the file holds what the sync thread wrote),
 * exit calls exit(3) without MPI_Finalize (the atexit path closes the file). Rank 0 waits
 * for a second message that never comes, until the launcher kills it. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  int me, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const char *mode = argc > 1 ? argv[1] : "exit";
  if (me == 1) {
    MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    if (!strcmp(mode, "segv"))
      raise(SIGSEGV);
    if (!strcmp(mode, "kill")) {
      struct timespec t = {3, 0};
      nanosleep(&t, NULL);
      raise(SIGKILL);
    }
    exit(3);
  }
  if (me == 0) {
    MPI_Recv(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
