/* tt_out.c - the per-rank trace writer: lines -> buffer -> zlib stream (see tt_out.h).
 *
 * Invariant: buf holds the stream bytes from position `base` on; everything before `base`
 * has been given to zlib, and it always ends on a line boundary. Holds are kept in stream
 * order (they are created in that order and only removed), so holds[0] bounds the flushable
 * prefix: at most the start of its line. After the first failed write (a full disk) the
 * stream is abandoned: lines are dropped as they are pushed, so memory stays bounded, and
 * the file keeps what reached the disk before (up to its last sync). */
#include "tt_out.h"

#include <errno.h>
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
  double interval;       /* seconds between two syncs to disk (0: after every line) */
  uint64_t lines;        /* lines ended so far */
  int dirty;             /* lines given to buf since the last sync */
  int err;               /* errno of the first failed write, 0 if none */
  uint64_t total;        /* bytes written by a closed stream (statistics survive close) */
} w;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards w (writer vs helper thread) */

static void push(void);

/* Record a failed write (the first one only): errno, or EIO when zlib does not set it. */
static void failed(void) {
  if (!w.err)
    w.err = errno ? errno : EIO;
}

/* Sync everything complete to the file (caller holds mu). */
static void sync_now(void) {
  if (!w.gz)
    return;
  push();
  errno = 0;
  if (!w.err && gzflush(w.gz, Z_SYNC_FLUSH) != Z_OK)
    failed();
  w.dirty = 0;
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
  w.err = 0;
  w.lines = w.total = 0; /* the statistics of a previous stream */
  return 0;
}

static void reserve(size_t n) { x_grow(&w.buf, &w.cap, w.len + n, 1); }

/* Give zlib every complete line before the first open hold. */
static void push(void) {
  uint64_t limit = w.nholds ? w.holds[0].line : w.line;
  size_t n = (size_t)(limit - w.base);
  if (!w.gz || n == 0)
    return;
  errno = 0;
  if (!w.err && gzwrite(w.gz, w.buf, (unsigned)n) != (int)n)
    failed(); /* from now on lines are dropped */
  memmove(w.buf, w.buf + n, w.len - n);
  w.len -= n;
  w.base += n;
}

static void drop_hold(size_t i) {
  memmove(w.holds + i, w.holds + i + 1, (w.nholds - i - 1) * sizeof *w.holds);
  w.nholds--;
}

/* Finish the stream: every complete line (holds keep their fallback values), the gzip
 * trailer; the statistics survive (caller holds mu). */
static int close_locked(void) {
  if (!w.gz)
    return w.err ? -1 : 0;
  w.nholds = 0;
  w.line = w.base + w.len;
  push();
  errno = 0;
  int rc = gzclose(w.gz);
  if (rc != Z_OK && !w.err)
    w.err = rc == Z_ERRNO && errno ? errno : EIO;
  w.gz = NULL;
  free(w.buf);
  free(w.holds);
  uint64_t lines = w.lines, total = w.base + w.len;
  int err = w.err;
  memset(&w, 0, sizeof w);
  w.lines = lines;
  w.total = total;
  w.err = err;
  return err ? -1 : 0;
}

int tt_out_close(void) {
  pthread_mutex_lock(&mu);
  int rc = close_locked();
  pthread_mutex_unlock(&mu);
  return rc;
}

int tt_out_emergency_close(double wait) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += (time_t)wait;
  ts.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  if (pthread_mutex_timedlock(&mu, &ts) != 0)
    return -1; /* the line being written never ended: the file keeps its last sync */
  close_locked();
  pthread_mutex_unlock(&mu);
  return 0;
}

int tt_out_sync(void) {
  pthread_mutex_lock(&mu);
  if (w.dirty)
    sync_now();
  int err = w.err;
  pthread_mutex_unlock(&mu);
  return err;
}

int tt_out_error(void) { return w.err; }

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
  if (w.interval <= 0)
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
