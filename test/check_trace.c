/* check_trace.c - unit tests of the TI trace reader (trace.h) and the validator.
 *
 * Three groups: the line parser (every keyword and argument form, the three number
 * parsers, datatypes, every error message), the reader (shared and per-rank modes, plain
 * and gzip files, index resolution, the quirks in default and strict mode, every input
 * error class), and the validator (all reference cases valid with hand-derived totals,
 * each kind of problem found). Files the reader tests need are written at run time in a
 * fresh temporary directory; reference traces are read from test/data/traces/ref (copies
 * of test/data/reference, whose index entries are relative to that folder). */
#include "check_main.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "trace.h"
#include "validate.h"

/* ====================================================================================
 * Helpers
 * ==================================================================================== */

static char err[4096];
static char warnings[8192]; /* warnings received, one per line */
static int nwarnings;

static int on_warn(void *ctx, const char *msg) {
  (void)ctx;
  size_t n = strlen(warnings);
  snprintf(warnings + n, sizeof warnings - n, "%s\n", msg);
  nwarnings++;
  return 0;
}

static trace_opts opts(int strict) {
  warnings[0] = '\0';
  nwarnings = 0;
  return (trace_opts){.strict = strict, .warn = on_warn};
}

/* Parses line as line 12 of "t.txt" with a fresh parser for np ranks. */
static int parse_np(int np, int strict, const char *line, trace_action *a, trace_parser **pp) {
  trace_opts o = opts(strict);
  *pp = trace_parser_new(np, &o, NULL);
  err[0] = '\0';
  return trace_parse_line(*pp, "t.txt", 12, line, strlen(line), a, err, sizeof err);
}

#define PARSE_OK(np, line, a, p) ck_assert_int_eq(parse_np(np, 0, line, a, p), 1)

static char tmpdir[256];

static void make_tmpdir(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/check_trace.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmpdir(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  ck_assert_int_eq(system(cmd), 0);
}

/* Writes text to tmpdir/name (a gzip file when gz); returns the path (static buffer). */
static const char *put(const char *name, const char *text, int gz) {
  static char path[2][512];
  static int which;
  char *p = path[which ^= 1];
  snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
  if (gz) {
    gzFile g = gzopen(p, "wb");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
    gzclose(g);
  } else {
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
  }
  return p;
}

static void subdir(const char *name) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", tmpdir, name);
  ck_assert_int_eq(mkdir(p, 0755), 0);
}

/* Opens path and sets np; fails the test on error. */
static trace_set *open_np(const char *path, int np, int strict) {
  trace_opts o = opts(strict);
  trace_set *t = trace_open(path, &o, err, sizeof err);
  ck_assert_msg(t != NULL, "%s", err);
  ck_assert_msg(trace_set_np(t, np, err, sizeof err) == 0, "%s", err);
  return t;
}

/* The texts of rank's actions, joined by '|'. */
static const char *texts_of(trace_set *t, int rank) {
  static char buf[4096];
  trace_action a;
  int rc;
  buf[0] = '\0';
  while ((rc = trace_next(t, rank, &a, err, sizeof err)) == 1) {
    size_t n = strlen(buf);
    snprintf(buf + n, sizeof buf - n, "%s%s", n ? "|" : "", a.text);
  }
  ck_assert_msg(rc == 0, "%s", err);
  return buf;
}

/* ====================================================================================
 * Parser: keywords and argument forms
 * ==================================================================================== */

START_TEST(test_blank_and_comment_lines) {
  trace_action a;
  trace_parser *p;
  const char *blank[] = {"", "   ", "\t\r\v\f", "# a comment", "   #0 send 1 2 3"};
  for (int i = 0; i < 5; i++) {
    ck_assert_int_eq(parse_np(2, 0, blank[i], &a, &p), 0);
    trace_parser_free(p);
  }
  ck_assert_int_eq(trace_line_rank("  # x", 5), TRACE_LINE_BLANK);
  ck_assert_int_eq(trace_line_rank(" 12\tsend", 8), 12);
  ck_assert_int_eq(trace_line_rank("00 init", 7), TRACE_LINE_NOMATCH);
  ck_assert_int_eq(trace_line_rank("+1 init", 7), TRACE_LINE_NOMATCH);
  ck_assert_int_eq(trace_line_rank("-3 init", 7), TRACE_LINE_NOMATCH);
  ck_assert_int_eq(trace_line_rank("99999999999 init", 16), TRACE_LINE_NOMATCH);
  ck_assert_int_eq(trace_line_rank("x init", 6), TRACE_LINE_BADRANK);
  ck_assert_int_eq(trace_line_rank("1e0 init", 8), TRACE_LINE_BADRANK);
}
END_TEST

START_TEST(test_text_joins_tokens) {
  trace_action a;
  trace_parser *p;
  /* Trimmed at both ends (isspace), split on runs of spaces and tabs only. */
  PARSE_OK(4, "  0\tsend  1 \t 2   3  \r", &a, &p);
  ck_assert_str_eq(a.text, "0 send 1 2 3");
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.tag, 2);
  ck_assert_int_eq(a.count, 3);
  ck_assert_str_eq(a.file, "t.txt");
  ck_assert_int_eq(a.line, 12);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_every_keyword) {
  /* np = 4: vector actions take 4 counts. */
  static const struct { const char *line; trace_op op; } cases[] = {
    {"0 init", TRACE_INIT}, {"0 finalize", TRACE_FINALIZE}, {"0 comm_size", TRACE_COMM_SIZE},
    {"0 comm_split", TRACE_COMM_SPLIT}, {"0 comm_dup", TRACE_COMM_DUP},
    {"0 compute 1", TRACE_COMPUTE}, {"0 sleep 1", TRACE_SLEEP}, {"0 send 1 0 1", TRACE_SEND},
    {"0 isend 1 0 1", TRACE_ISEND}, {"0 recv 1 0 1", TRACE_RECV},
    {"0 irecv 1 0 1", TRACE_IRECV}, {"0 test 1 0 0", TRACE_TEST}, {"0 wait 1 0 0", TRACE_WAIT},
    {"0 waitall", TRACE_WAITALL}, {"0 sendRecv 1 1 1 1 0 0", TRACE_SENDRECV},
    {"0 barrier", TRACE_BARRIER}, {"0 bcast 1", TRACE_BCAST}, {"0 reduce 1 0", TRACE_REDUCE},
    {"0 allreduce 1 0", TRACE_ALLREDUCE}, {"0 alltoall 1 1", TRACE_ALLTOALL},
    {"0 alltoallv 4 1 1 1 1 4 1 1 1 1", TRACE_ALLTOALLV}, {"0 gather 1 1", TRACE_GATHER},
    {"0 gatherv 1 1 1 1 1", TRACE_GATHERV}, {"0 allgather 1 1", TRACE_ALLGATHER},
    {"0 allgatherv 1 1 1 1 1", TRACE_ALLGATHERV}, {"0 scatter 1 1", TRACE_SCATTER},
    {"0 scatterv 1 1 1 1 1", TRACE_SCATTERV}, {"0 reducescatter 1 1 1 1 0", TRACE_REDUCESCATTER},
    {"0 scan 1 0", TRACE_SCAN}, {"0 exscan 1 0", TRACE_EXSCAN},
    {"0 location a.c 3", TRACE_LOCATION}, {"0 region main", TRACE_REGION},
    {"0 region_end", TRACE_REGION_END}, {"0 comm_create 1 1 0", TRACE_COMM_CREATE},
    {"0 probe 1 0", TRACE_PROBE}, {"0 iprobe 1 0 1", TRACE_IPROBE},
    {"0 win_create 1 0 64", TRACE_WIN_CREATE}, {"0 win_allocate 1 0 64", TRACE_WIN_ALLOCATE},
    {"0 win_allocate_shared 1 0 64", TRACE_WIN_ALLOCATE_SHARED},
    {"0 win_create_dynamic 1 0", TRACE_WIN_CREATE_DYNAMIC}, {"0 win_free 1", TRACE_WIN_FREE},
    {"0 put 1 2 8", TRACE_PUT}, {"0 get 1 2 8", TRACE_GET}, {"0 accumulate 1 2 8", TRACE_ACCUMULATE},
    {"0 get_accumulate 1 2 8 8", TRACE_GET_ACCUMULATE}, {"0 fetch_and_op 1 2 8 8", TRACE_FETCH_AND_OP},
    {"0 compare_and_swap 1 2 16 8", TRACE_COMPARE_AND_SWAP}, {"0 rput 1 2 8", TRACE_RPUT},
    {"0 rget 1 2 8", TRACE_RGET}, {"0 raccumulate 1 2 8", TRACE_RACCUMULATE},
    {"0 rget_accumulate 1 2 8 8", TRACE_RGET_ACCUMULATE}, {"0 win_fence 1", TRACE_WIN_FENCE},
    {"0 win_lock 1 2 1", TRACE_WIN_LOCK}, {"0 win_unlock 1 2", TRACE_WIN_UNLOCK},
    {"0 win_lock_all 1", TRACE_WIN_LOCK_ALL}, {"0 win_unlock_all 1", TRACE_WIN_UNLOCK_ALL},
    {"0 win_flush 1 2", TRACE_WIN_FLUSH}, {"0 win_flush_all 1", TRACE_WIN_FLUSH_ALL},
    {"0 win_flush_local 1 2", TRACE_WIN_FLUSH_LOCAL}, {"0 win_flush_local_all 1", TRACE_WIN_FLUSH_LOCAL_ALL},
    {"0 win_post 1 2 1 2", TRACE_WIN_POST}, {"0 win_start 1 1 3", TRACE_WIN_START},
    {"0 win_complete 1", TRACE_WIN_COMPLETE}, {"0 win_wait 1", TRACE_WIN_WAIT}, {"0 win_sync 1", TRACE_WIN_SYNC},
  };
#define FLAGS_OF(op, kw, flags) [TRACE_##op] = (flags),
  static const int flags[TRACE_NOPS] = {TRACE_KEYWORDS(FLAGS_OF)};
  ck_assert_int_eq(sizeof cases / sizeof cases[0], TRACE_NOPS);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    trace_action a;
    trace_parser *p;
    ck_assert_msg(parse_np(4, 1, cases[i].line, &a, &p) == 1, "%s", err);
    ck_assert_int_eq(a.op, cases[i].op);
    /* the keyword is the second token of the line */
    ck_assert_int_eq(strncmp(cases[i].line + 2, trace_op_name(a.op),
                             strlen(trace_op_name(a.op))), 0);
    /* keywords.h's FAST flag: the fast path reads the line (a buffer padded as the reader's) */
    char buf[128] = "";
    snprintf(buf, sizeof buf - TRACE_PAD, "%s\n", cases[i].line);
    trace_action f;
    ck_assert_msg((trace_parse_fast(p, -1, "t.txt", 1, buf, &f) != NULL) == !!(flags[a.op] & TRACE_KWF_FAST),
                  "fast path and keywords.h disagree on '%s'", cases[i].line);
    trace_parser_free(p);
  }
  ck_assert_str_eq(trace_op_name(TRACE_SENDRECV), "sendRecv");
  ck_assert_str_eq(trace_op_name(TRACE_NOPS), "?");
}
END_TEST

START_TEST(test_init_forms) {
  trace_action a;
  trace_parser *p;
  PARSE_OK(2, "0 init", &a, &p); /* no argument: default datatype MPI_BYTE */
  ck_assert_int_eq(a.has_arg, 0);
  trace_parser_free(p);
  PARSE_OK(2, "0 init 1", &a, &p); /* any argument: MPI_DOUBLE */
  ck_assert_int_eq(a.has_arg, 1);
  trace_parser_free(p);
  PARSE_OK(2, "0 init 0", &a, &p); /* even "0": SimGrid only counts the tokens */
  ck_assert_int_eq(a.has_arg, 1);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_point_to_point_forms) {
  trace_action a;
  trace_parser *p;
  PARSE_OK(4, "2 send 1 7 1e6", &a, &p);
  ck_assert_int_eq(a.rank, 2);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.tag, 7);
  ck_assert_int_eq(a.count, 1000000);
  ck_assert_int_eq(a.dtype, TRACE_DT_DEFAULT);
  trace_parser_free(p);
  PARSE_OK(4, "2 isend 3 0 10 4", &a, &p);
  ck_assert_int_eq(a.op, TRACE_ISEND);
  ck_assert_int_eq(a.dtype, 4);
  trace_parser_free(p);
  PARSE_OK(4, "1 recv 0 2 -1", &a, &p); /* negative count: probe for the size */
  ck_assert_int_eq(a.count, -1);
  trace_parser_free(p);
  PARSE_OK(4, "1 irecv 0 2 -65536.5 -1", &a, &p); /* truncated toward zero; type NULL */
  ck_assert_int_eq(a.count, -65536);
  ck_assert_int_eq(a.dtype, TRACE_DT_NULL);
  trace_parser_free(p);
  PARSE_OK(4, "1 wait 0 1 2", &a, &p);
  ck_assert_int_eq(a.peer, 0);
  ck_assert_int_eq(a.peer2, 1);
  ck_assert_int_eq(a.tag, 2);
  trace_parser_free(p);
  PARSE_OK(4, "1 test 3 1 9", &a, &p);
  ck_assert_int_eq(a.op, TRACE_TEST);
  ck_assert_int_eq(a.peer, 3);
  ck_assert_int_eq(a.tag, 9);
  trace_parser_free(p);
  PARSE_OK(4, "0 sendRecv 10 1 20 2 0 1", &a, &p);
  ck_assert_int_eq(a.count, 10);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.count2, 20);
  ck_assert_int_eq(a.peer2, 2);
  ck_assert_int_eq(a.dtype, 0);
  ck_assert_int_eq(a.dtype2, 1);
  trace_parser_free(p);
  PARSE_OK(4, "0 waitall 4", &a, &p); /* SimGrid's tracer writes the count: ignored */
  ck_assert_int_eq(a.op, TRACE_WAITALL);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_rooted_collectives) {
  trace_action a;
  trace_parser *p;
  PARSE_OK(3, "0 bcast 5e4", &a, &p);
  ck_assert_int_eq(a.count, 50000);
  ck_assert_int_eq(a.peer, 0); /* default root */
  ck_assert_int_eq(a.dtype, TRACE_DT_DEFAULT);
  trace_parser_free(p);
  PARSE_OK(3, "1 bcast 5e4 1 0", &a, &p);
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.dtype, 0);
  trace_parser_free(p);
  PARSE_OK(3, "1 reduce 5e4 5e8 2 4", &a, &p);
  ck_assert_int_eq(a.count, 50000);
  ck_assert(a.amount == 5e8);
  ck_assert_int_eq(a.peer, 2);
  ck_assert_int_eq(a.dtype, 4);
  trace_parser_free(p);
  PARSE_OK(4, "0 gather 68 69 3 1 2", &a, &p);
  ck_assert_int_eq(a.count, 68);
  ck_assert_int_eq(a.count2, 69);
  ck_assert_int_eq(a.peer, 3);
  ck_assert_int_eq(a.dtype, 1);
  ck_assert_int_eq(a.dtype2, 2);
  trace_parser_free(p);
  PARSE_OK(4, "0 scatter 1048576 1048576", &a, &p);
  ck_assert_int_eq(a.peer, 0);
  ck_assert_int_eq(a.dtype2, TRACE_DT_DEFAULT);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_unrooted_collectives) {
  trace_action a;
  trace_parser *p;
  PARSE_OK(3, "0 allreduce 5e4 5e8 3", &a, &p);
  ck_assert_int_eq(a.count, 50000);
  ck_assert(a.amount == 5e8);
  ck_assert_int_eq(a.dtype, 3);
  trace_parser_free(p);
  PARSE_OK(3, "0 alltoall 500 400", &a, &p);
  ck_assert_int_eq(a.count, 500);
  ck_assert_int_eq(a.count2, 400);
  ck_assert_int_eq(a.dtype, TRACE_DT_DEFAULT);
  trace_parser_free(p);
  PARSE_OK(4, "0 allgather 1048576 1048576 1 1", &a, &p);
  ck_assert_int_eq(a.dtype, 1);
  ck_assert_int_eq(a.dtype2, 1);
  trace_parser_free(p);
  PARSE_OK(4, "0 scan 1048576 0 1", &a, &p);
  ck_assert_int_eq(a.count, 1048576);
  ck_assert(a.amount == 0);
  ck_assert_int_eq(a.dtype, 1);
  trace_parser_free(p);
  PARSE_OK(4, "0 exscan 3 2.5", &a, &p);
  ck_assert_int_eq(a.op, TRACE_EXSCAN);
  ck_assert(a.amount == 2.5);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_vector_collectives) {
  trace_action a;
  trace_parser *p;
  /* From the reference alltoallv (N = 3): sendcounts 1 40 30, recvcounts 1 80 100. */
  PARSE_OK(3, "0 alltoallv 100 1 40 30 1000 1 80 100", &a, &p);
  ck_assert_int_eq(a.nvec, 3);
  ck_assert_int_eq(a.count, 100);
  ck_assert_int_eq(a.count2, 1000);
  ck_assert_int_eq(a.vec[1], 40);
  ck_assert_int_eq(a.vec[2], 30);
  ck_assert_int_eq(a.vec2[2], 100);
  ck_assert_int_eq(a.dtype, TRACE_DT_DEFAULT);
  trace_parser_free(p);
  /* SimGrid's tracer (ti_colls, N = 4): sendcount, 4 recvcounts, root, types. */
  PARSE_OK(4, "0 gatherv 0 0 1 2 3 2 1 5", &a, &p);
  ck_assert_int_eq(a.count, 0);
  ck_assert_int_eq(a.vec[3], 3);
  ck_assert_int_eq(a.peer, 2);
  ck_assert_int_eq(a.dtype, 1);
  ck_assert_int_eq(a.dtype2, 5);
  trace_parser_free(p);
  PARSE_OK(4, "0 scatterv 0 1 2 3 7 1 1 1", &a, &p); /* 4 sendcounts, recvcount, root */
  ck_assert_int_eq(a.vec[2], 2);
  ck_assert_int_eq(a.count2, 7);
  ck_assert_int_eq(a.peer, 1);
  trace_parser_free(p);
  PARSE_OK(4, "0 reducescatter 275427 275427 275427 204020 11349173 0", &a, &p);
  ck_assert_int_eq(a.vec[3], 204020);
  ck_assert(a.amount == 11349173);
  ck_assert_int_eq(a.dtype, 0);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_allgatherv_tails) {
  /* N = 4; T = tokens including rank and keyword. T > 2N+3 = 11: DT_S DT_R DISPLS;
   * else T > N+5 = 9: DISPLS; else [DT_S [DT_R]]. */
  trace_action a;
  trace_parser *p;
  PARSE_OK(4, "0 allgatherv 5 1 2 3 4", &a, &p); /* T = 7 */
  ck_assert_int_eq(a.count, 5);
  ck_assert_int_eq(a.vec[3], 4);
  ck_assert_int_eq(a.dtype, TRACE_DT_DEFAULT);
  trace_parser_free(p);
  PARSE_OK(4, "0 allgatherv 5 1 2 3 4 0 1", &a, &p); /* T = 9: two datatypes */
  ck_assert_int_eq(a.dtype, 0);
  ck_assert_int_eq(a.dtype2, 1);
  trace_parser_free(p);
  PARSE_OK(4, "0 allgatherv 5 1 2 3 4 0 1 2 3", &a, &p); /* T = 11: displacements only */
  ck_assert_int_eq(a.dtype, TRACE_DT_DEFAULT);
  ck_assert_int_eq(a.dtype2, TRACE_DT_DEFAULT);
  trace_parser_free(p);
  PARSE_OK(4, "0 allgatherv 5 1 2 3 4 2 3 0 1 2 3", &a, &p); /* T = 13: types + displs */
  ck_assert_int_eq(a.dtype, 2);
  ck_assert_int_eq(a.dtype2, 3);
  trace_parser_free(p);
  /* T = 10 and T = 12: too short for their displacements (SimGrid's assertion fails). */
  ck_assert_int_eq(parse_np(4, 0, "0 allgatherv 5 1 2 3 4 0 1 2", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: allgatherv with np = 4 takes 5 arguments (SENDCOUNT"
                   " RECVCOUNTS*np [DT_S [DT_R]]), 9 (... DISPLS*np) or 11 (... DT_S DT_R"
                   " DISPLS*np), got 8: '0 allgatherv 5 1 2 3 4 0 1 2'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(4, 0, "0 allgatherv 5 1 2 3 4 0 1 2 3 4", &a, &p), -1);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_location_and_regions) {
  trace_action a;
  trace_parser *p;
  PARSE_OK(2, "0 location solver.c 42x", &a, &p); /* LINE is std::stoi: "42x" is 42 */
  ck_assert_str_eq(a.str, "solver.c");
  ck_assert_int_eq(a.count, 42);
  trace_parser_free(p);
  PARSE_OK(2, "1 region halo_exchange", &a, &p);
  ck_assert_int_eq(a.op, TRACE_REGION);
  ck_assert_str_eq(a.str, "halo_exchange");
  trace_parser_free(p);
  PARSE_OK(2, "1 region_end", &a, &p);
  ck_assert_ptr_null(a.str);
  trace_parser_free(p);
  PARSE_OK(2, "1 region_end halo_exchange", &a, &p);
  ck_assert_str_eq(a.str, "halo_exchange");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "1 region", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: region needs 1 argument (NAME), got 0: '1 region'");
  trace_parser_free(p);
}
END_TEST

/* ====================================================================================
 * Parser: the three number parsers and datatypes
 * ==================================================================================== */

START_TEST(test_integer_via_double) {
  trace_action a;
  trace_parser *p;
  PARSE_OK(2, "0 send 1 0 1e3", &a, &p); /* strtod then truncation: 1000 */
  ck_assert_int_eq(a.count, 1000);
  trace_parser_free(p);
  PARSE_OK(2, "0 send 1 0 65536.9", &a, &p); /* truncated toward zero */
  ck_assert_int_eq(a.count, 65536);
  ck_assert_int_eq(nwarnings, 1);
  ck_assert_ptr_nonnull(strstr(warnings, "fractional count truncated"));
  trace_parser_free(p);
  PARSE_OK(2, "0 bcast 0x10", &a, &p); /* strtod reads hexadecimal: 16 */
  ck_assert_int_eq(a.count, 16);
  trace_parser_free(p);
  /* Range of the C type SimGrid stores the count in. */
  ck_assert_int_eq(parse_np(2, 0, "0 bcast -1", &a, &p), -1); /* size_t */
  ck_assert_str_eq(err, "t.txt:12: bcast COUNT out of range [0, 9223372036854775807], got"
                   " '-1': '0 bcast -1'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 allreduce 4294967296 0", &a, &p), -1); /* unsigned */
  ck_assert_ptr_nonnull(strstr(err, "out of range [0, 4294967295]"));
  trace_parser_free(p);
  PARSE_OK(2, "0 allreduce 4294967295 0", &a, &p);
  ck_assert_int_eq(a.count, 4294967295LL);
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 alltoall 2147483648 1", &a, &p), -1); /* int */
  ck_assert_ptr_nonnull(strstr(err, "out of range [-2147483648, 2147483647]"));
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 send 1 0 nan", &a, &p), -1); /* NaN fails the check */
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 send 1 0 1e3x", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: send COUNT must be a number, got '1e3x': '0 send 1 0 1e3x'");
  trace_parser_free(p);
}
END_TEST

START_TEST(test_stoi_fields) {
  trace_action a;
  trace_parser *p;
  /* Vector elements are std::stoi: "1e3" reads as 1, the count as 1000. */
  PARSE_OK(2, "0 gatherv 1e3 1e3 7.9", &a, &p);
  ck_assert_int_eq(a.count, 1000);
  ck_assert_int_eq(a.vec[0], 1);
  ck_assert_int_eq(a.vec[1], 7);
  ck_assert_int_eq(nwarnings, 1); /* one warning per kind and run, not one per field */
  trace_parser_free(p);
  PARSE_OK(2, "0 send +1 -3 2", &a, &p); /* sign accepted, as std::stoi does */
  ck_assert_int_eq(a.peer, 1);
  ck_assert_int_eq(a.tag, -3);
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 send x 0 1", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: send DST must be an integer, got 'x': '0 send x 0 1'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 wait 0 1 99999999999", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: wait TAG out of int range, got '99999999999':"
                   " '0 wait 0 1 99999999999'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 bcast 1 -", &a, &p), -1); /* root: no digits */
  trace_parser_free(p);
}
END_TEST

START_TEST(test_doubles_match_strtod) {
  /* The fast path must give strtod's value bit for bit. */
  static const char *nums[] = {
    "0", "-0", "1", "5e8", "1.5e6", "2.5e8", "0.1", "0.3", "123456789012345", "1234567890123456789",
    "1e22", "1e23", "1e-22", "1e-23", "9007199254740993", "4.9e-324", "1e-400", "1e400", ".5", "5.",
    "+3", "1E2", "1e+2", "3.14159265358979323846", "0.000001", "98095000", "76296000",
    "11349173", "0x1p3", "inf", "-nan", "00012.5000", "1.7976931348623157e308"};
  for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
    char line[128];
    trace_action a;
    trace_parser *p;
    snprintf(line, sizeof line, "0 compute %s", nums[i]);
    PARSE_OK(1, line, &a, &p);
    double want = strtod(nums[i], NULL);
    ck_assert_msg(memcmp(&a.amount, &want, sizeof want) == 0 || (isnan(want) && isnan(a.amount)),
                  "%s: got %.17g, strtod %.17g", nums[i], a.amount, want);
    trace_parser_free(p);
  }
}
END_TEST

START_TEST(test_double_errors) {
  trace_action a;
  trace_parser *p;
  ck_assert_int_eq(parse_np(2, 0, "0 compute 12abc", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: compute FLOPS must be a number, got '12abc':"
                   " '0 compute 12abc'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 reduce 5 1e", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: reduce FLOPS must be a number, got '1e': '0 reduce 5 1e'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 sleep .", &a, &p), -1);
  trace_parser_free(p);
}
END_TEST

START_TEST(test_datatypes) {
  trace_action a;
  trace_parser *p;
  const char *bad[] = {"60", "00", "0.0", "-2", "x", "+1"};
  PARSE_OK(2, "0 send 1 0 1 59", &a, &p);
  ck_assert_int_eq(a.dtype, 59);
  trace_parser_free(p);
  for (int i = 0; i < 6; i++) {
    char line[64];
    snprintf(line, sizeof line, "0 send 1 0 1 %s", bad[i]);
    ck_assert_int_eq(parse_np(2, 0, line, &a, &p), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown datatype id"));
    trace_parser_free(p);
  }
  ck_assert_int_eq(parse_np(2, 0, "0 bcast 4 0 61", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: bcast DATATYPE: unknown datatype id '61' (valid: -1 = NULL,"
                   " 0 to 59; common: 0 DOUBLE, 1 INT, 2 CHAR, 3 SHORT, 4 LONG, 5 FLOAT, 6 BYTE):"
                   " '0 bcast 4 0 61'");
  trace_parser_free(p);
  /* Sizes on x86_64 (TI_FORMAT.md 1.4), including its two oddities (44: 16, 45: 4). */
  ck_assert_int_eq(trace_dtype_size(0), 8);
  ck_assert_int_eq(trace_dtype_size(1), 4);
  ck_assert_int_eq(trace_dtype_size(3), 2);
  ck_assert_int_eq(trace_dtype_size(6), 1);
  ck_assert_int_eq(trace_dtype_size(14), 16);
  ck_assert_int_eq(trace_dtype_size(27), 32);
  ck_assert_int_eq(trace_dtype_size(44), 16);
  ck_assert_int_eq(trace_dtype_size(45), 4);
  ck_assert_int_eq(trace_dtype_size(55), 0);
  ck_assert_int_eq(trace_dtype_size(59), 8);
  ck_assert_int_eq(trace_dtype_size(TRACE_DT_NULL), 0);
  ck_assert_int_eq(trace_dtype_size(60), -1);
  ck_assert_int_eq(trace_dtype_size(TRACE_DT_DEFAULT), -1);
}
END_TEST

/* ====================================================================================
 * Parser: errors and strict mode
 * ==================================================================================== */

START_TEST(test_argument_count_errors) {
  trace_action a;
  trace_parser *p;
  ck_assert_int_eq(parse_np(4, 0, "0 send 1 2", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: send needs 3 to 4 arguments (DST TAG COUNT [DATATYPE]),"
                   " got 2: '0 send 1 2'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(4, 0, "0 compute", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: compute needs 1 argument (FLOPS), got 0: '0 compute'");
  trace_parser_free(p);
  /* sendRecv: both datatypes are mandatory (SimGrid checks 6 arguments). */
  ck_assert_int_eq(parse_np(4, 0, "0 sendRecv 1 1 1 1 0", &a, &p), -1);
  ck_assert_ptr_nonnull(strstr(err, "sendRecv needs 6 arguments (SENDCOUNT DST RECVCOUNT SRC"
                               " DT_S DT_R), got 5"));
  trace_parser_free(p);
  /* Vector actions: N + 1 = 5 mandatory for np = 4. */
  ck_assert_int_eq(parse_np(4, 0, "0 gatherv 1 1 1 1", &a, &p), -1);
  ck_assert_ptr_nonnull(strstr(err, "gatherv needs 5 to 8 arguments for np = 4"));
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(4, 0, "0 alltoallv 1 1 1 1 1 1 1 1 1", &a, &p), -1); /* 2N+2 */
  ck_assert_ptr_nonnull(strstr(err, "alltoallv needs 10 to 12 arguments for np = 4"));
  trace_parser_free(p);
  PARSE_OK(4, "0 barrier extra args", &a, &p); /* extra arguments are ignored */
  trace_parser_free(p);
}
END_TEST

START_TEST(test_unknown_action_and_rank_field) {
  trace_action a;
  trace_parser *p;
  ck_assert_int_eq(parse_np(2, 0, "0 sendrecv 1 1 1 1 0 0", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: unknown action 'sendrecv' (keywords are case-sensitive: did"
                   " you mean 'sendRecv'?): '0 sendrecv 1 1 1 1 0 0'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 Ssend 1 0 4", &a, &p), -1); /* SimGrid writes, not reads */
  ck_assert_ptr_nonnull(strstr(err, "unknown action 'Ssend' (valid: init finalize"));
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "x send 1 0 1", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: the first field must be a rank number, got 'x':"
                   " 'x send 1 0 1'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "00 init", &a, &p), -1);
  ck_assert_ptr_nonnull(strstr(err, "rank field '00' is not written as SimGrid writes ranks"));
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "1", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: missing action keyword after the rank: '1'");
  trace_parser_free(p);
  const char nul[] = "0 send 1 0 1\0002";
  trace_opts o = opts(0);
  p = trace_parser_new(2, &o, NULL);
  ck_assert_int_eq(trace_parse_line(p, "t.txt", 3, nul, sizeof nul - 1, &a, err, sizeof err), -1);
  ck_assert_str_eq(err, "t.txt:3: the line holds a NUL byte (shown as '?'): not a text trace:"
                   " '0 send 1 0 1?2'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 0, "0 recv\v 0 0 1", &a, &p), -1); /* \v is not a separator */
  ck_assert_ptr_nonnull(strstr(err, "unknown action 'recv\\v'"));
  trace_parser_free(p);
}
END_TEST

START_TEST(test_strict_number_quirks) {
  trace_action a;
  trace_parser *p;
  ck_assert_int_eq(parse_np(2, 1, "0 gatherv 5 1e3 2", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: gatherv RECVCOUNTS must be an integer, got '1e3' (SimGrid"
                   " reads 1 and ignores the rest; an error in strict mode): '0 gatherv 5 1e3 2'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 1, "0 send 1 0 65536.9", &a, &p), -1);
  ck_assert_str_eq(err, "t.txt:12: send COUNT must be a whole number, got '65536.9' (SimGrid"
                   " truncates it to 65536; an error in strict mode): '0 send 1 0 65536.9'");
  trace_parser_free(p);
  ck_assert_int_eq(parse_np(2, 1, "0 send 1 0 1e3", &a, &p), 1); /* whole: fine in strict */
  ck_assert_int_eq(a.count, 1000);
  ck_assert_int_eq(nwarnings, 0);
  trace_parser_free(p);
}
END_TEST

/* ====================================================================================
 * Reader: modes, formats, index resolution
 * ==================================================================================== */

static const char *shared_text =
    "0 init\n"
    "1 init\n"
    "\n"
    "# rank 5 does not run with np = 2: its lines are ignored\n"
    "5 compute 1\n"
    "1 recv 0 0 1e6\n"
    "0 send 1 0 1e6\n"
    "  1   compute\t2e8  \n"
    "0 finalize\n"
    "1 finalize\n";

static void check_shared(const char *path) {
  trace_set *t = open_np(path, 2, 0);
  ck_assert_int_eq(trace_is_shared(t), 1);
  ck_assert_int_eq(trace_nfiles(t), 0);
  /* Rank 1 first: rank 0's lines are queued for it, in order. */
  ck_assert_str_eq(texts_of(t, 1), "1 init|1 recv 0 0 1e6|1 compute 2e8|1 finalize");
  ck_assert_str_eq(texts_of(t, 0), "0 init|0 send 1 0 1e6|0 finalize");
  ck_assert_int_eq(nwarnings, 0); /* ranks >= np: silent, as SimGrid */
  ck_assert(trace_bytes_read(t) == trace_bytes_total(t));
  trace_close(t);
}

START_TEST(test_shared_plain_and_gzip) {
  make_tmpdir();
  check_shared(put("shared.txt", shared_text, 0));
  check_shared(put("shared.txt.gz", shared_text, 1));
  struct stat st;
  ck_assert_int_eq(stat(put("x.gz", shared_text, 1), &st), 0);
  trace_set *t = open_np(put("x.gz", shared_text, 1), 2, 0);
  ck_assert(trace_bytes_total(t) == (uint64_t)st.st_size); /* compressed size */
  trace_close(t);
  rm_tmpdir();
}
END_TEST

START_TEST(test_per_rank_mode) {
  make_tmpdir();
  put("r0.txt", "0 init\n0 send 1 0 10\n", 0);
  put("r1.txt.gz", "1 init\n0 compute 5\n1 recv 0 0 10\n", 1);
  const char *index = put("index", "r0.txt\n\nr1.txt.gz\n", 0); /* empty line skipped */
  trace_set *t = open_np(index, 2, 0);
  ck_assert_int_eq(trace_is_shared(t), 0);
  ck_assert_int_eq(trace_nfiles(t), 2);
  ck_assert_str_eq(texts_of(t, 1), "1 init|1 recv 0 0 10"); /* rank 0's line skipped */
  ck_assert_int_eq(nwarnings, 1);
  ck_assert_ptr_nonnull(strstr(warnings, "r1.txt.gz:2: a line of another rank in the trace of"
                               " rank 1 skipped, as SimGrid does: '0 compute 5'"));
  ck_assert_str_eq(texts_of(t, 0), "0 init|0 send 1 0 10");
  trace_close(t);
  t = open_np(index, 2, 1); /* strict: an error */
  trace_action a;
  ck_assert_int_eq(trace_next(t, 1, &a, err, sizeof err), 1);
  ck_assert_int_eq(trace_next(t, 1, &a, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "r1.txt.gz:2: a line of another rank in the trace of rank 1"
                               " (SimGrid skips it; an error in strict mode): '0 compute 5'"));
  ck_assert_int_eq(trace_next(t, 1, &a, err, sizeof err), 1); /* goes on after a bad line */
  ck_assert_str_eq(a.text, "1 recv 0 0 10");
  trace_close(t);
  rm_tmpdir();
}
END_TEST

START_TEST(test_last_line_without_newline) {
  make_tmpdir();
  const char *f = put("t.txt", "0 init\n0 compute 1e8", 0);
  trace_set *t = open_np(f, 1, 0);
  ck_assert_str_eq(texts_of(t, 0), "0 init"); /* the last line is dropped, as SimGrid does */
  ck_assert_int_eq(nwarnings, 1);
  ck_assert_ptr_nonnull(strstr(warnings, "t.txt:2: last line without newline ignored, as"
                               " SimGrid 3.32 does: '0 compute 1e8'"));
  trace_close(t);
  t = open_np(f, 1, 1);
  trace_action a;
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), 1);
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "t.txt:2: the last line has no newline, and SimGrid 3.32"
                               " ignores such a line (an error in strict mode)"));
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), 0);
  trace_close(t);
  /* A last line that is blank or a comment is no loss: no warning. */
  t = open_np(put("u.txt", "0 init\n# end", 0), 1, 1);
  ck_assert_str_eq(texts_of(t, 0), "0 init");
  ck_assert_int_eq(nwarnings, 0);
  trace_close(t);
  rm_tmpdir();
}
END_TEST

START_TEST(test_rank_fields_shared_mode) {
  make_tmpdir();
  const char *f = put("t.txt", "0 init\n00 compute 1\n+1 init\n3 init\n1 init\n", 0);
  trace_set *t = open_np(f, 2, 0);
  ck_assert_str_eq(texts_of(t, 0), "0 init"); /* "00", "+1" match no rank */
  ck_assert_str_eq(texts_of(t, 1), "1 init");
  ck_assert_int_eq(nwarnings, 1); /* once for the kind */
  ck_assert_ptr_nonnull(strstr(warnings, "t.txt:2: rank field matches no rank, line ignored as"
                               " SimGrid does: '00 compute 1'"));
  trace_close(t);
  t = open_np(f, 2, 1);
  trace_action a;
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), 1);
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "t.txt:2: rank field matches no rank (SimGrid compares it"));
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), -1); /* "+1 init" */
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), 0);  /* strict warns for rank 3 */
  ck_assert_ptr_nonnull(strstr(warnings, "t.txt:4: line of rank 3 ignored (np = 2)"));
  trace_close(t);
  t = open_np(put("b.txt", "0 init\nfoo init\n", 0), 1, 0);
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), 1);
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "/b.txt:2: the first field must be a rank number:"
                               " 'foo init'"));
  trace_close(t);
  rm_tmpdir();
}
END_TEST

START_TEST(test_index_resolution) {
  make_tmpdir();
  char cwd[1024];
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  subdir("own");
  subdir("idx");
  subdir("data");
  put("own/a.txt", "0 init\n0 compute 1\n", 0);
  put("own/index", "a.txt\n", 0);         /* relative to the index's folder */
  put("data/b.txt", "0 init\n", 0);
  put("idx/index", "data/b.txt", 0);      /* relative to the cwd; no final newline: kept */
  ck_assert_int_eq(chdir(tmpdir), 0);
  trace_set *t = open_np("own/index", 1, 0);
  ck_assert_str_eq(texts_of(t, 0), "0 init|0 compute 1");
  trace_action a;
  trace_close(t);
  t = open_np("idx/index", 1, 0);
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), 1);
  ck_assert_str_eq(a.file, "data/b.txt");
  trace_close(t);
  t = open_np("own", 1, 0); /* a directory holding "index" */
  ck_assert_str_eq(texts_of(t, 0), "0 init|0 compute 1");
  trace_close(t);
  t = open_np("own/a.txt", 1, 0); /* a trace file named directly: shared mode */
  ck_assert_int_eq(trace_is_shared(t), 1);
  ck_assert_str_eq(texts_of(t, 0), "0 init|0 compute 1");
  trace_close(t);
  ck_assert_int_eq(chdir(cwd), 0);
  rm_tmpdir();
}
END_TEST

START_TEST(test_absolute_entries_and_next_any) {
  make_tmpdir();
  char line[1200], *idx;
  put("r0.txt", "0 init\n0 send 1 0 1\n", 0);
  put("r1.txt", "1 init\n1 recv 0 0 1\n", 0);
  snprintf(line, sizeof line, "%s/r0.txt\n%s/r1.txt\n%s/r1.txt\n", tmpdir, tmpdir, tmpdir);
  idx = strdup(put("index", line, 0));
  trace_set *t = open_np(idx, 2, 0); /* 3 files listed, np = 2: the third is ignored */
  ck_assert_int_eq(trace_nfiles(t), 3);
  trace_action a;
  const char *want[] = {"0 init", "0 send 1 0 1", "1 init", "1 recv 0 0 1"};
  for (int i = 0; i < 4; i++) { /* per-rank mode: rank 0's trace, then rank 1's */
    ck_assert_int_eq(trace_next_any(t, &a, err, sizeof err), 1);
    ck_assert_str_eq(a.text, want[i]);
    ck_assert_int_eq(a.rank, i / 2);
  }
  ck_assert_int_eq(trace_next_any(t, &a, err, sizeof err), 0);
  trace_close(t);
  t = open_np(put("s.txt", "1 init\n7 init\n0 init\n1 recv 0 0 1\n", 0), 2, 0);
  ck_assert_int_eq(trace_next_any(t, &a, err, sizeof err), 1); /* shared: file order */
  ck_assert_int_eq(a.rank, 1);
  ck_assert_int_eq(trace_next_any(t, &a, err, sizeof err), 1);
  ck_assert_int_eq(a.rank, 0);
  ck_assert_int_eq(trace_next_any(t, &a, err, sizeof err), 1);
  ck_assert_str_eq(a.text, "1 recv 0 0 1");
  ck_assert_int_eq(a.line, 4); /* line 2 is for rank 7: skipped */
  ck_assert_int_eq(trace_next_any(t, &a, err, sizeof err), 0);
  trace_close(t);
  free(idx);
  rm_tmpdir();
}
END_TEST

/* ====================================================================================
 * Reader: input errors
 * ==================================================================================== */

/* trace_open(path) must fail with a message holding want. */
static void open_fails(const char *path, const char *want) {
  trace_opts o = opts(0);
  trace_set *t = trace_open(path, &o, err, sizeof err);
  ck_assert_ptr_null(t);
  ck_assert_msg(strstr(err, want) != NULL, "got '%s', want '%s'", err, want);
}

START_TEST(test_open_errors) {
  make_tmpdir();
  char want[1024];
  open_fails("/nonexistent/trace.txt", "/nonexistent/trace.txt: cannot open: No such file");
  snprintf(want, sizeof want, "%s: a directory without a readable 'index' file", tmpdir);
  open_fails(tmpdir, want);
  put("r0.txt", "0 init\n", 0);
  const char *idx = put("index", "r0.txt\nmissing.txt\n", 0);
  snprintf(want, sizeof want, "%s:2: cannot read trace file 'missing.txt': not in '%s' (No such"
           " file or directory) nor in the current directory (No such file or directory)",
           idx, tmpdir);
  open_fails(idx, want);
  idx = put("index", "r0.txt\nr0.txt \n", 0); /* index lines are verbatim */
  open_fails(idx, "the name ends with a space or a carriage return");
  idx = put("index", "\n\n", 0);
  open_fails(idx, "empty index: expected trace file names, one per line");
  subdir("d");
  idx = put("index", "r0.txt\nd\n", 0);
  open_fails(idx, "cannot read trace file 'd': not in"); /* a directory is no trace */
  rm_tmpdir();
}
END_TEST

START_TEST(test_fewer_files_than_np) {
  make_tmpdir();
  put("r0.txt", "0 init\n", 0);
  put("r1.txt", "1 init\n", 0);
  const char *idx = put("index", "r0.txt\nr1.txt\n", 0);
  trace_opts o = opts(0);
  trace_set *t = trace_open(idx, &o, err, sizeof err);
  ck_assert_ptr_nonnull(t);
  ck_assert_int_eq(trace_set_np(t, 3, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "/index: lists 2 trace files, fewer than np = 3"));
  trace_action a;
  ck_assert_int_eq(trace_next(t, 0, &a, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "trace_set_np was not called"));
  ck_assert_int_eq(trace_set_np(t, 2, err, sizeof err), 0);
  ck_assert_int_eq(trace_next(t, 2, &a, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "no rank 2 (np = 2)"));
  trace_close(t);
  rm_tmpdir();
}
END_TEST

/* Gzip data of n lines "0 compute 1000000" with a valid header and trailer. */
static unsigned char *gz_lines(int n, size_t *len) {
  size_t tn = (size_t)n * 18;
  char *text = malloc(tn + 1);
  for (int i = 0; i < n; i++)
    memcpy(text + (size_t)i * 18, "0 compute 1000000\n", 18);
  const char *p = put("full.gz", (text[tn] = '\0', text), 1);
  free(text);
  FILE *f = fopen(p, "rb");
  unsigned char *buf = malloc(1 << 20);
  *len = fread(buf, 1, 1 << 20, f);
  fclose(f);
  return buf;
}

static const char *put_bytes(const char *name, const unsigned char *b, size_t n) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
  return path;
}

/* Reads rank 0 to its end; returns the last trace_next result, err set. */
static int read_all(const char *path, long *actions) {
  trace_set *t = open_np(path, 1, 0);
  trace_action a;
  int rc;
  *actions = 0;
  while ((rc = trace_next(t, 0, &a, err, sizeof err)) == 1)
    ++*actions;
  ck_assert_int_eq(trace_next(t, 0, &a, err + 2048, 64), 0); /* the rank's trace is over */
  trace_close(t);
  return rc;
}

START_TEST(test_truncated_and_corrupt_gzip) {
  make_tmpdir();
  size_t n;
  long actions;
  unsigned char *gz = gz_lines(100000, &n);
  ck_assert_int_eq(read_all(put_bytes("ok.gz", gz, n), &actions), 0);
  ck_assert_int_eq(actions, 100000);
  /* Cut in the middle: zlib's gzread returns data, then gzerror says Z_BUF_ERROR. */
  ck_assert_int_eq(read_all(put_bytes("cut.gz", gz, n / 2), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, "/cut.gz:"));
  ck_assert_ptr_nonnull(strstr(err, ": truncated gzip stream (unexpected end of file)"));
  ck_assert(actions > 0 && actions < 100000);
  /* Without its 8-byte trailer (CRC, length) only. */
  ck_assert_int_eq(read_all(put_bytes("notrail.gz", gz, n - 8), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, "truncated gzip stream"));
  /* A wrong CRC in the trailer. */
  gz[n - 8] ^= 0xFF;
  ck_assert_int_eq(read_all(put_bytes("crc.gz", gz, n), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, ": corrupt gzip data (zlib: incorrect data check)"));
  gz[n - 8] ^= 0xFF;
  /* A wrong length in the trailer. */
  gz[n - 1] ^= 1;
  ck_assert_int_eq(read_all(put_bytes("len.gz", gz, n), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, ": corrupt gzip data (zlib: incorrect length check)"));
  gz[n - 1] ^= 1;
  /* A damaged byte inside the deflate data (here the input then runs out first). */
  gz[n / 2] ^= 0x55;
  ck_assert_int_eq(read_all(put_bytes("bad.gz", gz, n), &actions), -1);
  ck_assert_msg(strstr(err, "/bad.gz:") && (strstr(err, ": corrupt gzip data (zlib: ") ||
                                            strstr(err, ": truncated gzip stream")), "%s", err);
  gz[n / 2] ^= 0x55;
  free(gz);
  rm_tmpdir();
}
END_TEST

/* As gzread: members follow each other, bytes after the last one that start no member are
 * ignored, a header with its own CRC (FHCRC) is checked too. */
START_TEST(test_gzip_members) {
  make_tmpdir();
  size_t n;
  long actions;
  unsigned char *gz = gz_lines(100000, &n), *two = malloc(2 * n + 64);
  memcpy(two, gz, n);
  memcpy(two + n, gz, n);
  ck_assert_int_eq(read_all(put_bytes("two.gz", two, 2 * n), &actions), 0);
  ck_assert_int_eq(actions, 200000);
  two[2 * n - 8] ^= 1; /* the second member's CRC */
  ck_assert_int_eq(read_all(put_bytes("two2.gz", two, 2 * n), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, ": corrupt gzip data (zlib: incorrect data check)"));
  ck_assert(actions > 100000 && actions < 200000);
  two[2 * n - 8] ^= 1;
  two[n + 10] |= 6; /* the second member's first block: type 3 */
  ck_assert_int_eq(read_all(put_bytes("two3.gz", two, 2 * n), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, "two3.gz:100001: corrupt gzip data (zlib: invalid block type)"));
  memcpy(two + n, "0 compute 1\n", 12); /* trailing garbage */
  ck_assert_int_eq(read_all(put_bytes("tail.gz", two, n + 12), &actions), 0);
  ck_assert_int_eq(actions, 100000);
  two[n] = 0x1f; /* a lone first magic byte */
  ck_assert_int_eq(read_all(put_bytes("tail1.gz", two, n + 1), &actions), 0);
  ck_assert_int_eq(actions, 100000);
  ck_assert_uint_eq(gz[3], 0); /* gzopen writes a bare 10-byte header */
  memcpy(two, gz, 10);
  two[3] = 2; /* FHCRC: the header's CRC-32, low 16 bits, follows it */
  uLong hcrc = crc32(0, two, 10);
  two[10] = (unsigned char)(hcrc & 0xff);
  two[11] = (unsigned char)((hcrc >> 8) & 0xff);
  memcpy(two + 12, gz + 10, n - 10);
  ck_assert_int_eq(read_all(put_bytes("hcrc.gz", two, n + 2), &actions), 0);
  ck_assert_int_eq(actions, 100000);
  two[10] ^= 1; /* (found when the set is opened: its first line is read then) */
  trace_opts o = opts(0);
  ck_assert_ptr_null(trace_open(put_bytes("hcrc2.gz", two, n + 2), &o, err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "hcrc2.gz:1: corrupt gzip data (zlib: header crc mismatch)"));
  two[10] ^= 1;
  two[n + 2 - 8] ^= 1; /* zlib checks the data CRC of such a member */
  ck_assert_int_eq(read_all(put_bytes("hcrc3.gz", two, n + 2), &actions), -1);
  ck_assert_ptr_nonnull(strstr(err, ": corrupt gzip data (zlib: incorrect data check)"));
  free(two);
  free(gz);
  rm_tmpdir();
}
END_TEST

/* ====================================================================================
 * Validator
 * ==================================================================================== */

/* Validates path for np ranks into buf (output); returns validate_traces' result. */
static int validate(const char *path, int np, int strict, char *buf, size_t len) {
  trace_opts o = opts(strict);
  trace_set *t = trace_open(path, &o, err, sizeof err);
  ck_assert_msg(t != NULL, "%s", err);
  FILE *out = fmemopen(buf, len, "w");
  int rc = validate_traces(t, np, out, err, sizeof err);
  fclose(out);
  trace_close(t);
  return rc;
}

static const char *ref_dir(void) {
  static char d[1024];
  const char *top = getenv("top_srcdir");
  snprintf(d, sizeof d, "%s/test/data/traces/ref", top ? top : ".");
  return d;
}

/* The reference cases (test/data/reference/cases.tsv), totals derived by hand. */
static const struct {
  const char *index;
  int np;
  const char *total; /* "total" line of the report: actions, bytes sent, bytes received */
} ref_cases[] = {
  /* 3 init + 6 bcast + 6 compute + 3 reduce + 3 finalize; collectives only: 0 p2p bytes */
  {"index/bcast", 3, "total              21                0                0"},
  /* actions0 (5) + actions1 (7); 3 messages of 1e6 bytes (init: MPI_BYTE) */
  {"replay/split_traces", 2, "total              12          3000000          3000000"},
  /* 14 actions; one message of 1e7 bytes */
  {"index/barrier", 3, "total              14         10000000         10000000"},
  /* 3 init, 3 finalize, 18 others; messages 1e6 x 3 */
  {"index/with_isend", 3, "total              24          3000000          3000000"},
  {"index/allreduce", 3, "total              12                0                0"},
  {"index/alltoall", 3, "total               9                0                0"},
  {"index/alltoallv", 3, "total               9                0                0"},
  {"index/allgatherv", 4, "total              12                0                0"},
  /* 2000 + 3000 + 3000 bytes */
  {"index/waitall", 3, "total              15             8000             8000"},
  {"index/gather", 4, "total              12                0                0"},
  {"index/reducescatter", 4, "total              12                0                0"},
  {"index/bcast_reduce_datatypes", 3, "total              21                0                0"},
  /* 4 ranks x 25 lines */
  {"ti_colls/trace1", 4, "total             100                0                0"},
  /* two messages of 1e6 bytes */
  {"index/probe_two_flows", 3, "total               8          2000000          2000000"},
  {"index/probe_msg_65456", 2, "total               6            65456            65456"},
  {"index/probe_msg_65457", 2, "total               6            65457            65457"},
  {"index/probe_cluster", 2, "total               6          1000000          1000000"},
  /* 4 lines, the last one without newline is dropped */
  {"index/probe_no_final_newline", 2, "total               3                0                0"},
  /* 1e5 bytes once */
  {"index/energy", 2, "total               9           100000           100000"},
  /* 16 ranks x (init + 20 x (compute, 4 irecv, 4 isend, waitall, allreduce) + finalize) =
   * 16 x 222 = 3552; bytes: 16 x 20 x 4 x 65536 = 83886080 */
  {"stencil_16_20/index.txt", 16, "total            3552         83886080         83886080"},
};

START_TEST(test_reference_cases_are_valid) {
  char cwd[1024], *buf = malloc(1 << 16);
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(chdir(ref_dir()), 0); /* index entries are relative to that folder */
  for (size_t i = 0; i < sizeof ref_cases / sizeof ref_cases[0]; i++) {
    int rc = validate(ref_cases[i].index, ref_cases[i].np, 0, buf, 1 << 16);
    ck_assert_msg(rc == 0, "%s: %s", ref_cases[i].index, err);
    ck_assert_msg(strstr(buf, ref_cases[i].total) != NULL, "%s:\n%s", ref_cases[i].index, buf);
    ck_assert_ptr_nonnull(strstr(buf, "\nvalid: "));
  }
  ck_assert_int_eq(chdir(cwd), 0);
  free(buf);
}
END_TEST

START_TEST(test_validate_rank_table_and_warnings) {
  char buf[8192];
  char cwd[1024];
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(chdir(ref_dir()), 0);
  /* with_isend: rank 2's last isend is never waited (a warning: SimGrid waits for it). */
  ck_assert_int_eq(validate("index/with_isend", 3, 0, buf, sizeof buf), 0);
  ck_assert_ptr_nonnull(strstr(buf, "warning: replay/actions_with_isend.txt:23: rank 2: 1 isend"
                               " request(s) with key (src 2, dst 0, tag 2) never waited"));
  /* rank 0: 6 actions (init, compute, send 1e6 to 1, compute, recv 1e6 from 2, finalize);
   * rank 2: 10 (init, 4 compute, irecv 1e6 from 1, test, wait, isend 1e6 to 0, finalize). */
  ck_assert_ptr_nonnull(strstr(buf, "\n0                   6          1000000          1000000\n"));
  ck_assert_ptr_nonnull(strstr(buf, "\n2                  10          1000000          1000000\n"));
  ck_assert_ptr_nonnull(strstr(buf, "valid: 3 rank(s), 24 action(s), 1 warning(s)"));
  /* bcast_reduce_datatypes with np = 4: rank 3 has no action, and misses the collectives. */
  ck_assert_int_eq(validate("index/bcast_reduce_datatypes", 4, 0, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(buf, "warning: rank 3 has no action"));
  ck_assert_str_eq(err, "rank 3 calls bcast 0 time(s) but rank 0 calls it 2 time(s)");
  ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

/* Validates text (a shared trace) for np ranks; returns the result, output in out. */
static int validate_text(const char *text, int np, char *out, size_t len) {
  return validate(put("v.txt", text, 0), np, 0, out, len);
}

/* validate_action, the checks the replay makes on every action it reads: its inline fast
 * path and the full function agree on every line, and refuse exactly the bad ones. */
START_TEST(test_validate_action_alone) {
  static const struct {
    const char *line;
    int ok;
    const char *msg;
  } cases[] = {
      {"0 send 1 0 10", 1, NULL},
      {"0 irecv 1 0 -1", 1, NULL}, /* a receive of unknown size: probe first */
      {"0 compute 1e9", 1, NULL},
      {"0 sleep 0", 1, NULL},
      {"0 wait 5 7 0", 1, NULL},
      {"0 probe 1 3", 1, NULL},
      {"0 iprobe -555 -444 0", 1, NULL}, /* MPI_ANY_SOURCE, found nothing (tir-trace writes it) */
      {"0 send -1 0 100", 0, "send DST -1 out of range [0, 1]"},
      {"0 isend 2 0 100", 0, "isend DST 2 out of range [0, 1]"},
      {"0 send 1 0 -100", 0, "send COUNT is negative (-100)"},
      {"0 send 1 0 281474976710657", 0, "send COUNT 281474976710657 is beyond tir's limit of 2^48"},
      {"0 recv 3 0 10", 0, "recv SRC 3 out of range [0, 1]"},
      {"0 probe 2 0", 0, "probe SRC 2 out of range [0, 1]"},
      {"0 iprobe -1 0 0", 0, "iprobe SRC -1 out of range [0, 1]"},
      {"0 compute inf", 0, "compute amount inf must be finite and >= 0"},
      {"0 compute nan", 0, "compute amount nan must be finite and >= 0"},
      {"0 compute -5", 0, "compute amount -5 must be finite and >= 0"},
      {"0 sleep 1e400", 0, "sleep amount inf must be finite and >= 0"},
      {"0 sleep -1", 0, "sleep amount -1 must be finite and >= 0"},
      {"0 allreduce 100 inf", 0, "allreduce amount inf must be finite and >= 0"},
      {"0 reduce 100 -1 0", 0, "reduce amount -1 must be finite and >= 0"},
      {"0 sendRecv 10 1 10 2 0 0", 0, "sendRecv SRC 2 out of range [0, 1]"},
      {"0 bcast 10 2", 0, "bcast ROOT 2 out of range [0, 1]"},
      {"0 gatherv 1 1 -1 0", 0, "gatherv count vector element is negative (-1)"},
  };
  trace_parser *p = trace_parser_new(2, NULL, NULL);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    trace_action a;
    char e1[512] = "", e2[512] = "";
    ck_assert_msg(trace_parse_line(p, "t.txt", 7, cases[i].line, strlen(cases[i].line), &a, e1, sizeof e1) == 1,
                  "%s: %s", cases[i].line, e1);
    int fast = validate_action(&a, 2, e1, sizeof e1), all = validate_action_all(&a, 2, e2, sizeof e2);
    ck_assert_msg(fast == all && fast == (cases[i].ok ? 0 : -1), "%s: %d %d", cases[i].line, fast, all);
    if (!cases[i].ok) {
      ck_assert_str_eq(e1, e2);
      ck_assert_msg(strstr(e1, cases[i].msg) && !strncmp(e1, "t.txt:7: ", 9), "%s: %s", cases[i].line, e1);
    }
  }
  trace_parser_free(p);
}
END_TEST

START_TEST(test_validate_finds_problems) {
  char buf[8192];
  make_tmpdir();
  /* Unmatched: 2 sends of tag 0, 1 receive. */
  ck_assert_int_eq(validate_text("0 send 1 0 8\n0 send 1 0 8\n1 recv 0 0 8\n", 2, buf,
                                 sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, "rank 0 sends 2 message(s) to rank 1 with tag 0 but rank 1"
                               " receives 1 (first send at "));
  /* Truncation: 100 x BYTE (type 6) sent, 50 received. */
  ck_assert_int_eq(validate_text("0 send 1 0 100 6\n1 recv 0 0 50 6\n", 2, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, "rank 0 sends 100 bytes to rank 1 with tag 0 but rank 1"
                               " receives only 50"));
  /* A receive of unknown size (negative count) is not a truncation. */
  ck_assert_int_eq(validate_text("0 init\n1 init\n0 send 1 0 100\n1 recv 0 0 -1\n", 2, buf,
                                 sizeof buf), 0);
  /* Peer and root out of range, negative count, bad amount. */
  ck_assert_int_eq(validate_text("0 send 2 0 1\n", 2, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, ":1: send DST 2 out of range [0, 1]: '0 send 2 0 1'"));
  ck_assert_int_eq(validate_text("0 bcast 1 5\n1 bcast 1 5\n", 2, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, ":1: bcast ROOT 5 out of range [0, 1]"));
  ck_assert_int_eq(validate_text("0 init\n0 send 0 0 -4\n0 recv 0 0 1\n", 1, buf, sizeof buf),
                   -1);
  ck_assert_ptr_nonnull(strstr(err, "send COUNT is negative (-4)"));
  ck_assert_int_eq(validate_text("0 compute -1\n", 1, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, "compute amount -1 must be finite and >= 0"));
  /* A wait with an empty request store: SimGrid aborts. */
  ck_assert_int_eq(validate_text("0 wait 1 0 0\n", 2, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, "wait with no isend or irecv pending on this rank"));
  /* Collectives in another order. */
  ck_assert_int_eq(validate_text("0 bcast 1\n0 barrier\n1 barrier\n1 bcast 1\n", 2, buf,
                                 sizeof buf), -1);
  ck_assert_str_eq(err, "rank 1 calls the same collectives as rank 0 but in another order or"
                   " with other roots");
  /* Parse errors are all listed, the first one in err. */
  ck_assert_int_eq(validate_text("0 init\n0 foo\n0 send 1\n", 1, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(err, ":2: unknown action 'foo'"));
  ck_assert_ptr_nonnull(strstr(buf, ":3: send needs 3 to 4 arguments"));
  ck_assert_ptr_nonnull(strstr(buf, "invalid: 2 error(s), 0 warning(s)"));
  rm_tmpdir();
}
END_TEST

START_TEST(test_validate_requests_and_bytes) {
  char buf[8192];
  make_tmpdir();
  /* init 1: default type DOUBLE (8 bytes). Rank 0 isends 10 doubles (80 bytes) with tag 3,
   * tests it, waits for it; rank 1 irecvs 10 ints (type 1: 40 bytes) and waits for
   * everything. sendRecv: rank 0 sends 2 x 4 bytes, receives 3 x 2 bytes (type 3 = short),
   * rank 1 mirrors it. Totals: rank 0 sent 80 + 8 = 88, received 6; rank 1 sent 6,
   * received 40 + 8 = 48. The 40 received < 80 sent on key (0, 1, 3): truncation. */
  const char *text = "0 init 1\n1 init 1\n0 isend 1 3 10\n0 test 0 1 3\n0 wait 0 1 3\n"
                     "1 irecv 0 3 10 1\n1 waitall\n0 sendRecv 2 1 3 1 1 3\n"
                     "1 sendRecv 3 0 2 0 3 1\n";
  ck_assert_int_eq(validate_text(text, 2, buf, sizeof buf), -1);
  ck_assert_ptr_nonnull(strstr(buf, "\n0                   5               88                6\n"));
  ck_assert_ptr_nonnull(strstr(buf, "\n1                   4                6               48\n"));
  ck_assert_ptr_nonnull(strstr(err, "rank 0 sends 80 bytes to rank 1 with tag 3 but rank 1"
                               " receives only 40"));
  ck_assert_ptr_null(strstr(buf, "never waited"));
  /* Ranks disagreeing on init's argument (rank 0: 4 x 1 byte sent, rank 1: 4 x 8 bytes
   * received: no truncation); a wait matching nothing; a request only tested. */
  text = "0 init\n1 init 1\n0 send 1 0 4\n1 recv 0 0 4\n0 irecv 1 5 1\n0 wait 1 0 6\n"
         "0 test 1 0 5\n1 send 0 5 1 6\n";
  ck_assert_int_eq(validate_text(text, 2, buf, sizeof buf), 0);
  ck_assert_ptr_nonnull(strstr(buf, ":2: ranks disagree on init's argument"));
  ck_assert_ptr_nonnull(strstr(buf, ":6: wait matches no pending isend/irecv with key (src 1,"
                               " dst 0, tag 6)"));
  ck_assert_ptr_nonnull(strstr(buf, ":5: rank 0: 1 irecv request(s) with key (src 1, dst 0,"
                               " tag 5) never waited, only tested,"));
  ck_assert_int_eq(validate_text("0 send 0 0 4\n0 recv 0 0 4\n", 1, buf, sizeof buf), 0);
  ck_assert_ptr_nonnull(strstr(buf, ":1: the default datatype is used before this rank's"
                               " init"));
  rm_tmpdir();
}
END_TEST

/* One-sided lines and request-making lines without a peer key (non-blocking collectives,
 * request-based RMA: the K-th one of a rank makes the key (me, me, -K)). */
START_TEST(test_validate_rma_and_nbc_requests) {
  char buf[8192];
  make_tmpdir();
  const char *text = "0 init\n1 init\n0 win_create 1 0 64\n1 win_create 1 0 64\n0 ibarrier\n1 ibarrier\n"
                     "0 rput 1 1 8\n0 wait 0 0 -1\n1 wait 1 1 -1\n0 wait 0 0 -2\n0 win_lock 1 1 1\n"
                     "0 get 1 1 8\n0 win_unlock 1 1\n0 win_lock_all 1\n0 fetch_and_op 1 1 0 8\n"
                     "0 win_unlock_all 1\n1 win_post 1 1 0\n0 win_start 1 1 1\n0 put 1 1 8\n"
                     "0 win_complete 1\n1 win_wait 1\n0 win_fence 1\n1 win_fence 1\n0 win_free 1\n1 win_free 1\n";
  ck_assert_int_eq(validate_text(text, 2, buf, sizeof buf), 0);
  ck_assert_ptr_nonnull(strstr(buf, "valid: 2 rank(s), 25 action(s), 0 warning(s)"));
  /* errors: a window not created, freed, a lock twice, an unlock without lock, a complete
   * without start, a target out of range, a negative size; warnings: a lock never released */
  static const struct { const char *text, *msg; } bad[] = {
    {"0 put 1 0 8\n", ":1: put on window 1, which this rank did not create (no win_create line before)"},
    {"0 win_create 1 0 8\n0 win_free 1\n0 win_fence 1\n", ":3: win_fence on window 1, which this rank has freed"},
    {"0 win_create 1 0 8\n0 win_lock 1 0 0\n0 win_lock 1 0 1\n",
     ":3: win_lock of target 0 on window 1, which this rank holds already (win_lock)"},
    {"0 win_create 1 0 8\n0 win_lock_all 1\n0 win_lock 1 0 1\n", "holds already (win_lock_all)"},
    {"0 win_create 1 0 8\n0 win_unlock 1 0\n", ":2: win_unlock of target 0 on window 1, which this rank has not locked"},
    {"0 win_create 1 0 8\n0 win_complete 1\n", ":2: win_complete on window 1 without a win_start before it"},
    {"0 win_create 1 0 8\n0 win_lock_all 1\n0 win_free 1\n", ":3: win_free on window 1 while a win_lock_all epoch is open"},
    {"0 win_create 1 0 8\n0 get 1 3 8\n", ":2: get TARGET 3 out of range [0, 0]"},
    {"0 win_create 1 0 8\n0 put 1 0 -8\n", ":2: put SBYTES is negative (-8)"},
    {"0 win_create 1 0 8\n0 win_start 1 1 5\n", ":2: win_start group member 5 out of range [0, 0]"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_int_eq(validate_text(bad[i].text, 1, buf, sizeof buf), -1);
    ck_assert_msg(strstr(err, bad[i].msg) != NULL, "%s: got %s", bad[i].msg, err);
  }
  ck_assert_int_eq(validate_text("0 win_create 1 0 8\n0 win_lock 1 0 1\n", 1, buf, sizeof buf), 0);
  ck_assert_ptr_nonnull(strstr(buf, ":2: rank 0 never unlocks target 0 of window 1"));
  rm_tmpdir();
}
END_TEST

START_TEST(test_validate_missing_rank_files) {
  char buf[4096];
  char cwd[1024];
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(chdir(ref_dir()), 0);
  ck_assert_int_eq(validate("replay/split_traces", 3, 0, buf, sizeof buf), -1);
  ck_assert_str_eq(err, "replay/split_traces: lists 2 trace files, fewer than np = 3 (one file"
                   " per rank; a one-line index names one trace shared by all ranks)");
  ck_assert_ptr_nonnull(strstr(buf, "invalid: 1 error(s)"));
  ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

/* ====================================================================================
 * Suite
 * ==================================================================================== */

/* ====================================================================================
 * Fast path against the general path
 * ==================================================================================== */

/* Everything an action says, as text (numbers bit for bit), for comparisons. */
static void describe(int rc, const trace_action *a, const char *e, char *out, size_t n) {
  if (rc != 1) {
    snprintf(out, n, "rc %d err %s", rc, rc < 0 ? e : "");
    return;
  }
  uint64_t bits;
  memcpy(&bits, &a->amount, sizeof bits);
  int w = snprintf(out, n, "op %d rank %d peer %d %d tag %d dt %d %d arg %d nvec %d comm %d %d"
                   " nbc %d count %lld %lld amount %llx str %s file %s line %ld text [%s] vec",
                   a->op, a->rank, a->peer, a->peer2, a->tag, a->dtype, a->dtype2, a->has_arg,
                   a->nvec, a->comm, a->comm_size, a->nbc, (long long)a->count,
                   (long long)a->count2, (unsigned long long)bits, a->str ? a->str : "(null)",
                   a->file, a->line, a->text);
  for (int i = 0; a->vec && i < a->nvec && w < (int)n; i++)
    w += snprintf(out + w, n - (size_t)w, " %lld", (long long)a->vec[i]);
  for (int i = 0; a->vec2 && i < a->nvec && w < (int)n; i++)
    w += snprintf(out + w, n - (size_t)w, " %lld", (long long)a->vec2[i]);
}

/* line (n bytes) through the general path, then through trace_parse_line, trace_parse_inplace
 * and trace_parse_fast with the fast path on (any rank, then the line's rank, as the reader
 * asks, after a first line of that rank): same result, message and warnings. The bytes
 * after the line's NUL hold digits and spaces, which the fast path may load but not use. */
static void setup_parser(trace_parser *p, const char *setup) {
  trace_action a;
  char e[512];
  if (setup)
    ck_assert_int_eq(trace_parse_line(p, "t.txt", 1, setup, strlen(setup), &a, e, sizeof e), 1);
}

/* (setup: a line both parsers read first, such as one creating a communicator) */
static void same_both_ways(const char *setup, const char *line, size_t n, int strict) {
  static char want[8192], got[8192], wwarn[8192], e2[4096], buf[512];
  trace_action a;
  trace_opts o = opts(strict);
  trace_parser *slow = trace_parser_new(3, &o, NULL);
  trace_parser_fast(slow, 0);
  setup_parser(slow, setup);
  int rc = trace_parse_line(slow, "t.txt", 7, line, n, &a, e2, sizeof e2);
  int rank = rc == 1 ? a.rank : -1;
  describe(rc, &a, e2, want, sizeof want);
  snprintf(wwarn, sizeof wwarn, "%s", warnings);
  for (int way = 0; way < (memchr(line, '\n', n) ? 2 : 4); way++) { /* the reader cuts at '\n' */
    trace_parser *fast = trace_parser_new(3, &o, NULL);
    setup_parser(fast, setup);
    warnings[0] = '\0';
    ck_assert_uint_lt(n + 2 + TRACE_PAD, sizeof buf);
    if (way == 3) { /* the reader's case: the rank's key is set by a first line */
      if (rank < 0 || rank > 999999999) { /* the fast path reads ranks < 10^9 */
        trace_parser_free(fast);
        continue;
      }
      snprintf(buf, sizeof buf, "%d init\n", rank);
      ck_assert_ptr_nonnull(trace_parse_fast(fast, rank, "t.txt", 6, buf, &a));
    }
    memcpy(buf, line, n);
    buf[n] = '\n';
    buf[n + 1] = '\0';
    for (int i = 0; i < TRACE_PAD; i++)
      buf[n + 2 + i] = i % 3 ? (char)('0' + (n + (size_t)i) % 10) : ' ';
    if (way == 0)
      rc = trace_parse_line(fast, "t.txt", 7, line, n, &a, e2, sizeof e2);
    else if (way == 1 || !trace_parse_fast(fast, way == 3 ? rank : -1, "t.txt", 7, buf, &a))
      rc = trace_parse_inplace(fast, -1, "t.txt", 7, buf, n, &a, e2, sizeof e2);
    else
      rc = 1;
    describe(rc, &a, e2, got, sizeof got);
    ck_assert_msg(strcmp(want, got) == 0, "way %d on '%.*s':\n%s\n%s", way, (int)n, line, want,
                  got);
    ck_assert_str_eq(wwarn, warnings);
    trace_parser_free(fast);
  }
  trace_parser_free(slow);
}

/* Each base line, then random edits of it (replace, insert, delete, NUL), both ways. */
static void mutate_all(const char *setup, const char *const *base, size_t nb) {
  static const char alphabet[] = " \t\r\v-+.e0123456789x#\nsi";
  for (size_t b = 0; b < nb; b++) {
    char line[256];
    size_t n = strlen(base[b]);
    for (int strict = 0; strict < 2; strict++)
      same_both_ways(setup, base[b], n, strict);
    for (int m = 0; m < 300; m++) {
      memcpy(line, base[b], n + 1);
      size_t k = n;
      for (int e = 0; e < 1 + m % 3; e++) {
        size_t at = k ? (size_t)rand() % (k + 1) : 0;
        int what = rand() % 4;
        char c = what == 3 ? '\0' : alphabet[rand() % (sizeof alphabet - 1)];
        if (what == 0 && at < k)
          line[at] = c;
        else if (what == 2 && at < k)
          memmove(line + at, line + at + 1, k-- - at);
        else if (k + 1 < sizeof line) {
          memmove(line + at + 1, line + at, k - at + 1);
          line[at] = c;
          k++;
        }
      }
      same_both_ways(setup, line, k, m % 2);
    }
  }
}

START_TEST(test_fast_path_matches_general_path) {
  static const char *base[] = {
    "0 init", "1 init 0", "0 finalize", "2 comm_size", "0 comm_split", "0 comm_dup",
    "0 compute 1e8", "0 compute 123.456", "1 sleep 0.5", "0 send 1 0 65536",
    "0 isend 2 -1 65536 1", "1 recv 0 0 -1", "0 irecv 15 0 65536 -1", "0 test 1 0 3",
    "0 wait 1 2 3", "0 waitall", "0 barrier", "0 sendRecv 10 1 20 2 0 1",
    "0 bcast 8", "0 bcast 8 1", "0 bcast 8 1 5", "0 reduce 8 1e3", "0 reduce 8 1e3 2 0",
    "0 allreduce 8 0", "0 allreduce 4294967295 1.5 3", "0 scan 8 1", "0 exscan 8 1 59",
    "0 alltoall 4 4", "0 alltoall 4 4 1 2", "0 allgather 4 4 0", "0 gather 4 4",
    "0 gather 4 4 1 0 0", "0 scatter 4 4 2", "0 gatherv 1 1 2 3 0", "0 ibcast 8",
    "0 comm 1 bcast 8", "0 region r", "0 location f.c 12", "123456789 init",
    "0 isend 1 2 123456789012345", "0 isend 1 2 1234567890123456", "0 isend 1 2 2147483648",
    "0 sendRecv 2147483648 1 2 2 0 0", "0 compute 1e-400", "0 compute 0x10",
    "0 send 1 2147483647 8", "0 send 1 2147483648 8", "0 send 1 -2147483648 8",
    "0 send 1 0999999999 8", "1000000000 init", "9999999999 init", "0 allreduce 4294967296 1",
    "0 compute 5e22", "0 compute 1e23", "0 compute 12e3", "0 compute 1e022", "0 compute 0e9",
    "0 compute 123456789012345", "0 compute 1234567890123456", "0 compute 9007199254740993",
    "0 compute 007", "0 reduce 8 1e8 1", "0 allreduce 8 10 1", "0 isend 1 2 12345678",
    "0 isend 1 2 99999999", "0 irecv 1 2 123456789", "0 irecv 12345678 123456789 8",
    "12 irecv 1 2 3", "1234567 isend 1 0 8", "12345678 isend 1 0 8", "0 waitall",
    "0 wait 1 -2 3", "0 test -1 -12345678 -123456789", "0 probe 1 2", "0 iprobe -555 -444 0",
    "0 iprobe 2 7 1", "0 test 1 2 3 0", "0 test 1 2 3 1", "0 test 1 2 3 2", "0 test 1 2 3 x",
    "0 wait 1 2 3 0", "0 waitallx", "0 sendRecvx 1 1 1 1 0 0", "0 reducescatterx", "0 sendx 1 2 3",
    "0 put 3 2 65536", "0 get 3 1 8", "0 accumulate 3 2 1e3", "0 get_accumulate 3 2 0 8",
    "0 fetch_and_op 3 2 8 8", "0 compare_and_swap 3 2 16 8", "0 rput 3 2 8", "0 rget 3 2 8",
    "0 raccumulate 1 1 1", "0 rget_accumulate 3 2 8 8", "0 win_fence 3", "0 win_lock 3 2 1",
    "0 win_lock 3 2 0", "0 win_lock 3 2 2", "0 win_unlock 3 2", "0 win_lock_all 3", "0 win_unlock_all 3",
    "0 win_flush 3 2", "0 win_flush_all 3", "0 win_flush_local 3 1", "0 win_flush_local_all 3",
    "0 win_complete 3", "0 win_wait 3", "0 win_sync 3", "0 win_create 3 0 8", "0 win_free 3",
    "0 win_post 3 2 1 2", "0 win_start 3 1 0", "0 win_create_dynamic 3 0", "0 put 3 2 -1",
  };
  static const char *vec[] = { /* np = 3 */
    "0 gatherv 1 1 2 3", "0 gatherv 1 1 2 3 1 0 0", "0 gatherv 1 1 2", "0 allgatherv 1 1 2 3",
    "0 allgatherv 1 1 2 3 0 0", "0 allgatherv 1 1 2 3 4 5 6", "0 allgatherv 1 1 2 3 0 1 4 5 6",
    "0 scatterv 1 2 3 4", "0 scatterv 1 2 3 4 2 0 1", "0 reducescatter 1 2 3 1e3",
    "0 reducescatter 1 2 3 5 0", "0 alltoallv 6 1 2 3 6 3 2 1", "0 alltoallv 6 1 2 3 6 3 2 1 0 1",
    "0 ibarrier", "0 ibcast 8 1", "0 iallreduce 8 1 2", "0 ireduce 8 1e3 2 0", "0 iscan 8 1",
    "0 iexscan 8 1", "0 igatherv 1 1 2 3 2", "0 ialltoallv 6 1 2 3 6 3 2 1", "0 ialltoall 4 4",
    "0 iallgatherv 1 1 2 3", "0 iscatterv 1 2 3 4", "0 ireducescatter 1 2 3 1", "0 igather 4 4",
    "0 iallgather 4 4", "0 iscatter 4 4 2", "0 isendRecv 10 1 20 2 0 1", "0 iinit", "0 iwaitall",
    "0 iirecv 1 0 8", "0 icomm 1 bcast 8",
  };
  static const char *comm[] = { /* after "0 comm_split 1 2 0 2": communicator 1 of 2 ranks */
    "0 comm 1 bcast 8", "0 comm 1 bcast 8 2 0", "0 comm 1 gatherv 1 5 6", "0 comm 1 gatherv 1 5 6 2",
    "0 comm 1 ibcast 8", "0 comm 1 iallgatherv 1 5 6 0 0", "0 comm 1 alltoallv 3 1 2 3 1 2",
    "0 comm 1 barrier", "0 comm 01 barrier", "0 comm 2 barrier", "0 comm 0 barrier",
    "0 comm 1 comm 1 barrier", "0 comm 1 send 1 0 8", "0 comm 1 scatterv 1 2 3", "0 comm x barrier",
    "0 comm 1 reducescatter 4 5 1", "0 comm 1 allgatherv 1 5 6",
  };
  static const char *comm1[] = { /* after "0 comm_split 1 1 0": allgatherv's tails with n = 1 */
    "0 comm 1 allgatherv 1 5", "0 comm 1 allgatherv 1 5 0", "0 comm 1 allgatherv 1 5 0 0",
    "0 comm 1 allgatherv 1 5 0 0 7", "0 comm 1 gatherv 1 5 0 0 0", "0 comm 1 alltoallv 1 1 1 1",
  };
  srand(7);
  mutate_all("0 comm_split 1 1 0", comm1, sizeof comm1 / sizeof *comm1);
  mutate_all(NULL, base, sizeof base / sizeof *base);
  mutate_all(NULL, vec, sizeof vec / sizeof *vec);
  mutate_all("0 comm_split 1 2 0 2", comm, sizeof comm / sizeof *comm);
}
END_TEST

static Suite *trace_suite(void) {
  Suite *s = suite_create("trace");
  TCase *parse = tcase_create("parser");
  tcase_add_test(parse, test_blank_and_comment_lines);
  tcase_add_test(parse, test_text_joins_tokens);
  tcase_add_test(parse, test_every_keyword);
  tcase_add_test(parse, test_init_forms);
  tcase_add_test(parse, test_point_to_point_forms);
  tcase_add_test(parse, test_rooted_collectives);
  tcase_add_test(parse, test_unrooted_collectives);
  tcase_add_test(parse, test_vector_collectives);
  tcase_add_test(parse, test_allgatherv_tails);
  tcase_add_test(parse, test_location_and_regions);
  tcase_add_test(parse, test_integer_via_double);
  tcase_add_test(parse, test_stoi_fields);
  tcase_add_test(parse, test_doubles_match_strtod);
  tcase_add_test(parse, test_double_errors);
  tcase_add_test(parse, test_datatypes);
  tcase_add_test(parse, test_argument_count_errors);
  tcase_add_test(parse, test_unknown_action_and_rank_field);
  tcase_add_test(parse, test_strict_number_quirks);
  tcase_add_test(parse, test_fast_path_matches_general_path);
  suite_add_tcase(s, parse);
  TCase *read = tcase_create("reader");
  tcase_add_test(read, test_shared_plain_and_gzip);
  tcase_add_test(read, test_per_rank_mode);
  tcase_add_test(read, test_last_line_without_newline);
  tcase_add_test(read, test_rank_fields_shared_mode);
  tcase_add_test(read, test_index_resolution);
  tcase_add_test(read, test_absolute_entries_and_next_any);
  tcase_add_test(read, test_open_errors);
  tcase_add_test(read, test_fewer_files_than_np);
  tcase_add_test(read, test_truncated_and_corrupt_gzip);
  tcase_add_test(read, test_gzip_members);
  suite_add_tcase(s, read);
  TCase *val = tcase_create("validate");
  tcase_set_timeout(val, 30);
  tcase_add_test(val, test_reference_cases_are_valid);
  tcase_add_test(val, test_validate_rank_table_and_warnings);
  tcase_add_test(val, test_validate_finds_problems);
  tcase_add_test(val, test_validate_action_alone);
  tcase_add_test(val, test_validate_requests_and_bytes);
  tcase_add_test(val, test_validate_missing_rank_files);
  tcase_add_test(val, test_validate_rma_and_nbc_requests);
  suite_add_tcase(s, val);
  return s;
}

Suite *check_suite(void) { return trace_suite(); }
