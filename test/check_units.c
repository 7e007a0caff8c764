/* check_units.c - unit tests of units_parse(): SimGrid's speeds, bandwidths and times.
 *
 * Expected values are computed by hand from the unit tables of SimGrid 3.32
 * (src/xbt/xbt_parse_units.cpp): a decimal prefix multiplies by 1000 per rank
 * (k, M, G, T, P, E, Z, Y), a binary one by 1024 (Ki, Mi, ...); "bps" is 1/8 of "Bps".
 * Values exactly representable in binary are compared exactly, the others within one
 * part in 1e15. */
#include "check_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

static double parse_ok(units_kind kind, const char *s, int *unitless) {
  double v = -12345.0;
  char err[256] = "";
  int rc = units_parse(kind, s, &v, unitless, err, sizeof err);
  ck_assert_msg(rc == 0, "units_parse(%s) failed: %s", s, err);
  return v;
}

/* Parses s, which must fail with a message containing what; *out must stay untouched. */
static void parse_bad(units_kind kind, const char *s, const char *what) {
  double v = -12345.0;
  char err[256] = "";
  ck_assert_int_eq(units_parse(kind, s, &v, NULL, err, sizeof err), -1);
  ck_assert_msg(strstr(err, what) != NULL, "error for '%s' is '%s', expected '%s'", s, err, what);
  ck_assert(v == -12345.0);
}

#define REL(a, b) ck_assert_double_eq_tol((a), (b), fabs(b) * 1e-15)

START_TEST(speed_decimal) {
  int unitless = -1;
  ck_assert(parse_ok(UNITS_SPEED, "1Gf", &unitless) == 1e9);
  ck_assert_int_eq(unitless, 0);
  ck_assert(parse_ok(UNITS_SPEED, "1f", NULL) == 1.0);
  ck_assert(parse_ok(UNITS_SPEED, "3kf", NULL) == 3000.0);
  REL(parse_ok(UNITS_SPEED, "98.095Mf", NULL), 98.095e6);
  ck_assert(parse_ok(UNITS_SPEED, "2Tf", NULL) == 2e12);
  REL(parse_ok(UNITS_SPEED, "1Yf", NULL), 1e24);
  /* long names: "flops" with kilo.. yotta (and SimGrid's spelling "zeta") */
  ck_assert(parse_ok(UNITS_SPEED, "7flops", NULL) == 7.0);
  ck_assert(parse_ok(UNITS_SPEED, "2.5gigaflops", NULL) == 2.5e9);
  ck_assert(parse_ok(UNITS_SPEED, "4kiloflops", NULL) == 4000.0);
  REL(parse_ok(UNITS_SPEED, "1zetaflops", NULL), 1e21);
}
END_TEST

START_TEST(speed_unitless_and_bad) {
  int unitless = -1;
  /* no unit: default unit f, reported (the loader warns unless 0) */
  ck_assert(parse_ok(UNITS_SPEED, "5", &unitless) == 5.0);
  ck_assert_int_eq(unitless, 1);
  unitless = -1;
  ck_assert(parse_ok(UNITS_SPEED, "0", &unitless) == 0.0);
  ck_assert_int_eq(unitless, 1);
  parse_bad(UNITS_SPEED, "2MHz", "unknown unit 'MHz' in speed '2MHz' (expected f, kf, Mf");
  parse_bad(UNITS_SPEED, "1Kf", "unknown unit 'Kf'");         /* kilo is a lower-case k */
  parse_bad(UNITS_SPEED, "1Kif", "unknown unit 'Kif'");       /* no binary prefix for speeds */
  parse_bad(UNITS_SPEED, "1Mflops", "unknown unit 'Mflops'"); /* short prefix, long unit */
  parse_bad(UNITS_SPEED, "1 Gf", "unknown unit ' Gf'");
  parse_bad(UNITS_SPEED, "Gf", "cannot parse the number in speed 'Gf'");
  parse_bad(UNITS_SPEED, "", "cannot parse the number");
}
END_TEST

START_TEST(bandwidth_bytes_and_bits) {
  /* 125MBps = 125 * 1000^2 B/s */
  ck_assert(parse_ok(UNITS_BANDWIDTH, "125MBps", NULL) == 125e6);
  /* 1Gbps = 0.125 * 1000^3 = 125e6 B/s */
  ck_assert(parse_ok(UNITS_BANDWIDTH, "1Gbps", NULL) == 125e6);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "8bps", NULL) == 1.0);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "3Bps", NULL) == 3.0);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "2kBps", NULL) == 2000.0);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "2.25GBps", NULL) == 2.25e9);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "10Tbps", NULL) == 1.25e12);
  /* binary: 1MiBps = 1024^2 = 1048576 B/s; 1Kibps = 1024 / 8 = 128 B/s;
   * 1GiBps = 2^30 = 1073741824 B/s; 1Eibps = 2^60 / 8 = 2^57 */
  ck_assert(parse_ok(UNITS_BANDWIDTH, "1MiBps", NULL) == 1048576.0);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "1Kibps", NULL) == 128.0);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "1GiBps", NULL) == 1073741824.0);
  ck_assert(parse_ok(UNITS_BANDWIDTH, "1Eibps", NULL) == ldexp(1.0, 57));
  REL(parse_ok(UNITS_BANDWIDTH, "41.279125MBps", NULL), 41279125.0);
}
END_TEST

START_TEST(bandwidth_bad) {
  int unitless = -1;
  ck_assert(parse_ok(UNITS_BANDWIDTH, "1000", &unitless) == 1000.0); /* default Bps */
  ck_assert_int_eq(unitless, 1);
  parse_bad(UNITS_BANDWIDTH, "1KBps", "unknown unit 'KBps' in bandwidth '1KBps'");
  parse_bad(UNITS_BANDWIDTH, "1MB", "unknown unit 'MB'");
  parse_bad(UNITS_BANDWIDTH, "1Gb/s", "unknown unit 'Gb/s'");
  parse_bad(UNITS_BANDWIDTH, "1mbps", "unknown unit 'mbps'");
}
END_TEST

START_TEST(time_units) {
  ck_assert(parse_ok(UNITS_TIME, "1.5s", NULL) == 1.5);
  REL(parse_ok(UNITS_TIME, "50us", NULL), 5e-5);
  REL(parse_ok(UNITS_TIME, "1.461517ms", NULL), 1.461517e-3);
  REL(parse_ok(UNITS_TIME, "3ns", NULL), 3e-9);
  REL(parse_ok(UNITS_TIME, "7ps", NULL), 7e-12);
  ck_assert(parse_ok(UNITS_TIME, "2m", NULL) == 120.0); /* minutes, not milli */
  ck_assert(parse_ok(UNITS_TIME, "1h", NULL) == 3600.0);
  ck_assert(parse_ok(UNITS_TIME, "1d", NULL) == 86400.0);
  ck_assert(parse_ok(UNITS_TIME, "1w", NULL) == 604800.0); /* 7 * 24 * 3600 */
  ck_assert(parse_ok(UNITS_TIME, "1e-3", NULL) == 1e-3);   /* unit-less: seconds */
  parse_bad(UNITS_TIME, "1sec", "unknown unit 'sec' in time '1sec' (expected s, ms, us");
  parse_bad(UNITS_TIME, "1min", "unknown unit 'min'");
  parse_bad(UNITS_TIME, "1ks", "unknown unit 'ks'"); /* no prefixes on times */
}
END_TEST

START_TEST(out_of_range) {
  parse_bad(UNITS_TIME, "1e400s", "value out of range in time '1e400s'");
  parse_bad(UNITS_SPEED, "inf", "value out of range");
  parse_bad(UNITS_BANDWIDTH, "nanBps", "value out of range");
  /* a NULL error buffer is allowed */
  double v = 1;
  ck_assert_int_eq(units_parse(UNITS_SPEED, "x", &v, NULL, NULL, 0), -1);
  ck_assert(v == 1);
}
END_TEST

static Suite *units_suite(void) {
  Suite *s = suite_create("units");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, speed_decimal);
  tcase_add_test(tc, speed_unitless_and_bad);
  tcase_add_test(tc, bandwidth_bytes_and_bits);
  tcase_add_test(tc, bandwidth_bad);
  tcase_add_test(tc, time_units);
  tcase_add_test(tc, out_of_range);
  suite_add_tcase(s, tc);
  return s;
}

Suite *check_suite(void) { return units_suite(); }
