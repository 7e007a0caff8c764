/* rma.c - a test MPI program of one-sided communication (MPI-3 RMA): it makes every RMA call
 * libtirtrace traces and writes the trace lines it expects (all but the compute lines) to
 * EXPECTED_DIR/expected-RANK.txt, as calls.c does; test/mpi/rma.sh then replays the trace
 * and checks its dates by hand.
 *
 * usage: mpirun -np 4 tir-trace -o DIR -- ./rma EXPECTED_DIR
 * Phases: the world is split in pairs {0, 1} and {2, 3} (comm_split 1), each pair has a window
 * (id 1) over its communicator, and each pair's even rank a and odd rank b run the same
 * script: a fence epoch (a puts 100000 B to b and gets 1000 B), exclusive locks of b's part
 * (a first, then b itself), a lock_all epoch (a: get_accumulate, flush, fetch_and_op with
 * MPI_NO_OP, flush_local, compare_and_swap, win_sync, flush_all, rput + rget and a waitall,
 * flush_local_all), then PSCW (b posts for a and polls MPI_Win_test, a starts, puts 5000 B,
 * completes). Then windows on the world: allocated (id 2, a put to the right and fences),
 * dynamic (id 3, attach and detach), shared on the node's communicator (id 4). Needs exactly
 * 4 ranks. Run with TIR_SIMGRID=1, it expects the --simgrid-compatible form (every RMA line a
 * comment, comm_split without arguments). */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *ex;   /* expected lines of this rank */
static int me, sg; /* world rank; 1 in --simgrid-compatible mode */

/* one expected line "RANK ..." */
static void E(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(ex, "%d ", me);
  vfprintf(ex, fmt, ap);
  fputc('\n', ex);
  va_end(ap);
}

/* a tir-only line: a comment in --simgrid-compatible mode */
static void X(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(ex, "%s%d ", sg ? "# " : "", me);
  vfprintf(ex, fmt, ap);
  fputc('\n', ex);
  va_end(ap);
}

static char buf[100000];  /* window memory */
static char obuf[100000]; /* origin buffers: never the window itself (MPICH's shared-memory
                             path asserts on a put whose origin is the target's own memory) */

static void fence_epoch(MPI_Win w, int a, int b) {
  MPI_Win_fence(0, w); X("win_fence 1");
  if (me == a) {
    MPI_Put(obuf, 100000, MPI_BYTE, 1, 0, 100000, MPI_BYTE, w); X("put 1 %d 100000", b);
    MPI_Get(obuf, 250, MPI_INT, 1, 0, 250, MPI_INT, w); X("get 1 %d 1000", b);
  }
  MPI_Win_fence(0, w); X("win_fence 1");
}

static void lock_epochs(MPI_Win w, int a, int b) {
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w); X("win_lock 1 %d 1", b);
  MPI_Put(obuf, 10000, MPI_BYTE, 1, 0, 10000, MPI_BYTE, w); X("put 1 %d 10000", b);
  MPI_Win_unlock(1, w); X("win_unlock 1 %d", b);
  MPI_Win_lock_all(0, w); X("win_lock_all 1");
  if (me == a) {
    long v = 1, old, cmp = 0;
    MPI_Get_accumulate(&v, 1, MPI_LONG, &old, 1, MPI_LONG, 1, 0, 1, MPI_LONG, MPI_SUM, w);
    X("get_accumulate 1 %d 8 8", b);
    MPI_Win_flush(1, w); X("win_flush 1 %d", b);
    MPI_Fetch_and_op(&v, &old, MPI_LONG, 1, 0, MPI_NO_OP, w); X("fetch_and_op 1 %d 0 8", b);
    MPI_Win_flush_local(1, w); X("win_flush_local 1 %d", b);
    MPI_Compare_and_swap(&v, &cmp, &old, MPI_LONG, 1, 0, w); X("compare_and_swap 1 %d 16 8", b);
    MPI_Win_sync(w); X("win_sync 1");
    MPI_Win_flush_all(w); X("win_flush_all 1");
    MPI_Request rq[2];
    MPI_Rput(obuf, 2000, MPI_BYTE, 1, 0, 2000, MPI_BYTE, w, &rq[0]); X("rput 1 %d 2000", b);
    MPI_Rget(obuf + 2000, 500, MPI_FLOAT, 1, 0, 500, MPI_FLOAT, w, &rq[1]); X("rget 1 %d 2000", b);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    if (!sg) /* (SimGrid's form stores no request: nothing to wait for) */
      E("waitall");
    MPI_Win_flush_local_all(w); X("win_flush_local_all 1");
  }
  MPI_Win_unlock_all(w); X("win_unlock_all 1");
}

static void pscw(MPI_Win w, MPI_Comm pair, int a, int b) {
  MPI_Group g, other;
  MPI_Comm_group(pair, &g);
  int r = me == a ? 1 : 0;
  MPI_Group_incl(g, 1, &r, &other);
  if (me == b) {
    MPI_Win_post(other, 0, w); X("win_post 1 1 %d", a);
    int flag = 0;
    while (!flag)
      MPI_Win_test(w, &flag); /* the failed tests write nothing, the successful one win_wait */
    X("win_wait 1");
  } else {
    MPI_Win_start(other, 0, w); X("win_start 1 1 %d", b);
    MPI_Put(obuf, 5000, MPI_BYTE, 1, 0, 5000, MPI_BYTE, w); X("put 1 %d 5000", b);
    MPI_Win_complete(w); X("win_complete 1");
  }
  MPI_Group_free(&other);
  MPI_Group_free(&g);
}

static void pair_window(void) {
  MPI_Comm pair;
  int a = me & ~1, b = a + 1;
  MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &pair);
  sg ? E("comm_split") : E("comm_split 1 2 %d %d", a, b);
  MPI_Win w;
  MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, pair, &w); X("win_create 1 1 100000");
  fence_epoch(w, a, b);
  lock_epochs(w, a, b);
  pscw(w, pair, a, b);
  MPI_Win_free(&w); X("win_free 1");
  MPI_Comm_free(&pair);
}

static void world_windows(void) {
  double *base;
  MPI_Win w;
  MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w); X("win_allocate 2 0 64");
  MPI_Win_fence(MPI_MODE_NOPRECEDE, w); X("win_fence 2");
  MPI_Accumulate(base, 1, MPI_DOUBLE, (me + 1) % 4, 0, 1, MPI_DOUBLE, MPI_SUM, w); X("accumulate 2 %d 8", (me + 1) % 4);
  MPI_Put(base, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, 1, MPI_DOUBLE, w); /* nothing */
  MPI_Win_fence(MPI_MODE_NOSUCCEED, w); X("win_fence 2");
  MPI_Win_free(&w); X("win_free 2");
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w); X("win_create_dynamic 3 0");
  MPI_Win_attach(w, buf, 64); /* local calls: no line */
  MPI_Win_detach(w, buf);
  MPI_Win_free(&w); X("win_free 3");
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n;
  MPI_Comm_size(node, &n);
  if (n != 4) { /* the test runs on one node */
    fprintf(stderr, "rma: the 4 ranks must run on one node\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  sg ? E("comm_split") : E("comm_split 2 4 0 1 2 3");
  MPI_Win_allocate_shared(8, 8, MPI_INFO_NULL, node, &base, &w); X("win_allocate_shared 4 0 8");
  MPI_Win_free(&w); X("win_free 4");
  MPI_Comm_free(&node);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 4 || argc < 2) {
    if (me == 0)
      fprintf(stderr, "usage: mpirun -np 4 %s EXPECTED_DIR\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *s = getenv("TIR_SIMGRID");
  sg = s && !strcmp(s, "1");
  char path[4096];
  snprintf(path, sizeof path, "%s/expected-%d.txt", argv[1], me);
  ex = fopen(path, "w");
  if (!ex) {
    perror(path);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  E("init");
  pair_window();
  world_windows();
  E("finalize");
  fclose(ex);
  MPI_Finalize();
  return 0;
}
