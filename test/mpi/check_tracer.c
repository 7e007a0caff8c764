/* check_tracer.c - unit tests (Check) of libtirtrace's writer and request table.
 *
 * The writer (tt_out.c) is driven directly and its file read back with zlib: every
 * expected byte string below is written out by hand from the rules of tt_out.h (lines
 * "RANK ACTION ARGS", holds = a blank then an 11-character field holding the fallback).
 * The request table (tt_req.c) gets fake handles (no MPI_Init is needed: the table only
 * compares handle values) and is checked against a plain array kept by the test. */
#include "check_main.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tt.h"
#include "tt_out.h"
#include "tt_req.h"

static char path[64];

/* The whole (decompressed) content of path. */
static char *slurp(void) {
  static char buf[1 << 16];
  gzFile f = gzopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  int n = gzread(f, buf, sizeof buf - 1);
  gzclose(f);
  ck_assert_int_ge(n, 0);
  buf[n] = 0;
  return buf;
}

static void setup(void) {
  snprintf(path, sizeof path, "/tmp/check_tracer.%d.gz", (int)getpid());
  ck_assert_int_eq(tt_out_open(path, 6, 1.0), 0);
}

static void teardown(void) { unlink(path); }

START_TEST(lines) {
  tt_out_begin(3, "send", 0);
  tt_out_int(1);
  tt_out_int(-7);
  tt_out_int(1234567890123LL);
  tt_out_end();
  tt_out_begin(0, "region", 1); /* a comment */
  tt_out_str("solve");
  tt_out_end();
  ck_assert_int_eq(tt_out_close(), 0);
  ck_assert_str_eq(slurp(), "3 send 1 -7 1234567890123\n# 0 region solve\n");
  ck_assert_int_eq((int)tt_out_lines(), 2);
  ck_assert_int_eq((int)tt_out_written(), 26 + 17); /* 26 + 17 bytes, counted by hand */
}
END_TEST

START_TEST(holds) {
  tt_out_begin(0, "irecv", 0);
  uint64_t src = tt_out_hold(-555); /* " -555" + 7 blanks */
  tt_out_int(5);
  tt_out_int(20);
  tt_out_end();
  tt_out_begin(0, "compute", 0);
  tt_out_int(99);
  tt_out_end();
  tt_out_begin(0, "test", 0);
  uint64_t src2 = tt_out_hold(-555);
  tt_out_int(0);
  tt_out_int(5);
  tt_out_end();
  tt_out_patch(src, 2);
  tt_out_patch(src2, 2);
  tt_out_patch(src2, 7); /* already released: no effect */
  ck_assert_int_eq(tt_out_close(), 0);
  ck_assert_str_eq(slurp(), "0 irecv 2           5 20\n0 compute 99\n0 test 2           0 5\n");
}
END_TEST

START_TEST(unpatched_keeps_fallback) {
  tt_out_begin(12, "irecv", 0);
  uint64_t h = tt_out_hold(-555);
  tt_out_int(60);
  tt_out_int(4);
  tt_out_end();
  tt_out_begin(12, "irecv", 0);
  tt_out_hold(-555);
  tt_out_int(61);
  tt_out_int(4);
  tt_out_end();
  tt_out_retract(h); /* rank token "12" -> "##" */
  ck_assert_int_eq(tt_out_close(), 0);
  ck_assert_str_eq(slurp(), "## irecv -555        60 4\n12 irecv -555        61 4\n");
}
END_TEST

/* ---- request table ---------------------------------------------------------------- */
static MPI_Request fake(uintptr_t v) {
  MPI_Request r;
  memset(&r, 0, sizeof r);
  memcpy(&r, &v, sizeof v < sizeof r ? sizeof v : sizeof r);
  return r;
}

static void put(uintptr_t h, int tag) {
  struct tt_req r = {.handle = fake(h), .kind = TT_RQ_SEND, .src = 0, .dst = 1, .tag = tag,
                     .active = 1, .stored = 1};
  tt_req_put(&r);
}

START_TEST(twins_fifo) {
  /* three sends completed at once share one handle: find/del take them oldest first */
  put(0x1000, 11);
  put(0x2000, 50);
  put(0x1000, 12);
  put(0x1000, 13);
  ck_assert_int_eq(tt_req_stored(), 4);
  for (int t = 11; t <= 13; t++) {
    struct tt_req *r = tt_req_find(fake(0x1000));
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->tag, t);
    tt_req_del(fake(0x1000));
  }
  ck_assert_ptr_null(tt_req_find(fake(0x1000)));
  ck_assert_int_eq(tt_req_find(fake(0x2000))->tag, 50);
  ck_assert_int_eq(tt_req_stored(), 1);
  tt_req_clear();
}
END_TEST

START_TEST(table_vs_array) {
  /* 5000 random puts/dels of 64 handles (table grows past 64 slots, deletions shift
   * clusters): each handle's tags must come out in insertion order, as in the array */
  enum { H = 64, N = 5000 };
  int queue[H][N], head[H] = {0}, tail[H] = {0};
  srand(7);
  for (int i = 0; i < N; i++) {
    int h = rand() % H;
    if (rand() % 3 && head[h] < tail[h]) {
      struct tt_req *r = tt_req_find(fake(0x10 + 8 * (uintptr_t)h));
      ck_assert_ptr_nonnull(r);
      ck_assert_int_eq(r->tag, queue[h][head[h]++]);
      tt_req_del(fake(0x10 + 8 * (uintptr_t)h));
    } else {
      queue[h][tail[h]++] = i;
      put(0x10 + 8 * (uintptr_t)h, i);
    }
  }
  int left = 0;
  for (int h = 0; h < H; h++)
    left += tail[h] - head[h];
  ck_assert_int_eq(tt_req_stored(), left);
  tt_req_clear();
}
END_TEST

START_TEST(resolve_patches_holds) {
  /* an ANY_SOURCE irecv and a failed test on it: both keys patched from the status */
  struct tt_comm *world = tt_comm_get(MPI_COMM_WORLD); /* identity translation */
  struct tt_req r = {.handle = fake(0x40), .kind = TT_RQ_RECV, .src = MPI_ANY_SOURCE,
                     .dst = 0, .tag = 8, .active = 1, .stored = 1, .comm = world};
  tt_out_begin(0, "test", 0);
  tt_req_key(&r); /* "<hold> 0 8" */
  tt_out_end();
  tt_req_put(&r);
  MPI_Status st;
  memset(&st, 0, sizeof st);
  st.MPI_SOURCE = 3;
  st.MPI_TAG = 8;
  tt_req_resolve(tt_req_find(fake(0x40)), &st);
  tt_req_clear();
  ck_assert_int_eq(tt_out_close(), 0);
  ck_assert_str_eq(slurp(), "0 test 3           0 8\n");
}
END_TEST

START_TEST(sync_makes_prefix_readable) {
  /* after tt_out_sync, the file as it is on disk (no trailer yet) decompresses to every
   * line written so far: what a rank killed by SIGKILL leaves */
  tt_out_begin(2, "send", 0);
  tt_out_int(1);
  tt_out_int(0);
  tt_out_int(8);
  tt_out_end();
  ck_assert_int_eq(tt_out_sync(), 0);
  char cmd[128], got[64] = "";
  snprintf(cmd, sizeof cmd, "gzip -dc %s 2>/dev/null", path);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t n = fread(got, 1, sizeof got - 1, p);
  pclose(p);
  got[n] = 0;
  ck_assert_str_eq(got, "2 send 1 0 8\n");
  ck_assert_int_eq(tt_out_close(), 0);
}
END_TEST

START_TEST(full_disk) {
  /* /dev/full fails every write with ENOSPC: recorded (not fatal), the lines that follow
   * are dropped, close says -1 */
  ck_assert_int_eq(tt_out_close(), 0);
  ck_assert_int_eq(tt_out_open("/dev/full", 6, 1.0), 0);
  tt_out_begin(0, "barrier", 0);
  tt_out_end();
  ck_assert_int_eq(tt_out_error(), 0); /* still in zlib's buffer */
  ck_assert_int_eq(tt_out_sync(), ENOSPC);
  for (int i = 0; i < 100000; i++) {
    tt_out_begin(0, "compute", 0);
    tt_out_int(i);
    tt_out_end();
  }
  ck_assert_int_eq(tt_out_error(), ENOSPC);
  ck_assert_int_eq(tt_out_close(), -1);
  ck_assert_int_eq((int)tt_out_lines(), 100001);
}
END_TEST

Suite *check_suite(void) {
  Suite *s = suite_create("tracer");
  TCase *w = tcase_create("writer");
  tcase_add_checked_fixture(w, setup, teardown);
  tcase_add_test(w, lines);
  tcase_add_test(w, holds);
  tcase_add_test(w, unpatched_keeps_fallback);
  tcase_add_test(w, resolve_patches_holds);
  tcase_add_test(w, sync_makes_prefix_readable);
  tcase_add_test(w, full_disk);
  suite_add_tcase(s, w);
  TCase *q = tcase_create("requests");
  tcase_add_test(q, twins_fifo);
  tcase_add_test(q, table_vs_array);
  suite_add_tcase(s, q);
  return s;
}
