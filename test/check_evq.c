/* check_evq.c - unit tests of the engine's event queue (replay/evq.c).
 *
 * The queue must hand items out in the total order of (date, tie) whatever the runs it
 * built: the tests drive it with random pushes, removals and pops (few distinct dates,
 * so that runs form, ties in and out of order, -0 and +0, infinities) and compare each
 * top, and its (date, tie) as evq_top_key gives them, with a brute-force minimum over the
 * live items. */
#include "check_main.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evq.h"

typedef struct item {
  evq_pos pos;
  double date;
  uint64_t tie;
  int live;
} item;

static int before(const item *a, const item *b) {
  return a->date < b->date || (a->date == b->date && a->tie < b->tie);
}

/* The live item first in (date, tie) order, or NULL. */
static item *brute_min(item *v, int n) {
  item *m = NULL;
  for (int i = 0; i < n; i++)
    if (v[i].live && (!m || before(&v[i], m)))
      m = &v[i];
  return m;
}

static void check_top(const evq *q, item *v, int n) {
  double d = -1;
  item *top = evq_top(q, &d), *want = brute_min(v, n);
  ck_assert_ptr_eq(top, want);
  double kd = -1;
  uint64_t kt = 0;
  ck_assert_int_eq(evq_top_key(q, &kd, &kt), want != NULL); /* (the engine's levels use it) */
  if (want) {
    ck_assert(d == want->date);
    ck_assert(kd == want->date);
    ck_assert_uint_eq(kt, want->tie);
  }
}

static const double dates[] = {0.0, -0.0, 1.0, 1.5, 2.0, 1e-300, INFINITY, 3.25, -2.0, 7.0};

/* mode 0: ties in increasing order (runs form); 1: decreasing (one run per item);
 * 2: random. */
static void random_ops(unsigned seed, int mode) {
  enum { N = 400 };
  static item v[N];
  memset(v, 0, sizeof v);
  evq q;
  evq_init(&q);
  srand(seed);
  uint64_t next_tie = mode == 1 ? UINT64_MAX / 2 : 1;
  int live = 0;
  for (int step = 0; step < 20000; step++) {
    int i = rand() % N, op = rand() % 8;
    if (op < 4 && !v[i].live) { /* push */
      v[i].date = dates[rand() % (sizeof dates / sizeof *dates)];
      v[i].tie = mode == 0 ? next_tie++ : mode == 1 ? next_tie-- : ((uint64_t)rand() << 20) ^ (uint64_t)step;
      v[i].live = 1;
      live++;
      evq_push(&q, &v[i].pos, v[i].date, v[i].tie, &v[i]);
    } else if (op < 6 && v[i].live) { /* remove anywhere */
      evq_remove(&q, &v[i].pos);
      ck_assert(!evq_queued(&v[i].pos));
      v[i].live = 0;
      live--;
    } else if (op == 6) { /* pop the top */
      double d;
      item *t = evq_top(&q, &d);
      if (t) {
        evq_remove(&q, &t->pos);
        t->live = 0;
        live--;
      }
    }
    ck_assert_uint_eq(q.n, (size_t)live);
    check_top(&q, v, N);
  }
  for (item *t; (t = brute_min(v, N)); t->live = 0) { /* drain in order */
    check_top(&q, v, N);
    evq_remove(&q, &t->pos);
  }
  double d;
  ck_assert_ptr_null(evq_top(&q, &d));
  evq_free(&q);
}

START_TEST(increasing_ties) { random_ops(1 + (unsigned)_i, 0); }
END_TEST

START_TEST(decreasing_ties) { random_ops(11 + (unsigned)_i, 1); }
END_TEST

START_TEST(random_ties) { random_ops(21 + (unsigned)_i, 2); }
END_TEST

START_TEST(one_date_runs) {
  /* 1000 items of one date in tie order: one run; removing every other one from the
   * middle, then popping, gives the survivors in tie order. */
  enum { N = 1000 };
  static item v[N];
  evq q;
  evq_init(&q);
  for (int i = 0; i < N; i++) {
    v[i] = (item){.date = 5.0, .tie = (uint64_t)i, .live = 1};
    evq_push(&q, &v[i].pos, 5.0, v[i].tie, &v[i]);
  }
  ck_assert_uint_eq(q.nruns, 1);
  for (int i = 1; i < N; i += 2)
    evq_remove(&q, &v[i].pos);
  for (int i = 0; i < N; i += 2) {
    double d;
    ck_assert_ptr_eq(evq_top(&q, &d), &v[i]);
    evq_remove(&q, &v[i].pos);
  }
  ck_assert_uint_eq(q.n, 0);
  ck_assert_uint_eq(q.nruns, 0);
  evq_free(&q);
}
END_TEST

static Suite *evq_suite(void) {
  Suite *su = suite_create("evq");
  TCase *tc = tcase_create("order");
  tcase_add_loop_test(tc, increasing_ties, 0, 3);
  tcase_add_loop_test(tc, decreasing_ties, 0, 3);
  tcase_add_loop_test(tc, random_ties, 0, 3);
  tcase_add_test(tc, one_date_runs);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(su, tc);
  return su;
}

Suite *check_suite(void) { return evq_suite(); }
