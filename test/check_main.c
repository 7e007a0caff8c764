/* check_main.c - the one main of every Check test program: runs the suite its program
 * defines (check_suite) and exits non-zero when a test failed.
 *
 * Run one program alone with `make check TESTS=test/check_lmm`, or one test of it with
 * `CK_RUN_CASE=... CK_RUN_SUITE=...` or `CK_RUN_TEST=name` (Check's own variables; see
 * doc/hacking.md). */
#include "check_main.h"

#include <stdlib.h>

int main(void) {
  SRunner *sr = srunner_create(check_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
