/* check_evq.c - unit tests of the engine's event queue (replay/evq.c).
 *
 * The queue must hand items out in the total order of (date, tie) whatever the runs it
 * built: the tests drive it with random pushes, removals and pops (few distinct dates,
 * so that runs form, ties in and out of order, -0 and +0, infinities) and compare each
 * top, and its (date, tie) as evq_top_key gives them, with a brute-force minimum over the
 * live items. Queues sharing one store of runs (the engine's) must stay apart: the same
 * random operations on three queues, and a run one queue gave back reused by another.
 * Runs, and the objects of a pool (base/pool.h), start on cache lines. */
#include "check_main.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evq.h"
#include "pool.h"

typedef struct item {
  evq_pos pos;
  double date;
  uint64_t tie;
  int live;
} item;

static int before(const item *a, const item *b) {
  return a->date < b->date || (a->date == b->date && a->tie < b->tie);
}

/* The live item first in (date, tie) order among those of queue qi (item i is in queue
 * i % nq), or NULL. */
static item *brute_min_of(item *v, int n, int qi, int nq) {
  item *m = NULL;
  for (int i = qi; i < n; i += nq)
    if (v[i].live && (!m || before(&v[i], m)))
      m = &v[i];
  return m;
}

static void check_top_of(const evq *q, item *v, int n, int qi, int nq) {
  double d = -1;
  item *top = evq_top(q, &d), *want = brute_min_of(v, n, qi, nq);
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
 * 2: random. Item i goes to queue i % nq; nq > 1 queues share one store. */
static void random_ops(unsigned seed, int mode, int nq) {
  enum { N = 400, NQ = 3 };
  static item v[N];
  memset(v, 0, sizeof v);
  evq q[NQ];
  evq_store st;
  evq_store_init(&st);
  for (int k = 0; k < nq; k++)
    evq_init(&q[k], nq > 1 ? &st : NULL);
  srand(seed);
  uint64_t next_tie = mode == 1 ? UINT64_MAX / 2 : 1;
  int live[NQ] = {0};
  for (int step = 0; step < 20000; step++) {
    int i = rand() % N, op = rand() % 8, k = i % nq;
    if (op < 4 && !v[i].live) { /* push */
      v[i].date = dates[rand() % (sizeof dates / sizeof *dates)];
      v[i].tie = mode == 0 ? next_tie++ : mode == 1 ? next_tie-- : ((uint64_t)rand() << 20) ^ (uint64_t)step;
      v[i].live = 1;
      live[k]++;
      evq_push(&q[k], &v[i].pos, v[i].date, v[i].tie, &v[i]);
    } else if (op < 6 && v[i].live) { /* remove anywhere */
      evq_remove(&q[k], &v[i].pos);
      ck_assert(!evq_queued(&v[i].pos));
      v[i].live = 0;
      live[k]--;
    } else if (op == 6) { /* pop the top */
      double d;
      item *t = evq_top(&q[k], &d);
      if (t) {
        evq_remove(&q[k], &t->pos);
        t->live = 0;
        live[k]--;
      }
    }
    ck_assert_uint_eq(q[k].n, (size_t)live[k]);
    check_top_of(&q[k], v, N, k, nq);
  }
  for (int k = 0; k < nq; k++) {
    for (item *t; (t = brute_min_of(v, N, k, nq)); t->live = 0) { /* drain in order */
      check_top_of(&q[k], v, N, k, nq);
      evq_remove(&q[k], &t->pos);
    }
    double d;
    ck_assert_ptr_null(evq_top(&q[k], &d));
    evq_free(&q[k]);
  }
  evq_store_free(&st);
}

START_TEST(increasing_ties) { random_ops(1 + (unsigned)_i, 0, 1); }
END_TEST

START_TEST(decreasing_ties) { random_ops(11 + (unsigned)_i, 1, 1); }
END_TEST

START_TEST(random_ties) { random_ops(21 + (unsigned)_i, 2, 1); }
END_TEST

START_TEST(shared_store_random) { random_ops(31 + (unsigned)_i, _i % 3, 3); }
END_TEST

START_TEST(shared_store_reuse) {
  /* a's run of date 1 goes back to the store and b takes it; a's next push at date 1,
   * after that run's last tie, must start a run of a's own, not land in b's. */
  evq_store st;
  evq_store_init(&st);
  evq a, b;
  evq_init(&a, &st);
  evq_init(&b, &st);
  item x = {.date = 1.0, .tie = 1}, y = {.date = 1.0, .tie = 2}, z = {.date = 1.0, .tie = 3};
  evq_push(&a, &x.pos, 1.0, 1, &x);
  evq_remove(&a, &x.pos);
  evq_push(&b, &y.pos, 1.0, 2, &y);
  evq_push(&a, &z.pos, 1.0, 3, &z);
  double d;
  ck_assert_ptr_eq(evq_top(&a, &d), &z);
  ck_assert_ptr_eq(evq_top(&b, &d), &y);
  ck_assert_uint_eq(a.n, 1);
  ck_assert_uint_eq(b.n, 1);
  evq_remove(&b, &y.pos);
  ck_assert_ptr_eq(evq_top(&a, &d), &z);
  ck_assert_ptr_null(evq_top(&b, &d));
  evq_free(&a);
  evq_free(&b);
  evq_store_free(&st);
}
END_TEST

START_TEST(one_date_runs) {
  /* 1000 items of one date in tie order: one run; removing every other one from the
   * middle, then popping, gives the survivors in tie order. */
  enum { N = 1000 };
  static item v[N];
  evq q;
  evq_init(&q, NULL);
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

/* Spare runs of st that keep an array of slots. */
static size_t spare_arrays(const evq_store *st) {
  size_t n = 0;
  for (const evq_run *r = st->spare; r; r = r->next)
    n += r->cap > 1;
  return n;
}

START_TEST(spare_arrays_bounded) {
  /* 5000 runs of 8 items (one date each, ties in order) emptied: EVQ_KEEP_SMALL of them keep
   * their 8-slot array, the others free it (an alltoall's runs: memory); a second round
   * reuses them, in order, and keeps no more. */
  enum { R = 5000, K = 8 };
  static item v[R * K];
  evq q;
  evq_init(&q, NULL);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < R * K; i++) {
      v[i] = (item){.date = (double)(i / K), .tie = (uint64_t)i, .live = 1};
      evq_push(&q, &v[i].pos, v[i].date, v[i].tie, &v[i]);
    }
    ck_assert_uint_eq(q.nruns, R);
    for (int i = 0; i < R * K; i++) {
      double d;
      ck_assert_ptr_eq(evq_top(&q, &d), &v[i]);
      evq_remove(&q, &v[i].pos);
    }
    ck_assert_uint_eq(q.store->nsmall, EVQ_KEEP_SMALL);
    ck_assert_uint_eq(spare_arrays(q.store), EVQ_KEEP_SMALL);
  }
  evq_free(&q);
}
END_TEST

START_TEST(runs_on_lines) {
  /* 1000 items of distinct dates: one run each, from the store's chunks, each run on a
   * cache line of its own (a run is 64 bytes: one line, not two). */
  enum { N = 1000 };
  static item v[N];
  evq q;
  evq_init(&q, NULL);
  for (int i = 0; i < N; i++) {
    v[i] = (item){.date = (double)(N - i), .tie = (uint64_t)i, .live = 1};
    evq_push(&q, &v[i].pos, v[i].date, v[i].tie, &v[i]);
  }
  ck_assert_uint_eq(q.nruns, N);
  for (int i = 0; i < N; i++)
    ck_assert_uint_eq((uintptr_t)v[i].pos.run % X_LINE, 0);
  evq_free(&q);
}
END_TEST

START_TEST(pool_on_lines) {
  /* Objects of one line from a pool (the solver's class-mode elements): each on a line of
   * its own, across several chunks; x_malloc_lines gives a line whatever the size asked. */
  pool p;
  pool_init(&p, X_LINE);
  for (int i = 0; i < 3 * POOL_CHUNK; i++)
    ck_assert_uint_eq((uintptr_t)pool_take(&p) % X_LINE, 0);
  pool_destroy(&p);
  for (size_t n = 0; n <= 3 * X_LINE; n += 13) {
    char *b = x_malloc_lines(n);
    ck_assert_uint_eq((uintptr_t)b % X_LINE, 0);
    memset(b, 1, n); /* (valgrind: n bytes are usable) */
    free(b);
  }
}
END_TEST

static Suite *evq_suite(void) {
  Suite *su = suite_create("evq");
  TCase *tc = tcase_create("order");
  tcase_add_loop_test(tc, increasing_ties, 0, 3);
  tcase_add_loop_test(tc, decreasing_ties, 0, 3);
  tcase_add_loop_test(tc, random_ties, 0, 3);
  tcase_add_test(tc, one_date_runs);
  tcase_add_loop_test(tc, shared_store_random, 0, 3);
  tcase_add_test(tc, shared_store_reuse);
  tcase_add_test(tc, spare_arrays_bounded);
  tcase_add_test(tc, runs_on_lines);
  tcase_add_test(tc, pool_on_lines);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(su, tc);
  return su;
}

Suite *check_suite(void) { return evq_suite(); }
