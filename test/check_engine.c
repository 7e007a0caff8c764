/* check_engine.c - unit tests of the discrete-event engine (replay/engine.c) with a stub
 * network model.
 *
 * The stub (below) gives every flow the latency, bound and factor the test sets, the
 * same sharing penalty and no reverse-route load, so that the expected dates follow from
 * max-min sharing alone. Platform: test/data/unit/two_hosts.xml (h0: 1 core, h1: 2
 * cores, both 1 Gf; one SHARED link of 1 MB/s between them; h2 unreachable). */
#include "check_main.h"

#include "engine.h"
#include "platform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== stub network model ====== */

static net_flow stub_params; /* what the stub returns for every flow */

static void stub_flow(const config *c, double payload, const net_path *p, net_flow *out) {
  (void)c, (void)payload, (void)p;
  *out = stub_params;
}

static const net_model stub = {"stub", "unit tests: fixed flow parameters", stub_flow};

/* ====== fixture ====== */

static platform *plat;
static config cfg;
static eng *e;

/* Completion record: which action (by the test's id) ended when. */
typedef struct done_log {
  int n;
  int id[16];
  double at[16];
} done_log;

static done_log log_;
static int ids[16]; /* ctx of action k points to ids[k] = k */

static void record(void *ctx, eng_act *a) {
  (void)a;
  log_.id[log_.n] = *(int *)ctx;
  log_.at[log_.n++] = eng_now(e);
}

static void setup(void) {
  char err[256], path[512];
  const char *top = getenv("top_srcdir");
  snprintf(path, sizeof path, "%s/test/data/unit/two_hosts.xml", top ? top : ".");
  plat = plat_load(path, err, sizeof err);
  ck_assert_msg(plat != NULL, "%s", err);
  cfg_init(&cfg);
  stub_params = (net_flow){.latency = 0, .bound = -1, .penalty = 1, .factor = 1, .back_coeff = 0, .shared = 1};
  e = eng_new(plat, &cfg, &stub, NULL);
  memset(&log_, 0, sizeof log_);
  for (int k = 0; k < 16; k++)
    ids[k] = k;
}

static void teardown(void) {
  eng_free(e);
  cfg_free(&cfg);
  plat_free(plat);
}

static void run_all(void) {
  while (eng_step(e))
    ;
}

static void flow(int k, int src, int dst, double payload) {
  char err[256];
  int rc = eng_flow_start(e, src, dst, payload, record, &ids[k], err, sizeof err);
  ck_assert_msg(rc == 0, "%s", err);
}

#define ASSERT_DONE(i, want_id, want_at)                                                         \
  do {                                                                                           \
    ck_assert_int_eq(log_.id[i], want_id);                                                       \
    ck_assert_msg(fabs(log_.at[i] - (want_at)) <= 1e-9 * (want_at), "action %d ended at %.17g, " \
                  "expected %.17g", want_id, log_.at[i], (double)(want_at));                     \
  } while (0)

/* ====== flows ====== */

/* 1e6 bytes alone on 1 MB/s after a 0.25 s latency: 0.25 + 1 s. */
START_TEST(flow_alone) {
  stub_params.latency = 0.25;
  flow(0, 0, 1, 1e6);
  ck_assert_int_eq(eng_pending(e), 1);
  run_all();
  ck_assert_int_eq(log_.n, 1);
  ASSERT_DONE(0, 0, 1.25);
  ck_assert_int_eq(eng_pending(e), 0);
  ck_assert_int_eq(eng_step(e), 0);
}
END_TEST

/* 1e6 and 2e6 bytes from t = 0, one each way on the SHARED link: 0.5 MB/s each until the
 * first ends at 2 s; the second then has 1e6 left at 1 MB/s: 3 s. */
START_TEST(flows_share_then_speed_up) {
  flow(0, 0, 1, 1e6);
  flow(1, 1, 0, 2e6);
  run_all();
  ck_assert_int_eq(log_.n, 2);
  ASSERT_DONE(0, 0, 2.0);
  ASSERT_DONE(1, 1, 3.0);
}
END_TEST

/* A bound of 250 kB/s: 1e6 bytes take 4 s; a second flow then gets the rest of the link
 * (750 kB/s): 1.5e6 bytes in 2 s. */
START_TEST(flow_bound_leaves_the_rest) {
  stub_params.bound = 2.5e5;
  flow(0, 0, 1, 1e6);
  stub_params.bound = -1;
  flow(1, 0, 1, 1.5e6);
  run_all();
  ASSERT_DONE(0, 1, 2.0);
  ASSERT_DONE(1, 0, 4.0);
}
END_TEST

/* factor 0.5: the flow moves at half its share, 1e6 bytes in 2 s. */
START_TEST(flow_factor) {
  stub_params.factor = 0.5;
  flow(0, 0, 1, 1e6);
  run_all();
  ASSERT_DONE(0, 0, 2.0);
}
END_TEST

/* A flow in its latency phase takes no bandwidth: flow 1 (latency 1 s, 2e6 bytes) and
 * flow 0 (no latency, 1e6 bytes, started at the same time): flow 0 alone until 1 s, then
 * done; flow 1 alone from 1 s: 3 s. (The engine memoises a flow's parameters per route
 * and payload, a pure function for real models: the stub's flows differ in payload.) */
START_TEST(latency_phase_takes_no_bandwidth) {
  flow(0, 0, 1, 1e6);
  stub_params.latency = 1.0;
  flow(1, 0, 1, 2e6);
  run_all();
  ASSERT_DONE(0, 0, 1.0);
  ASSERT_DONE(1, 1, 3.0);
}
END_TEST

START_TEST(no_route_is_an_error) {
  char err[256] = "";
  ck_assert_int_eq(eng_flow_start(e, 0, 2, 100, record, &ids[0], err, sizeof err), -1);
  ck_assert_msg(strstr(err, "h2") != NULL, "message names the host: %s", err);
  ck_assert_int_eq(eng_pending(e), 0);
}
END_TEST

/* ====== executions and sleeps ====== */

/* 1e9 flops on a 1 Gf core: 1 s alone; two on h0's single core share it: 2 s each; two
 * on h1's two cores: 1 s each. */
START_TEST(exec_shares_cores) {
  eng_exec_start(e, 0, 1e9, record, &ids[0]);
  eng_exec_start(e, 0, 1e9, record, &ids[1]);
  eng_exec_start(e, 1, 1e9, record, &ids[2]);
  eng_exec_start(e, 1, 1e9, record, &ids[3]);
  ck_assert(eng_host_cores(e, 1) == 2);
  ck_assert(fabs(eng_host_speed(e, 0) - 1e9) < 1e-3);
  run_all();
  ck_assert_int_eq(log_.n, 4);
  ASSERT_DONE(0, 2, 1.0);
  ASSERT_DONE(1, 3, 1.0);
  ASSERT_DONE(2, 0, 2.0);
  ASSERT_DONE(3, 1, 2.0);
}
END_TEST

static void start_second(void *ctx, eng_act *a) {
  record(ctx, a);
  eng_exec_start(e, 0, 1e9, record, &ids[1]);
}

/* Exec 0 (1e9 flops) alone from 0; at 0.5 (a sleep's end) exec 1 joins on the single
 * core: exec 0 has 0.5e9 left at 0.5 GF/s: ends at 1.5; exec 1 did 0.5e9 by then, the
 * rest at 1 GF/s: 2.0 (test/exec_share.sh checks the same end to end). */
START_TEST(exec_joined_later) {
  eng_exec_start(e, 0, 1e9, record, &ids[0]);
  eng_sleep_start(e, 0.5, start_second, &ids[2]);
  run_all();
  ck_assert_int_eq(log_.n, 3);
  ASSERT_DONE(0, 2, 0.5);
  ASSERT_DONE(1, 0, 1.5);
  ASSERT_DONE(2, 1, 2.0);
}
END_TEST

/* Equal dates complete in creation order, whatever kind of action. */
START_TEST(equal_dates_in_creation_order) {
  eng_sleep_start(e, 1.0, record, &ids[0]);
  eng_exec_start(e, 0, 1e9, record, &ids[1]);
  eng_sleep_start(e, 1.0, record, &ids[2]);
  eng_sleep_start(e, 0.5, record, &ids[3]);
  run_all();
  ck_assert_int_eq(log_.n, 4);
  ASSERT_DONE(0, 3, 0.5);
  ASSERT_DONE(1, 0, 1.0);
  ASSERT_DONE(2, 1, 1.0);
  ASSERT_DONE(3, 2, 1.0);
}
END_TEST

/* Twins (engine.c): flows started in one step on one route with one payload share one
 * variable. On the 1 MB/s SHARED link at t = 0: flows 0, 1 and 3 (1e6 bytes, h0 -> h1) and
 * flow 2 (2e6 bytes, back): 250 kB/s each; the three alike end at 4 s, flow 2 then has
 * 1e6 left alone: 5 s. A sleep of 4 s started between flows 0 and 1 ends between them too
 * (equal dates: creation order, twins included). Flows 1 and 3 are twins of flow 0. */
static void twins_run(int on) {
  if (!on) { /* the same system with tir/twin-flows:no */
    eng_free(e);
    cfg.twin_flows = 0;
    e = eng_new(plat, &cfg, &stub, NULL);
  }
  flow(0, 0, 1, 1e6);
  eng_sleep_start(e, 4.0, record, &ids[4]);
  flow(1, 0, 1, 1e6);
  flow(2, 1, 0, 2e6);
  flow(3, 0, 1, 1e6);
  ck_assert_int_eq(eng_pending(e), 5);
  run_all();
  ck_assert_int_eq(log_.n, 5);
  ASSERT_DONE(0, 0, 4.0);
  ASSERT_DONE(1, 4, 4.0);
  ASSERT_DONE(2, 1, 4.0);
  ASSERT_DONE(3, 3, 4.0);
  ASSERT_DONE(4, 2, 5.0);
  ck_assert_int_eq(eng_twin_count(e), on ? 2 : 0);
  ck_assert_int_eq(eng_pending(e), 0);
}

START_TEST(twins_end_as_separate_flows) { twins_run(1); }
END_TEST

START_TEST(twins_off) { twins_run(0); }
END_TEST

/* A flow alike started after a solve is no twin: flow 0 (1e6 bytes) runs alone at 1 MB/s
 * until a sleep ends at 0.5 s, when flow 1 (1e6 bytes, same route) starts: 500 kB/s each,
 * flow 0 ends at 1.5 s, flow 1 (5e5 left) at 2 s. */
START_TEST(twins_only_within_a_step) {
  flow(0, 0, 1, 1e6);
  eng_sleep_start(e, 0.5, record, &ids[2]);
  ck_assert_int_eq(eng_step(e), 1);
  ck_assert_int_eq(log_.n, 1);
  flow(1, 0, 1, 1e6);
  run_all();
  ck_assert_int_eq(log_.n, 3);
  ASSERT_DONE(1, 0, 1.5);
  ASSERT_DONE(2, 1, 2.0);
  ck_assert_int_eq(eng_twin_count(e), 0);
}
END_TEST

/* Riders (engine.c), in class mode: flows alike on one route share one variable whenever
 * they start. Every flow pays 0.1 s of latency on the 1 MB/s SHARED link. Flow 0 (1e6
 * bytes) runs alone from 0.1 s; flows 1 (1e6) and 2 (2.5e5) start at 0.5 s, after a sleep,
 * and at 0.6 s both ride flow 0's variable (flow 0 has 5e5 left): 1/3 MB/s each. Flow 2
 * ends at 0.6 + 0.75 = 1.35 s (a rider's share leaves), flow 0 (2.5e5 left) at 1.35 + 0.5
 * = 1.85 s (the carrier ends: its variable goes to flow 1), flow 1 (5e5 left) at 2.35 s.
 * The same dates without riders, and with them in the exact mode (where none forms). */
static void riders_start(int on, int mode) { /* (a new engine: flow 0, the sleep, to 0.5 s) */
  eng_free(e);
  cfg.riders = on;
  cfg.local_solve = mode;
  e = eng_new(plat, &cfg, &stub, NULL);
  stub_params.latency = 0.1;
  flow(0, 0, 1, 1e6);
  eng_sleep_start(e, 0.5, record, &ids[3]);
  while (log_.n == 0)
    ck_assert_int_eq(eng_step(e), 1);
}

static void riders_run(int on, int mode) {
  riders_start(on, mode);
  flow(1, 0, 1, 1e6);
  flow(2, 0, 1, 2.5e5);
  run_all();
  ck_assert_int_eq(log_.n, 4);
  ASSERT_DONE(0, 3, 0.5);
  ASSERT_DONE(1, 2, 1.35);
  ASSERT_DONE(2, 0, 1.85);
  ASSERT_DONE(3, 1, 2.35);
  ck_assert_int_eq(eng_rider_count(e), on && mode == 3 ? 2 : 0);
  ck_assert_int_eq(eng_pending(e), 0);
}

START_TEST(riders_share_a_variable) { riders_run(1, 3); }
END_TEST

START_TEST(riders_off) { riders_run(0, 3); }
END_TEST

START_TEST(riders_not_in_exact_mode) { riders_run(1, 0); }
END_TEST

/* A chain (engine.c "Chains") whose riders end in another order than they joined, one of
 * them joining while the others run, the carrier ending between them. Flow 0 (1e6 bytes)
 * alone from 0.1 s; flows 1 (6e5) and 2 (1e5) ride it from 0.6 s (flow 0 has 5e5 left):
 * 1/3 MB/s each; flow 3 (2e5) rides from 0.8 s, when flows 0, 1 and 2 have 433,333.3,
 * 533,333.3 and 33,333.3 left: 1/4 MB/s each, flow 2 ends at 0.8 + 0.1333 = 0.9333 s;
 * then 1/3 MB/s, flow 3 (166,666.7 left) ends at 1.4333 s; flow 0 (233,333.3 left) at
 * 0.5 MB/s at 1.9 s, flow 1 (100,000 left) alone at 2.0 s. */
START_TEST(riders_join_while_running) {
  riders_start(1, 3);
  flow(1, 0, 1, 6e5);
  flow(2, 0, 1, 1e5);
  eng_sleep_start(e, 0.2, record, &ids[4]);
  while (log_.n == 1)
    ck_assert_int_eq(eng_step(e), 1);
  flow(3, 0, 1, 2e5);
  run_all();
  ck_assert_int_eq(log_.n, 6);
  ASSERT_DONE(1, 4, 0.7);
  ASSERT_DONE(2, 2, 0.8 + 1e5 / 7.5e5);
  ASSERT_DONE(3, 3, 0.8 + 1e5 / 7.5e5 + 0.5);
  ASSERT_DONE(4, 0, 1.9);
  ASSERT_DONE(5, 1, 2.0);
  ck_assert_int_eq(eng_rider_count(e), 3);
  ck_assert_int_eq(eng_pending(e), 0);
}
END_TEST

/* A rider is alike or it is no rider: flow 1 (1.5e6 bytes: another payload, so the stub's
 * new factor is read) moves at twice its variable's value, flow 0 at once: each keeps its
 * own variable. Flow 0 (1e6) alone from 0.1 s; from 0.6 s both variables get 5e5 of the
 * link: flow 0 (5e5 left) ends at 1.6 s, flow 1 moves 1e6 B/s until then, and its 5e5
 * left at 2e6 B/s (its variable alone: 1e6) end at 1.85 s. */
START_TEST(riders_only_alike) {
  riders_start(1, 3);
  stub_params.factor = 2.0;
  flow(1, 0, 1, 1.5e6);
  run_all();
  ck_assert_int_eq(log_.n, 3);
  ASSERT_DONE(1, 0, 1.6);
  ASSERT_DONE(2, 1, 1.85);
  ck_assert_int_eq(eng_rider_count(e), 0);
}
END_TEST

/* A carrier that ended is no carrier (engine.c route_forget): flow 0 (h0 -> h1, 1e6 bytes)
 * carries its route from 0.1 s and ends at 1.1 s; at 1.15 s (a sleep) flow 1 starts on the
 * other route (h1 -> h0), in the action flow 0 left (the pool gives the last one freed),
 * and flow 2 on flow 0's route. Both end their latency at 1.25 s: flow 1 carries its
 * route, flow 2 finds no carrier on its own (flow 1 is alike and sits where its route's
 * carrier was, but carries another route): no rider. They share the link, 0.5 MB/s
 * each: both end at 1.25 + 2 = 3.25 s. */
static void start_two(void *ctx, eng_act *a) {
  record(ctx, a);
  flow(1, 1, 0, 1e6);
  flow(2, 0, 1, 1e6);
}

START_TEST(riders_forget_an_ended_carrier) {
  riders_start(1, 3); /* (flow 0, and a sleep to 0.5 s: id 3) */
  eng_sleep_start(e, 0.65, start_two, &ids[4]);
  run_all();
  ck_assert_int_eq(log_.n, 5);
  ASSERT_DONE(1, 0, 1.1);
  ASSERT_DONE(2, 4, 1.15);
  ASSERT_DONE(3, 1, 3.25);
  ASSERT_DONE(4, 2, 3.25);
  ck_assert_int_eq(eng_rider_count(e), 0);
}
END_TEST

/* Crosstraffic: a flow loads its reverse route too, 0.05 of its rate; here the same SHARED
 * link, so the flow alone gets 1 MB/s / 1.05: 1e6 bytes in 1.05 s. The engine reads the
 * model's coefficient when it starts and fetches the reverse routes with the routes
 * (known), or when a flow first needs one (from_start 0: a model eng_new saw without it). */
static void crosstraffic_run(int from_start) {
  if (from_start) {
    eng_free(e);
    stub_params.back_coeff = 0.05;
    e = eng_new(plat, &cfg, &stub, NULL);
  }
  stub_params.back_coeff = 0.05;
  flow(0, 0, 1, 1e6);
  run_all();
  flow(1, 0, 1, 1e6); /* (the route cached: the same share) */
  run_all();
  ck_assert_int_eq(log_.n, 2);
  ASSERT_DONE(0, 0, 1.05);
  ASSERT_DONE(1, 1, 2.1);
}

START_TEST(crosstraffic_known_at_start) { crosstraffic_run(1); }
END_TEST

START_TEST(crosstraffic_found_later) { crosstraffic_run(0); }
END_TEST

static Suite *engine_suite(void) {
  Suite *s = suite_create("engine");
  TCase *tc = tcase_create("engine");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, flow_alone);
  tcase_add_test(tc, flows_share_then_speed_up);
  tcase_add_test(tc, flow_bound_leaves_the_rest);
  tcase_add_test(tc, flow_factor);
  tcase_add_test(tc, latency_phase_takes_no_bandwidth);
  tcase_add_test(tc, no_route_is_an_error);
  tcase_add_test(tc, exec_shares_cores);
  tcase_add_test(tc, exec_joined_later);
  tcase_add_test(tc, equal_dates_in_creation_order);
  tcase_add_test(tc, riders_forget_an_ended_carrier);
  tcase_add_test(tc, crosstraffic_known_at_start);
  tcase_add_test(tc, crosstraffic_found_later);
  tcase_add_test(tc, twins_end_as_separate_flows);
  tcase_add_test(tc, twins_off);
  tcase_add_test(tc, twins_only_within_a_step);
  tcase_add_test(tc, riders_share_a_variable);
  tcase_add_test(tc, riders_off);
  tcase_add_test(tc, riders_not_in_exact_mode);
  tcase_add_test(tc, riders_join_while_running);
  tcase_add_test(tc, riders_only_alike);
  suite_add_tcase(s, tc);
  return s;
}

Suite *check_suite(void) { return engine_suite(); }
