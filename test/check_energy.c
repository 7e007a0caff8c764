/* check_energy.c - unit tests of the energy model (models/energy*.c): hand-computed
 * power and energy, regions, polling, pstates, SimGrid's reference case, the power
 * trace, and malformed properties.
 *
 * Platforms and traces are in test/data/energy (found through $top_srcdir). The main
 * platform, energy4.xml: host n (4 cores, 1Gf/500Mf, Idle:Epsilon:AllCores
 * 100:120:200 and 90:100:150, polling 160/130 W, region "solve" 280/200 W), host m (1
 * core, 50:60:90 and 40:45:60, polling 80/55 W), host idle (2 cores, initial pstate 1,
 * 70:80:100 and 40:50:60), host nowatt (no wattage_per_state). */
#include "energy.h"
#include "output.h"
#include "replay.h"
#include "xalloc.h"

#include "check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EPS 1e-9 /* joules: every figure below is exact up to rounding */

static char data[1024];

static const char *path_of(const char *name) {
  static char buf[4][1200];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", data, name);
  return buf[k];
}

/* ====== helpers ====== */

typedef struct run {
  platform *p;
  energy *en;
  double t; /* simulated time */
} run;

/* Replays trace on platform plat with hostfile hosts (np ranks) and the energy model.
 * pstate: host/pstate (-1: each host's own); quirks: SimGrid's first-update pstate. */
static void replay(run *r, const char *plat, const char *hosts, int np, const char *trace, int pstate,
                   int quirks) {
  char err[2048];
  r->p = plat_load(plat, err, sizeof err);
  ck_assert_msg(r->p != NULL, "%s", err);
  replay_opts o = {.trace = trace, .hostfile = hosts, .plat = r->p, .np = np, .warn = stderr};
  cfg_init(&o.cfg);
  o.cfg.host_energy = 1;
  o.cfg.pstate = pstate;
  o.model = net_model_find("hybrid");
  r->en = energy_new(r->p, &o.cfg, err, sizeof err);
  ck_assert_msg(r->en != NULL, "%s", err);
  energy_simgrid_quirks(r->en, quirks);
  replay_observer obs;
  energy_observer(r->en, &obs);
  o.obs = &obs;
  o.nobs = 1;
  replay_result res;
  ck_assert_msg(replay_run(&o, &res, err, sizeof err) == 0, "%s", err);
  r->t = res.simulated_time;
  replay_result_free(&res);
  cfg_free(&o.cfg);
}

static void run_free(run *r) {
  energy_free(r->en);
  plat_free(r->p);
}

static double host_j(const run *r, const char *name) { return energy_host(r->en, plat_host_find(r->p, name)); }

/* Energy model on a loaded platform, without a replay (events driven by hand). */
static energy *model(platform *p, int pstate) {
  char err[2048];
  config c;
  cfg_init(&c);
  c.pstate = pstate;
  energy *en = energy_new(p, &c, err, sizeof err);
  ck_assert_msg(en != NULL, "%s", err);
  cfg_free(&c);
  return en;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot read %s", path);
  char *s = x_calloc(1, 1 << 16);
  size_t n = fread(s, 1, (1 << 16) - 1, f);
  s[n] = '\0';
  fclose(f);
  return s;
}

/* Writes text to a new temporary file; returns its path (to free and unlink). */
static char *tmp_file(const char *text) {
  char *path = x_strdup("/tmp/check_energy.XXXXXX");
  int fd = mkstemp(path);
  ck_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

/* ====== hand-driven observer: regions, polling, attribution ====== */

/* Host n (pstate 0: Idle 100, Epsilon 120, AllCores 200, polling 160, "solve" 280),
 * ranks 0 and 1 on it. Dynamic power per core: solve (280-120)/4 = 40 W, io (no
 * wattage_region: AllCores) (200-120)/4 = 20 W, polling (160-120)/4 = 10 W.
 *   [0,2) r0 computes in solve, r1 in io:        P = 120 + 40 + 20 = 180 W ->  360 J
 *   [2,3) r1 polls (OBS_MPI):                    P = 120 + 40 + 10 = 170 W ->  170 J
 *   [3,5) r0 idle (left solve), r1 polls:        P = 120 + 10      = 130 W ->  260 J
 *   [5,6) both idle:                             P = Idle          = 100 W ->  100 J
 * host n: 890 J. Static power is split in max(4 cores, 2 ranks) = 4 parts (30 W, then
 * 25 W when idle): solve 30x2 + 30 = 90 J static + 40x3 = 120 J dynamic = 210 J;
 * io 30x2 + 30 + 30x2 + 25 = 175 static + 20x2 dynamic + 10x3 polling = 245 J;
 * outside on n: 60x2 + 60 + 90x2 + 75 = 435 J. Hosts without ranks over 6 s: m Idle
 * 50 W -> 300 J; idle (pstate 1, but SimGrid charges pstate 0 until its first update,
 * which never comes) 70 W -> 420 J; nowatt 0 J. Outside: 435 + 300 + 420 = 1155 J. */
START_TEST(test_regions_by_hand) {
  char err[2048];
  platform *p = plat_load(path_of("energy4.xml"), err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  energy *en = model(p, -1);
  replay_observer o;
  energy_observer(en, &o);
  int hosts[2] = {0, 0};
  o.start(o.ctx, 2, hosts);
  o.region(o.ctx, 0, "solve", 0);
  o.region(o.ctx, 1, "io", 0);
  o.activity(o.ctx, 0, OBS_COMPUTE, 0);
  o.activity(o.ctx, 1, OBS_COMPUTE, 0);
  o.activity(o.ctx, 1, OBS_MPI, 2);
  o.activity(o.ctx, 0, OBS_IDLE, 3);
  o.region(o.ctx, 0, NULL, 3);
  o.activity(o.ctx, 1, OBS_IDLE, 5);
  o.finish(o.ctx, 6);
  double parts[3];
  ck_assert_double_eq_tol(energy_host(en, 0), 890, EPS);
  ck_assert_double_eq_tol(energy_region(en, "solve", parts), 210, EPS);
  ck_assert_double_eq_tol(parts[0], 90, EPS);
  ck_assert_double_eq_tol(parts[1], 120, EPS);
  ck_assert_double_eq_tol(parts[2], 0, EPS);
  ck_assert_double_eq_tol(energy_region(en, "io", parts), 245, EPS);
  ck_assert_double_eq_tol(parts[0], 175, EPS);
  ck_assert_double_eq_tol(parts[1], 40, EPS);
  ck_assert_double_eq_tol(parts[2], 30, EPS);
  ck_assert_double_eq_tol(energy_region(en, NULL, NULL), 1155, EPS);
  ck_assert_double_eq_tol(energy_total(en), 890 + 300 + 420, EPS);
  ck_assert_double_eq(energy_region(en, "never", parts), 0);
  energy_free(en);
  plat_free(p);
}
END_TEST

/* ====== replays ====== */

/* regions.tit on host n (2 ranks): r0 "solve" 2e9 flops then "io" 1e9; r1 "io" 3e9;
 * 1 Gf per core, 4 cores: no sharing, T = 3 s.
 *   [0,2): 120 + 40 (solve) + 20 (io) = 180 W -> 360 J;  [2,3): 120 + 20 + 20 = 160 W -> 160 J.
 * n: 520 J. Static 30 W per part: solve 30x2 = 60 J + dynamic 40x2 = 80 J = 140 J;
 * io 30x2 + 60x1 = 120 J + dynamic 20x2 + 40x1 = 80 J = 200 J; outside on n 60x2 + 60 = 180 J. */
START_TEST(test_regions_replay) {
  run r;
  replay(&r, path_of("energy4.xml"), path_of("hosts_nn"), 2, path_of("regions.tit"), -1, 1);
  double parts[3];
  ck_assert_double_eq_tol(r.t, 3, 1e-12);
  ck_assert_double_eq_tol(host_j(&r, "n"), 520, EPS);
  ck_assert_double_eq_tol(energy_region(r.en, "solve", parts), 140, EPS);
  ck_assert_double_eq_tol(parts[0], 60, EPS);
  ck_assert_double_eq_tol(parts[1], 80, EPS);
  ck_assert_double_eq_tol(energy_region(r.en, "io", parts), 200, EPS);
  ck_assert_double_eq_tol(parts[0], 120, EPS);
  ck_assert_double_eq_tol(parts[1], 80, EPS);
  /* outside: 180 J on n, m 50 W x 3 s, idle 70 W x 3 s (pstate 0's Idle: quirk) */
  ck_assert_double_eq_tol(energy_region(r.en, NULL, NULL), 180 + 150 + 210, EPS);
  run_free(&r);
}
END_TEST

/* energy4.xml without its wattage_polling properties, as a temporary file. */
static char *without_polling(void) {
  char *s = slurp(path_of("energy4.xml")), *out = x_calloc(1, strlen(s) + 1);
  for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n"))
    if (!strstr(line, "wattage_polling"))
      strcat(strcat(out, line), "\n");
  char *path = tmp_file(out);
  free(s);
  free(out);
  return path;
}

/* polling.tit: rank 0 on n computes 1 s then sends 100000 B (rendez-vous) to rank 1 on
 * m, which waits in its recv from 0 to T; rank 0 blocks in the send from 1 s to T.
 * With polling: m draws Epsilon + (80 - 60) / 1 = 80 W; n 120 + 80/4 = 140 W for 1 s,
 * then 120 + (160 - 120)/4 = 130 W. Without: m Idle 50 W; n 140 W then Idle 100 W.
 * The simulated time is the same. */
START_TEST(test_polling) {
  run a, b;
  char *nopoll = without_polling();
  replay(&a, path_of("energy4.xml"), path_of("hosts_nm"), 2, path_of("polling.tit"), -1, 1);
  replay(&b, nopoll, path_of("hosts_nm"), 2, path_of("polling.tit"), -1, 1);
  ck_assert(a.t == b.t);
  ck_assert(a.t > 1.001 && a.t < 2);
  ck_assert_double_eq_tol(host_j(&a, "m"), 80 * a.t, EPS);
  ck_assert_double_eq_tol(host_j(&b, "m"), 50 * a.t, EPS);
  ck_assert_double_eq_tol(host_j(&a, "n"), 140 + 130 * (a.t - 1), EPS);
  ck_assert_double_eq_tol(host_j(&b, "n"), 140 + 100 * (a.t - 1), EPS);
  double parts[3];
  energy_region(a.en, NULL, parts);
  ck_assert_double_eq_tol(parts[2], 20 * a.t + 10 * (a.t - 1), EPS); /* m's and n's polling */
  run_free(&a);
  run_free(&b);
  unlink(nopoll);
  free(nopoll);
}
END_TEST

/* pstate.tit: one rank on n computes 1e9 flops.
 * host/pstate 0: 1 Gf -> T = 1 s, P = 120 + (200 - 120)/4 = 140 W -> 140 J.
 * host/pstate 1: 500 Mf -> T = 2 s, P = 100 + (150 - 100)/4 = 112.5 W -> 225 J.
 * Hosts without ranks never get SimGrid's first update: they draw pstate 0's Idle (m
 * 50 W, idle 70 W) with the quirk, their own pstate's without (at pstate 1: m 40 W,
 * idle 40 W; with their own pstate: idle has pstate="1", m pstate 0). */
START_TEST(test_pstates) {
  run r0, r1, q0, q1;
  replay(&r0, path_of("energy4.xml"), path_of("hosts_n"), 1, path_of("pstate.tit"), -1, 1);
  replay(&r1, path_of("energy4.xml"), path_of("hosts_n"), 1, path_of("pstate.tit"), 1, 1);
  replay(&q0, path_of("energy4.xml"), path_of("hosts_n"), 1, path_of("pstate.tit"), -1, 0);
  replay(&q1, path_of("energy4.xml"), path_of("hosts_n"), 1, path_of("pstate.tit"), 1, 0);
  ck_assert_double_eq_tol(r0.t, 1, 1e-12);
  ck_assert_double_eq_tol(r1.t, 2, 1e-12);
  ck_assert_double_eq_tol(host_j(&r0, "n"), 140, EPS);
  ck_assert_double_eq_tol(host_j(&r1, "n"), 225, EPS);
  ck_assert_double_eq_tol(host_j(&q1, "n"), 225, EPS); /* computes at t = 0: synced at once */
  ck_assert_double_eq_tol(host_j(&r0, "idle"), 70, EPS);
  ck_assert_double_eq_tol(host_j(&q0, "idle"), 40, EPS);
  ck_assert_double_eq_tol(host_j(&r1, "m"), 100, EPS);
  ck_assert_double_eq_tol(host_j(&q1, "m"), 80, EPS);
  ck_assert_double_eq_tol(host_j(&q1, "idle"), 80, EPS);
  ck_assert_double_eq(host_j(&r1, "nowatt"), 0);
  run_free(&r0);
  run_free(&r1);
  run_free(&q0);
  run_free(&q1);
}
END_TEST

/* The power trace of the host/pstate 1 run above: n starts computing at 0 (112.5 W, the
 * initial Idle row collapses into it), goes back to its pstate 1 Idle (90 W) at 2 s;
 * the other hosts keep their power; rows at 2 s close every host. */
START_TEST(test_power_trace) {
  run r;
  replay(&r, path_of("energy4.xml"), path_of("hosts_n"), 1, path_of("pstate.tit"), 1, 1);
  char *path = tmp_file(""), err[2048];
  ck_assert_msg(output_power_trace(r.en, path, err, sizeof err) == 0, "%s", err);
  char *s = slurp(path);
  ck_assert_str_eq(s, "time,host,watts\n0,n,112.5\n0,m,50\n0,idle,70\n0,nowatt,0\n"
                      "2,n,90\n2,m,50\n2,idle,70\n2,nowatt,0\n");
  free(s);
  ck_assert_int_eq(output_power_trace(r.en, "/nonexistent-dir/p.csv", err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/p.csv"));
  unlink(path);
  free(path);
  run_free(&r);
}
END_TEST

/* Changes at one date collapse in the power trace: compute [0,1), idle and compute
 * again at 1 (no row), idle at 2. Host m at pstate 0: 60 + (90 - 60) = 90 W busy,
 * 50 W idle: 90 x 2 + 50 x 1 = 230 J. */
START_TEST(test_power_trace_collapse) {
  char err[2048];
  platform *p = plat_load(path_of("energy4.xml"), err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  energy *en = model(p, -1);
  replay_observer o;
  energy_observer(en, &o);
  int hosts[1] = {1};
  o.start(o.ctx, 1, hosts);
  o.activity(o.ctx, 0, OBS_COMPUTE, 0);
  o.activity(o.ctx, 0, OBS_IDLE, 1);
  o.activity(o.ctx, 0, OBS_COMPUTE, 1);
  o.activity(o.ctx, 0, OBS_IDLE, 2);
  o.finish(o.ctx, 3);
  ck_assert_double_eq_tol(energy_host(en, 1), 230, EPS);
  char *path = tmp_file("");
  ck_assert(output_power_trace(en, path, err, sizeof err) == 0);
  char *s = slurp(path);
  ck_assert_str_eq(s, "time,host,watts\n0,n,100\n0,m,90\n0,idle,70\n0,nowatt,0\n2,m,50\n"
                      "3,n,100\n3,m,50\n3,idle,70\n3,nowatt,0\n");
  free(s);
  unlink(path);
  free(path);
  energy_free(en);
  plat_free(p);
}
END_TEST

/* SimGrid 3.32's reference case (test/data/reference, README.md): per-host joules
 * printed with 6 decimals. */
START_TEST(test_reference_case) {
  char cwd[1024], dir[1200];
  ck_assert(getcwd(cwd, sizeof cwd) != NULL);
  snprintf(dir, sizeof dir, "%s/../reference", data);
  ck_assert(chdir(dir) == 0);
  run r;
  replay(&r, "energy/energy_platform.xml", "energy/hostfile", 2, "index/energy", -1, 1);
  ck_assert(chdir(cwd) == 0);
  ck_assert_double_eq_tol(r.t, 16.116375782135318, 1e-9);
  ck_assert_double_eq_tol(host_j(&r, "MyHost1"), 1851.637578, 1e-6);
  ck_assert_double_eq_tol(host_j(&r, "MyHost2"), 2111.637578, 1e-6);
  ck_assert_double_eq_tol(host_j(&r, "MyHost3"), 1611.637578, 1e-6);
  ck_assert_double_eq_tol(energy_total(r.en), 5574.912735, 1e-6);
  run_free(&r);
}
END_TEST

/* The summary and the JSON report of the regions replay (figures of test_regions_replay). */
START_TEST(test_print_and_json) {
  run r;
  replay(&r, path_of("energy4.xml"), path_of("hosts_nn"), 2, path_of("regions.tit"), -1, 1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  output_energy_summary(r.en, f);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, "Energy of host n: 520.000000 J\n"));
  ck_assert_ptr_nonnull(strstr(buf, "Energy of host nowatt: 0.000000 J\n"));
  ck_assert_ptr_nonnull(strstr(buf, "Total energy: 880.000000 J\n")); /* 520 + 150 + 210 */
  ck_assert_ptr_nonnull(strstr(buf, "Energy of region solve: 140.000000 J"));
  free(buf);
  f = open_memstream(&buf, &len);
  output_energy_json(r.en, f);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, "\"total_J\": 880,"));
  ck_assert_ptr_nonnull(strstr(buf, "{\"region\": \"solve\", \"energy_J\": 140, \"static_J\": 60,"));
  ck_assert_ptr_nonnull(strstr(buf, "\"used_hosts_J\": 520,"));
  free(buf);
  run_free(&r);
}
END_TEST

/* ====== properties ====== */

/* A one-host platform (speeds given) with the given <prop> elements, as a file. */
static char *one_host(const char *speeds, const char *props) {
  char *xml = x_asprintf("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                         "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
                         "<host id=\"h\" speed=\"%s\" core=\"1\">%s</host>\n</zone></platform>\n",
                         speeds, props);
  char *path = tmp_file(xml);
  free(xml);
  return path;
}

/* energy_new on that platform must fail with an error containing want. */
static void expect_error(const char *speeds, const char *props, int pstate, const char *want) {
  char *path = one_host(speeds, props), err[2048] = "";
  platform *p = plat_load(path, err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  config c;
  cfg_init(&c);
  c.pstate = pstate;
  energy *en = energy_new(p, &c, err, sizeof err);
  ck_assert_msg(en == NULL, "accepted %s", props);
  ck_assert_msg(strstr(err, want) != NULL, "error '%s' lacks '%s'", err, want);
  ck_assert_msg(strstr(err, ": host h: ") != NULL, "error '%s' does not name the host", err);
  cfg_free(&c);
  plat_free(p);
  unlink(path);
  free(path);
}

#define WPS(v) "<prop id=\"wattage_per_state\" value=\"" v "\"/>"

START_TEST(test_bad_properties) {
  char err[2048];
  platform *p = plat_load(path_of("bad.xml"), err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  config c;
  cfg_init(&c);
  ck_assert_ptr_null(energy_new(p, &c, err, sizeof err));
  ck_assert_msg(strstr(err, "bad.xml: host b: ") && strstr(err, "2 entries for 3 pstates"), "%s", err);
  cfg_free(&c);
  plat_free(p);
  expect_error("1Gf", WPS("100:abc:200"), -1, "entry 1: expected Idle:Epsilon:AllCores");
  expect_error("1Gf,2Gf", WPS("100:120:200, 1:2:3:4"), -1, "entry 2: expected");
  expect_error("1Gf", WPS("100"), -1, "entry 1");
  expect_error("1Gf", WPS("-5:1:2"), -1, "watts >= 0");
  expect_error("1Gf", WPS("100:120:200 x"), -1, "entry 1");
  expect_error("1Gf", WPS("100:200") "<prop id=\"wattage_off\" value=\"ten\"/>", -1, "wattage_off");
  expect_error("1Gf", WPS("100:200") "<prop id=\"wattage_polling\" value=\"1, 2\"/>", -1, "expected 1 wattage");
  expect_error("1Gf", WPS("100:200") "<prop id=\"wattage_region:\" value=\"1\"/>", -1, "expected a region name");
  expect_error("1Gf,2Gf", WPS("100:200, 90:150") "<prop id=\"wattage_region:x\" value=\"1\"/>", -1,
               "expected 2 wattages");
  expect_error("1Gf", WPS("100:200"), 3, "pstate 3 does not exist");
}
END_TEST

/* "Idle:AllCores" means Epsilon = Idle: 1 core, 100:200 -> busy 100 + (200 - 100) =
 * 200 W, idle 100 W: compute [0,1), idle [1,2) -> 300 J. A host without
 * wattage_per_state draws 0 W. Blanks around the numbers are accepted. */
START_TEST(test_two_values_and_missing) {
  char *path = one_host("1Gf", WPS(" 100 : 200 ") "<prop id=\"wattage_off\" value=\" 7 \"/>"), err[2048];
  platform *p = plat_load(path, err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  energy *en = model(p, -1);
  replay_observer o;
  energy_observer(en, &o);
  int hosts[1] = {0};
  o.start(o.ctx, 1, hosts);
  o.activity(o.ctx, 0, OBS_COMPUTE, 0);
  o.activity(o.ctx, 0, OBS_IDLE, 1);
  o.finish(o.ctx, 2);
  ck_assert_double_eq_tol(energy_total(en), 300, EPS);
  energy_free(en);
  plat_free(p);
  unlink(path);
  free(path);
  path = one_host("1Gf", "");
  p = plat_load(path, err, sizeof err);
  en = model(p, -1);
  energy_observer(en, &o);
  o.start(o.ctx, 1, hosts);
  o.activity(o.ctx, 0, OBS_COMPUTE, 0);
  o.finish(o.ctx, 5);
  ck_assert_double_eq(energy_total(en), 0);
  energy_free(en);
  plat_free(p);
  unlink(path);
  free(path);
}
END_TEST

/* More computing ranks than cores: SimGrid's load is clipped to 1. Host m (1 core,
 * 60:90 busy): 3 ranks computing -> 90 W (not 60 + 3 x 30); polling ranks get no core
 * while the core computes: 90 W still. [0,2) 3 computing, [2,4) 1 computing + 2
 * polling: 90 W; [4,5) 2 polling: 80 W (Epsilon 60 + (80 - 60) x 1 core). 450 J. */
START_TEST(test_oversubscribed) {
  char err[2048];
  platform *p = plat_load(path_of("energy4.xml"), err, sizeof err);
  ck_assert_msg(p != NULL, "%s", err);
  energy *en = model(p, -1);
  replay_observer o;
  energy_observer(en, &o);
  int hosts[3] = {1, 1, 1};
  o.start(o.ctx, 3, hosts);
  for (int i = 0; i < 3; i++)
    o.activity(o.ctx, i, OBS_COMPUTE, 0);
  o.activity(o.ctx, 1, OBS_MPI, 2);
  o.activity(o.ctx, 2, OBS_MPI, 2);
  o.activity(o.ctx, 0, OBS_SLEEP, 4);
  o.activity(o.ctx, 1, OBS_IDLE, 5);
  o.activity(o.ctx, 2, OBS_IDLE, 5);
  o.activity(o.ctx, 0, OBS_IDLE, 5);
  o.finish(o.ctx, 5);
  ck_assert_double_eq_tol(energy_host(en, 1), 90 * 4 + 80, EPS);
  energy_free(en);
  plat_free(p);
}
END_TEST

static Suite *energy_suite(void) {
  Suite *s = suite_create("energy");
  TCase *tc = tcase_create("energy");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_regions_by_hand);
  tcase_add_test(tc, test_regions_replay);
  tcase_add_test(tc, test_polling);
  tcase_add_test(tc, test_pstates);
  tcase_add_test(tc, test_power_trace);
  tcase_add_test(tc, test_power_trace_collapse);
  tcase_add_test(tc, test_reference_case);
  tcase_add_test(tc, test_print_and_json);
  tcase_add_test(tc, test_bad_properties);
  tcase_add_test(tc, test_two_values_and_missing);
  tcase_add_test(tc, test_oversubscribed);
  suite_add_tcase(s, tc);
  return s;
}

Suite *check_suite(void) {
  const char *top = getenv("top_srcdir");
  snprintf(data, sizeof data, "%s/test/data/energy", top ? top : ".");
  return energy_suite();
}
