/* calls.c - a test MPI program that calls every call libtirtrace traces, and writes the
 * trace lines it expects (all but the compute lines) to EXPECTED_DIR/expected-RANK.txt.
 *
 * usage: mpirun -np 4 tir-trace -o DIR -- ./calls EXPECTED_DIR
 * The program knows its communication pattern: each call is followed by the line(s) that
 * doc/tracer.md says it becomes, computed here by hand (peers as world ranks, sizes in
 * bytes). Where the run decides (how many MPI_Test calls fail, which request MPI_Waitany
 * returns) the program records what happened and applies the documented rule. Run with
 * TIR_SIMGRID=1, it expects the --simgrid-compatible form (tir-only lines as comments,
 * sub-communicator collectives absent, non-blocking collectives as blocking ones).
 * Needs exactly 4 ranks. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tirtrace.h"

static FILE *ex;     /* expected lines of this rank */
static int me, sg;   /* world rank; 1 in --simgrid-compatible mode */
static int right, left;
static int nbc;      /* non-blocking collectives started (tir mode: request tag -nbc) */

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

static void blocking_p2p(void) {
  int ibuf[16] = {0};
  double dbuf[4] = {0};
  MPI_Status st;
  if (me % 2 == 0) { /* ring: 10 ints = 40 bytes, tag 1 */
    MPI_Send(ibuf, 10, MPI_INT, right, 1, MPI_COMM_WORLD); E("send %d 1 40", right);
    MPI_Recv(ibuf, 10, MPI_INT, left, 1, MPI_COMM_WORLD, &st); E("recv %d 1 40", left);
  } else {
    MPI_Recv(ibuf, 10, MPI_INT, left, 1, MPI_COMM_WORLD, &st); E("recv %d 1 40", left);
    MPI_Send(ibuf, 10, MPI_INT, right, 1, MPI_COMM_WORLD); E("send %d 1 40", right);
  }
  if (me == 0) { MPI_Ssend(dbuf, 3, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD); E("send 1 2 24"); }
  if (me == 1) { /* ANY_SOURCE, ANY_TAG: the trace names the matched source and tag */
    MPI_Recv(dbuf, 3, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    E("recv 0 2 24");
  }
  static char bsend_buf[1024];
  char cbuf[8] = "abcde";
  if (me == 2) {
    MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
    MPI_Bsend(cbuf, 5, MPI_CHAR, 3, 4, MPI_COMM_WORLD); E("send 3 4 5");
    void *b; int sz;
    MPI_Buffer_detach(&b, &sz);
  }
  if (me == 3) { MPI_Recv(cbuf, 5, MPI_CHAR, 2, 4, MPI_COMM_WORLD, &st); E("recv 2 4 5"); }
  long long ll = 0;
  MPI_Request rq = MPI_REQUEST_NULL;
  if (me == 3) { MPI_Irecv(&ll, 1, MPI_LONG_LONG, 0, 5, MPI_COMM_WORLD, &rq); E("irecv 0 5 8"); }
  MPI_Barrier(MPI_COMM_WORLD); E("barrier");
  if (me == 0) { MPI_Rsend(&ll, 1, MPI_LONG_LONG, 3, 5, MPI_COMM_WORLD); E("send 3 5 8"); }
  if (me == 3) { MPI_Wait(&rq, &st); E("wait 0 3 5"); }
  /* a receive posted larger than the message: the posted size is written */
  if (me == 1) { MPI_Send(ibuf, 2, MPI_INT, 2, 6, MPI_COMM_WORLD); E("send 2 6 8"); }
  if (me == 2) { MPI_Recv(ibuf, 10, MPI_INT, 1, 6, MPI_COMM_WORLD, &st); E("recv 1 6 40"); }
  /* MPI_PROC_NULL: nothing */
  MPI_Send(ibuf, 1, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD);
}

/* irecv from left and isend to right, n ints, tag t: rq[0] recv, rq[1] send */
static void pair(MPI_Request *rq, int *rb, int *sb, int n, int t) {
  MPI_Irecv(rb, n, MPI_INT, left, t, MPI_COMM_WORLD, &rq[0]); E("irecv %d %d %d", left, t, 4 * n);
  MPI_Isend(sb, n, MPI_INT, right, t, MPI_COMM_WORLD, &rq[1]); E("isend %d %d %d", right, t, 4 * n);
}

/* the key "S D T" of pair()'s request i */
static void key(char *out, int i, int t) {
  sprintf(out, "%d %d %d", i == 0 ? left : me, i == 0 ? me : right, t);
}

static void waits(void) {
  int rb[8][4], sb[8][4];
  MPI_Request rq[4];
  char k[64];
  pair(rq, rb[0], sb[0], 10, 10);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE); E("waitall"); /* every pending request */
  pair(rq, rb[1], sb[1], 1, 11);
  pair(rq + 2, rb[2], sb[2], 1, 12);
  MPI_Request part[2] = {rq[0], rq[1]};
  MPI_Waitall(2, part, MPI_STATUSES_IGNORE); /* only some: one wait each */
  E("wait %d %d 11", left, me); E("wait %d %d 11", me, right);
  MPI_Waitall(2, rq + 2, MPI_STATUSES_IGNORE); E("waitall");
  pair(rq, rb[3], sb[3], 1, 13);
  for (int done = 0; done < 2; done++) {
    int i;
    MPI_Waitany(2, rq, &i, MPI_STATUS_IGNORE);
    key(k, i, 13); E("wait %s", k);
  }
  pair(rq, rb[4], sb[4], 1, 14);
  for (int done = 0; done < 2;) {
    int n, idx[2];
    MPI_Waitsome(2, rq, &n, idx, MPI_STATUSES_IGNORE);
    for (int j = 0; j < n; j++, done++) { key(k, idx[j], 14); E("wait %s", k); }
  }
}

/* a test line's FLAG (tir mode): 0 for a poll that completed nothing, 1 for a completion */
static const char *flag_of(int completed) { return sg ? "" : completed ? " 1" : " 0"; }

static void tests(void) {
  int rb[8][4], sb[8][4], flag = 0;
  MPI_Request rq[2];
  char k[64];
  pair(rq, rb[0], sb[0], 1, 15);
  for (flag = 0; !flag;) {
    MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE); E("test %d %d 15%s", left, me, flag_of(flag));
  }
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE); E("wait %d %d 15", me, right);
  pair(rq, rb[1], sb[1], 1, 16);
  for (flag = 0; !flag;) {
    MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
    E("test %d %d 16%s", left, me, flag_of(flag)); /* a failed poll names the first pending request */
    if (flag) E("test %d %d 16%s", me, right, flag_of(1));
  }
  pair(rq, rb[2], sb[2], 1, 17);
  for (int done[2] = {0, 0}; !done[0] || !done[1];) {
    int i;
    MPI_Testany(2, rq, &i, &flag, MPI_STATUS_IGNORE);
    if (flag) done[i] = 1;
    key(k, flag ? i : (done[0] ? 1 : 0), 17); E("test %s%s", k, flag_of(flag));
  }
  pair(rq, rb[3], sb[3], 1, 18);
  for (int done[2] = {0, 0}; !done[0] || !done[1];) {
    int n, idx[2];
    MPI_Testsome(2, rq, &n, idx, MPI_STATUSES_IGNORE);
    if (n == 0) { key(k, done[0] ? 1 : 0, 18); E("test %s%s", k, flag_of(0)); }
    for (int j = 0; j < n; j++) { done[idx[j]] = 1; key(k, idx[j], 18); E("test %s%s", k, flag_of(1)); }
  }
  /* MPI_ANY_SOURCE / MPI_ANY_TAG irecv: the trace is patched with the matched ones */
  int x = 0, y = 0;
  MPI_Request a[2];
  MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &a[0]); E("irecv %d 19 4", left);
  MPI_Isend(&y, 1, MPI_INT, right, 19, MPI_COMM_WORLD, &a[1]); E("isend %d 19 4", right);
  MPI_Wait(&a[0], MPI_STATUS_IGNORE); E("wait %d %d 19", left, me);
  MPI_Wait(&a[1], MPI_STATUS_IGNORE); E("wait %d %d 19", me, right);
  MPI_Isend(&y, 1, MPI_INT, right, 20, MPI_COMM_WORLD, &a[1]); E("isend %d 20 4", right);
  MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &a[0]); E("irecv %d 20 4", left);
  for (flag = 0; !flag;) {
    MPI_Test(&a[0], &flag, MPI_STATUS_IGNORE); E("test %d %d 20%s", left, me, flag_of(flag));
  }
  MPI_Wait(&a[1], MPI_STATUS_IGNORE); E("wait %d %d 20", me, right);
  /* a cancelled ANY_SOURCE receive: its line (held until then) becomes a comment */
  MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 60, MPI_COMM_WORLD, &a[0]);
  MPI_Cancel(&a[0]);
  MPI_Wait(&a[0], MPI_STATUS_IGNORE);
  fprintf(ex, "# irecv -555 60 4\n");
}

static void persistent(void) {
  int r[2], s[2] = {1, 2};
  MPI_Request rq[2];
  MPI_Recv_init(r, 2, MPI_INT, left, 21, MPI_COMM_WORLD, &rq[0]);
  MPI_Send_init(s, 2, MPI_INT, right, 21, MPI_COMM_WORLD, &rq[1]);
  MPI_Startall(2, rq); E("irecv %d 21 8", left); E("isend %d 21 8", right);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE); E("waitall");
  MPI_Start(&rq[0]); E("irecv %d 21 8", left);
  MPI_Start(&rq[1]); E("isend %d 21 8", right);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE); E("wait %d %d 21", left, me);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE); E("wait %d %d 21", me, right);
  MPI_Request_free(&rq[0]);
  MPI_Request_free(&rq[1]);
  MPI_Request f;
  MPI_Isend(s, 1, MPI_INT, right, 22, MPI_COMM_WORLD, &f); E("isend %d 22 4", right);
  MPI_Request_free(&f);
  MPI_Recv(r, 1, MPI_INT, left, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE); E("recv %d 22 4", left);
}

static void sendrecvs(void) {
  int s[3] = {0}, r[3];
  double d[2] = {0};
  MPI_Sendrecv(s, 3, MPI_INT, right, 0, r, 3, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  E("sendRecv 12 %d 12 %d 6 6", right, left);
  MPI_Sendrecv(s, 3, MPI_INT, right, 30, r, 3, MPI_INT, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  E("isend %d 30 12", right); E("irecv %d 30 12", left);
  E("wait %d %d 30", me, right); E("wait %d %d 30", left, me);
  MPI_Sendrecv(s, 3, MPI_INT, right, 0, r, 3, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  E("sendRecv 12 %d 12 %d 6 6", right, left);
  MPI_Sendrecv_replace(d, 2, MPI_DOUBLE, right, 31, left, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  E("isend %d 31 16", right); E("irecv %d 31 16", left);
  E("wait %d %d 31", me, right); E("wait %d %d 31", left, me);
  int dst = me == 0 ? 1 : MPI_PROC_NULL, src = me == 1 ? 0 : MPI_PROC_NULL;
  MPI_Sendrecv(s, 1, MPI_INT, dst, 32, r, 1, MPI_INT, src, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me == 0) E("send 1 32 4");
  if (me == 1) E("recv 0 32 4");
}

static void probes(void) {
  int b[4] = {0}, flag = 0;
  MPI_Status st;
  if (me == 0) { MPI_Send(b, 4, MPI_INT, 1, 40, MPI_COMM_WORLD); E("send 1 40 16"); }
  if (me != 1)
    return;
  while (!flag) {
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) X("iprobe 0 40 1"); else X("iprobe -555 -444 0");
  }
  MPI_Probe(0, 40, MPI_COMM_WORLD, &st); X("probe 0 40");
  MPI_Recv(b, 4, MPI_INT, 0, 40, MPI_COMM_WORLD, &st); E("recv 0 40 16");
}

static void collectives(void) {
  int i4[64] = {0}, sc[4], rc[4], dz[4] = {0, 0, 0, 0}, r1 = me + 1;
  double d[16] = {0};
  char c8[64] = {0};
  MPI_Barrier(MPI_COMM_WORLD); E("barrier");
  MPI_Bcast(i4, 10, MPI_INT, 2, MPI_COMM_WORLD); E("bcast 40 2");
  MPI_Reduce(d, d + 8, 3, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD); E("reduce 24 0 1");
  MPI_Allreduce(i4, i4 + 8, 5, MPI_INT, MPI_MAX, MPI_COMM_WORLD); E("allreduce 20 0");
  MPI_Allreduce(MPI_IN_PLACE, i4, 5, MPI_INT, MPI_MAX, MPI_COMM_WORLD); E("allreduce 20 0");
  MPI_Alltoall(i4, 2, MPI_INT, i4 + 16, 2, MPI_INT, MPI_COMM_WORLD); E("alltoall 8 8");
  for (int j = 0; j < 4; j++) { sc[j] = j + 1; rc[j] = r1; } /* j gets j+1 ints from everyone */
  MPI_Alltoallv(i4, sc, dz, MPI_INT, i4 + 32, rc, dz, MPI_INT, MPI_COMM_WORLD);
  E("alltoallv 40 4 8 12 16 %d %d %d %d %d", 16 * r1, 4 * r1, 4 * r1, 4 * r1, 4 * r1);
  MPI_Gather(i4, 2, MPI_INT, i4 + 16, 2, MPI_INT, 3, MPI_COMM_WORLD); E("gather 8 8 3");
  for (int j = 0; j < 4; j++) rc[j] = j + 1;
  MPI_Gatherv(c8, r1, MPI_CHAR, c8 + 16, rc, dz, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (me == 0) E("gatherv 1 1 2 3 4 0"); else E("gatherv %d 0 0 0 0 0", r1);
  MPI_Scatter(d, 3, MPI_DOUBLE, d + 8, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD); E("scatter 24 24 0");
  for (int j = 0; j < 4; j++) sc[j] = 2 * (j + 1);
  MPI_Scatterv(i4, sc, dz, MPI_INT, i4 + 32, 2 * r1, MPI_INT, 1, MPI_COMM_WORLD);
  if (me == 1) E("scatterv 8 16 24 32 16 1"); else E("scatterv 0 0 0 0 %d 1", 8 * r1);
  MPI_Allgather(d, 1, MPI_DOUBLE, d + 8, 1, MPI_DOUBLE, MPI_COMM_WORLD); E("allgather 8 8");
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d + 8, 1, MPI_DOUBLE, MPI_COMM_WORLD); E("allgather 8 8");
  MPI_Allgatherv(i4, r1, MPI_INT, i4 + 16, rc, dz, MPI_INT, MPI_COMM_WORLD);
  E("allgatherv %d 4 8 12 16", 4 * r1);
  MPI_Reduce_scatter(i4, i4 + 32, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD); E("reducescatter 4 8 12 16 0");
  MPI_Reduce_scatter_block(i4, i4 + 32, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); E("reducescatter 8 8 8 8 0");
  MPI_Scan(i4, i4 + 8, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); E("scan 4 0");
  MPI_Exscan(i4, i4 + 8, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); E("exscan 4 0");
}

static void communicators(void) {
  int x[4] = {0};
  double y = 0;
  MPI_Comm dup, half, three, cart, col;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (sg) E("comm_dup"); else E("comm_dup 1 4 0 1 2 3");
  MPI_Bcast(x, 1, MPI_INT, 0, dup); E("bcast 4 0"); /* same members as the world: plain */
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half); /* reversed: [2 0] and [3 1] */
  int a = me % 2 ? 3 : 2, b = me % 2 ? 1 : 0;
  if (sg) E("comm_split"); else E("comm_split 2 2 %d %d", a, b);
  MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_DOUBLE, MPI_SUM, half);
  if (!sg) E("comm 2 allreduce 8 0");
  MPI_Bcast(x, 2, MPI_INT, 0, half);
  if (!sg) E("comm 2 bcast 8 %d", a);
  if (me == a) { MPI_Send(x, 1, MPI_INT, 1, 50, half); E("send %d 50 4", b); }
  else { MPI_Recv(x, 1, MPI_INT, 0, 50, half, MPI_STATUS_IGNORE); E("recv %d 50 4", a); }
  MPI_Comm_split(MPI_COMM_WORLD, me < 3 ? 0 : MPI_UNDEFINED, me, &three);
  if (sg) E("comm_split"); else if (me < 3) E("comm_split 3 3 0 1 2"); else E("comm_split -1 0");
  if (three != MPI_COMM_NULL) {
    MPI_Barrier(three);
    if (!sg) E("comm 3 barrier");
    MPI_Comm_free(&three);
  }
  int dims[2] = {2, 2}, periods[2] = {1, 1}, remain[2] = {1, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  X("comm_create 4 4 0 1 2 3");
  MPI_Cart_sub(cart, remain, &col); /* keeps dimension 0: [0 2] and [1 3] */
  if (sg) E("comm_split"); else E("comm_split 5 2 %d %d", me % 2, me % 2 + 2);
  MPI_Comm_free(&col);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
}

/* a non-blocking collective's line, then its completion */
static void nb(const char *line, MPI_Request *rq) {
  if (sg)
    E("%s", line);
  else
    E("i%s", line);
  nbc++;
  if (rq) {
    MPI_Wait(rq, MPI_STATUS_IGNORE);
    if (!sg) E("wait %d %d %d", me, me, -nbc);
  }
}

static void nonblocking_collectives(void) {
  int i4[64] = {0}, cnt[4] = {1, 2, 3, 4}, dz[4] = {0}, r1 = me + 1;
  double d[16] = {0};
  char line[128];
  MPI_Request rq, two[2];
  MPI_Ibcast(i4, 4, MPI_INT, 0, MPI_COMM_WORLD, &rq); nb("bcast 16 0", &rq);
  MPI_Iallreduce(d, d + 8, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &two[0]); nb("allreduce 16 0", NULL);
  MPI_Ibarrier(MPI_COMM_WORLD, &two[1]); nb("barrier", NULL);
  MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
  if (!sg) E("waitall");
  MPI_Ireduce(d, d + 8, 1, MPI_DOUBLE, MPI_MAX, 2, MPI_COMM_WORLD, &rq); nb("reduce 8 0 2", &rq);
  MPI_Ialltoall(i4, 1, MPI_INT, i4 + 8, 1, MPI_INT, MPI_COMM_WORLD, &rq); nb("alltoall 4 4", &rq);
  int mine[4] = {r1, r1, r1, r1};
  MPI_Ialltoallv(i4, cnt, dz, MPI_INT, i4 + 16, mine, dz, MPI_INT, MPI_COMM_WORLD, &rq);
  sprintf(line, "alltoallv 40 4 8 12 16 %d %d %d %d %d", 16 * r1, 4 * r1, 4 * r1, 4 * r1, 4 * r1);
  nb(line, &rq);
  MPI_Igather(i4, 1, MPI_INT, i4 + 8, 1, MPI_INT, 1, MPI_COMM_WORLD, &rq); nb("gather 4 4 1", &rq);
  MPI_Igatherv(i4, r1, MPI_INT, i4 + 16, cnt, dz, MPI_INT, 0, MPI_COMM_WORLD, &rq);
  sprintf(line, me == 0 ? "gatherv 4 4 8 12 16 0" : "gatherv %d 0 0 0 0 0", 4 * r1); nb(line, &rq);
  MPI_Iscatter(i4, 2, MPI_INT, i4 + 8, 2, MPI_INT, 3, MPI_COMM_WORLD, &rq); nb("scatter 8 8 3", &rq);
  MPI_Iscatterv(i4, cnt, dz, MPI_INT, i4 + 16, r1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
  sprintf(line, me == 0 ? "scatterv 4 8 12 16 4 0" : "scatterv 0 0 0 0 %d 0", 4 * r1); nb(line, &rq);
  MPI_Iallgather(i4, 1, MPI_INT, i4 + 8, 1, MPI_INT, MPI_COMM_WORLD, &rq); nb("allgather 4 4", &rq);
  MPI_Iallgatherv(i4, r1, MPI_INT, i4 + 16, cnt, dz, MPI_INT, MPI_COMM_WORLD, &rq);
  sprintf(line, "allgatherv %d 4 8 12 16", 4 * r1); nb(line, &rq);
  MPI_Ireduce_scatter(i4, i4 + 16, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); nb("reducescatter 4 8 12 16 0", &rq);
  MPI_Ireduce_scatter_block(i4, i4 + 16, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); nb("reducescatter 4 4 4 4 0", &rq);
  MPI_Iscan(i4, i4 + 8, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); nb("scan 4 0", &rq);
  MPI_Iexscan(i4, i4 + 8, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq); nb("exscan 4 0", &rq);
}

static void regions_and_unsupported(void) {
  MPI_Pcontrol(1, "phase one"); X("region phase_one");
  MPI_Pcontrol(0); X("region_end phase_one");
  TIR_REGION_BEGIN("solve"); X("region solve");
  TIR_REGION_END("solve"); X("region_end solve");
  int s[4] = {0}, r[4], one[4] = {1, 1, 1, 1}, disp[4] = {0, 4, 8, 12};
  MPI_Datatype t[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
  MPI_Alltoallw(s, one, disp, t, r, one, disp, t, MPI_COMM_WORLD); /* not expressible: counted */
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
  right = (me + 1) % 4;
  left = (me + 3) % 4;
  char path[4096];
  snprintf(path, sizeof path, "%s/expected-%d.txt", argv[1], me);
  ex = fopen(path, "w");
  if (!ex) {
    perror(path);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  E("init");
  blocking_p2p();
  waits();
  tests();
  persistent();
  sendrecvs();
  probes();
  collectives();
  communicators();
  nonblocking_collectives();
  regions_and_unsupported();
  E("finalize");
  fclose(ex);
  MPI_Finalize();
  return 0;
}
