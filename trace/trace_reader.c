/* trace_reader.c - streams the actions of every rank out of a trace set (trace.h).
 *
 * A trace set is a list of files: one shared by all ranks, or one per rank. Each file is
 * read into a buffer that holds the decompressed bytes not yet consumed: a gzip file
 * (first bytes 1f 8b) through its own inflate stream, which decompresses straight into
 * that buffer from an input buffer of the same size (no gzFile: its two buffers and its
 * copy are saved), any other file with plain read(2). zlib still keeps ~7 KB of state and
 * a 32 KiB window per open gzip stream (per rank). The gzip CRC is checked by the reader
 * where the CPU has PCLMULQDQ (section "CRC-32"), else by zlib. A NUL always follows the
 * buffered data, then TRACE_PAD zero bytes (the parser's fast path loads 8 bytes at a
 * time). In per-rank mode a line is parsed where it lies: the parser's fast path
 * (trace_fast.h, inlined into trace_next) finds the line's end itself and leaves the
 * action's text in the buffer, which nothing touches until the rank's next call; other
 * lines are cut at their newline (memchr) and go to trace_parse_inplace. In shared mode
 * a line for the asking rank is copied by its parser (other ranks' calls refill the
 * buffer), queued lines are parsed in their queue entry. The buffer grows only to hold
 * the longest line (capped at MAX_LINE), so a per-rank replay uses O(ranks) memory
 * whatever the trace length. Streams are opened on first use and closed at their end: the
 * files are only checked by trace_open.
 *
 * In shared mode one stream feeds every rank: a rank asking for its next action reads
 * lines until one is its own and queues the others (raw text) for their ranks. Lines of
 * no running rank are dropped, as SimGrid never executes them. The queues grow with how
 * far ranks drift apart in the file; trace_next_any avoids them for whole-trace passes.
 *
 * Reading follows SimGrid's xbt_replay.cpp, quirk included: a last line without a newline
 * is dropped (getline hits end-of-file on it), so is it here (warning; strict: error). */
#include "trace_fast.h"
#include "inputs.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_LINE (64u << 20) /* longer lines are an error (a binary file, most likely) */
#define BUF_MAX (128u << 10) /* per-stream buffer when few files are open at once... */
#define BUF_MIN (1u << 10)   /* ...and its floor when many are (grown for a longer line) */
#define GZ_MIN (4u << 10)    /* floor of a gzip stream's buffers (output, and input read
                                at once): smaller ones slow decompression down */
#define BUF_BUDGET (2u << 20) /* buffer bytes shared by all streams of a set: with every
                                 per-rank stream open at once, the peak RSS grows with it
                                 (gzip input buffers are sized from it too); 4 MiB instead of
                                 64 cut 2,048 ranks from 85 to 53 MB at the same speed, and
                                 2 MiB with a 1 KiB floor for plain files 1,024 ranks from
                                 19 to 17 MB (plain reads are one read(2) per 1 KiB) */

/* Warning kinds of the reader (bits 8 and up of trace_set.warned; the parser has 0-7). */
#define W_NOT_MINE (1u << 8)  /* per-rank file: line of another rank skipped */
#define W_NOMATCH (1u << 9)   /* rank field no rank matches ("00", "+1") */
#define W_BEYOND_NP (1u << 10) /* shared file: lines of ranks >= np (strict mode only) */
#define W_CUT (1u << 11)      /* allow_truncated: a file ends in a truncated gzip stream or mid-line */

enum { S_NEW, S_OPEN, S_END, S_FAILED };

typedef struct tstream {
  char *path;      /* file as opened (resolved against the index's folder or the cwd) */
  int fd;          /* the open file while it may hold data (state S_OPEN), else -1 */
  z_stream *z;     /* gzip file: its inflate stream (while fd is open), else NULL */
  unsigned char *in; /* gzip file: compressed bytes read ahead (z->next_in, z->avail_in) */
  size_t in_cap;
  int eof;         /* gzip file: read(2) returned 0 */
  int member_end;  /* gzip file: a member ended, the next (if any) not started */
  int own_check;   /* gzip file: the reader checks this member's CRC and length itself */
  uint32_t crc, isize; /* ...and they are, so far */
  uint64_t nread;  /* bytes read so far from the file */
  char *buf;       /* decompressed bytes; [beg, end) not consumed yet */
  size_t cap, beg, end;
  size_t want;     /* buffer size to allocate on opening */
  long lineno;     /* number of the last line handed out */
  int state;       /* S_NEW (not opened yet), S_OPEN, S_END, S_FAILED */
  int cut;         /* TRACE_CUT_*: the file ends in a truncated gzip stream, or mid-line */
  uint64_t size;   /* file size (compressed bytes), from stat */
  trace_parser *parser; /* per-rank mode: its rank's parser (trace_next's usual case) */
} tstream;

typedef struct qline { /* a line read ahead for another rank (shared mode) */
  struct qline *next;
  long lineno;
  size_t len;
  char text[];
} qline;

typedef struct trank {
  trace_parser *parser; /* owns the rank's current action */
  qline *head, *tail;   /* shared mode: lines read ahead for this rank, in order */
  qline *held;          /* shared mode: line of the current action (freed on the next call) */
  int ended;            /* 1 once the rank's trace is over (end or read error) */
} trank;

struct trace_set {
  trace_opts opts;   /* copy of the caller's options */
  char *name;        /* the path the user gave */
  char *index;       /* the index file, or NULL when name is a trace file */
  int shared;        /* 1: one file for all ranks */
  int nfiles;        /* files in streams (1 in shared mode) */
  tstream *streams;
  int np;            /* ranks, 0 until trace_set_np */
  trank *ranks;      /* np of them */
  int cursor;        /* trace_next_any in per-rank mode: rank being read */
  unsigned warned;   /* kinds of warning already given */
};

/* ====================================================================================
 * Warnings
 * ==================================================================================== */

static void twarn(trace_set *t, unsigned kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void twarn(trace_set *t, unsigned kind, const char *fmt, ...) {
  if (!t->opts.warn || (t->warned & kind))
    return;
  t->warned |= kind;
  va_list ap;
  va_start(ap, fmt);
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  t->opts.warn(t->opts.warn_ctx, msg);
}

/* ====================================================================================
 * CRC-32 of gzip members, with PCLMULQDQ where the CPU has it
 * ==================================================================================== */

/* zlib 1.2.13's crc32() (braided tables) costs ~4 instructions per byte, as much as the
 * whole of inflate on typical traces. Where the CPU has carry-less multiplication, the
 * reader checks each gzip member itself: zlib's own check is turned off for the member
 * (inflateValidate), the CRC of its output is folded 64 bytes at a time (Intel's "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ", reflected constants of the gzip
 * polynomial, as in Linux's crc32-pclmul and Chromium's zlib), and the trailer's CRC and
 * length are compared when the member ends. Tails and short buffers go to zlib's crc32(). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && ZLIB_VERNUM >= 0x1290
#define HAVE_CRC_CLMUL 1
#include <emmintrin.h>
#include <wmmintrin.h>

/* ~CRC of b[0, n) (n >= 64, a multiple of 16) folded from ~crc. */
__attribute__((target("pclmul,sse2"))) static uint32_t crc_clmul(const unsigned char *b,
                                                                  size_t n, uint32_t crc) {
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
  const __m128i lo32 = _mm_setr_epi32(~0, 0, ~0, 0);
  const __m128i *v = (const __m128i *)b;
  __m128i x1 = _mm_loadu_si128(v), x2 = _mm_loadu_si128(v + 1);
  __m128i x3 = _mm_loadu_si128(v + 2), x4 = _mm_loadu_si128(v + 3);
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  for (b += 64, n -= 64; n >= 64; b += 64, n -= 64) { /* four lanes, 64 bytes a step */
    __m128i y1 = _mm_clmulepi64_si128(x1, k1k2, 0x00), y2 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
    __m128i y3 = _mm_clmulepi64_si128(x3, k1k2, 0x00), y4 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k1k2, 0x11), y1);
    x2 = _mm_xor_si128(_mm_clmulepi64_si128(x2, k1k2, 0x11), y2);
    x3 = _mm_xor_si128(_mm_clmulepi64_si128(x3, k1k2, 0x11), y3);
    x4 = _mm_xor_si128(_mm_clmulepi64_si128(x4, k1k2, 0x11), y4);
    x1 = _mm_xor_si128(x1, _mm_loadu_si128((const __m128i *)b));
    x2 = _mm_xor_si128(x2, _mm_loadu_si128((const __m128i *)(b + 16)));
    x3 = _mm_xor_si128(x3, _mm_loadu_si128((const __m128i *)(b + 32)));
    x4 = _mm_xor_si128(x4, _mm_loadu_si128((const __m128i *)(b + 48)));
  }
  __m128i lanes[3] = {x2, x3, x4};
  for (int i = 0; i < 3; i++) /* the four lanes into one */
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), lanes[i]),
                       _mm_clmulepi64_si128(x1, k3k4, 0x00));
  for (; n >= 16; b += 16, n -= 16) /* 16 bytes a step */
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11),
                                     _mm_loadu_si128((const __m128i *)b)),
                       _mm_clmulepi64_si128(x1, k3k4, 0x00));
  /* 128 -> 64 bits, then 64 -> 32 (Barrett reduction). */
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k3k4, 0x10));
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, lo32), k5, 0x00),
                     _mm_srli_si128(x1, 4));
  x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, lo32), poly, 0x10);
  x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, lo32), poly, 0x00);
  return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(_mm_xor_si128(x1, x2), 4));
}

static int crc_clmul_ok(void) {
  static int ok = -1;
  if (ok < 0)
    ok = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
  return ok;
}
#else
#define HAVE_CRC_CLMUL 0
static int crc_clmul_ok(void) { return 0; }
#endif

/* zlib's crc32(crc, b, n), faster. */
static uint32_t crc_update(uint32_t crc, const unsigned char *b, size_t n) {
#if HAVE_CRC_CLMUL
  if (n >= 64 && crc_clmul_ok()) {
    size_t k = n & ~(size_t)15;
    crc = ~crc_clmul(b, k, ~crc);
    b += k;
    n -= k;
  }
#endif
  return n ? (uint32_t)crc32(crc, b, (uInt)n) : crc;
}

/* ====================================================================================
 * Streams: lines out of a gzip or plain file
 * ==================================================================================== */

/* 1 while s has a file open that may still hold data (gzip or plain). */
static int stream_live(const tstream *s) { return s->fd >= 0; }

/* The NUL after the buffered data, and TRACE_PAD zero bytes after it (the parser's fast
 * path loads 8 bytes at a time; it never uses them, but they must be readable and, for
 * valgrind's sake, defined). */
static void terminate(tstream *s) { memset(s->buf + s->end, 0, 1 + TRACE_PAD); }

/* Closes the file and drops the inflate stream (the buffered lines stay). */
static void stream_release(tstream *s) {
  if (s->z) {
    inflateEnd(s->z);
    free(s->z);
    s->z = NULL;
  }
  free(s->in);
  s->in = NULL;
  if (s->fd >= 0)
    close(s->fd);
  s->fd = -1;
}

static void stream_close(tstream *s, int state) {
  stream_release(s);
  free(s->buf);
  s->buf = NULL;
  s->cap = s->beg = s->end = 0;
  s->state = state;
}

/* Error of the last read or inflate: truncated stream (Z_BUF_ERROR), corrupt data
 * (Z_DATA_ERROR, zlib's message) or read error (Z_ERRNO). Closes s. */
static int stream_error(tstream *s, int errnum, const char *msg, char *err, size_t errlen) {
  long line = s->lineno + 1;
  if (errnum == Z_BUF_ERROR) {
    x_err(err, errlen, "%s:%ld: truncated gzip stream (unexpected end of file): the traced run was cut short "
          "(killed, disk full?); --allow-truncated replays what every rank recorded", s->path, line);
    s->cut = TRACE_CUT_GZIP;
  }
  else if (errnum == Z_ERRNO)
    x_err(err, errlen, "%s:%ld: read error: %s", s->path, line, strerror(errno));
  else
    x_err(err, errlen, "%s:%ld: corrupt gzip data (zlib: %s)", s->path, line,
          msg ? msg : "compressed data error");
  stream_close(s, S_FAILED);
  return -1;
}

/* read(2) into [b, b + room), retrying on EINTR; counts the bytes in nread. */
static ssize_t file_read(tstream *s, void *b, size_t room) {
  ssize_t n;
  do
    n = read(s->fd, b, room > INT_MAX ? INT_MAX : room);
  while (n < 0 && errno == EINTR);
  if (n > 0)
    s->nread += (uint64_t)n;
  return n;
}

/* read(2) from a plain file into the free end of the buffer. */
static int plain_read(tstream *s, size_t room, char *err, size_t errlen) {
  ssize_t n = file_read(s, s->buf + s->end, room);
  if (n < 0)
    return stream_error(s, Z_ERRNO, NULL, err, errlen);
  s->end += (size_t)n;
  terminate(s);
  return (int)n;
}

/* More compressed input, after the avail_in bytes left. The input buffer holds GZ_KEEP
 * bytes, then up to in_cap bytes of input: the GZ_KEEP bytes before z->next_in are always
 * the last ones inflate consumed, so that a member's trailer can be read once it ended. */
#define GZ_KEEP 8
static int gz_input(tstream *s, char *err, size_t errlen) {
  z_stream *z = s->z;
  memmove(s->in, z->next_in - GZ_KEEP, GZ_KEEP + z->avail_in);
  ssize_t n = file_read(s, s->in + GZ_KEEP + z->avail_in, s->in_cap - z->avail_in);
  if (n < 0)
    return stream_error(s, Z_ERRNO, NULL, err, errlen);
  s->eof = n == 0;
  z->next_in = s->in + GZ_KEEP;
  z->avail_in += (uInt)n;
  return 0;
}

/* A member starts: its CRC is checked by the reader (crc_update) when the CPU makes that
 * faster, else by zlib, which also does it when the header has its own CRC (FHCRC, flag
 * bit 1: the reader does not check that one) or is not in view. */
static void gz_member(tstream *s) {
  z_stream *z = s->z;
  s->own_check = crc_clmul_ok() && z->avail_in >= 4 && !(z->next_in[3] & 2);
#if HAVE_CRC_CLMUL
  inflateValidate(z, !s->own_check);
#endif
  s->crc = 0;
  s->isize = 0;
}

/* The member ended: its trailer (CRC-32, then length mod 2^32, little-endian) against what
 * was inflated. Returns zlib's message for a mismatch, else NULL. */
static const char *gz_trailer(const tstream *s) {
  const unsigned char *t = s->z->next_in - GZ_KEEP;
  uint32_t crc = t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
  uint32_t len = t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 | (uint32_t)t[7] << 24;
  if (crc != s->crc)
    return "incorrect data check";
  return len != s->isize ? "incorrect length check" : NULL;
}

/* Inflates into the free end of the buffer (room bytes): at least one byte unless the data
 * is over. As gzread: gzip members may follow each other, and bytes after the last member
 * that do not start another one are ignored. Returns the bytes produced (0: end of the
 * data) or -1. */
static int gz_fill(tstream *s, size_t room, char *err, size_t errlen) {
  z_stream *z = s->z;
  uInt avail = (uInt)(room > UINT_MAX ? UINT_MAX : room);
  z->next_out = (Bytef *)s->buf + s->end;
  z->avail_out = avail;
  while (z->avail_out == avail) {
    if (!s->eof && (z->avail_in == 0 || (s->member_end && z->avail_in < 2)) &&
        gz_input(s, err, errlen) < 0)
      return -1;
    if (s->member_end) { /* another member, or the end */
      if (z->avail_in < 2 || z->next_in[0] != 0x1f || z->next_in[1] != 0x8b)
        break;
      inflateReset(z);
      s->member_end = 0;
      gz_member(s);
    }
    if (z->avail_in == 0 && s->eof)
      return stream_error(s, Z_BUF_ERROR, NULL, err, errlen);
    const unsigned char *out = z->next_out;
    int rc = inflate(z, Z_NO_FLUSH);
    if (s->own_check) {
      s->crc = crc_update(s->crc, out, (size_t)(z->next_out - out));
      s->isize += (uint32_t)(z->next_out - out);
    }
    const char *bad = rc == Z_STREAM_END && s->own_check ? gz_trailer(s) : NULL;
    if (bad)
      return stream_error(s, Z_DATA_ERROR, bad, err, errlen);
    if (rc == Z_STREAM_END)
      s->member_end = 1;
    else if (rc == Z_MEM_ERROR) /* (the window is allocated on the first output) */
      x_oom();
    else if (rc != Z_OK && rc != Z_BUF_ERROR)
      return stream_error(s, Z_DATA_ERROR, z->msg, err, errlen);
  }
  size_t n = avail - z->avail_out;
  s->end += n;
  terminate(s);
  return (int)n;
}

/* The file is gzip-compressed: the bytes read so far (the buffer's) become the start of
 * its compressed input, and an inflate stream (gzip wrapper: header, CRC and length
 * checked) decompresses into the buffer from now on. */
static int gz_attach(tstream *s) {
  if (s->cap < GZ_MIN) {
    s->cap = GZ_MIN;
    s->buf = x_realloc(s->buf, s->cap + 1 + TRACE_PAD);
  }
  s->in_cap = s->cap;
  s->in = x_malloc(GZ_KEEP + s->in_cap);
  memset(s->in, 0, GZ_KEEP);
  memcpy(s->in + GZ_KEEP, s->buf, s->end);
  s->z = x_calloc(1, sizeof *s->z);
  s->z->next_in = s->in + GZ_KEEP;
  s->z->avail_in = (uInt)s->end;
  s->end = 0;
  terminate(s);
  if (inflateInit2(s->z, 15 + 16) != Z_OK) /* Z_MEM_ERROR: the only failure here */
    x_oom();
  gz_member(s);
  return 0;
}

/* Opens s (a regular file: inputs_open): reads its first bytes, then goes on with plain
 * reads, or through zlib when they are the gzip magic bytes 1f 8b (the content tells, not
 * the name). A UTF-8 byte-order mark there is an error that names it. */
static int stream_open(tstream *s, char *err, size_t errlen) {
  const char *why;
  s->fd = inputs_open(s->path, NULL, &why);
  if (s->fd < 0) {
    s->state = S_FAILED;
    if (errno == EMFILE || errno == ENFILE)
      return x_err(err, errlen, "%s: cannot open: %s (raise the limit: ulimit -n)", s->path, why);
    return x_err(err, errlen, "%s: cannot open: %s", s->path, why);
  }
  s->cap = s->want;
  s->buf = x_malloc(s->cap + 1 + TRACE_PAD);
  s->beg = s->end = 0;
  s->state = S_OPEN;
  terminate(s);
  int n = 1;
  while (s->end < 3 && (n = plain_read(s, s->cap - s->end, err, errlen)) > 0)
    ;
  if (n < 0)
    return -1;
  if (s->end >= 3 && !memcmp(s->buf, "\xEF\xBB\xBF", 3)) { /* invisible in a message: named */
    x_err(err, errlen, "%s:1: the file starts with a UTF-8 byte-order mark (bytes EF BB BF), which "
          "SimGrid does not skip either: save the file without it", s->path);
    stream_close(s, S_FAILED);
    return -1;
  }
  if (s->end >= 2 && (unsigned char)s->buf[0] == 0x1f && (unsigned char)s->buf[1] == 0x8b)
    return gz_attach(s);
  return 0;
}

/* Moves the unconsumed bytes to the front (growing the buffer when a line fills it),
 * then reads more. Returns the bytes read (0 at the end of the file) or -1. */
static int stream_fill(tstream *s, char *err, size_t errlen) {
  if (s->beg > 0) {
    memmove(s->buf, s->buf + s->beg, s->end - s->beg);
    s->end -= s->beg;
    s->beg = 0;
  }
  if (s->end == s->cap) {
    if (s->cap >= MAX_LINE) {
      x_err(err, errlen, "%s:%ld: line longer than %u MiB: not a trace file?", s->path,
            s->lineno + 1, MAX_LINE >> 20);
      stream_close(s, S_FAILED);
      return -1;
    }
    s->cap *= 2;
    s->buf = x_realloc(s->buf, s->cap + 1 + TRACE_PAD);
  }
  size_t room = s->cap - s->end;
  return s->z ? gz_fill(s, room, err, errlen) : plain_read(s, room, err, errlen);
}

/* Hands out the next line (without its newline) of s in [*line, *line + *len), valid
 * until the next call. *last = 1 for a final line without newline. Returns 1 (a line),
 * 0 (end of file: the stream is closed) or -1 (error: the stream is closed). */
static int stream_getline(tstream *s, char **line, size_t *len, int *last, char *err,
                          size_t errlen) {
  if (s->state == S_NEW && stream_open(s, err, errlen) < 0)
    return -1;
  if (s->state != S_OPEN)
    return 0;
  for (;;) {
    char *b = s->buf + s->beg, *nl = memchr(b, '\n', s->end - s->beg);
    if (nl || (!stream_live(s) && s->end > s->beg)) {
      *line = b;
      *len = nl ? (size_t)(nl - b) : s->end - s->beg;
      *last = !nl;
      s->beg = nl ? (size_t)(nl + 1 - s->buf) : s->end;
      s->lineno++;
      return 1;
    }
    if (!stream_live(s)) {
      stream_close(s, S_END);
      return 0;
    }
    int n = stream_fill(s, err, errlen);
    if (n < 0)
      return -1;
    if (n == 0) /* end of data: hand out what is left, if anything, then close */
      stream_release(s);
  }
}

/* Compressed bytes consumed so far. */
static uint64_t stream_consumed(const tstream *s) {
  if (s->state == S_END || s->state == S_FAILED || (s->state == S_OPEN && s->fd < 0))
    return s->size;
  if (s->state != S_OPEN)
    return 0;
  return s->nread - (s->z ? s->z->avail_in : 0);
}

/* ====================================================================================
 * Opening: trace file, index file, or directory holding an index
 * ==================================================================================== */

/* Size of a readable regular file (inputs.h: FIFOs and devices are refused), or -1 with
 * the reason in *why. */
static int64_t file_size(const char *path, const char **why) {
  struct stat st;
  int fd = inputs_open(path, &st, why);
  if (fd < 0)
    return -1;
  close(fd);
  return (int64_t)st.st_size;
}

static void stream_init(tstream *s, char *path, uint64_t size) {
  *s = (tstream){.path = path, .size = size, .want = BUF_MAX, .state = S_NEW, .fd = -1};
}

/* 1 when the first meaningful line of path reads "<number> <word>": a trace, not an
 * index. 0 otherwise, -1 on a read error. */
static int looks_like_trace(const char *path, char *err, size_t errlen) {
  tstream s;
  stream_init(&s, (char *)path, 0);
  s.want = 4096;
  char *line;
  size_t len;
  int last, rc, r = TRACE_LINE_BLANK;
  while ((rc = stream_getline(&s, &line, &len, &last, err, errlen)) == 1)
    if ((r = trace_line_rank(line, len)) != TRACE_LINE_BLANK)
      break;
  if (rc < 0)
    return -1;
  int yes = 0;
  if (rc == 1 && (r >= 0 || r == TRACE_LINE_NOMATCH)) {
    while (len && (*line == ' ' || *line == '\t' || *line == '\v' || *line == '\f' ||
                   *line == '\r'))
      line++, len--;
    size_t i = 0;
    while (i < len && line[i] != ' ' && line[i] != '\t')
      i++;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
      i++;
    yes = i < len && (line[i] == '_' || ((line[i] | 32) >= 'a' && (line[i] | 32) <= 'z'));
  }
  stream_close(&s, S_END);
  return yes;
}

/* Directory part of path ("." when none), newly allocated. */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return x_strdup(".");
  if (slash == path)
    return x_strdup("/");
  char *d = x_strdup(path);
  d[slash - path] = '\0';
  return d;
}

/* Message for an index entry that cannot be read: index lines are taken verbatim. */
static int entry_error(const char *index, long lineno, const char *entry, const char *tried,
                       char *err, size_t errlen) {
  size_t n = strlen(entry);
  const char *hint = n && strchr(" \t\r\v\f", entry[n - 1])
                         ? " (the name ends with a space or a carriage return: index lines"
                           " are file names taken verbatim, as SimGrid does)"
                         : "";
  return x_err(err, errlen, "%s:%ld: cannot read trace file '%s': %s%s", index, lineno, entry,
               tried, hint);
}

/* Resolves an index entry: relative to the index's folder, or failing that to the cwd. */
static char *resolve(const char *index, long lineno, const char *entry, int64_t *size,
                     char *err, size_t errlen) {
  char *dir = entry[0] == '/' ? x_strdup(".") : dir_of(index);
  char *p = strcmp(dir, ".") ? x_asprintf("%s/%s", dir, entry) : x_strdup(entry);
  char *tried = NULL;
  const char *why1, *why2;
  if ((*size = file_size(p, &why1)) >= 0)
    goto done;
  if (strcmp(p, entry) != 0) {
    free(p);
    p = x_strdup(entry);
    if ((*size = file_size(p, &why2)) >= 0)
      goto done;
    tried = x_asprintf("not in '%s' (%s) nor in the current directory (%s)", dir, why1, why2);
  }
  entry_error(index, lineno, entry, tried ? tried : why1, err, errlen);
  free(p);
  p = NULL;
done:
  free(tried);
  free(dir);
  return p;
}

static void add_file(trace_set *t, size_t *cap, char *path, int64_t size) {
  x_grow(&t->streams, cap, (size_t)t->nfiles + 1, sizeof *t->streams);
  stream_init(&t->streams[t->nfiles++], path, (uint64_t)size);
}

/* Reads the index: one path per line, exactly-empty lines skipped, others verbatim (a
 * last line without newline counts here: SimGrid reads the index with a plain getline). */
static int read_index(trace_set *t, char *err, size_t errlen) {
  tstream s;
  stream_init(&s, t->index, 0);
  char *line;
  size_t len, cap = 0;
  int last, rc;
  while ((rc = stream_getline(&s, &line, &len, &last, err, errlen)) == 1) {
    if (len == 0)
      continue;
    if (memchr(line, '\0', len)) {
      stream_close(&s, S_END);
      return x_err(err, errlen, "%s:%ld: NUL byte in the index: not an index file", t->index,
                   s.lineno);
    }
    if (t->nfiles == TRACE_MAX_FILES) {
      stream_close(&s, S_END);
      return x_err(err, errlen, "%s:%ld: more than %d trace files (one per rank: tir's limit of ranks)",
                   t->index, s.lineno, TRACE_MAX_FILES);
    }
    char *entry = x_malloc(len + 1), *path;
    memcpy(entry, line, len);
    entry[len] = '\0';
    int64_t size = 0;
    path = resolve(t->index, s.lineno, entry, &size, err, errlen);
    free(entry);
    if (!path) {
      stream_close(&s, S_END);
      return -1;
    }
    add_file(t, &cap, path, size);
  }
  if (rc < 0)
    return -1;
  if (t->nfiles == 0)
    return x_err(err, errlen, "%s: empty index: expected trace file names, one per line"
                 " (one line: a trace shared by all ranks)", t->index);
  t->shared = (t->nfiles == 1);
  return 0;
}

/* Sorts out what path names: a directory holding "index", an index, or a trace file. */
static int open_path(trace_set *t, char *err, size_t errlen) {
  struct stat st;
  const char *why;
  if (stat(t->name, &st) < 0)
    return x_err(err, errlen, "%s: cannot open: %s", t->name, strerror(errno));
  if (S_ISDIR(st.st_mode)) {
    t->index = x_asprintf("%s/index", t->name);
    if (file_size(t->index, &why) < 0)
      return x_err(err, errlen, "%s: a directory without a readable 'index' file (%s)",
                   t->name, why);
    return read_index(t, err, errlen);
  }
  int64_t size = file_size(t->name, &why);
  if (size < 0)
    return x_err(err, errlen, "%s: cannot open: %s", t->name, why);
  int trace = looks_like_trace(t->name, err, errlen);
  if (trace < 0)
    return -1;
  if (!trace) {
    t->index = x_strdup(t->name);
    return read_index(t, err, errlen);
  }
  size_t cap = 0;
  add_file(t, &cap, x_strdup(t->name), size);
  t->shared = 1;
  return 0;
}

trace_set *trace_open(const char *path, const trace_opts *opts, char *err, size_t errlen) {
  trace_set *t = x_calloc(1, sizeof *t);
  if (opts)
    t->opts = *opts;
  t->name = x_strdup(path);
  if (open_path(t, err, errlen) < 0) {
    trace_close(t);
    return NULL;
  }
  return t;
}

void trace_close(trace_set *t) {
  if (!t)
    return;
  for (int i = 0; i < t->nfiles; i++) {
    stream_close(&t->streams[i], S_END);
    free(t->streams[i].path);
  }
  for (int r = 0; r < t->np; r++) {
    trace_parser_free(t->ranks[r].parser);
    free(t->ranks[r].held);
    for (qline *q = t->ranks[r].head, *n; q; q = n) {
      n = q->next;
      free(q);
    }
  }
  free(t->ranks);
  free(t->streams);
  free(t->index);
  free(t->name);
  free(t);
}

int trace_nfiles(const trace_set *t) { return t->shared ? 0 : t->nfiles; }
int trace_is_shared(const trace_set *t) { return t->shared; }

/* Per-rank mode opens np streams at once: raise the soft limit on open files if needed. */
static void raise_fd_limit(int np) {
  struct rlimit rl;
  rlim_t need = (rlim_t)np + 64;
  if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
    return;
  rl.rlim_cur = (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need) ? need : rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
}

int trace_set_np(trace_set *t, int np, char *err, size_t errlen) {
  if (t->np)
    return x_err(err, errlen, "%s: the number of ranks is already set", t->name);
  if (np < 1)
    return x_err(err, errlen, "%s: need at least one rank, got np = %d", t->name, np);
  if (!t->shared && t->nfiles < np)
    return x_err(err, errlen, "%s: lists %d trace files, fewer than np = %d (one file per"
                 " rank; a one-line index names one trace shared by all ranks)", t->index,
                 t->nfiles, np);
  t->np = np;
  t->ranks = x_calloc((size_t)np, sizeof *t->ranks);
  for (int r = 0; r < np; r++) {
    t->ranks[r].parser = trace_parser_new(np, &t->opts, &t->warned);
    if (!t->shared)
      t->streams[r].parser = t->ranks[r].parser;
  }
  size_t want = t->shared ? BUF_MAX : BUF_BUDGET / (size_t)np;
  want = want > BUF_MAX ? BUF_MAX : want < BUF_MIN ? BUF_MIN : want;
  for (int i = 0; i < t->nfiles; i++)
    t->streams[i].want = want;
  if (!t->shared)
    raise_fd_limit(np);
  return 0;
}

uint64_t trace_bytes_read(const trace_set *t) {
  uint64_t n = 0;
  int files = t->shared || !t->np ? t->nfiles : t->np;
  for (int i = 0; i < files; i++)
    n += stream_consumed(&t->streams[i]);
  return n;
}

uint64_t trace_bytes_total(const trace_set *t) {
  uint64_t n = 0;
  int files = t->shared || !t->np ? t->nfiles : t->np;
  for (int i = 0; i < files; i++)
    n += t->streams[i].size;
  return n;
}

/* ====================================================================================
 * Reading actions
 * ==================================================================================== */

/* The line as messages show it: trimmed, control bytes escaped, cut to about 200 bytes. */
static const char *shown(const char *line, size_t len, char *out, size_t n) {
  while (len && strchr(" \t\r\n\v\f", line[0]) && line[0])
    line++, len--;
  while (len && strchr(" \t\r\n\v\f", line[len - 1]) && line[len - 1])
    len--;
  size_t w = 0;
  for (size_t i = 0; i < len && w + 8 < n && i < 200; i++) {
    unsigned char c = (unsigned char)line[i];
    if (c >= 32 && c != 127)
      out[w++] = (char)c;
    else
      w += (size_t)snprintf(out + w, n - w, "\\x%02x", c);
  }
  out[w] = '\0';
  return out;
}

/* A last line without newline: SimGrid drops it. Returns 0 (dropped) or -1 (strict, or
 * a trace whose run did not complete without allow_truncated: the line was cut). */
static int unterminated(trace_set *t, tstream *s, const char *line, size_t len, char *err,
                        size_t errlen) {
  if (trace_line_rank(line, len) == TRACE_LINE_BLANK)
    return 0;
  char q[1024];
  const char *l = shown(line, len, q, sizeof q);
  s->cut = TRACE_CUT_LINE;
  if (t->opts.incomplete && !t->opts.allow_truncated)
    return x_err(err, errlen, "%s:%ld: the file ends mid-line and trace.meta says the traced run did not complete:"
                 " --allow-truncated replays what every rank recorded: '%s'", s->path, s->lineno, l);
  if (t->opts.allow_truncated) {
    twarn(t, W_CUT, "%s:%ld: the file ends mid-line: the cut line is dropped (--allow-truncated): '%s'", s->path,
          s->lineno, l);
    return 0;
  }
  if (t->opts.strict)
    return x_err(err, errlen, "%s:%ld: the last line has no newline, and SimGrid 3.32 ignores"
                 " such a line (an error in strict mode): '%s'", s->path, s->lineno, l);
  if (t->opts.warn) {
    char *msg = x_asprintf("%s:%ld: last line without newline ignored, as SimGrid 3.32 does:"
                           " '%s'", s->path, s->lineno, l);
    t->opts.warn(t->opts.warn_ctx, msg);
    free(msg);
  }
  return 0;
}

static int bad_rank(tstream *s, const char *line, size_t len, char *err, size_t errlen) {
  char q[1024];
  return x_err(err, errlen, "%s:%ld: the first field must be a rank number: '%s'", s->path,
               s->lineno, shown(line, len, q, sizeof q));
}

/* Per-rank mode: the line's rank field r (a number) is not the file's rank. */
static int not_mine(trace_set *t, tstream *s, int rank, int r, const char *line, size_t len,
                    char *err, size_t errlen) {
  char q[1024];
  const char *l = shown(line, len, q, sizeof q);
  const char *why = r == TRACE_LINE_NOMATCH ? "a rank field SimGrid matches with no rank"
                                            : "a line of another rank";
  if (t->opts.strict)
    return x_err(err, errlen, "%s:%ld: %s in the trace of rank %d (SimGrid skips it; an error"
                 " in strict mode): '%s'", s->path, s->lineno, why, rank, l);
  twarn(t, W_NOT_MINE, "%s:%ld: %s in the trace of rank %d skipped, as SimGrid does: '%s'"
        " (further warnings of this kind are not shown)", s->path, s->lineno, why, rank, l);
  return 0;
}

/* Parses a line of rank. In place (trace_parse_inplace) when the line stays as it is until
 * the rank's next call: a line of a rank's own file, a queued line, a line of the shared
 * buffer in trace_next_any; a copy (trace_parse_line) when another rank's call may refill
 * the buffer meanwhile (shared mode, trace_next). */
static int parse_for(trace_set *t, int rank, tstream *s, long lineno, char *line, size_t len,
                     int inplace, trace_action *a, char *err, size_t errlen) {
  trace_parser *p = t->ranks[rank].parser;
  if (inplace)
    return trace_parse_inplace(p, -1, s->path, lineno, line, len, a, err, errlen);
  return trace_parse_line(p, s->path, lineno, line, len, a, err, errlen);
}

/* The next whole line in s's buffer, without a call, when there is one (the usual case):
 * as stream_getline, else 0 (then stream_getline reads more, opens or closes the file). */
static int buffered_line(tstream *s, char **line, size_t *len) {
  if (s->end == s->beg) /* (also when the stream has no buffer: buf NULL, NULL + 0 undefined) */
    return 0;
  char *b = s->buf + s->beg, *nl = memchr(b, '\n', s->end - s->beg);
  if (!nl)
    return 0;
  *line = b;
  *len = (size_t)(nl - b);
  s->beg += *len + 1;
  s->lineno++;
  return 1;
}

/* Per-rank mode: the next action of rank from its own file. Lines are parsed where they
 * lie in the buffer, which nothing else touches until the rank's next call. */
static int next_own(trace_set *t, int rank, trace_action *a, char *err, size_t errlen) {
  tstream *s = &t->streams[rank];
  char *line;
  size_t len;
  int last = 0, rc;
  trace_parser *p = t->ranks[rank].parser;
  for (;;) {
    char *nl;
    if (s->end > s->beg && (nl = trace_parse_fast(p, rank, s->path, s->lineno + 1,
                                                  s->buf + s->beg, a))) {
      s->beg = (size_t)(nl + 1 - s->buf); /* the usual case, all at once */
      s->lineno++;
      return 1;
    }
    if (!buffered_line(s, &line, &len) &&
        (rc = stream_getline(s, &line, &len, &last, err, errlen)) != 1)
      break;
    if (last) {
      if (unterminated(t, s, line, len, err, errlen) < 0)
        return -1;
      continue;
    }
    int got = trace_parse_inplace(p, rank, s->path, s->lineno, line, len, a, err, errlen);
    if (got != TRACE_PARSE_OTHER && got != 0)
      return got;
    int r = got ? trace_line_rank(line, len) : TRACE_LINE_BLANK;
    if (r == TRACE_LINE_BADRANK)
      return bad_rank(s, line, len, err, errlen);
    if (r != TRACE_LINE_BLANK && not_mine(t, s, rank, r, line, len, err, errlen) < 0)
      return -1;
  }
  if (rc <= 0)
    t->ranks[rank].ended = 1;
  return rc;
}

static void enqueue(trank *k, long lineno, const char *line, size_t len) {
  qline *q = x_malloc(sizeof *q + len + 1 + TRACE_PAD); /* parsed in place: parse_for */
  q->next = NULL;
  q->lineno = lineno;
  q->len = len;
  memcpy(q->text, line, len);
  memset(q->text + len, 0, 1 + TRACE_PAD);
  if (k->tail)
    k->tail->next = q;
  else
    k->head = q;
  k->tail = q;
}

/* Shared mode: a line whose rank field r is no running rank. */
static int no_rank(trace_set *t, tstream *s, int r, const char *line, size_t len, char *err,
                   size_t errlen) {
  char q[1024];
  const char *l = shown(line, len, q, sizeof q);
  if (r == TRACE_LINE_NOMATCH && t->opts.strict)
    return x_err(err, errlen, "%s:%ld: rank field matches no rank (SimGrid compares it as a"
                 " string with the decimal rank; an error in strict mode): '%s'", s->path,
                 s->lineno, l);
  if (r == TRACE_LINE_NOMATCH)
    twarn(t, W_NOMATCH, "%s:%ld: rank field matches no rank, line ignored as SimGrid does:"
          " '%s' (further warnings of this kind are not shown)", s->path, s->lineno, l);
  else if (t->opts.strict)
    twarn(t, W_BEYOND_NP, "%s:%ld: line of rank %d ignored (np = %d): '%s' (further"
          " warnings of this kind are not shown)", s->path, s->lineno, r, t->np, l);
  return 0;
}

/* Shared mode: reads lines until one for a rank in [0, np) that want accepts (want < 0:
 * any rank), queueing the others when want >= 0. Returns 1 with the line, 0 or -1. */
static int shared_line(trace_set *t, int want, int *rank, char **line, size_t *len,
                       char *err, size_t errlen) {
  tstream *s = &t->streams[0];
  int last, rc;
  while ((rc = stream_getline(s, line, len, &last, err, errlen)) == 1) {
    if (last) {
      if (unterminated(t, s, *line, *len, err, errlen) < 0)
        return -1;
      continue;
    }
    int r = trace_line_rank(*line, *len);
    if (r == TRACE_LINE_BLANK)
      continue;
    if (r == TRACE_LINE_BADRANK)
      return bad_rank(s, *line, *len, err, errlen);
    if (r >= 0 && r < t->np && (want < 0 || r == want)) {
      *rank = r;
      return 1;
    }
    if (r >= 0 && r < t->np)
      enqueue(&t->ranks[r], s->lineno, *line, *len);
    else if (no_rank(t, s, r, *line, *len, err, errlen) < 0)
      return -1;
  }
  return rc;
}

/* Shared mode: the next action of rank, from its queue or from the file. */
static int next_shared(trace_set *t, int rank, trace_action *a, char *err, size_t errlen) {
  trank *k = &t->ranks[rank];
  free(k->held);
  k->held = NULL;
  if (k->head) {
    k->held = k->head;
    if (!(k->head = k->head->next))
      k->tail = NULL;
    return parse_for(t, rank, &t->streams[0], k->held->lineno, k->held->text, k->held->len, 1,
                     a, err, errlen);
  }
  char *line;
  size_t len;
  int r, rc = shared_line(t, rank, &r, &line, &len, err, errlen);
  if (rc == 1)
    return parse_for(t, rank, &t->streams[0], t->streams[0].lineno, line, len, 0, a, err,
                     errlen);
  if (rc == 0 || t->streams[0].state == S_FAILED)
    k->ended = 1;
  return rc;
}

static int check_rank(const trace_set *t, int rank, char *err, size_t errlen) {
  if (!t->np)
    return x_err(err, errlen, "%s: trace_set_np was not called", t->name);
  if (rank < 0 || rank >= t->np)
    return x_err(err, errlen, "%s: no rank %d (np = %d)", t->name, rank, t->np);
  return 0;
}

/* trace_next but for a fast line of a rank's own file (trace_next tried it). */
static __attribute__((noinline)) int next_slow(trace_set *t, int rank, trace_action *a,
                                               char *err, size_t errlen) {
  if (check_rank(t, rank, err, errlen) < 0)
    return -1;
  if (t->ranks[rank].ended)
    return 0;
  int rc = t->shared ? next_shared(t, rank, a, err, errlen) : next_own(t, rank, a, err, errlen);
  tstream *s = &t->streams[t->shared ? 0 : rank];
  if (rc < 0 && s->cut == TRACE_CUT_GZIP && t->opts.allow_truncated && s->state == S_FAILED) {
    twarn(t, W_CUT, "%s (the trace ends there, --allow-truncated; further files cut short are not named)", err);
    rc = 0; /* the rank's trace ends where the stream does */
  }
  if (rc <= 0 && !t->shared && s->state == S_FAILED)
    t->ranks[rank].ended = 1;
  return rc;
}

int trace_rank_cut(const trace_set *t, int rank) {
  if ((unsigned)rank >= (unsigned)t->np)
    return 0;
  return t->streams[t->shared ? 0 : rank].cut;
}

/* The usual case first, without a call but the parser's: per-rank mode, a line in the
 * fast form whole in the rank's buffer (a rank whose trace ended has an empty buffer). */
int trace_next(trace_set *t, int rank, trace_action *a, char *err, size_t errlen) {
  if ((unsigned)rank < (unsigned)t->np && !t->shared) {
    tstream *s = &t->streams[rank];
    char *nl;
    if (s->end > s->beg &&
        (nl = (char *)fast_line(s->parser, rank, s->buf + s->beg, a))) {
      *nl = '\0'; /* (as trace_parse_fast) */
      a->file = s->path;
      a->line = ++s->lineno;
      s->beg = (size_t)(nl + 1 - s->buf);
      return 1;
    }
  }
  return next_slow(t, rank, a, err, errlen);
}

int trace_next_any(trace_set *t, trace_action *a, char *err, size_t errlen) {
  if (check_rank(t, 0, err, errlen) < 0)
    return -1;
  if (!t->shared) {
    for (; t->cursor < t->np; t->cursor++) {
      int rc = trace_next(t, t->cursor, a, err, errlen);
      if (rc != 0)
        return rc;
    }
    return 0;
  }
  char *line;
  size_t len;
  int r, rc = shared_line(t, -1, &r, &line, &len, err, errlen);
  if (rc == 1)
    return parse_for(t, r, &t->streams[0], t->streams[0].lineno, line, len, 1, a, err, errlen);
  return rc;
}
