/* check_timeline.c - unit tests of the timelines, the statistics observer and the
 * atomic outputs: events are fed by hand through the observers, and the files written
 * are compared with what the derivations in the comments give. */
#include "output.h"
#include "stats.h"
#include "timeline.h"
#include "timeline_impl.h"
#include "xalloc.h"

#include "check_main.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static platform *plat;

static void setup(void) {
  strcpy(dir, "/tmp/check_timeline.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  plat = plat_default_cluster(2); /* hosts node-0, node-1 */
}

/* Files left in dir (there must be none after a failure). */
static int count_files(void) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static void teardown(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
  plat_free(plat);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
  char *buf = x_calloc(1, 1 << 16);
  size_t n = fread(buf, 1, (1 << 16) - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* The scenario of the CSV tests, on ranks 0 (node-0) and 1 (node-1):
 *   0: init (no argument: MPI_DEFAULT_TYPE is 1 byte), enters region "solve" at 0,
 *      send 10 default-type elements to 1 with tag 7 over [0, 0.5], leaves "solve" at
 *      0.75, bcast 4 doubles (datatype 0: 8 bytes -> 32 bytes) from root 0 over [0.5, 1];
 *   1: compute over [0, 0.25];
 *   a message 0 -> 1, tag 7, 10 bytes: posted 0, transfer [0.1, 0.5]. The end is at 1. */
/* As the replay does: callbacks may be NULL. */
static void begin(replay_observer *o, int rank, const trace_action *a, double now) {
  if (o->action_begin)
    o->action_begin(o->ctx, rank, a, now);
}

static void feed(replay_observer *o) {
  int hosts[2] = {0, 1};
  o->start(o->ctx, 2, hosts);
  trace_action init = {.op = TRACE_INIT}, send = {.op = TRACE_SEND, .peer = 1, .tag = 7, .count = 10,
                                                  .dtype = TRACE_DT_DEFAULT};
  trace_action comp = {.op = TRACE_COMPUTE, .amount = 1e9}, bc = {.op = TRACE_BCAST, .count = 4, .dtype = 0};
  begin(o, 0, &init, 0);
  o->action_end(o->ctx, 0, &init, -1, 0, 0);
  o->region(o->ctx, 0, "solve", 0);
  begin(o, 0, &send, 0);
  begin(o, 1, &comp, 0);
  o->action_end(o->ctx, 1, &comp, 0, 0, 0.25);
  o->message(o->ctx, 0, 1, 7, 10, 0, 0.1, 0.5);
  o->action_end(o->ctx, 0, &send, 1, 0, 0.5);
  begin(o, 0, &bc, 0.5);
  o->region(o->ctx, 0, NULL, 0.75);
  o->action_end(o->ctx, 0, &bc, 1, 0.5, 1.0);
  o->finish(o->ctx, 1.0);
}

static char *run_timeline(const char *name, const char *format, double ws, double we) {
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  timeline *t = timeline_open(path, format, ws, we, plat, err, sizeof err);
  ck_assert_msg(t != NULL, "%s", err);
  replay_observer o;
  timeline_observer(t, &o);
  feed(&o);
  ck_assert_int_eq(timeline_close(t, 0, err, sizeof err), 0);
  return slurp(path);
}

START_TEST(csv_rows) {
  /* Rows come as intervals end: compute (0.25), message and send (0.5), bcast (1).
   * 0.1 prints as 0.10000000000000001 with 17 digits. The bcast started after "solve"
   * was left, so its region is empty; its peer is its root. */
  char *s = run_timeline("t.csv", NULL, 0, 0);
  ck_assert_str_eq(s, "type,rank,host,start,end,state,region,peer,bytes,tag,posted,comm\n"
                      "state,1,node-1,0,0.25,compute,,,,,,\n"
                      "message,0,node-0,0.10000000000000001,0.5,,,1,10,7,0,\n"
                      "state,0,node-0,0,0.5,send,solve,1,10,7,,\n"
                      "state,0,node-0,0.5,1,bcast,,0,32,,,\n");
  free(s);
}
END_TEST

START_TEST(csv_window) {
  /* Window [0.2, 0.6]: compute [0, 0.25] -> [0.2, 0.25]; send [0, 0.5] -> [0.2, 0.5];
   * bcast [0.5, 1] -> [0.5, 0.6]; the message (life [0, 0.5]) meets it: kept whole. */
  char *s = run_timeline("w.data", "csv", 0.2, 0.6);
  ck_assert_str_eq(s, "type,rank,host,start,end,state,region,peer,bytes,tag,posted,comm\n"
                      "state,1,node-1,0.20000000000000001,0.25,compute,,,,,,\n"
                      "message,0,node-0,0.10000000000000001,0.5,,,1,10,7,0,\n"
                      "state,0,node-0,0.20000000000000001,0.5,send,solve,1,10,7,,\n"
                      "state,0,node-0,0.5,0.59999999999999998,bcast,,0,32,,,\n");
  free(s);
}
END_TEST

START_TEST(sort_order) {
  /* Sorted by key, then order, then arrival: y (0.5), z (1, -1), a, b (1, 0: arrival), c. */
  char err[256];
  tl_sort *s = tl_sort_new(err, sizeof err);
  ck_assert_ptr_nonnull(s);
  tl_sort_add(s, 2.0, 0, "c", 1);
  tl_sort_add(s, 1.0, 0, "a", 1);
  tl_sort_add(s, 1.0, -1, "z", 1);
  tl_sort_add(s, 1.0, 0, "b", 1);
  tl_sort_add(s, 0.5, 5, "y", 1);
  ck_assert_uint_eq(tl_sort_count(s), 5);
  char buf[16] = "";
  FILE *f = fmemopen(buf, sizeof buf, "w");
  ck_assert_int_eq(tl_sort_write(s, f), 0);
  fclose(f);
  ck_assert_str_eq(buf, "yzabc");
  tl_sort_free(s);
}
END_TEST

START_TEST(paje_events) {
  /* feed() as Paje events sorted by time, ties in arrival order (derivation):
   *   0: push compute on r1 (op 5), push send on r0 (op 7), push region solve (g1) on r0;
   *   0.1 link start; 0.25 pop r1; 0.5: link end (reported first), pop send, push bcast
   *   (op 16); 0.75 pop region; 1 pop bcast; then the containers are destroyed at 1. */
  char *s = run_timeline("t.paje", NULL, 0, 0);
  ck_assert_ptr_nonnull(strstr(s, "3 g1 REGION \"solve\" "));
  ck_assert_ptr_nonnull(strstr(s, "4 0 h0 HOST 0 \"node-0\"\n4 0 r0 RANK h0 \"rank 0\"\n"));
  const char *ev = "6 0 r1 STATE v5\n6 0 r0 STATE v7\n6 0 r0 REGION g1\n"
                   "8 0.10000000000000001 0 LINK r0 \"10\" m0\n7 0.25 r1 STATE\n"
                   "9 0.5 0 LINK r1 \"10\" m0\n7 0.5 r0 STATE\n6 0.5 r0 STATE v16\n7 0.75 r0 REGION\n"
                   "7 1 r0 STATE\n5 1 RANK r0\n5 1 RANK r1\n5 1 HOST h0\n5 1 HOST h1\n";
  size_t n = strlen(s), m = strlen(ev);
  ck_assert_uint_ge(n, m);
  ck_assert_str_eq(s + n - m, ev);
  free(s);
}
END_TEST

START_TEST(paje_nested_regions) {
  /* outer and inner both entered at 0: the push of outer (depth 0) must come first,
   * although inner is reported first (at its end, 1); pops: inner at 1, outer at 2. */
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/n.paje", dir);
  timeline *t = timeline_open(path, NULL, 0, 0, plat, err, sizeof err);
  ck_assert_ptr_nonnull(t);
  replay_observer o;
  timeline_observer(t, &o);
  int hosts[2] = {0, 1};
  o.start(o.ctx, 2, hosts);
  o.region(o.ctx, 0, "outer", 0);
  o.region(o.ctx, 0, "inner", 0);
  o.region(o.ctx, 0, NULL, 1);
  o.finish(o.ctx, 2);
  ck_assert_int_eq(timeline_close(t, 0, err, sizeof err), 0);
  char *s = slurp(path);
  ck_assert_ptr_nonnull(strstr(s, "6 0 r0 REGION g1\n6 0 r0 REGION g2\n7 1 r0 REGION\n7 2 r0 REGION\n"));
  free(s);
}
END_TEST

START_TEST(prv_records) {
  /* Ranks on two hosts: nodes 1 and 2 with one CPU each; end 1 s = 1000000000 ns.
   * The send of rank 0 (task 1) over [0, 0.5]: state 4 (blocking send), MPI call
   * event 50000000 = op + 1 = 8 at 0 and 0 at 0.5; the message: logical send 0,
   * physical send 100000000, both receive times 500000000, 10 bytes, tag 7. */
  char *s = run_timeline("t.prv", NULL, 0, 0);
  ck_assert_ptr_nonnull(strstr(s, "#Paraver (01/01/70 at 00:00):1000000000_ns:2(1,1):1:2(1:1,1:2)\n"));
  ck_assert_ptr_nonnull(strstr(s, "1:1:1:1:1:0:500000000:4\n"));
  ck_assert_ptr_nonnull(strstr(s, "2:1:1:1:1:0:50000000:8\n"));
  ck_assert_ptr_nonnull(strstr(s, "2:1:1:1:1:500000000:50000000:0\n"));
  ck_assert_ptr_nonnull(strstr(s, "3:1:1:1:1:0:100000000:2:1:2:1:500000000:500000000:10:7\n"));
  /* All at time 0, sorted by order then arrival: states (order 0: rank 1's compute
   * arrived first), events (order 1: the MPI calls, then region solve entered), the
   * message (order 2, keyed by its logical send). */
  ck_assert_ptr_nonnull(strstr(s, ")\n1:2:1:2:1:0:250000000:1\n1:1:1:1:1:0:500000000:4\n"
                                  "2:2:1:2:1:0:50000000:6\n2:1:1:1:1:0:50000000:8\n2:1:1:1:1:0:80000001:1\n3:"));
  free(s);
  char path[128];
  snprintf(path, sizeof path, "%s/t.pcf", dir);
  s = slurp(path);
  ck_assert_ptr_nonnull(strstr(s, "VALUES\n0      End\n1      solve\n"));
  free(s);
  snprintf(path, sizeof path, "%s/t.row", dir);
  s = slurp(path);
  ck_assert_str_eq(s, "LEVEL CPU SIZE 2\n1.node-0\n2.node-1\n\nLEVEL NODE SIZE 2\nnode-0\nnode-1\n\n"
                      "LEVEL THREAD SIZE 2\nrank 0 (node-0)\nrank 1 (node-1)\n");
  free(s);
}
END_TEST

START_TEST(svg_bins) {
  /* One rank computing over [0, 1], end at 2. The span doubles from 1e-6 s to
   * 1e-6 * 2^20 = 1.048576 s (the first power of two times 1e-6 >= 1), cut in 2048 bins
   * of w = 0.000512 s. Bins 0..1952 are full; bin 1953 ([0.999936, 1.000448)) holds
   * 0.000064 s, less than half: blank. The chart shows [0, 2] on 1000 px from x = 90:
   * one rect from 90 to 90 + 1953 w / 2 * 1000 = 589.968, so width 499.97. */
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/t.svg", dir);
  timeline *t = timeline_open(path, NULL, 0, 0, plat, err, sizeof err);
  replay_observer o;
  timeline_observer(t, &o);
  int hosts[1] = {0};
  trace_action comp = {.op = TRACE_COMPUTE};
  o.start(o.ctx, 1, hosts);
  o.action_end(o.ctx, 0, &comp, 0, 0, 1);
  o.finish(o.ctx, 2);
  ck_assert_int_eq(timeline_close(t, 0, err, sizeof err), 0);
  char *s = slurp(path);
  ck_assert_ptr_nonnull(strstr(s, "<rect x=\"90.00\" y=\"48.00\" width=\"499.97\" height=\"20.40\" fill=\"#3a7d44\"/>"));
  ck_assert_ptr_null(strstr(s, "fill=\"#3a7d44\"/>\n<rect x=\"589"));
  ck_assert_ptr_nonnull(strstr(s, ">compute</text>"));
  ck_assert_ptr_nonnull(strstr(s, "time (s)"));
  free(s);
}
END_TEST

START_TEST(open_errors) {
  /* unknown format, no extension, a folder that is a file: NULL, nothing created */
  char path[128], err[512];
  ck_assert_ptr_null(timeline_open("x.csv", "gif", 0, 0, plat, err, sizeof err));
  ck_assert_str_eq(err, "unknown timeline format 'gif' (valid: csv, paje, prv, svg)");
  ck_assert_ptr_null(timeline_open("x.txt", NULL, 0, 0, plat, err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "x.txt: cannot tell the timeline format"));
  snprintf(path, sizeof path, "%s/f", dir);
  fclose(fopen(path, "w"));
  snprintf(path, sizeof path, "%s/f/t.csv", dir);
  ck_assert_ptr_null(timeline_open(path, NULL, 0, 0, plat, err, sizeof err));
  char want[256];
  snprintf(want, sizeof want, "%s: cannot write: Not a directory", path);
  ck_assert_str_eq(err, want);
  ck_assert_int_eq(count_files(), 1);
}
END_TEST

START_TEST(discard_leaves_nothing) {
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/t.prv", dir);
  timeline *t = timeline_open(path, NULL, 0, 0, plat, err, sizeof err);
  replay_observer o;
  timeline_observer(t, &o);
  feed(&o);
  ck_assert_int_eq(timeline_close(t, 1, err, sizeof err), 0);
  ck_assert_int_eq(count_files(), 0);
}
END_TEST

/* Writes that fail (the file size limit: EFBIG) give -1, the path and the reason, and
 * leave no file. Each format writes well over 2000 bytes for 300 states. */
static void write_too_much(const char *name) {
  struct rlimit rl = {2000, 2000};
  signal(SIGXFSZ, SIG_IGN);
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
  char path[128], err[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  timeline *t = timeline_open(path, NULL, 0, 0, plat, err, sizeof err);
  ck_assert_msg(t != NULL, "%s", err);
  replay_observer o;
  timeline_observer(t, &o);
  int hosts[2] = {0, 1};
  o.start(o.ctx, 2, hosts);
  trace_action comp = {.op = TRACE_COMPUTE};
  for (int i = 0; i < 300; i++)
    o.action_end(o.ctx, i % 2, &comp, 0, i, i + 1);
  o.finish(o.ctx, 300);
  ck_assert_int_eq(timeline_close(t, 0, err, sizeof err), -1);
  char want[256];
  snprintf(want, sizeof want, "%s: cannot write: File too large", path);
  ck_assert_str_eq(err, want);
  ck_assert_int_eq(count_files(), 0);
}

START_TEST(write_failure) {
  static const char *const names[] = {"t.csv", "t.paje", "t.prv", "t.svg"};
  write_too_much(names[_i]);
}
END_TEST

START_TEST(stats_sums) {
  /* feed(): rank 0: send [0, 0.5] (p2p 0.5, in region solve), bcast [0.5, 1]
   * (collective 0.5, no region); rank 1: compute 0.25. The message: 10 bytes 0 -> 1.
   * Region solve: entered once, inside [0, 0.75] = 0.75 s, mpi 0.5 (the send). */
  stats *s = stats_new();
  replay_observer o;
  stats_observer(s, &o);
  feed(&o);
  ck_assert_int_eq(s->np, 2);
  ck_assert_double_eq(s->ranks[0].p2p, 0.5);
  ck_assert_double_eq(s->ranks[0].coll, 0.5);
  ck_assert_double_eq(s->ranks[0].compute, 0);
  ck_assert_double_eq(s->ranks[1].compute, 0.25);
  ck_assert_uint_eq(s->ranks[0].bytes_sent, 10);
  ck_assert_uint_eq(s->ranks[0].msgs_sent, 1);
  ck_assert_uint_eq(s->ranks[1].bytes_recv, 10);
  ck_assert_uint_eq(s->ranks[1].msgs_recv, 1);
  ck_assert_uint_eq(s->kinds[TRACE_BCAST].calls, 1);
  ck_assert_double_eq(s->kinds[TRACE_BCAST].time, 0.5);
  ck_assert_uint_eq(s->kinds[TRACE_INIT].calls, 0); /* bookkeeping: not counted */
  ck_assert_uint_eq(s->nregions, 1);
  ck_assert_str_eq(s->regions[0].name, "solve");
  ck_assert_uint_eq(s->regions[0].entries, 1);
  ck_assert_double_eq(s->regions[0].time, 0.75);
  ck_assert_double_eq(s->regions[0].mpi, 0.5);
  ck_assert_double_eq(s->regions[0].compute, 0);
  stats_free(s);
}
END_TEST

START_TEST(output_atomic) {
  /* output_open/output_commit: the file appears only at commit, with the umask's mode;
   * a failed commit removes the temporary file and keeps the previous file. */
  char path[128], err[256], *tmp;
  snprintf(path, sizeof path, "%s/r.json", dir);
  umask(022);
  FILE *f = output_open(path, &tmp, err, sizeof err);
  fputs("one\n", f);
  ck_assert_int_eq(access(path, F_OK), -1);
  ck_assert_int_eq(output_commit(f, tmp, path, 0, err, sizeof err), 0);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0644);
  f = output_open(path, &tmp, err, sizeof err);
  fputs("two\n", f);
  ck_assert_int_eq(output_commit(f, tmp, path, 1, err, sizeof err), -1);
  ck_assert_int_eq(count_files(), 1);
  char *s = slurp(path);
  ck_assert_str_eq(s, "one\n");
  free(s);
}
END_TEST

static Suite *timeline_suite(void) {
  Suite *s = suite_create("timeline");
  TCase *tc = tcase_create("timeline");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, csv_rows);
  tcase_add_test(tc, csv_window);
  tcase_add_test(tc, sort_order);
  tcase_add_test(tc, paje_events);
  tcase_add_test(tc, paje_nested_regions);
  tcase_add_test(tc, prv_records);
  tcase_add_test(tc, svg_bins);
  tcase_add_test(tc, open_errors);
  tcase_add_test(tc, discard_leaves_nothing);
  tcase_add_loop_test(tc, write_failure, 0, 4);
  tcase_add_test(tc, stats_sums);
  tcase_add_test(tc, output_atomic);
  suite_add_tcase(s, tc);
  return s;
}

Suite *check_suite(void) { return timeline_suite(); }
