/* ev_rma.c - hooks of one-sided communication (MPI-3 RMA), a tir extension of the format.
 *
 * Lines (doc/trace-format.md "One-sided communication"; WIN the window's id, agreed by its
 * members at creation (tt_win.h); TARGET a world rank; sizes in bytes):
 *   win_create | win_allocate | win_allocate_shared WIN COMM BYTES, win_create_dynamic WIN
 *   COMM (COMM: 0 for a communicator that is the world, else its id; one the trace has not
 *   named yet gets its comm_create line first), win_free WIN
 *   put | get | accumulate | rput | rget | raccumulate WIN TARGET BYTES (the origin's side)
 *   get_accumulate | rget_accumulate | fetch_and_op | compare_and_swap WIN TARGET SBYTES RBYTES
 *   (what goes to the target: 0 with MPI_NO_OP, compare_and_swap's two values; what comes back)
 *   win_fence | win_lock_all | win_unlock_all | win_flush_all | win_flush_local_all |
 *   win_complete | win_wait | win_sync WIN; win_lock WIN TARGET EXCLUSIVE (1 or 0);
 *   win_unlock | win_flush | win_flush_local WIN TARGET; win_post | win_start WIN SIZE w0 ..
 * A successful MPI_Win_test is written as win_wait (it ends the exposure epoch), a failed one
 * writes nothing. The request of rput & co. is named like a non-blocking collective's: the
 * K-th such line of a rank (both kinds counted together) makes the key (R, R, -K).
 * Operations to MPI_PROC_NULL write nothing. --simgrid-compatible: SimGrid 3.32 replays no
 * RMA, so every line is a comment and every call counts as unexpressed; so does a call on a
 * window the tracer did not see created. */
#include "tt.h"
#include "tt_comm.h"
#include "tt_out.h"
#include "tt_req.h"
#include "tt_win.h"

#include <stdlib.h>

/* ---- windows ---------------------------------------------------------------------------- */

/* A new window over comm: registers (and names) comm if the trace does not know it yet,
 * agrees the window's id, writes `ACTION WIN COMM [BYTES]`. */
static void create(struct tt_call *c, const char *action, MPI_Comm comm, MPI_Win win, long long bytes) {
  struct tt_comm *k = tt_comm_get(comm);
  if (k->inter || win == MPI_WIN_NULL) {
    tt_unexpressed(c);
    return;
  }
  if (!k->is_world && k->id < 0) {
    tt_comm_line(c, TT_KW(COMM_CREATE), 0, comm);
    k = tt_comm_get(comm);
  }
  struct tt_win *w = tt_win_register(win, k, comm);
  if (tt.simgrid)
    tt_unexpressed(c);
  tt_ln_ext(c, action);
  tt_out_int(w->id);
  tt_out_int(k->is_world ? 0 : k->id);
  if (bytes >= 0)
    tt_out_int(bytes);
  tt_out_end();
}

void tt_post_Win_create(struct tt_call *c, void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  (void)base, (void)disp_unit, (void)info;
  create(c, TT_KW(WIN_CREATE), comm, *win, (long long)size);
}

void tt_post_Win_allocate(struct tt_call *c, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
  (void)disp_unit, (void)info, (void)baseptr;
  create(c, TT_KW(WIN_ALLOCATE), comm, *win, (long long)size);
}

void tt_post_Win_allocate_shared(struct tt_call *c, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
  (void)disp_unit, (void)info, (void)baseptr;
  create(c, TT_KW(WIN_ALLOCATE_SHARED), comm, *win, (long long)size);
}

void tt_post_Win_create_dynamic(struct tt_call *c, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  (void)info;
  create(c, TT_KW(WIN_CREATE_DYNAMIC), comm, *win, -1);
}

/* Begins the line `ACTION WIN` of a call on win; NULL (counted) for an unknown window. */
static struct tt_win *begin(struct tt_call *c, const char *action, MPI_Win win) {
  struct tt_win *w = tt_win_get(win);
  if (!w || tt.simgrid)
    tt_unexpressed(c);
  if (!w)
    return NULL;
  tt_ln_ext(c, action);
  tt_out_int(w->id);
  return w;
}

/* The line is written before the call, which turns the handle into MPI_WIN_NULL. */
void tt_pre_Win_free(struct tt_call *c, MPI_Win *win) {
  if (begin(c, TT_KW(WIN_FREE), *win))
    tt_out_end();
  tt_win_forget(*win);
}
void tt_post_Win_free(struct tt_call *c, MPI_Win *win) { (void)c, (void)win; }

/* ---- operations --------------------------------------------------------------------------- */

/* `ACTION WIN TARGET SBYTES [RBYTES]` (rbytes < 0: absent); request: of an r* form. */
static void op_line(struct tt_call *c, const char *action, MPI_Win win, int target, long long sbytes,
                    long long rbytes, MPI_Request *request) {
  if (target == MPI_PROC_NULL)
    return;
  struct tt_win *w = begin(c, action, win);
  if (!w)
    return;
  tt_out_int(tt_comm_world(w->comm, target));
  tt_out_int(sbytes);
  if (rbytes >= 0)
    tt_out_int(rbytes);
  tt_out_end();
  if (!request || tt.simgrid || *request == MPI_REQUEST_NULL)
    return;
  tt.nbc++; /* the key (R, R, -K) of the K-th request-making line without a peer key */
  struct tt_req r = {.handle = *request, .kind = TT_RQ_COLL, .src = tt.rank, .dst = tt.rank,
                     .tag = (int)-tt.nbc, .active = 1, .stored = 1};
  r.posted_src = r.src;
  r.posted_tag = r.tag;
  tt_req_put(&r);
}

/* bytes of what goes with an accumulate-like operation: nothing with MPI_NO_OP */
static long long with_op(int count, MPI_Datatype dt, MPI_Op op) { return op == MPI_NO_OP ? 0 : tt_bytes(count, dt); }

void tt_post_Put(struct tt_call *c, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  (void)origin_addr, (void)target_disp, (void)target_count, (void)target_datatype;
  op_line(c, TT_KW(PUT), win, target_rank, tt_bytes(origin_count, origin_datatype), -1, NULL);
}

void tt_post_Get(struct tt_call *c, void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  (void)origin_addr, (void)target_disp, (void)target_count, (void)target_datatype;
  op_line(c, TT_KW(GET), win, target_rank, tt_bytes(origin_count, origin_datatype), -1, NULL);
}

void tt_post_Accumulate(struct tt_call *c, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  (void)origin_addr, (void)target_disp, (void)target_count, (void)target_datatype, (void)op;
  op_line(c, TT_KW(ACCUMULATE), win, target_rank, tt_bytes(origin_count, origin_datatype), -1, NULL);
}

void tt_post_Get_accumulate(struct tt_call *c, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  (void)origin_addr, (void)result_addr, (void)target_disp, (void)target_count, (void)target_datatype;
  op_line(c, TT_KW(GET_ACCUMULATE), win, target_rank, with_op(origin_count, origin_datatype, op),
          tt_bytes(result_count, result_datatype), NULL);
}

void tt_post_Fetch_and_op(struct tt_call *c, const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  (void)origin_addr, (void)result_addr, (void)target_disp;
  op_line(c, TT_KW(FETCH_AND_OP), win, target_rank, with_op(1, datatype, op), tt_bytes(1, datatype), NULL);
}

void tt_post_Compare_and_swap(struct tt_call *c, const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win) {
  (void)origin_addr, (void)compare_addr, (void)result_addr, (void)target_disp;
  op_line(c, TT_KW(COMPARE_AND_SWAP), win, target_rank, tt_bytes(2, datatype), tt_bytes(1, datatype), NULL);
}

void tt_post_Rput(struct tt_call *c, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  (void)origin_addr, (void)target_disp, (void)target_count, (void)target_datatype;
  op_line(c, TT_KW(RPUT), win, target_rank, tt_bytes(origin_count, origin_datatype), -1, request);
}

void tt_post_Rget(struct tt_call *c, void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  (void)origin_addr, (void)target_disp, (void)target_count, (void)target_datatype;
  op_line(c, TT_KW(RGET), win, target_rank, tt_bytes(origin_count, origin_datatype), -1, request);
}

void tt_post_Raccumulate(struct tt_call *c, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  (void)origin_addr, (void)target_disp, (void)target_count, (void)target_datatype, (void)op;
  op_line(c, TT_KW(RACCUMULATE), win, target_rank, tt_bytes(origin_count, origin_datatype), -1, request);
}

void tt_post_Rget_accumulate(struct tt_call *c, const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  (void)origin_addr, (void)result_addr, (void)target_disp, (void)target_count, (void)target_datatype;
  op_line(c, TT_KW(RGET_ACCUMULATE), win, target_rank, with_op(origin_count, origin_datatype, op),
          tt_bytes(result_count, result_datatype), request);
}

/* ---- synchronisation --------------------------------------------------------------------- */

/* `ACTION WIN`, with TARGET (>= 0, a rank of the window; MPI_PROC_NULL: no line) when
 * has_target, and EXCLUSIVE when excl >= 0. */
static void sync_line(struct tt_call *c, const char *action, MPI_Win win, int has_target, int target, int excl) {
  if (has_target && target == MPI_PROC_NULL)
    return;
  struct tt_win *w = begin(c, action, win);
  if (!w)
    return;
  if (has_target)
    tt_out_int(tt_comm_world(w->comm, target));
  if (excl >= 0)
    tt_out_int(excl);
  tt_out_end();
}

void tt_post_Win_fence(struct tt_call *c, int assert, MPI_Win win) {
  (void)assert;
  sync_line(c, TT_KW(WIN_FENCE), win, 0, 0, -1);
}

void tt_post_Win_lock(struct tt_call *c, int lock_type, int rank, int assert, MPI_Win win) {
  (void)assert;
  sync_line(c, TT_KW(WIN_LOCK), win, 1, rank, lock_type == MPI_LOCK_EXCLUSIVE);
}

void tt_post_Win_unlock(struct tt_call *c, int rank, MPI_Win win) { sync_line(c, TT_KW(WIN_UNLOCK), win, 1, rank, -1); }

void tt_post_Win_lock_all(struct tt_call *c, int assert, MPI_Win win) {
  (void)assert;
  sync_line(c, TT_KW(WIN_LOCK_ALL), win, 0, 0, -1);
}

void tt_post_Win_unlock_all(struct tt_call *c, MPI_Win win) { sync_line(c, TT_KW(WIN_UNLOCK_ALL), win, 0, 0, -1); }
void tt_post_Win_flush(struct tt_call *c, int rank, MPI_Win win) { sync_line(c, TT_KW(WIN_FLUSH), win, 1, rank, -1); }
void tt_post_Win_flush_all(struct tt_call *c, MPI_Win win) { sync_line(c, TT_KW(WIN_FLUSH_ALL), win, 0, 0, -1); }
void tt_post_Win_flush_local(struct tt_call *c, int rank, MPI_Win win) {
  sync_line(c, TT_KW(WIN_FLUSH_LOCAL), win, 1, rank, -1);
}
void tt_post_Win_flush_local_all(struct tt_call *c, MPI_Win win) {
  sync_line(c, TT_KW(WIN_FLUSH_LOCAL_ALL), win, 0, 0, -1);
}
void tt_post_Win_complete(struct tt_call *c, MPI_Win win) { sync_line(c, TT_KW(WIN_COMPLETE), win, 0, 0, -1); }
void tt_post_Win_wait(struct tt_call *c, MPI_Win win) { sync_line(c, TT_KW(WIN_WAIT), win, 0, 0, -1); }
void tt_post_Win_sync(struct tt_call *c, MPI_Win win) { sync_line(c, TT_KW(WIN_SYNC), win, 0, 0, -1); }

void tt_post_Win_test(struct tt_call *c, MPI_Win win, int *flag) {
  if (*flag)
    sync_line(c, TT_KW(WIN_WAIT), win, 0, 0, -1);
}

/* post / start: `ACTION WIN SIZE w0 ..`, the group's members as world ranks. */
static void group_line(struct tt_call *c, const char *action, MPI_Group group, MPI_Win win) {
  int n = 0, *world = tt_group_world(group, &n);
  if (!begin(c, action, win)) {
    free(world);
    return;
  }
  tt_out_int(n);
  for (int i = 0; i < n; i++)
    tt_out_int(world[i]);
  tt_out_end();
  free(world);
}

void tt_post_Win_post(struct tt_call *c, MPI_Group group, int assert, MPI_Win win) {
  (void)assert;
  group_line(c, TT_KW(WIN_POST), group, win);
}

void tt_post_Win_start(struct tt_call *c, MPI_Group group, int assert, MPI_Win win) {
  (void)assert;
  group_line(c, TT_KW(WIN_START), group, win);
}
