/* poll.c - a polling loop, for test/mpi/poll.sh: rank 0 sleeps MS milliseconds (wall time,
 * no CPU), then sends 1000 bytes with tag 7 to rank 1, which polls MPI_Iprobe(MPI_ANY_SOURCE,
 * MPI_ANY_TAG) until the message is there, then receives it. The trace holds as many failed
 * iprobes as rank 1 happened to make while rank 0 slept.
 * usage: mpirun -np 2 tir-trace -o DIR -- ./poll MS */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  char buf[1000] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    long ms = argc > 1 ? atol(argv[1]) : 10;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    MPI_Send(buf, 1000, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
  } else if (me == 1) {
    int flag = 0;
    MPI_Status st;
    while (!flag)
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MPI_Recv(buf, 1000, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
