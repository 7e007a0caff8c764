/* long.c - a rank loop that runs until stopped: test/mpi/killed.sh stops it with signals,
 * test/mpi/trace_dir.sh lets it end.
 *
 * usage: mpirun -np N tir-trace -o DIR -- ./long PIDDIR SECONDS
 * Each rank writes its pid to PIDDIR/pid-RANK once MPI_Init returned (so the test can
 * signal the ranks themselves, as a batch system does), then iterates: about 1 ms of
 * computation, a ring exchange (sendrecv of 8 bytes to the right, tag 7) and an allreduce of
 * one double, until SECONDS of wall time have passed (rank 0 decides, the allreduce carries
 * its decision), then calls MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile double sink;

int main(int argc, char **argv) {
  int me, n;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc < 3)
    MPI_Abort(MPI_COMM_WORLD, 2);
  char path[4096];
  snprintf(path, sizeof path, "%s/pid-%d", argv[1], me);
  FILE *f = fopen(path, "w");
  if (!f)
    MPI_Abort(MPI_COMM_WORLD, 2);
  fprintf(f, "%d\n", (int)getpid());
  fclose(f);
  double t0 = MPI_Wtime(), limit = atof(argv[2]), go = 1;
  while (go > 0) {
    for (int i = 0; i < 300000; i++)
      sink += i * 1e-9;
    double s = me, r = 0;
    MPI_Sendrecv(&s, 1, MPI_DOUBLE, (me + 1) % n, 7, &r, 1, MPI_DOUBLE, (me + n - 1) % n, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double mine = me == 0 && MPI_Wtime() - t0 > limit ? 0 : 1;
    MPI_Allreduce(&mine, &go, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
