/* check_p2p.c - unit tests of point-to-point matching and protocols (replay/p2p.c).
 *
 * Ranks 0 and 1 sit on h0 and h1 of test/data/unit/two_hosts.xml (one SHARED 1 MB/s
 * link); the engine runs a stub network model without latency, so a message of k bytes
 * alone takes (k + 16) / 1e6 s (16: SimGrid's envelope). Default settings: sends below
 * 65,536 bytes are detached. */
#include "check_main.h"

#include "p2p.h"
#include "platform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void stub_flow(const config *c, double payload, const net_path *p, net_flow *out) {
  (void)c, (void)payload, (void)p;
  *out = (net_flow){.latency = 0, .bound = -1, .penalty = 1, .factor = 1, .back_coeff = 0, .shared = 1};
}

static const net_model stub = {"stub", "unit tests: no latency, max-min shared", stub_flow};

static platform *plat;
static config cfg;
static eng *e;
static p2p_world *w;
static const int host_of[2] = {0, 1};
static int woken[2];         /* wake calls per rank */
static int errors, err_input; /* error calls, and the input flag of the last one */
static char err_msg[512];

static void wake(void *ctx, int rank) {
  (void)ctx;
  woken[rank]++;
}

static void error(void *ctx, int input, const char *msg) {
  (void)ctx;
  errors++;
  err_input = input;
  snprintf(err_msg, sizeof err_msg, "%s", msg);
}

static void setup(void) {
  char err[256], path[512];
  const char *top = getenv("top_srcdir");
  snprintf(path, sizeof path, "%s/test/data/unit/two_hosts.xml", top ? top : ".");
  plat = plat_load(path, err, sizeof err);
  ck_assert_msg(plat != NULL, "%s", err);
  cfg_init(&cfg);
  e = eng_new(plat, &cfg, &stub, NULL);
  w = p2p_new(e, &cfg, 2, host_of, wake, error, NULL);
  woken[0] = woken[1] = errors = err_input = 0;
}

static void teardown(void) {
  p2p_free(w);
  eng_free(e);
  cfg_free(&cfg);
  plat_free(plat);
}

/* Runs the engine until a is complete; returns the date. */
static double run_until(const p2p_req *a) {
  while (!p2p_req_done(a) && eng_step(e))
    ;
  ck_assert(p2p_req_done(a));
  return eng_now(e);
}

/* The test's n requests go. */
static void release_all(p2p_req *const *v, int n) {
  for (int i = 0; i < n; i++)
    p2p_req_release(w, v[i]);
}

static void near(double got, double want) {
  ck_assert_msg(fabs(got - want) <= 1e-9 * fabs(want), "got %.17g, expected %.17g", got, want);
}

/* Two sends on one (src, dst, tag) match the receives in posting order (real_bytes tells
 * which), and both transfers share the link: 116 and 216 bytes at 0.5 MB/s each until
 * the first ends at 232 us; the second's last 100 bytes at 1 MB/s: 332 us. */
START_TEST(fifo_matching_and_sharing) {
  p2p_req *s1 = p2p_post_send(w, 0, 1, 5, 0, 100, 1), *s2 = p2p_post_send(w, 0, 1, 5, 0, 200, 2);
  ck_assert_int_eq(p2p_unmatched(w), 2);
  p2p_req *r1 = p2p_post_recv(w, 0, 1, 5, 0, 1000, 3), *r2 = p2p_post_recv(w, 0, 1, 5, 0, 1000, 4);
  ck_assert_int_eq(p2p_unmatched(w), 0);
  ck_assert_int_eq(r1->real_bytes, 100);
  ck_assert_int_eq(r2->real_bytes, 200);
  near(run_until(r1), 232e-6);
  near(run_until(r2), 332e-6);
  ck_assert_int_eq(woken[1], 2);
  ck_assert(r1->detached_sender && r2->detached_sender);
  ck_assert_int_eq((int)p2p_messages(w), 2);
  p2p_req_release(w, s1), p2p_req_release(w, s2), p2p_req_release(w, r1), p2p_req_release(w, r2);
}
END_TEST

/* Tags and communicators are part of the key: nothing matches across them. */
START_TEST(keys_do_not_cross) {
  p2p_req *s = p2p_post_send(w, 0, 1, 1, 0, 10, 1);
  p2p_req *r_tag = p2p_post_recv(w, 0, 1, 2, 0, 10, 2), *r_comm = p2p_post_recv(w, 0, 1, 1, 7, 10, 3);
  ck_assert_int_eq(p2p_unmatched(w), 3);
  ck_assert_int_eq(p2p_probe(w, 0, 1, 1, 0), 10);
  ck_assert_int_eq(p2p_probe(w, 0, 1, 2, 0), -1);
  ck_assert_int_eq(p2p_probe(w, 0, 1, 1, 7), -1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  p2p_report_unmatched(w, f);
  fclose(f);
  ck_assert_msg(strstr(buf, "unmatched send: rank 0 -> rank 1, tag 1, 10 bytes (trace line 1)"), "%s", buf);
  ck_assert_msg(strstr(buf, "unmatched receive: rank 0 -> rank 1, tag 2, 10 bytes (trace line 2)"), "%s", buf);
  free(buf);
  p2p_req_release(w, s), p2p_req_release(w, r_tag), p2p_req_release(w, r_comm);
}
END_TEST

/* Below smpi/send-is-detached-thresh (65,536) a send is complete when posted; at or above
 * it (rendez-vous) only when its transfer ends: 65,536 + 16 bytes at 1 MB/s. */
START_TEST(detached_and_rendezvous) {
  p2p_req *small = p2p_post_send(w, 0, 1, 0, 0, 65535, 1);
  ck_assert(small->detached && small->complete);
  p2p_req *big = p2p_post_send(w, 0, 1, 1, 0, 65536, 2);
  ck_assert(!big->detached && !big->complete);
  p2p_req *r = p2p_post_recv(w, 0, 1, 1, 0, 65536, 3);
  near(run_until(big), 65552e-6);
  ck_assert(r->complete && !r->detached_sender);
  ck_assert_int_eq(woken[0], 1);
  p2p_req_release(w, small), p2p_req_release(w, big), p2p_req_release(w, r);
}
END_TEST

/* A receive smaller than the message is MPI_ERR_TRUNCATE, a replay error (input 0). */
START_TEST(truncation_is_reported) {
  p2p_req *r = p2p_post_recv(w, 0, 1, 0, 0, 10, 7);
  p2p_req *s = p2p_post_send(w, 0, 1, 0, 0, 100, 8);
  ck_assert_int_eq(errors, 1);
  ck_assert_int_eq(err_input, 0);
  ck_assert_msg(strstr(err_msg, "MPI_ERR_TRUNCATE") && strstr(err_msg, "line 8") && strstr(err_msg, "line 7"),
                "%s", err_msg);
  run_until(r);
  p2p_req_release(w, r), p2p_req_release(w, s);
}
END_TEST

/* Overheads: smpi/os for a detached blocking send, smpi/ois for any isend, nothing for a
 * rendez-vous blocking send; smpi/or after a message from a detached sender. */
START_TEST(overheads) {
  char err[256];
  ck_assert_int_eq(cfg_set_kv(&cfg, "smpi/os:0:1e-6:1e-9", err, sizeof err), 0);
  ck_assert_int_eq(cfg_set_kv(&cfg, "smpi/ois:0:2e-6:0", err, sizeof err), 0);
  ck_assert_int_eq(cfg_set_kv(&cfg, "smpi/or:0:3e-6:0", err, sizeof err), 0);
  near(p2p_send_overhead(w, 0, 1000, 0), 1e-6 + 1000 * 1e-9);
  near(p2p_send_overhead(w, 0, 1000, 1), 2e-6);
  ck_assert(p2p_send_overhead(w, 0, 70000, 0) == 0);
  p2p_req *s = p2p_post_send(w, 0, 1, 0, 0, 1000, 1), *r = p2p_post_recv(w, 0, 1, 0, 0, 1000, 2);
  run_until(r);
  near(p2p_recv_overhead(w, r), 3e-6);
  p2p_req_release(w, s), p2p_req_release(w, r);
}
END_TEST

/* A group request (non-blocking collective) is done when all its children are. */
START_TEST(group_request) {
  p2p_req *g = p2p_group_new(w, 1, 1);
  p2p_req *a = p2p_post_recv(w, 0, 1, 0, 0, 100, 1), *b = p2p_post_recv(w, 0, 1, 1, 0, 300, 1);
  p2p_group_add(g, a);
  p2p_group_add(g, b);
  p2p_req *sa = p2p_post_send(w, 0, 1, 0, 0, 100, 2), *sb = p2p_post_send(w, 0, 1, 1, 0, 300, 3);
  ck_assert(!p2p_req_done(g));
  /* 116 and 316 bytes sharing: the first ends at 232 us, the second at 232 + 200 us */
  near(run_until(g), 432e-6);
  p2p_req_release(w, sa), p2p_req_release(w, sb), p2p_req_release(w, g);
}
END_TEST

/* smpi/async-small-thresh 1000 (a new world: p2p_new reads it). */
static void async_world(void) {
  char err[256];
  ck_assert_int_eq(cfg_set_kv(&cfg, "smpi/async-small-thresh:1000", err, sizeof err), 0);
  p2p_free(w);
  w = p2p_new(e, &cfg, 2, host_of, wake, error, NULL);
}

/* Below the threshold a send that finds no receive starts at once (116 us alone); a receive
 * posted after its end is done at once, one posted during it at its end. At or above the
 * threshold nothing starts before the receive. */
START_TEST(async_eager_sends) {
  async_world();
  p2p_req *s1 = p2p_post_send(w, 0, 1, 0, 0, 100, 1);
  ck_assert_int_eq(eng_pending(e), 1);
  while (eng_step(e))
    ;
  near(eng_now(e), 116e-6);
  p2p_req *r1 = p2p_post_recv(w, 0, 1, 0, 0, 100, 2);
  ck_assert(p2p_req_done(r1) && r1->detached_sender && r1->real_bytes == 100);
  p2p_req *s2 = p2p_post_send(w, 0, 1, 0, 0, 200, 3), *r2 = p2p_post_recv(w, 0, 1, 0, 0, 200, 4);
  ck_assert(!p2p_req_done(r2));
  near(run_until(r2), 116e-6 + 216e-6);
  p2p_req *s3 = p2p_post_send(w, 0, 1, 0, 0, 1000, 5);
  ck_assert_int_eq(eng_pending(e), 0);
  p2p_req *r3 = p2p_post_recv(w, 0, 1, 0, 0, 1000, 6);
  near(run_until(r3), 332e-6 + 1016e-6);
  ck_assert_int_eq(p2p_unmatched(w), 0);
  release_all((p2p_req *[]){s1, r1, s2, r2, s3, r3}, 6);
}
END_TEST

/* A receive takes the oldest unmatched send of its key wherever it waits (SimGrid's message
 * ids): a large send queued first, then an eager one; a probe sees the large one. */
START_TEST(async_message_order) {
  async_world();
  p2p_req *s1 = p2p_post_send(w, 0, 1, 0, 0, 5000, 1), *s2 = p2p_post_send(w, 0, 1, 0, 0, 10, 2);
  ck_assert_int_eq(p2p_probe(w, 0, 1, 0, 0), 5000);
  ck_assert_int_eq(p2p_probe_mailbox(w, 0, 1, 0, 0, 1), -1);
  p2p_req *r1 = p2p_post_recv(w, 0, 1, 0, 0, 5000, 3);
  ck_assert_int_eq(p2p_probe_mailbox(w, 0, 1, 0, 0, 1), 10);
  p2p_req *r2 = p2p_post_recv(w, 0, 1, 0, 0, 5000, 4);
  run_until(r1);
  run_until(r2);
  ck_assert(r1->real_bytes == 5000 && r2->real_bytes == 10);
  release_all((p2p_req *[]){s1, s2, r1, r2}, 4);
}
END_TEST

/* Two receives of one key posted first, one below the threshold (small mailbox) and one
 * above (large): SimGrid gives the first small message to the large mailbox's receive, the
 * second to the small one's. */
START_TEST(async_two_mailboxes) {
  async_world();
  p2p_req *r1 = p2p_post_recv(w, 0, 1, 0, 0, 50, 1), *r2 = p2p_post_recv(w, 0, 1, 0, 0, 5000, 2);
  p2p_req *s1 = p2p_post_send(w, 0, 1, 0, 0, 10, 3), *s2 = p2p_post_send(w, 0, 1, 0, 0, 20, 4);
  run_until(r1);
  run_until(r2);
  ck_assert(r2->real_bytes == 10 && r1->real_bytes == 20);
  release_all((p2p_req *[]){s1, s2, r1, r2}, 4);
}
END_TEST

/* Per-host overheads: h1's smpi/os and smpi/or properties (the sender's host for os, the
 * receiver's for or), the settings on h0; a bad property is refused with its host. */
START_TEST(host_overheads) {
  static const char xml[] =
      "<?xml version='1.0'?><!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
      "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"h0\" speed=\"1Gf\"/>"
      "<host id=\"h1\" speed=\"1Gf\"><prop id=\"smpi/os\" value=\"0:5e-6:1e-9\"/>"
      "<prop id=\"smpi/or\" value=\"%s\"/></host>"
      "<link id=\"l\" bandwidth=\"1MBps\" latency=\"0\"/><route src=\"h0\" dst=\"h1\"><link_ctn id=\"l\"/></route>"
      "</zone></platform>";
  char err[256], path[] = "/tmp/check_p2p_XXXXXX";
  int fd = mkstemp(path);
  ck_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fprintf(f, xml, "0:7e-6");
  fclose(f);
  platform *p = plat_load(path, err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  ck_assert_int_eq(cfg_set_kv(&cfg, "smpi/os:0:1e-6", err, sizeof err), 0);
  ck_assert_int_eq(p2p_host_overheads(w, p, err, sizeof err), 0);
  near(p2p_send_overhead(w, 0, 10, 0), 1e-6);
  near(p2p_send_overhead(w, 1, 10, 0), 5e-6 + 10e-9);
  ck_assert(!p2p_no_recv_overhead(w));
  p2p_req *s = p2p_post_send(w, 0, 1, 0, 0, 10, 1), *r = p2p_post_recv(w, 0, 1, 0, 0, 10, 2);
  run_until(r);
  near(p2p_recv_overhead(w, r), 7e-6);
  p2p_req_release(w, s), p2p_req_release(w, r);
  plat_free(p);
  f = fopen(path, "w");
  fprintf(f, xml, "0:x");
  fclose(f);
  p = plat_load(path, err, sizeof err);
  p2p_world *w2 = p2p_new(e, &cfg, 2, host_of, wake, error, NULL);
  ck_assert_int_eq(p2p_host_overheads(w2, p, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "host h1: property smpi/or=\"0:x\""), "%s", err);
  p2p_free(w2);
  plat_free(p);
  remove(path);
}
END_TEST

static Suite *p2p_suite(void) {
  Suite *s = suite_create("p2p");
  TCase *tc = tcase_create("p2p");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, fifo_matching_and_sharing);
  tcase_add_test(tc, keys_do_not_cross);
  tcase_add_test(tc, detached_and_rendezvous);
  tcase_add_test(tc, truncation_is_reported);
  tcase_add_test(tc, overheads);
  tcase_add_test(tc, group_request);
  tcase_add_test(tc, async_eager_sends);
  tcase_add_test(tc, async_message_order);
  tcase_add_test(tc, async_two_mailboxes);
  tcase_add_test(tc, host_overheads);
  suite_add_tcase(s, tc);
  return s;
}

Suite *check_suite(void) { return p2p_suite(); }
