/* ev_coll.c - hooks of the collectives, blocking and non-blocking.
 *
 * Lines (sizes in bytes, so the datatype fields are omitted and default to MPI_BYTE; roots
 * as world ranks; per-rank vectors in communicator order; the reduction cost field 0, since
 * the time of the operation is inside the MPI call, not in a measured burst):
 *   barrier | bcast B ROOT | reduce B 0 ROOT | allreduce B 0 | alltoall B B
 *   alltoallv SB sc.. RB rc.. | gather S R ROOT | gatherv S rc.. ROOT | scatter S R ROOT
 *   scatterv sc.. R ROOT | allgather B B | allgatherv S rc.. | reducescatter rc.. 0
 *   scan B 0 | exscan B 0            (reduce_scatter_block: reducescatter, equal counts)
 * Arguments that MPI leaves insignificant (receive side at non-roots, send side of
 * MPI_IN_PLACE) are never read: the sizes come from the significant side, which MPI
 * requires to match (e.g. the root's own block of a gather is recvcount x recvtype).
 * On a sub-communicator (tir mode): the line is prefixed `comm ID` (tir extension, see
 * tt_comm.h); in --simgrid-compatible mode such collectives are not expressible (counted).
 * Non-blocking collectives (tir mode): `ibcast ...` etc., same arguments; the K-th one of a
 * rank creates the request key (R, R, -K) that its completion's `wait R R -K` names. In
 * --simgrid-compatible mode they are written as the blocking collective at the point of
 * the call (counted as approximated). */
#include <stdio.h>

#include "tt.h"
#include "tt_comm.h"
#include "tt_out.h"
#include "tt_req.h"

/* Begin the line of collective `action` on comm; NULL if it cannot be written. */
static struct tt_comm *begin(struct tt_call *c, MPI_Comm comm, const char *action, int nbc) {
  struct tt_comm *k = tt_comm_get(comm);
  if (!k->inter && k->size == 1)
    return NULL; /* a collective of one rank communicates nothing */
  if (k->inter || (!k->is_world && (tt.simgrid || k->id < 0))) {
    tt_unexpressed(c);
    return NULL;
  }
  char name[40];
  snprintf(name, sizeof name, "%s%s", nbc && !tt.simgrid ? TRACE_KW_NBC : "", action);
  if (nbc && tt.simgrid)
    tt_approximated(c);
  if (k->is_world) {
    tt_ln(c, name);
  } else {
    tt_ln(c, TRACE_KW_COMM);
    tt_out_int(k->id);
    tt_out_str(name);
  }
  return k;
}

/* End the line; a non-blocking collective also gets its request entry. */
static void end(struct tt_call *c, MPI_Request *request) {
  (void)c;
  tt_out_end();
  if (!request || tt.simgrid || *request == MPI_REQUEST_NULL)
    return;
  tt.nbc++;
  struct tt_req r = {.handle = *request, .kind = TT_RQ_COLL, .src = tt.rank, .dst = tt.rank,
                     .tag = (int)-tt.nbc, .active = 1, .stored = 1};
  r.posted_src = r.src;
  r.posted_tag = r.tag;
  tt_req_put(&r);
}

static void vec(const struct tt_comm *k, const int *counts, MPI_Datatype dt, int significant) {
  int sz = 0;
  if (significant && dt != MPI_DATATYPE_NULL)
    PMPI_Type_size(dt, &sz);
  for (int i = 0; i < k->size; i++)
    tt_out_int(significant ? (long long)counts[i] * sz : 0);
}

static long long vsum(const struct tt_comm *k, const int *counts, MPI_Datatype dt) {
  long long s = 0;
  for (int i = 0; i < k->size; i++)
    s += counts[i];
  return tt_bytes(1, dt) * s;
}

/* ---- the shapes, shared by blocking and non-blocking forms ----------------------------- */
static void barrier(struct tt_call *c, MPI_Comm comm, MPI_Request *rq) {
  if (begin(c, comm, TT_KW(BARRIER), rq != NULL))
    end(c, rq);
}

static void bcast(struct tt_call *c, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, TT_KW(BCAST), rq != NULL);
  if (!k)
    return;
  tt_out_int(tt_bytes(count, dt));
  tt_out_int(tt_comm_world(k, root));
  end(c, rq);
}

/* reduce (root >= 0 or -1 for allreduce), scan, exscan: "B 0 [ROOT]" */
static void reduce(struct tt_call *c, const char *action, int count, MPI_Datatype dt, int root,
                   MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, action, rq != NULL);
  if (!k)
    return;
  tt_out_int(tt_bytes(count, dt));
  tt_out_int(0);
  if (root >= 0)
    tt_out_int(tt_comm_world(k, root));
  end(c, rq);
}

/* alltoall, allgather: per-peer block size, from the receive side */
static void all_block(struct tt_call *c, const char *action, int rcount, MPI_Datatype rtype,
                      MPI_Comm comm, MPI_Request *rq) {
  if (!begin(c, comm, action, rq != NULL))
    return;
  long long b = tt_bytes(rcount, rtype);
  tt_out_int(b);
  tt_out_int(b);
  end(c, rq);
}

static void alltoallv(struct tt_call *c, int in_place, const int *sc, MPI_Datatype st,
                      const int *rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, TT_KW(ALLTOALLV), rq != NULL);
  if (!k)
    return;
  if (in_place) {
    sc = rc;
    st = rt;
  }
  tt_out_int(vsum(k, sc, st));
  vec(k, sc, st, 1);
  tt_out_int(vsum(k, rc, rt));
  vec(k, rc, rt, 1);
  end(c, rq);
}

/* gather / scatter: S R ROOT, each the size of one rank's block */
static void rooted(struct tt_call *c, const char *action, int is_gather, int scount, MPI_Datatype st,
                   int rcount, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, action, rq != NULL);
  if (!k)
    return;
  int at_root = k->me == root;
  /* the significant side: the root's receive (gather) or send (scatter) block, else mine */
  long long b = (at_root == is_gather) ? tt_bytes(rcount, rt) : tt_bytes(scount, st);
  tt_out_int(b);
  tt_out_int(b);
  tt_out_int(tt_comm_world(k, root));
  end(c, rq);
}

static void gatherv(struct tt_call *c, int scount, MPI_Datatype st, const int *rc, MPI_Datatype rt,
                    int root, MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, TT_KW(GATHERV), rq != NULL);
  if (!k)
    return;
  int at_root = k->me == root;
  tt_out_int(at_root ? tt_bytes(rc[k->me], rt) : tt_bytes(scount, st));
  vec(k, rc, rt, at_root);
  tt_out_int(tt_comm_world(k, root));
  end(c, rq);
}

static void scatterv(struct tt_call *c, const int *sc, MPI_Datatype st, int rcount, MPI_Datatype rt,
                     int root, MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, TT_KW(SCATTERV), rq != NULL);
  if (!k)
    return;
  int at_root = k->me == root;
  vec(k, sc, st, at_root);
  tt_out_int(at_root ? tt_bytes(sc[k->me], st) : tt_bytes(rcount, rt));
  tt_out_int(tt_comm_world(k, root));
  end(c, rq);
}

static void allgatherv(struct tt_call *c, const int *rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, TT_KW(ALLGATHERV), rq != NULL);
  if (!k)
    return;
  tt_out_int(tt_bytes(rc[k->me], rt));
  vec(k, rc, rt, 1);
  end(c, rq);
}

/* reduce_scatter (rc) and reduce_scatter_block (rc NULL: every block is rcount) */
static void reducescatter(struct tt_call *c, const int *rc, int rcount, MPI_Datatype dt,
                          MPI_Comm comm, MPI_Request *rq) {
  struct tt_comm *k = begin(c, comm, TT_KW(REDUCESCATTER), rq != NULL);
  if (!k)
    return;
  long long b = tt_bytes(rcount, dt);
  for (int i = 0; i < k->size; i++)
    tt_out_int(rc ? tt_bytes(rc[i], dt) : b);
  tt_out_int(0);
  end(c, rq);
}

static int in_place(struct tt_call *c, const void *buf) {
  return c->fortran ? tt_f_in_place(buf) : buf == MPI_IN_PLACE;
}

/* ---- blocking collectives -------------------------------------------------------------- */
void tt_post_Barrier(struct tt_call *c, MPI_Comm comm) { barrier(c, comm, NULL); }

void tt_post_Bcast(struct tt_call *c, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  (void)buffer;
  bcast(c, count, datatype, root, comm, NULL);
}

void tt_post_Reduce(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(REDUCE), count, datatype, root, comm, NULL);
}

void tt_post_Allreduce(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(ALLREDUCE), count, datatype, -1, comm, NULL);
}

void tt_post_Scan(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(SCAN), count, datatype, -1, comm, NULL);
}

void tt_post_Exscan(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(EXSCAN), count, datatype, -1, comm, NULL);
}

void tt_post_Alltoall(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  (void)sendbuf, (void)sendcount, (void)sendtype, (void)recvbuf;
  all_block(c, TT_KW(ALLTOALL), recvcount, recvtype, comm, NULL);
}

void tt_post_Alltoallv(struct tt_call *c, const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  (void)sdispls, (void)recvbuf, (void)rdispls;
  alltoallv(c, in_place(c, sendbuf), sendcounts, sendtype, recvcounts, recvtype, comm, NULL);
}

void tt_post_Gather(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf;
  rooted(c, TT_KW(GATHER), 1, sendcount, sendtype, recvcount, recvtype, root, comm, NULL);
}

void tt_post_Gatherv(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)displs;
  gatherv(c, sendcount, sendtype, recvcounts, recvtype, root, comm, NULL);
}

void tt_post_Scatter(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf;
  rooted(c, TT_KW(SCATTER), 0, sendcount, sendtype, recvcount, recvtype, root, comm, NULL);
}

void tt_post_Scatterv(struct tt_call *c, const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)displs;
  scatterv(c, sendcounts, sendtype, recvcount, recvtype, root, comm, NULL);
}

void tt_post_Allgather(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  (void)sendbuf, (void)sendcount, (void)sendtype, (void)recvbuf;
  all_block(c, TT_KW(ALLGATHER), recvcount, recvtype, comm, NULL);
}

void tt_post_Allgatherv(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  (void)sendbuf, (void)sendcount, (void)sendtype, (void)recvbuf, (void)displs;
  allgatherv(c, recvcounts, recvtype, comm, NULL);
}

void tt_post_Reduce_scatter(struct tt_call *c, const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reducescatter(c, recvcounts, 0, datatype, comm, NULL);
}

void tt_post_Reduce_scatter_block(struct tt_call *c, const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reducescatter(c, NULL, recvcount, datatype, comm, NULL);
}

/* ---- non-blocking collectives ---------------------------------------------------------- */
void tt_post_Ibarrier(struct tt_call *c, MPI_Comm comm, MPI_Request *request) { barrier(c, comm, request); }

void tt_post_Ibcast(struct tt_call *c, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request) {
  (void)buffer;
  bcast(c, count, datatype, root, comm, request);
}

void tt_post_Ireduce(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(REDUCE), count, datatype, root, comm, request);
}

void tt_post_Iallreduce(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(ALLREDUCE), count, datatype, -1, comm, request);
}

void tt_post_Iscan(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(SCAN), count, datatype, -1, comm, request);
}

void tt_post_Iexscan(struct tt_call *c, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reduce(c, TT_KW(EXSCAN), count, datatype, -1, comm, request);
}

void tt_post_Ialltoall(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)sendcount, (void)sendtype, (void)recvbuf;
  all_block(c, TT_KW(ALLTOALL), recvcount, recvtype, comm, request);
}

void tt_post_Ialltoallv(struct tt_call *c, const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  (void)sdispls, (void)recvbuf, (void)rdispls;
  alltoallv(c, in_place(c, sendbuf), sendcounts, sendtype, recvcounts, recvtype, comm, request);
}

void tt_post_Igather(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf;
  rooted(c, TT_KW(GATHER), 1, sendcount, sendtype, recvcount, recvtype, root, comm, request);
}

void tt_post_Igatherv(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)displs;
  gatherv(c, sendcount, sendtype, recvcounts, recvtype, root, comm, request);
}

void tt_post_Iscatter(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf;
  rooted(c, TT_KW(SCATTER), 0, sendcount, sendtype, recvcount, recvtype, root, comm, request);
}

void tt_post_Iscatterv(struct tt_call *c, const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)displs;
  scatterv(c, sendcounts, sendtype, recvcount, recvtype, root, comm, request);
}

void tt_post_Iallgather(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)sendcount, (void)sendtype, (void)recvbuf;
  all_block(c, TT_KW(ALLGATHER), recvcount, recvtype, comm, request);
}

void tt_post_Iallgatherv(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)sendcount, (void)sendtype, (void)recvbuf, (void)displs;
  allgatherv(c, recvcounts, recvtype, comm, request);
}

void tt_post_Ireduce_scatter(struct tt_call *c, const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reducescatter(c, recvcounts, 0, datatype, comm, request);
}

void tt_post_Ireduce_scatter_block(struct tt_call *c, const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  (void)sendbuf, (void)recvbuf, (void)op;
  reducescatter(c, NULL, recvcount, datatype, comm, request);
}
