/* tt_out.c - the per-rank trace writer: lines -> buffer -> zlib stream (see tt_out.h).
 *
 * Invariant: buf holds the stream bytes from position `base` on; everything before `base`
 * has been given to zlib, and it always ends on a line boundary. Holds are kept in stream
 * order (they are created in that order and only removed), so holds[0] bounds the flushable
 * prefix: at most the start of its line. */
#include "tt_out.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "../base/xalloc.h"

#define PUSH_SIZE (64u << 10) /* push the buffer to zlib past this many bytes */
#define HOLD_WIDTH 11         /* characters of a placeholder field: fits any int */

struct hold {
  uint64_t pos;  /* stream position of the field */
  uint64_t line; /* stream position of the start of its line */
};

static struct {
  gzFile gz;             /* the stream, NULL when closed */
  char *buf;             /* bytes from stream position base on */
  size_t len, cap;       /* used and allocated size of buf */
  uint64_t base;         /* stream position of buf[0] */
  uint64_t line;         /* stream position of the current line's start */
  struct hold *holds;    /* open holds, in stream order */
  size_t nholds, hcap;   /* count and capacity of holds */
  double interval;       /* seconds between two syncs to disk */
  double last_sync;      /* monotonic time of the last sync */
  uint64_t lines;        /* lines ended so far */
  int dirty;             /* lines given to buf since the last sync */
  int stop;              /* asks the sync thread to end */
  int has_thread;        /* the sync thread runs */
  pthread_t thread;      /* the sync thread */
  uint64_t total;        /* bytes written by a closed stream (statistics survive close) */
} w;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards w (writer vs sync thread) */
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;  /* ends the sync thread's sleep */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void push(void);

/* Sync everything complete to the file (caller holds mu). */
static void sync_now(void) {
  if (!w.gz)
    return;
  push();
  gzflush(w.gz, Z_SYNC_FLUSH);
  w.dirty = 0;
  w.last_sync = now();
}

static void *sync_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  while (!w.stop) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + w.interval;
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    pthread_cond_timedwait(&wake, &mu, &ts);
    if (!w.stop && w.dirty)
      sync_now();
  }
  pthread_mutex_unlock(&mu);
  return NULL;
}

int tt_out_open(const char *path, int level, double flush_interval) {
  char mode[8];
  if (level <= 0)
    snprintf(mode, sizeof mode, "wT");
  else
    snprintf(mode, sizeof mode, "wb%d", level > 9 ? 9 : level);
  w.gz = gzopen(path, mode);
  if (!w.gz)
    return -1;
  gzbuffer(w.gz, 256u << 10);
  w.interval = flush_interval;
  w.last_sync = now();
  w.stop = 0;
  if (flush_interval > 0)
    w.has_thread = pthread_create(&w.thread, NULL, sync_main, NULL) == 0;
  return 0;
}

static void reserve(size_t n) { x_grow(&w.buf, &w.cap, w.len + n, 1); }

/* Give zlib every complete line before the first open hold. */
static void push(void) {
  uint64_t limit = w.nholds ? w.holds[0].line : w.line;
  size_t n = (size_t)(limit - w.base);
  if (!w.gz || n == 0)
    return;
  gzwrite(w.gz, w.buf, (unsigned)n);
  memmove(w.buf, w.buf + n, w.len - n);
  w.len -= n;
  w.base += n;
}

static void drop_hold(size_t i) {
  memmove(w.holds + i, w.holds + i + 1, (w.nholds - i - 1) * sizeof *w.holds);
  w.nholds--;
}

/* Stop the sync thread (the caller does not hold mu). */
static void stop_thread(void) {
  if (!w.has_thread)
    return;
  pthread_mutex_lock(&mu);
  w.stop = 1;
  pthread_cond_signal(&wake);
  pthread_mutex_unlock(&mu);
  pthread_join(w.thread, NULL);
  w.has_thread = 0;
}

int tt_out_close(void) {
  if (!w.gz)
    return 0;
  stop_thread();
  w.nholds = 0;
  w.line = w.base + w.len;
  push();
  int rc = gzclose(w.gz) == Z_OK ? 0 : -1;
  w.gz = NULL;
  free(w.buf);
  free(w.holds);
  uint64_t lines = w.lines, total = w.base + w.len;
  memset(&w, 0, sizeof w);
  w.lines = lines;
  w.total = total;
  return rc;
}

int tt_out_emergency_close(void) {
  if (pthread_mutex_trylock(&mu) != 0)
    return -1; /* a line was being written (or synced): the file keeps its last sync */
  w.stop = 1;
  w.has_thread = 0; /* not joined: it is waiting on mu or will see stop */
  pthread_cond_signal(&wake);
  if (w.gz) {
    w.nholds = 0;
    w.line = w.base + w.len;
    push();
    gzclose(w.gz);
    w.gz = NULL;
  }
  pthread_mutex_unlock(&mu);
  return 0;
}

/* decimal digits of v, written backwards from end; returns the first character */
static char *fmt_int(char *end, long long v) {
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do {
    *--end = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    *--end = '-';
  return end;
}

void tt_out_int(long long v) {
  char tmp[24], *s = fmt_int(tmp + sizeof tmp, v);
  size_t n = (size_t)(tmp + sizeof tmp - s);
  reserve(n + 1);
  w.buf[w.len++] = ' ';
  memcpy(w.buf + w.len, s, n);
  w.len += n;
}

void tt_out_str(const char *s) {
  size_t n = strlen(s);
  reserve(n + 1);
  w.buf[w.len++] = ' ';
  memcpy(w.buf + w.len, s, n);
  w.len += n;
}

void tt_out_begin(int rank, const char *action, int comment) {
  char tmp[24], *s = fmt_int(tmp + sizeof tmp, rank);
  size_t n = (size_t)(tmp + sizeof tmp - s);
  pthread_mutex_lock(&mu);
  w.line = w.base + w.len;
  reserve(n + 2);
  if (comment) {
    w.buf[w.len++] = '#';
    w.buf[w.len++] = ' ';
  }
  memcpy(w.buf + w.len, s, n);
  w.len += n;
  tt_out_str(action);
}

void tt_out_end(void) {
  reserve(1);
  w.buf[w.len++] = '\n';
  w.lines++;
  w.line = w.base + w.len;
  while (w.nholds && w.len > TT_OUT_HOLD_CAP)
    drop_hold(0); /* keeps its fallback value */
  if (w.len >= PUSH_SIZE)
    push();
  w.dirty = 1;
  if (!w.has_thread && w.interval >= 0 && now() - w.last_sync >= w.interval)
    sync_now();
  pthread_mutex_unlock(&mu);
}

uint64_t tt_out_hold(long long fallback) {
  char tmp[24], *s = fmt_int(tmp + sizeof tmp, fallback);
  size_t n = (size_t)(tmp + sizeof tmp - s);
  reserve(HOLD_WIDTH + 1);
  w.buf[w.len++] = ' ';
  uint64_t pos = w.base + w.len;
  memset(w.buf + w.len, ' ', HOLD_WIDTH);
  memcpy(w.buf + w.len, s, n);
  w.len += HOLD_WIDTH;
  x_grow(&w.holds, &w.hcap, w.nholds + 1, sizeof *w.holds);
  w.holds[w.nholds++] = (struct hold){pos, w.line};
  return pos;
}

void tt_out_patch(uint64_t pos, long long v) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < w.nholds; i++) {
    if (w.holds[i].pos != pos)
      continue;
    char tmp[24], *s = fmt_int(tmp + sizeof tmp, v);
    char *f = w.buf + (size_t)(pos - w.base);
    memset(f, ' ', HOLD_WIDTH);
    memcpy(f, s, (size_t)(tmp + sizeof tmp - s));
    drop_hold(i);
    break;
  }
  pthread_mutex_unlock(&mu);
}

void tt_out_retract(uint64_t pos) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < w.nholds; i++)
    if (w.holds[i].pos == pos) {
      for (char *q = w.buf + (size_t)(w.holds[i].line - w.base); *q != ' '; q++)
        *q = '#'; /* the rank token: "12 irecv" -> "## irecv" */
      drop_hold(i);
      break;
    }
  pthread_mutex_unlock(&mu);
}

uint64_t tt_out_written(void) { return w.gz ? w.base + w.len : w.total; }
uint64_t tt_out_lines(void) { return w.lines; }
