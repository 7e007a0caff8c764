/* ev_wait.c - hooks of the completion calls: wait, waitall, waitany, waitsome, test,
 * testall, testany, testsome, request_free.
 *
 * A pre hook saves the request handles (the call turns them into MPI_REQUEST_NULL); the
 * post hook writes, for each request the call completed, `wait S D T` (or `test S D T`)
 * with the key its isend/irecv line created, patching the key of ANY_SOURCE receives from
 * the status. An MPI_Waitall that completes every request the replayer holds is written as
 * one `waitall`; one that completes only some is written as one `wait` per request (a
 * `waitall` would make the replay wait for the others too early, possibly forever).
 * A test that completes nothing is written as one `test` on the first pending request
 * given (SimGrid's replay models the polling cost per test line); in tir mode test lines end
 * with a FLAG, 0 for such a poll, 1 for a completion. Requests the tracer does
 * not know (MPI_REQUEST_NULL, from unexpressed calls) write nothing. */
#include <string.h>

#include "tt.h"
#include "tt_out.h"
#include "tt_req.h"

static void save(struct tt_call *c, int n, const MPI_Request *reqs) {
  MPI_Request *s = tt_saved(n);
  for (int i = 0; i < n; i++)
    s[i] = reqs[i];
  c->nsaved = n;
}

/* `ACTION S D T`; a test gets its FLAG (tir mode: 0 a poll that completed nothing, 1 the
 * completion), by which the replay tells a polling loop (tir/polling, doc/model.md). */
static void key_line(struct tt_call *c, const char *action, struct tt_req *r, int flag) {
  tt_ln(c, action);
  tt_req_key(r);
  if (!tt.simgrid && !strcmp(action, TT_KW(TEST)))
    tt_out_int(flag);
  tt_out_end();
}

/* A cancelled request completed (or was freed): its held lines become comments; one
 * already written for good cannot be taken back (counted). Forgets it. */
static void drop_cancelled(MPI_Request h, struct tt_req *r) {
  if (!tt_req_retract(r))
    tt.unexpressed[TT_FN_Cancel]++;
  tt_req_del(h);
}

static int cancelled(const struct tt_req *r, const MPI_Status *st) {
  int flag = 0;
  if (r->cancelled)
    PMPI_Test_cancelled(st, &flag);
  return flag;
}

/* Request h completed with status st: resolve, write `action S D T`, forget it. */
static void complete(struct tt_call *c, MPI_Request h, const MPI_Status *st, const char *action) {
  struct tt_req *r = tt_req_find(h);
  if (!r || !r->active)
    return;
  if (cancelled(r, st)) {
    drop_cancelled(h, r);
    return;
  }
  tt_req_resolve(r, st);
  if (r->stored)
    key_line(c, action, r, 1);
  if (r->persistent)
    tt_req_set_active(r, 0);
  else
    tt_req_del(h);
}

/* A poll that completed nothing: `test` on the first pending request of the list. */
static void poll_line(struct tt_call *c, int n) {
  MPI_Request *s = tt_saved(n);
  for (int i = 0; i < n; i++) {
    struct tt_req *r = tt_req_find(s[i]);
    if (r && r->active && r->stored) {
      key_line(c, TT_KW(TEST), r, 0);
      return;
    }
  }
}

static int index_of(struct tt_call *c, int idx) { return idx - c->base; }

void tt_pre_Wait(struct tt_call *c, MPI_Request *request, MPI_Status *status) {
  (void)status;
  save(c, 1, request);
}
void tt_post_Wait(struct tt_call *c, MPI_Request *request, MPI_Status *status) {
  (void)request;
  complete(c, tt_saved(1)[0], status, TT_KW(WAIT));
}

void tt_pre_Waitall(struct tt_call *c, int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  (void)array_of_statuses;
  save(c, count, array_of_requests);
}
void tt_post_Waitall(struct tt_call *c, int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  (void)array_of_requests;
  MPI_Request *s = tt_saved(count);
  int n = 0;
  for (int i = 0; i < count; i++) {
    struct tt_req *r = tt_req_find(s[i]);
    if (r && r->active && cancelled(r, &array_of_statuses[i])) {
      drop_cancelled(s[i], r);
      s[i] = MPI_REQUEST_NULL;
      continue;
    }
    n += r && r->active && r->stored;
  }
  if (n < 2 || n != tt_req_stored()) {
    for (int i = 0; i < count; i++)
      complete(c, s[i], &array_of_statuses[i], TT_KW(WAIT));
    return;
  }
  for (int i = 0; i < count; i++) {
    struct tt_req *r = tt_req_find(s[i]);
    if (r)
      tt_req_resolve(r, &array_of_statuses[i]);
  }
  tt_ln(c, TT_KW(WAITALL));
  tt_out_end();
  for (int i = 0; i < count; i++) {
    struct tt_req *r = tt_req_find(s[i]);
    if (r && r->persistent)
      tt_req_set_active(r, 0);
    else if (r)
      tt_req_del(s[i]);
  }
}

void tt_pre_Waitany(struct tt_call *c, int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  (void)index;
  (void)status;
  save(c, count, array_of_requests);
}
void tt_post_Waitany(struct tt_call *c, int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  (void)array_of_requests;
  int i = *index == MPI_UNDEFINED ? -1 : index_of(c, *index);
  if (i >= 0 && i < count)
    complete(c, tt_saved(count)[i], status, TT_KW(WAIT));
}

/* waitsome and testsome: each completed request */
static void some(struct tt_call *c, int incount, const int *outcount, const int *indices,
                 const MPI_Status *st, const char *action) {
  if (*outcount == MPI_UNDEFINED)
    return;
  if (*outcount == 0) {
    poll_line(c, incount);
    return;
  }
  MPI_Request *s = tt_saved(incount);
  for (int k = 0; k < *outcount; k++) {
    int i = index_of(c, indices[k]);
    if (i >= 0 && i < incount)
      complete(c, s[i], &st[k], action);
  }
}

void tt_pre_Waitsome(struct tt_call *c, int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]) {
  (void)outcount;
  (void)array_of_indices;
  (void)array_of_statuses;
  save(c, incount, array_of_requests);
}
void tt_post_Waitsome(struct tt_call *c, int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]) {
  (void)array_of_requests;
  some(c, incount, outcount, array_of_indices, array_of_statuses, TT_KW(WAIT));
}

void tt_pre_Test(struct tt_call *c, MPI_Request *request, int *flag, MPI_Status *status) {
  (void)flag;
  (void)status;
  save(c, 1, request);
}
void tt_post_Test(struct tt_call *c, MPI_Request *request, int *flag, MPI_Status *status) {
  (void)request;
  if (*flag)
    complete(c, tt_saved(1)[0], status, TT_KW(TEST));
  else
    poll_line(c, 1);
}

void tt_pre_Testall(struct tt_call *c, int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]) {
  (void)flag;
  (void)array_of_statuses;
  save(c, count, array_of_requests);
}
void tt_post_Testall(struct tt_call *c, int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]) {
  (void)array_of_requests;
  if (!*flag) {
    poll_line(c, count);
    return;
  }
  MPI_Request *s = tt_saved(count);
  for (int i = 0; i < count; i++)
    complete(c, s[i], &array_of_statuses[i], TT_KW(TEST));
}

void tt_pre_Testany(struct tt_call *c, int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status) {
  (void)index;
  (void)flag;
  (void)status;
  save(c, count, array_of_requests);
}
void tt_post_Testany(struct tt_call *c, int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status) {
  (void)array_of_requests;
  int i = *index == MPI_UNDEFINED ? -1 : index_of(c, *index);
  if (*flag && i >= 0 && i < count)
    complete(c, tt_saved(count)[i], status, TT_KW(TEST));
  else if (!*flag)
    poll_line(c, count);
}

void tt_pre_Testsome(struct tt_call *c, int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]) {
  (void)outcount;
  (void)array_of_indices;
  (void)array_of_statuses;
  save(c, incount, array_of_requests);
}
void tt_post_Testsome(struct tt_call *c, int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]) {
  (void)array_of_requests;
  some(c, incount, outcount, array_of_indices, array_of_statuses, TT_KW(TEST));
}

/* MPI_Request_free: the operation goes on, but nothing will wait for it; forget it. */
void tt_pre_Request_free(struct tt_call *c, MPI_Request *request) { save(c, 1, request); }
void tt_post_Request_free(struct tt_call *c, MPI_Request *request) {
  (void)c;
  (void)request;
  MPI_Request h = tt_saved(1)[0];
  struct tt_req *r = tt_req_find(h);
  if (r && r->cancelled)
    drop_cancelled(h, r);
  else
    tt_req_del(h);
}

/* MPI_Cancel: remembered; the completion that follows (or MPI_Request_free) retracts the
 * request's lines if they are still held (see drop_cancelled). */
void tt_post_Cancel(struct tt_call *c, MPI_Request *request) {
  (void)c;
  struct tt_req *r = tt_req_find(*request);
  if (r)
    r->cancelled = 1;
}
