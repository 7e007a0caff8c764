/* crash.c - a rank that dies: test/mpi/crash.sh checks its trace is still readable.
 *
 * usage: mpirun -np 2 tir-trace -o DIR -- ./crash segv|kill|exit|abort0|exit0
 * Rank 1 sends one message to rank 0 (`1 send 0 9 4`), then, in the first three modes,
 * dies: segv raises SIGSEGV (the tracer's handler has the file closed, then the signal
 * proceeds), kill computes for 3 s then SIGKILLs itself (no handler runs: the file holds
 * what the sync thread wrote), exit calls exit(3) without MPI_Finalize (the atexit path
 * closes the file); rank 0 waits for a second message that never comes, until the launcher
 * kills it. In abort0 and exit0 rank 0 receives the message and calls MPI_Abort(3) or
 * exit(3) itself, so trace.meta says `aborted`; rank 1 waits until the launcher kills it. */
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
  int rank0_dies = !strcmp(mode, "abort0") || !strcmp(mode, "exit0");
  if (me == 1) {
    MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    if (!strcmp(mode, "segv"))
      raise(SIGSEGV);
    if (!strcmp(mode, "kill")) {
      struct timespec t = {3, 0};
      nanosleep(&t, NULL);
      raise(SIGKILL);
    }
    if (rank0_dies)
      MPI_Recv(&x, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    exit(3);
  }
  if (me == 0) {
    MPI_Recv(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!strcmp(mode, "abort0"))
      MPI_Abort(MPI_COMM_WORLD, 3);
    if (!strcmp(mode, "exit0"))
      exit(3);
    MPI_Recv(&x, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
