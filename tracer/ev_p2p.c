/* ev_p2p.c - hooks of the point-to-point calls: send, recv, isend, irecv, sendrecv,
 * probe, iprobe, persistent requests.
 *
 * Lines (TI format, sizes in bytes, peers as world ranks):
 *   send/ssend/bsend/rsend -> `send DST TAG BYTES`;  isend and its variants -> `isend ...`
 *   recv -> `recv SRC TAG BYTES` (SRC/TAG: the matched ones when MPI_ANY_* was posted)
 *   irecv -> `irecv SRC TAG BYTES` (ANY: held and patched at completion, see tt_req.h)
 *   sendrecv -> `sendRecv SBYTES DST RBYTES SRC 6 6` when both tags are 0 (SimGrid's
 *   action, which uses tag 0), else isend + irecv + two waits, its exact equivalent
 *   probe/iprobe -> tir extensions `probe SRC TAG`, `iprobe SRC TAG FLAG`
 *   start of a persistent request -> its isend/irecv line
 * Messages to or from MPI_PROC_NULL write nothing (MPI does nothing). Nothing on an
 * intercommunicator is expressible (counted). */
#include "tt.h"
#include "tt_comm.h"
#include "tt_out.h"
#include "tt_req.h"

#define DT_BYTE_ID 6 /* SimGrid's id of MPI_BYTE, for sendRecv's mandatory datatypes */

/* The comm entry, or NULL (counted as unexpressed) on an intercommunicator. */
static struct tt_comm *comm_of(struct tt_call *c, MPI_Comm comm) {
  struct tt_comm *k = tt_comm_get(comm);
  if (k->inter) {
    tt_unexpressed(c);
    return NULL;
  }
  return k;
}

static void send_line(struct tt_call *c, const char *action, int count, MPI_Datatype dt,
                      int dest, int tag, MPI_Comm comm) {
  struct tt_comm *k = comm_of(c, comm);
  if (!k || dest == MPI_PROC_NULL)
    return;
  tt_ln(c, action);
  tt_out_int(tt_comm_world(k, dest));
  tt_out_int(tag);
  tt_out_int(tt_bytes(count, dt));
  tt_out_end();
}

void tt_post_Send(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  (void)buf;
  send_line(c, TT_KW(SEND), count, datatype, dest, tag, comm);
}
void tt_post_Ssend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  tt_post_Send(c, buf, count, datatype, dest, tag, comm);
}
void tt_post_Bsend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  tt_post_Send(c, buf, count, datatype, dest, tag, comm);
}
void tt_post_Rsend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  tt_post_Send(c, buf, count, datatype, dest, tag, comm);
}

/* Write an isend/irecv line for r (already filled) and store it. */
static void post_line(struct tt_call *c, struct tt_req *r) {
  tt_ln(c, r->kind == TT_RQ_SEND ? TT_KW(ISEND) : TT_KW(IRECV));
  if (r->kind == TT_RQ_SEND) {
    tt_out_int(r->dst);
    tt_out_int(r->tag);
  } else {
    uint64_t hs = 0, ht = 0;
    if (r->src == MPI_ANY_SOURCE)
      hs = tt_out_hold(-555);
    else
      tt_out_int(r->src);
    if (r->tag == MPI_ANY_TAG)
      ht = tt_out_hold(-444);
    else
      tt_out_int(r->tag);
    if (hs || ht)
      tt_req_add_hold(r, hs, ht);
  }
  tt_out_int(r->bytes);
  tt_out_end();
}

/* Fill a request entry for a point-to-point operation. */
static int make_req(struct tt_call *c, struct tt_req *r, int kind, int count, MPI_Datatype dt,
                    int peer, int tag, MPI_Comm comm, MPI_Request handle) {
  struct tt_comm *k = comm_of(c, comm);
  if (!k || peer == MPI_PROC_NULL || handle == MPI_REQUEST_NULL)
    return 0;
  *r = (struct tt_req){.handle = handle, .kind = kind, .active = 1, .stored = 1, .comm = k,
                       .bytes = tt_bytes(count, dt)};
  int w = tt_comm_world(k, peer);
  r->src = kind == TT_RQ_SEND ? tt.rank : w;
  r->dst = kind == TT_RQ_SEND ? w : tt.rank;
  r->tag = tag;
  r->posted_src = r->src;
  r->posted_tag = tag;
  return 1;
}

static void isend(struct tt_call *c, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  struct tt_req r;
  if (!make_req(c, &r, TT_RQ_SEND, count, dt, dest, tag, comm, *request))
    return;
  post_line(c, &r);
  tt_req_put(&r);
}

void tt_post_Isend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  (void)buf;
  isend(c, count, datatype, dest, tag, comm, request);
}
void tt_post_Issend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  tt_post_Isend(c, buf, count, datatype, dest, tag, comm, request);
}
void tt_post_Ibsend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  tt_post_Isend(c, buf, count, datatype, dest, tag, comm, request);
}
void tt_post_Irsend(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  tt_post_Isend(c, buf, count, datatype, dest, tag, comm, request);
}

void tt_post_Irecv(struct tt_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request) {
  (void)buf;
  struct tt_req r;
  if (!make_req(c, &r, TT_RQ_RECV, count, datatype, source, tag, comm, *request))
    return;
  post_line(c, &r);
  tt_req_put(&r);
}

/* `recv SRC TAG BYTES` with the source and tag that matched */
static void recv_line(struct tt_call *c, struct tt_comm *k, long long bytes, int source, int tag, const MPI_Status *st) {
  if (source == MPI_PROC_NULL)
    return;
  tt_ln(c, TT_KW(RECV));
  tt_out_int(tt_comm_world(k, source == MPI_ANY_SOURCE ? st->MPI_SOURCE : source));
  tt_out_int(tag == MPI_ANY_TAG ? st->MPI_TAG : tag);
  tt_out_int(bytes);
  tt_out_end();
}

void tt_post_Recv(struct tt_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status) {
  (void)buf;
  struct tt_comm *k = comm_of(c, comm);
  if (k)
    recv_line(c, k, tt_bytes(count, datatype), source, tag, status);
}

/* sendrecv: one SimGrid sendRecv line if both tags are 0, else isend+irecv+wait+wait */
static void sendrecv(struct tt_call *c, long long sb, int dest, int stag, long long rb, int source,
                     int rtag, MPI_Comm comm, const MPI_Status *st) {
  struct tt_comm *k = comm_of(c, comm);
  if (!k)
    return;
  if (source == MPI_PROC_NULL || dest == MPI_PROC_NULL) {
    if (dest != MPI_PROC_NULL)
      send_line(c, TT_KW(SEND), (int)sb, MPI_BYTE, dest, stag, comm);
    recv_line(c, k, rb, source, rtag, st);
    return;
  }
  int d = tt_comm_world(k, dest);
  int s = tt_comm_world(k, source == MPI_ANY_SOURCE ? st->MPI_SOURCE : source);
  int t = rtag == MPI_ANY_TAG ? st->MPI_TAG : rtag;
  if (stag == 0 && t == 0) {
    tt_ln(c, TT_KW(SENDRECV));
    long long v[] = {sb, d, rb, s, DT_BYTE_ID, DT_BYTE_ID};
    for (int i = 0; i < 6; i++)
      tt_out_int(v[i]);
    tt_out_end();
    return;
  }
  long long lines[4][4] = {{d, stag, sb}, {s, t, rb}, {tt.rank, d, stag}, {s, tt.rank, t}};
  const char *act[4] = {TT_KW(ISEND), TT_KW(IRECV), TT_KW(WAIT), TT_KW(WAIT)};
  for (int i = 0; i < 4; i++) {
    tt_ln(c, act[i]);
    for (int j = 0; j < 3; j++)
      tt_out_int(lines[i][j]);
    tt_out_end();
  }
}

void tt_post_Sendrecv(struct tt_call *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  (void)sendbuf;
  (void)recvbuf;
  sendrecv(c, tt_bytes(sendcount, sendtype), dest, sendtag, tt_bytes(recvcount, recvtype), source,
           recvtag, comm, status);
}

void tt_post_Sendrecv_replace(struct tt_call *c, void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  (void)buf;
  long long b = tt_bytes(count, datatype);
  sendrecv(c, b, dest, sendtag, b, source, recvtag, comm, status);
}

void tt_post_Probe(struct tt_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status) {
  (void)tag;
  struct tt_comm *k = comm_of(c, comm);
  if (!k || source == MPI_PROC_NULL)
    return;
  if (tt.simgrid)
    tt_unexpressed(c);
  tt_ln_ext(c, TT_KW(PROBE));
  tt_out_int(tt_comm_world(k, status->MPI_SOURCE));
  tt_out_int(status->MPI_TAG);
  tt_out_end();
}

void tt_post_Iprobe(struct tt_call *c, int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  struct tt_comm *k = comm_of(c, comm);
  if (!k || source == MPI_PROC_NULL)
    return;
  if (tt.simgrid)
    tt_unexpressed(c);
  tt_ln_ext(c, TT_KW(IPROBE));
  tt_out_int(source == MPI_ANY_SOURCE ? (*flag ? tt_comm_world(k, status->MPI_SOURCE) : -555)
                                      : tt_comm_world(k, source));
  tt_out_int(tag == MPI_ANY_TAG ? (*flag ? status->MPI_TAG : -444) : tag);
  tt_out_int(*flag != 0);
  tt_out_end();
}

/* ---- persistent requests ------------------------------------------------------------ */
static void init_req(struct tt_call *c, int kind, int count, MPI_Datatype dt, int peer, int tag,
                     MPI_Comm comm, MPI_Request handle) {
  struct tt_req r;
  if (!make_req(c, &r, kind, count, dt, peer, tag, comm, handle))
    return;
  r.persistent = 1;
  r.active = 0;
  tt_req_put(&r);
}

void tt_post_Send_init(struct tt_call *c, const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  (void)buf;
  init_req(c, TT_RQ_SEND, count, datatype, dest, tag, comm, *request);
}

void tt_post_Recv_init(struct tt_call *c, void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request) {
  (void)buf;
  init_req(c, TT_RQ_RECV, count, datatype, source, tag, comm, *request);
}

static void start_one(struct tt_call *c, MPI_Request h) {
  struct tt_req *r = tt_req_find(h);
  if (!r || !r->persistent)
    return;
  r->src = r->posted_src;
  r->tag = r->posted_tag;
  r->nholds = 0;
  tt_req_set_active(r, 1);
  post_line(c, r);
}

void tt_pre_Start(struct tt_call *c, MPI_Request *request) {
  tt_saved(1)[0] = *request;
  c->nsaved = 1;
}
void tt_post_Start(struct tt_call *c, MPI_Request *request) {
  (void)request;
  start_one(c, tt_saved(1)[0]);
}

void tt_pre_Startall(struct tt_call *c, int count, MPI_Request array_of_requests[]) {
  MPI_Request *s = tt_saved(count);
  for (int i = 0; i < count; i++)
    s[i] = array_of_requests[i];
  c->nsaved = count;
}
void tt_post_Startall(struct tt_call *c, int count, MPI_Request array_of_requests[]) {
  (void)array_of_requests;
  MPI_Request *s = tt_saved(count);
  for (int i = 0; i < count; i++)
    start_one(c, s[i]);
}
