/* check_trace.c - unit tests of the TI trace reader (trace.h) and the validator.
 *
 * Three groups: the line parser (every keyword and argument form, the three number
 * parsers, datatypes, every error message), the reader (shared and per-rank modes, plain
 * and gzip files, index resolution, the quirks in default and strict mode, every input
 * error class), and the validator (all reference cases valid with hand-derived totals,
 * each kind of problem found). Files the reader tests need are written at run time in a
 * fresh temporary directory; reference traces are read from test/data/traces/ref (copies
 * of ../shared/reference, whose index entries are relative to that folder). */
#include <check.h>
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
    {"0 init", TRACE_INIT}, {"0 finalize", TRACE_FINALIZE}, {"0 comm_size 4", TRACE_COMM_SIZE},
    {"0 comm_split", TRACE_COMM_SPLIT}, {"0 comm_dup x y", TRACE_COMM_DUP},
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
    {"0 region_end", TRACE_REGION_END},
  };
  ck_assert_int_eq(sizeof cases / sizeof cases[0], TRACE_NOPS);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    trace_action a;
    trace_parser *p;
    ck_assert_msg(parse_np(4, 1, cases[i].line, &a, &p) == 1, "%s", err);
    ck_assert_int_eq(a.op, cases[i].op);
    /* the keyword is the second token of the line */
    ck_assert_str_eq(trace_op_name(a.op), strchr(cases[i].line, ' ') + 1 -
                     0 == NULL ? "" : trace_op_name(cases[i].op));
    ck_assert_int_eq(strncmp(cases[i].line + 2, trace_op_name(a.op),
                             strlen(trace_op_name(a.op))), 0);
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
  ck_assert_str_eq(err, "b.txt:2: the first field must be a rank number: 'foo init'" + 0);
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
  put("dir/index", "x", 0) ? (void)0 : (void)0;
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
