/* trace.h - streaming reader of time-independent (TI) traces, SimGrid 3.32's format
 * (doc/trace-format.md) plus tir's documented extensions.
 *
 * A trace set is what the user names: an index file (one line: one shared trace for all
 * ranks; N lines: line i is rank i's trace), a single trace file (shared mode), or a
 * directory holding an "index" file. Index entries are resolved relative to the index's
 * folder, or failing that to the current directory. Every file may be gzip-compressed
 * (told by its first bytes; read through zlib's inflate).
 *
 * Streaming: in per-rank mode each rank owns one file stream and one line buffer, and
 * parses one action at a time, so memory does not grow with trace length. In shared
 * mode one stream feeds all ranks; lines of ranks other than the one asking are queued
 * for them (memory then grows with how far ranks drift apart: documented).
 *
 * Ownership: a trace_action and the arrays and strings it points to belong to the
 * reader and stay valid until the next trace_next() call for the same rank. */
#ifndef TIR_TRACE_H
#define TIR_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "keywords.h"

/* The actions, in the order of the one keyword table (keywords.h). */
#define TRACE_OP_ENUM(op, kw, flags) TRACE_##op,
typedef enum trace_op {
  TRACE_KEYWORDS(TRACE_OP_ENUM)
  TRACE_NOPS
} trace_op;

#define TRACE_DT_DEFAULT (-2) /* datatype field absent: MPI_DEFAULT_TYPE (set by init) */
#define TRACE_DT_NULL (-1)    /* MPI_DATATYPE_NULL, size 0 */
#define TRACE_ANY_SOURCE (-555) /* SimGrid's MPI_ANY_SOURCE: the SRC of an iprobe that found
                                   nothing from any source (tir-trace writes it) */

/* One parsed action. Field use per op (TI_FORMAT.md section 2 names the arguments):
 *  compute, sleep:            amount = FLOPS or SECONDS
 *  send/isend:                peer = DST, tag, count, dtype
 *  recv/irecv:                peer = SRC, tag, count (negative: probe first), dtype
 *  test/wait:                 peer = SRC, peer2 = DST, tag; test: count = FLAG (tir: 0 a
 *                             poll that completed nothing, 1 the completion; -1 absent)
 *  sendRecv:                  count = SENDCOUNT, peer = DST, count2 = RECVCOUNT,
 *                             peer2 = SRC, dtype = DT_S, dtype2 = DT_R
 *  bcast:                     count, peer = ROOT (default 0), dtype
 *  reduce:                    count, amount = FLOPS, peer = ROOT (default 0), dtype
 *  allreduce, scan, exscan:   count, amount = FLOPS, dtype
 *  alltoall, allgather:       count = SENDCOUNT, count2 = RECVCOUNT, dtype, dtype2
 *  gather, scatter:           count, count2, peer = ROOT (default 0), dtype, dtype2
 *  gatherv, allgatherv:       count = SENDCOUNT, vec = recvcounts[nvec], peer = ROOT
 *                             (gatherv; default 0), dtype, dtype2
 *  scatterv:                  vec = sendcounts[nvec], count2 = RECVCOUNT, peer = ROOT,
 *                             dtype, dtype2
 *  alltoallv:                 count = SENDBUFSIZE, vec = sendcounts, count2 = RECVBUFSIZE,
 *                             vec2 = recvcounts, dtype, dtype2
 *  reducescatter:             vec = recvcounts[nvec], amount = FLOPS, dtype
 *  init:                      has_arg = 1 when an argument is present (default type DOUBLE)
 *  location:                  str = FILE, count = LINE
 *  region, region_end:        str = NAME (region_end: may be NULL)
 *  comm_split, comm_dup,      count = ID of the new communicator (-1: MPI_COMM_NULL),
 *  comm_create (tir forms):   vec = its members' world ranks (nvec = SIZE), has_arg = 1
 *                             (SimGrid's argument-less forms: has_arg = 0, no-ops)
 *  probe, iprobe:             peer = SRC, tag, count = FLAG (iprobe)
 *  one-sided (tir):           win = WIN (every RMA line); win_create, win_allocate(_shared),
 *                             win_create_dynamic: comm = COMM (0: world), comm_size its
 *                             size, count = BYTES; put, accumulate, rput, raccumulate: peer =
 *                             TARGET, count = BYTES; get, rget: peer, count2 = BYTES (count
 *                             0); get_accumulate, fetch_and_op, compare_and_swap,
 *                             rget_accumulate: peer, count = SBYTES (to the target), count2 =
 *                             RBYTES (back); win_lock: peer = TARGET, count = EXCLUSIVE (1/0);
 *                             win_unlock, win_flush, win_flush_local: peer = TARGET;
 *                             win_post, win_start: vec = the group's world ranks (nvec)
 *  rooted collectives on a communicator (comm != 0): ROOT is a world rank, count vectors
 *                             have comm_size elements in communicator rank order
 * Unused fields are 0 / NULL; absent datatypes are TRACE_DT_DEFAULT. */
typedef struct trace_action {
  trace_op op;
  int rank;         /* the rank the line belongs to */
  int peer, peer2;  /* see above */
  int tag;
  int dtype, dtype2;
  int has_arg;
  int nvec;         /* length of vec and vec2 (the communicator's size) when used */
  int comm;         /* tir extension: the communicator of a collective, 0 = MPI_COMM_WORLD
                       (lines "R comm ID ACTION ..."; see doc/communicators.md) */
  int comm_size;    /* that communicator's size (np for the world) */
  int nbc;          /* tir extension: non-blocking collective ("ibcast", ...): 1 */
  int win;          /* tir extension: the window of a one-sided line (0: none) */
  int64_t count, count2;
  double amount;
  int64_t *vec, *vec2;
  const char *str;
  const char *file; /* file the action came from */
  long line;        /* its line number (1-based) */
  const char *text; /* the line's tokens joined by one space, as SimGrid's -v log prints them */
} trace_action;

/* The most files an index may list (one per rank: replay.h's REPLAY_MAX_RANKS). */
#define TRACE_MAX_FILES (1 << 22)

/* Reader options. */
typedef struct trace_opts {
  int strict; /* 1: SimGrid's quirks are errors (last line without newline, trailing
                 garbage in integer fields such as "1e3" in count vectors, lines of
                 another rank in a per-rank file) */
  int (*warn)(void *ctx, const char *msg); /* called for warnings (may be NULL) */
  void *warn_ctx;
  int allow_truncated; /* a file cut short (truncated gzip stream, last line cut) ends its
                          rank's trace, with one warning, instead of being an error */
  int incomplete;      /* the traced run did not complete (trace.meta): a last line without
                          newline was cut, an error unless allow_truncated (else: SimGrid's
                          quirk, the line is dropped with a warning) */
} trace_opts;

typedef struct trace_set trace_set;

/* Opens the traces named by path. Returns NULL with "PATH: reason" in err when the
 * path, the index or one of the files it lists cannot be read (all files are opened
 * here, so a missing rank file is reported before any replay). */
trace_set *trace_open(const char *path, const trace_opts *opts, char *err, size_t errlen);

/* Number of rank files listed by the index (per-rank mode), or 0 in shared mode. */
int trace_nfiles(const trace_set *t);
/* 1 when all ranks share one file. */
int trace_is_shared(const trace_set *t);

/* Fixes the number of ranks (must be called once, before trace_next). Fails (-1, err)
 * in per-rank mode when the index lists fewer than np files. */
int trace_set_np(trace_set *t, int np, char *err, size_t errlen);

/* Reads the next action of rank into *a. Returns 1 (an action), 0 (end of the rank's
 * trace) or -1 with "FILE:LINE: message" in err (bad line, unknown action, bad number,
 * unknown datatype, truncated or corrupt gzip stream, read error). */
int trace_next(trace_set *t, int rank, trace_action *a, char *err, size_t errlen);

/* How rank's file ended, so far: 0, or it was cut short (shared mode: the one file). */
#define TRACE_CUT_GZIP 1 /* a gzip stream without its end (the writer was killed) */
#define TRACE_CUT_LINE 2 /* a last line without newline */
int trace_rank_cut(const trace_set *t, int rank);

/* Bytes consumed so far from the underlying files (compressed), and their total size:
 * for progress estimates. */
uint64_t trace_bytes_read(const trace_set *t);
uint64_t trace_bytes_total(const trace_set *t);

void trace_close(trace_set *t);

/* Size in bytes of datatype id (TI_FORMAT.md 1.4 table), or -1 for an unknown id.
 * TRACE_DT_NULL has size 0. */
int trace_dtype_size(int id);
/* Keyword of an op ("compute", "sendRecv", ...). */
const char *trace_op_name(trace_op op);

/* ---- Additions to the original interface (trace module) ---------------------------- */

/* About trace_next's errors: after -1 for a bad line (parse error, strict-mode quirk) the
 * next call goes on with the following line; after a read or gzip error (truncated or
 * corrupt stream) the rank's trace is over and later calls return 0. */

/* Reads the next action in reading order, whatever its rank (a->rank tells): in shared
 * mode the file's order, in per-rank mode rank 0's whole trace, then rank 1's, ...
 * Memory stays bounded in both modes (nothing is queued), which is what a whole-trace
 * pass such as the validator needs. Same returns as trace_next; after -1 for a bad line
 * the next call goes on with the following line. Do not mix with trace_next on one set. */
int trace_next_any(trace_set *t, trace_action *a, char *err, size_t errlen);

/* The line parser under the reader, exposed for tests and tools: it owns the buffers a
 * trace_action points into (valid until its next trace_parse_line or trace_parser_free). */
typedef struct trace_parser trace_parser;

/* np sizes the per-rank count vectors. warned: bit set shared between parsers so that
 * each kind of warning is given once (the parser uses bits 0-7); NULL: its own. */
trace_parser *trace_parser_new(int np, const trace_opts *opts, unsigned *warned);
void trace_parser_free(trace_parser *p);

/* Parses one line (without its newline; need not be NUL-terminated) of file, line lineno.
 * Returns 1 (an action in *a), 0 (blank or comment line: nothing) or -1 with
 * "FILE:LINE: message: 'TEXT'" in err. The rank field must be a canonical decimal rank. */
int trace_parse_line(trace_parser *p, const char *file, long lineno, const char *line,
                     size_t len, trace_action *a, char *err, size_t errlen);

/* Bytes past the end of a buffer's data (past line[len] for trace_parse_inplace, past the
 * NUL for trace_parse_fast) that must be readable, with any contents: the fast path loads 8
 * bytes at a time, and what lies past a line never changes its result. */
#define TRACE_PAD 16

/* The reader's entry: as trace_parse_line, but the parser may write into the line and into
 * the byte just past it (line[len], the newline's place in the reader's buffer, which must
 * be readable, and TRACE_PAD bytes after it), and the action may point into it (its text,
 * for one), so the line must stay unchanged until the action is dropped. Lines in the common forms are then read
 * where they lie, without a copy (trace_parse.c "Fast path"). want >= 0: a line whose rank
 * field is not want (trace_line_rank(line, len) is neither want nor TRACE_LINE_BLANK) is
 * left untouched and TRACE_PARSE_OTHER returned, for the caller to look at; want < 0: no
 * such check (the caller made it). */
#define TRACE_PARSE_OTHER 2
int trace_parse_inplace(trace_parser *p, int want, const char *file, long lineno, char *line,
                        size_t len, trace_action *a, char *err, size_t errlen);

/* The reader's fastest entry, for a line at s in a buffer whose data a NUL and TRACE_PAD
 * readable bytes follow: when the line is in the common form (trace_parse.c "Fast path"),
 * belongs to rank want (want < 0: any) and ends with a newline, parses it in place into *a, replaces its newline with a
 * NUL (the action's text is s) and returns that byte's address (the line is then
 * consumed); otherwise NULL, having used nothing past the first newline or NUL and
 * changed nothing but *a: the caller then takes the line through trace_parse_inplace. */
char *trace_parse_fast(trace_parser *p, int want, const char *file, long lineno, char *s,
                       trace_action *a);

/* Tests: on = 0 sends every line to the general path, against which the fast path (on = 1,
 * the default) is checked: both must give the same action, text and messages. */
void trace_parser_fast(trace_parser *p, int on);

/* What the rank field (first token) of a line says, without parsing the rest: */
#define TRACE_LINE_BLANK (-1)   /* nothing: blank after trimming, or a '#' comment */
#define TRACE_LINE_NOMATCH (-2) /* a number that no rank matches: SimGrid compares the field
                                   as a string with the decimal rank ("00", "+1", "-3") */
#define TRACE_LINE_BADRANK (-3) /* not a number ("x", "1e0") */
/* Returns the rank (>= 0) or one of the TRACE_LINE_* values above. */
int trace_line_rank(const char *line, size_t len);

#endif
