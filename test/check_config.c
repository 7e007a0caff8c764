/* check_config.c - unit tests of the replayer's configuration keys (replay/config.c).
 *
 * tir/local-solve: the default is auto (local_solve 2, lmm_set_local's automatic mode);
 * yes, no and auto (and the other boolean spellings) are accepted, anything else is
 * rejected with a message naming the key and the bad value, leaving the setting as it was.
 * tir/bundles, tir/class-restarts: booleans, yes by default. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "config.h"

START_TEST(local_solve_key) {
  config c;
  char err[256];
  cfg_init(&c);
  ck_assert_int_eq(c.local_solve, 2); /* default: auto */
  ck_assert_int_eq(cfg_set_kv(&c, "tir/local-solve:no", err, sizeof err), 0);
  ck_assert_int_eq(c.local_solve, 0);
  ck_assert_int_eq(cfg_set_kv(&c, "tir/local-solve:yes", err, sizeof err), 0);
  ck_assert_int_eq(c.local_solve, 1);
  ck_assert_int_eq(cfg_set_kv(&c, "tir/local-solve:auto", err, sizeof err), 0);
  ck_assert_int_eq(c.local_solve, 2);
  ck_assert_int_eq(cfg_set(&c, "tir/local-solve", "off", err, sizeof err), 0);
  ck_assert_int_eq(c.local_solve, 0);
  ck_assert_int_eq(cfg_set(&c, "tir/local-solve", "1", err, sizeof err), 0);
  ck_assert_int_eq(c.local_solve, 1);
  err[0] = 0;
  ck_assert_int_eq(cfg_set_kv(&c, "tir/local-solve:maybe", err, sizeof err), -1);
  ck_assert_str_eq(err, "tir/local-solve: 'maybe' is not yes, no, class or auto");
  ck_assert_int_eq(c.local_solve, 1); /* unchanged */
  ck_assert_int_eq(cfg_set_kv(&c, "tir/local-solve:", err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "tir/local-solve"));
  cfg_free(&c);
}
END_TEST

START_TEST(class_restarts_key) {
  config c;
  char err[256];
  cfg_init(&c);
  ck_assert_int_eq(c.class_restarts, 1); /* default: yes */
  ck_assert_int_eq(cfg_set_kv(&c, "tir/class-restarts:no", err, sizeof err), 0);
  ck_assert_int_eq(c.class_restarts, 0);
  ck_assert_int_eq(cfg_set_kv(&c, "tir/class-restarts:2", err, sizeof err), -1);
  ck_assert_str_eq(err, "tir/class-restarts: '2' is not a boolean (yes/no)");
  ck_assert_int_eq(c.class_restarts, 0); /* unchanged */
  cfg_free(&c);
}
END_TEST

START_TEST(bundles_key) {
  config c;
  char err[256];
  cfg_init(&c);
  ck_assert_int_eq(c.bundles, 1); /* default: yes */
  ck_assert_int_eq(cfg_set_kv(&c, "tir/bundles:no", err, sizeof err), 0);
  ck_assert_int_eq(c.bundles, 0);
  ck_assert_int_eq(cfg_set_kv(&c, "tir/bundles:maybe", err, sizeof err), -1);
  ck_assert_str_eq(err, "tir/bundles: 'maybe' is not a boolean (yes/no)");
  ck_assert_int_eq(c.bundles, 0); /* unchanged */
  ck_assert_int_eq(cfg_set_kv(&c, "tir/bundles:yes", err, sizeof err), 0);
  ck_assert_int_eq(c.bundles, 1);
  cfg_free(&c);
}
END_TEST

static Suite *config_suite(void) {
  Suite *su = suite_create("config");
  TCase *keys = tcase_create("keys");
  tcase_add_test(keys, local_solve_key);
  tcase_add_test(keys, bundles_key);
  tcase_add_test(keys, class_restarts_key);
  suite_add_tcase(su, keys);
  return su;
}

Suite *check_suite(void) { return config_suite(); }
