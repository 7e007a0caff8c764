/* keywords.h - the one table of the trace's action keywords, shared by the reader (trace.h's
 * enum trace_op, trace_parse.c, the fast path of trace_fast.h) and by the tracer's writers
 * (tracer/tt.h: TT_KW), so each keyword is written once.
 *
 * TRACE_KEYWORDS(X) applies X(OP, "keyword", FLAGS) to every action, in order: OP names the
 * op (TRACE_OP in the reader, TT_KW_OP in the tracer), the keyword is what a line holds
 * (case-sensitive), and FLAGS say how the reader's fast path takes it:
 *   TRACE_KWF_FAST  the fast path reads its common form (trace_fast.h fast_args has a case)
 *   TRACE_KWF_HOT   tried before the other keywords of its first letter (frequent lines)
 *   TRACE_KWF_COLL  a collective: also "i" + keyword (non-blocking) and after "comm ID"
 * The order is that of enum trace_op (the SVG timeline's kinds are the range
 * COMPUTE..EXSCAN): new keywords go at the end. The argument counts, usages and readers of
 * each op are trace_parse.c's (ops[]); what the lines mean is doc/trace-format.md's.
 * This header uses nothing: the tracer, which sees base/ and tracer/ only, includes it too. */
#ifndef TIR_KEYWORDS_H
#define TIR_KEYWORDS_H

#define TRACE_KWF_FAST 1
#define TRACE_KWF_HOT 2
#define TRACE_KWF_COLL 4
#define TRACE_KWF_F TRACE_KWF_FAST
#define TRACE_KWF_FH (TRACE_KWF_FAST | TRACE_KWF_HOT)
#define TRACE_KWF_FC (TRACE_KWF_FAST | TRACE_KWF_COLL)
#define TRACE_KWF_FCH (TRACE_KWF_FAST | TRACE_KWF_COLL | TRACE_KWF_HOT)
#define TRACE_KWF_0 0

/* Prefixes (tir extensions): "comm ID ACTION ..." runs a collective on communicator ID,
 * "i" + a collective's keyword is its non-blocking form. */
#define TRACE_KW_COMM "comm"
#define TRACE_KW_NBC "i"

#define TRACE_KEYWORDS(X) \
  /* SimGrid 3.32's actions (TI_FORMAT.md section 2) */ \
  X(INIT, "init", TRACE_KWF_F) \
  X(FINALIZE, "finalize", TRACE_KWF_F) \
  X(COMM_SIZE, "comm_size", TRACE_KWF_F) \
  X(COMM_SPLIT, "comm_split", TRACE_KWF_F) \
  X(COMM_DUP, "comm_dup", TRACE_KWF_F) \
  X(COMPUTE, "compute", TRACE_KWF_FH) \
  X(SLEEP, "sleep", TRACE_KWF_F) \
  X(SEND, "send", TRACE_KWF_FH) \
  X(ISEND, "isend", TRACE_KWF_FH) \
  X(RECV, "recv", TRACE_KWF_FH) \
  X(IRECV, "irecv", TRACE_KWF_FH) \
  X(TEST, "test", TRACE_KWF_F) \
  X(WAIT, "wait", TRACE_KWF_F) \
  X(WAITALL, "waitall", TRACE_KWF_FH) \
  X(SENDRECV, "sendRecv", TRACE_KWF_FH) \
  X(BARRIER, "barrier", TRACE_KWF_FC) \
  X(BCAST, "bcast", TRACE_KWF_FCH) \
  X(REDUCE, "reduce", TRACE_KWF_FC) \
  X(ALLREDUCE, "allreduce", TRACE_KWF_FCH) \
  X(ALLTOALL, "alltoall", TRACE_KWF_FC) \
  X(ALLTOALLV, "alltoallv", TRACE_KWF_FC) \
  X(GATHER, "gather", TRACE_KWF_FC) \
  X(GATHERV, "gatherv", TRACE_KWF_FC) \
  X(ALLGATHER, "allgather", TRACE_KWF_FC) \
  X(ALLGATHERV, "allgatherv", TRACE_KWF_FC) \
  X(SCATTER, "scatter", TRACE_KWF_FC) \
  X(SCATTERV, "scatterv", TRACE_KWF_FC) \
  X(REDUCESCATTER, "reducescatter", TRACE_KWF_FC) \
  X(SCAN, "scan", TRACE_KWF_FC) \
  X(EXSCAN, "exscan", TRACE_KWF_FC) \
  X(LOCATION, "location", TRACE_KWF_0) \
  /* tir extensions (doc/trace-format.md, "tir extensions") */ \
  X(REGION, "region", TRACE_KWF_0) \
  X(REGION_END, "region_end", TRACE_KWF_0) \
  X(COMM_CREATE, "comm_create", TRACE_KWF_0) \
  X(PROBE, "probe", TRACE_KWF_F) \
  X(IPROBE, "iprobe", TRACE_KWF_F) \
  /* one-sided communication, MPI-3 RMA (doc/trace-format.md, "One-sided communication") */ \
  X(WIN_CREATE, "win_create", TRACE_KWF_0) \
  X(WIN_ALLOCATE, "win_allocate", TRACE_KWF_0) \
  X(WIN_ALLOCATE_SHARED, "win_allocate_shared", TRACE_KWF_0) \
  X(WIN_CREATE_DYNAMIC, "win_create_dynamic", TRACE_KWF_0) \
  X(WIN_FREE, "win_free", TRACE_KWF_0) \
  X(PUT, "put", TRACE_KWF_F) \
  X(GET, "get", TRACE_KWF_F) \
  X(ACCUMULATE, "accumulate", TRACE_KWF_F) \
  X(GET_ACCUMULATE, "get_accumulate", TRACE_KWF_F) \
  X(FETCH_AND_OP, "fetch_and_op", TRACE_KWF_F) \
  X(COMPARE_AND_SWAP, "compare_and_swap", TRACE_KWF_F) \
  X(RPUT, "rput", TRACE_KWF_F) \
  X(RGET, "rget", TRACE_KWF_F) \
  X(RACCUMULATE, "raccumulate", TRACE_KWF_F) \
  X(RGET_ACCUMULATE, "rget_accumulate", TRACE_KWF_F) \
  X(WIN_FENCE, "win_fence", TRACE_KWF_F) \
  X(WIN_LOCK, "win_lock", TRACE_KWF_F) \
  X(WIN_UNLOCK, "win_unlock", TRACE_KWF_F) \
  X(WIN_LOCK_ALL, "win_lock_all", TRACE_KWF_F) \
  X(WIN_UNLOCK_ALL, "win_unlock_all", TRACE_KWF_F) \
  X(WIN_FLUSH, "win_flush", TRACE_KWF_F) \
  X(WIN_FLUSH_ALL, "win_flush_all", TRACE_KWF_F) \
  X(WIN_FLUSH_LOCAL, "win_flush_local", TRACE_KWF_F) \
  X(WIN_FLUSH_LOCAL_ALL, "win_flush_local_all", TRACE_KWF_F) \
  X(WIN_POST, "win_post", TRACE_KWF_0) \
  X(WIN_START, "win_start", TRACE_KWF_0) \
  X(WIN_COMPLETE, "win_complete", TRACE_KWF_F) \
  X(WIN_WAIT, "win_wait", TRACE_KWF_F) \
  X(WIN_SYNC, "win_sync", TRACE_KWF_F)

#endif
