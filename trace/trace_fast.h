/* trace_fast.h - the trace module's fast path (internal to trace_parse.c and
 * trace_reader.c): the parser's state, and the reader of the common line shapes, inlined
 * into the reader's trace_next so that a usual line costs a single call.
 *
 * A line "RANK KEYWORD ARGS..." ended by a newline right after its last token, whose
 * tokens are cut by single spaces, whose keyword is one of fast_line's (no "i" prefix,
 * no "comm ID" prefix) and whose fields are all in their plainest form (canonical rank;
 * integers as [-]digits; counts as digits or a decimal within Clinger's fast path, whole
 * and in range; datatypes "-1" and 0-59), with no extra argument, is read here where it
 * lies: no copy, no token array, and its text is the line itself once the newline is
 * replaced by a NUL. Everything else (leading or trailing spaces, CR, tabs, runs of spaces,
 * a NUL byte, signs and forms the fast readers do not take, anything that gives a warning
 * or an error, vector and tir actions) makes the fast path give up before any effect but
 * on *a, and the general path parses the line from scratch: so it alone writes every
 * message, and the fast path only accepts lines on which it gives the same action (the
 * unit tests compare the two, trace_parser_fast).
 *
 * Bytes are read 8 at a time where that saves work: the rank field is compared with the
 * wanted rank's text in one masked compare, keywords likewise, and a run of digits is
 * found and converted with a few word operations (swar_digits). Such a load may reach up
 * to 7 bytes past the line's newline or the NUL after a buffer's data (hence TRACE_PAD),
 * but what lies there never changes a result: no byte past the first newline, NUL or
 * other byte that ends a token is used.
 *
 * Exactness: counts and doubles follow the general path's readers (trace_parse.c, "The three
 * number parsers"): plain digits, or Clinger's fast path, whose result is strtod's. */
#ifndef TIR_TRACE_FAST_H
#define TIR_TRACE_FAST_H

#include "trace.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The fast readers are inlined into their caller, where the cursor then lives in registers. */
#define INLINE inline __attribute__((always_inline))

/* A parser (trace.h): the general path's buffers and state, and the fast path's key. */
struct trace_parser {
  int np;                   /* length of the count vectors of the line being parsed */
  int np_world;             /* ranks (np of the world communicator) */
  trace_opts opts;          /* strictness and warning callback */
  unsigned *warned;         /* kinds of warning already given (shared or own_warned) */
  unsigned own_warned;      /* used when the creator passed no shared bit set */
  char *tok;                /* the tokens, each NUL-terminated */
  char *text;               /* the tokens joined by one space */
  size_t cap;               /* size of tok and of text */
  const char **argv;        /* token pointers into tok */
  size_t argc, argcap;      /* tokens in argv, and room */
  int64_t *vec, *vec2;      /* count vectors (np each, allocated on first use) */
  int *csize;               /* tir extension: size of each communicator id seen */
  size_t ncsize;
  const char *file;         /* file and line being parsed, for messages */
  long lineno;
  const char *kw;           /* keyword being parsed, for messages */
  int fast;                 /* 1: lines go to the fast path first (trace_parser_fast) */
  int key_rank, key_len;    /* fast path (on): the rank whose text "RANK " is in key
                               (key_len bytes), else INT_MIN (ranks read as numbers) */
  uint64_t key, key_mask;
};

/* The C type SimGrid's parse_integer<T> stores a scalar count in: fixes its range. */
typedef enum { R_NONE, R_SSIZE, R_INT, R_UNSIGNED, R_SIZE } count_range;

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Decimal digits of s into *m (leading zeros dropped); *nd significant digits, *scale
 * decremented per fraction digit. Returns the end, or NULL when too long for the fast path. */
static inline const char *fast_digits(const char *s, uint64_t *m, int *nd, int *scale,
                                      int frac, int *any) {
  for (; *s >= '0' && *s <= '9'; s++) {
    *any = 1;
    if (frac)
      (*scale)--;
    if (*m == 0 && *s == '0')
      continue;
    if (++*nd > 15)
      return NULL;
    *m = *m * 10 + (uint64_t)(*s - '0');
  }
  return s;
}

/* Clinger's fast path for the token [s, end) = [+-]digits[.digits][(e|E)[+-]digits]
 * (*end is not a digit); 0 when not applicable. */
static inline int fast_double(const char *s, const char *end, double *out) {
  int neg = (*s == '-'), nd = 0, scale = 0, any = 0, e = 0, eneg = 0;
  uint64_t m = 0;
  s += (*s == '-' || *s == '+');
  if (!(s = fast_digits(s, &m, &nd, &scale, 0, &any)))
    return 0;
  if (*s == '.' && !(s = fast_digits(s + 1, &m, &nd, &scale, 1, &any)))
    return 0;
  if (!any)
    return 0;
  if (*s == 'e' || *s == 'E') {
    s++;
    eneg = (*s == '-');
    s += (*s == '-' || *s == '+');
    if (*s < '0' || *s > '9')
      return 0;
    for (; *s >= '0' && *s <= '9' && e < 10000; s++)
      e = e * 10 + (*s - '0');
  }
  if (s != end)
    return 0;
  e = (eneg ? -e : e) + scale;
  double d = (double)m;
  if (m != 0 && (e > 22 || e < -22))
    return 0;
  if (m != 0)
    d = e >= 0 ? d * pow10_exact[e] : d / pow10_exact[-e];
  *out = neg ? -d : d;
  return 1;
}

static inline void range_of(count_range r, double *lo, double *hi_excl, const char **txt) {
  switch (r) {
  case R_INT: *lo = INT_MIN; *hi_excl = INT_MAX + 1.0; *txt = "[-2147483648, 2147483647]"; break;
  case R_UNSIGNED: *lo = 0; *hi_excl = UINT_MAX + 1.0; *txt = "[0, 4294967295]"; break;
  case R_SIZE: *lo = 0; *hi_excl = 0x1p63; *txt = "[0, 9223372036854775807]"; break;
  default: *lo = -0x1p63; *hi_excl = 0x1p63; *txt = "a 64-bit integer"; break;
  }
}

/* Field by field (a compound literal compiles to `rep stos`, slow for 112 bytes), all but
 * the rank, comm_size, file and line, which the fast path sets before and after. */
static INLINE void clear_fields(trace_action *a, const char *text) {
  a->op = TRACE_INIT;
  a->peer = a->peer2 = a->tag = a->has_arg = a->nvec = 0;
  a->dtype = a->dtype2 = TRACE_DT_DEFAULT;
  a->count = a->count2 = 0;
  a->amount = 0;
  a->vec = a->vec2 = NULL;
  a->str = NULL;
  a->text = text;
  a->comm = a->nbc = a->win = 0;
}

static inline void clear_action(trace_action *a, const char *file, long lineno, const char *text) {
  clear_fields(a, text);
  a->rank = a->comm_size = 0;
  a->file = file;
  a->line = lineno;
}

typedef struct cur {
  const char *s; /* the next token, or the newline that ends the line */
} cur;

static INLINE int is_digit(char c) { return (unsigned)(c - '0') < 10; }

/* The 8 bytes at s, s[0] in the low byte whatever the machine's byte order. */
static INLINE uint64_t load8(const char *s) {
  uint64_t x;
  memcpy(&x, s, sizeof x);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}

/* The first n bytes of the constant string w as load8 would see them (folded at compile
 * time), and the mask of the first n bytes. */
static INLINE uint64_t pack8(const char *w, size_t n) {
  uint64_t v = 0;
#pragma GCC unroll 8
  for (size_t i = 0; i < n && i < 8; i++)
    v |= (uint64_t)(unsigned char)w[i] << (8 * i);
  return v;
}

static INLINE uint64_t mask8(size_t n) {
  return n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
}

/* The run of decimal digits at s: its length n (0 to 7; 8 means 8 or more) from one load,
 * and when 0 < n < 8 its value in *v. Subtracting '0' from every byte makes a digit 0-9 and
 * any other byte either wrap (< '0') or exceed 9, which adding 0x76 pushes to the high bit;
 * borrows and carries only move toward later bytes, so the first flagged byte is the first
 * non-digit whatever follows it. The digits, shifted to the top (leading zeros below), are
 * then combined pairwise: 8 digits -> 4 numbers < 100 -> 2 < 10^4 -> 1. */
static INLINE int swar_digits(const char *s, uint64_t *v) {
  uint64_t x = load8(s) - 0x3030303030303030u;
  uint64_t bad = (x | (x + 0x7676767676767676u)) & 0x8080808080808080u;
  if (!bad)
    return 8;
  int n = __builtin_ctzll(bad) >> 3;
  if (n == 0)
    return 0;
  x <<= 64 - 8 * n;
  x = (x & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
  x = (x & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
  *v = (x & 0x0000FFFF0000FFFFu) * 42949672960001u >> 32;
  return n;
}

/* The run of decimal digits at s, of any length: its length and value (which wraps past
 * 19 digits, but then it is not used). */
static inline int long_digits(const char *s, uint64_t *v) {
  const char *q = s;
  uint64_t u = 0;
  while (is_digit(*q))
    u = u * 10 + (uint64_t)(*q++ - '0');
  *v = u;
  return (int)(q - s);
}

/* Counts are often long (bytes): one word at a time. */
static INLINE int count_digits(const char *s, uint64_t *v) {
  int n = swar_digits(s, v);
  return n < 8 ? n : long_digits(s, v);
}

/* Ranks, peers and tags are mostly short: a byte at a time. */
static INLINE int dec_digits(const char *s, uint64_t *v) {
  const char *q = s;
  uint64_t u = 0;
  unsigned d;
  while ((d = (unsigned)(unsigned char)*q - '0') < 10)
    u = u * 10 + d, q++;
  *v = u;
  return (int)(q - s);
}

/* Steps over what follows the token ending at q: the newline (then the cursor stays on
 * it), or one space before another token (which must not start with a space, a tab or
 * a newline: every reader wants a digit, '-' or letter anyway). 0 for anything else. */
static INLINE int next_tok(cur *c, const char *q) {
  if (*q == '\n') {
    c->s = q;
    return 1;
  }
  c->s = q + 1;
  return *q == ' ' && q[1] > ' ';
}

static INLINE int at_end(const cur *c) { return *c->s == '\n'; }

/* End of the token at s: the next byte <= ' ' (or >= 0x80, which no reader accepts). */
static INLINE const char *tok_end(const char *s) {
  while (*s > ' ')
    s++;
  return s;
}

/* A std::stoi field written [-]digits (at most 9 of them: always an int). */
static INLINE int ff_int(cur *c, int *out) {
  int neg = *c->s == '-';
  const char *s = c->s + neg;
  uint64_t v;
  int n = dec_digits(s, &v);
  if (n == 0 || n > 9)
    return 0;
  *out = neg ? -(int)v : (int)v;
  return next_tok(c, s + n);
}

/* An optional root (absent: 0). */
static INLINE int ff_root(cur *c, int *out) {
  if (at_end(c)) {
    *out = 0;
    return 1;
  }
  return ff_int(c, out);
}

/* A count (f_count) that is whole and in range r: plain digits (fewer than 16), else a
 * token within the double fast path. */
static INLINE int ff_count(cur *c, count_range r, int64_t *out) {
  uint64_t u;
  int n = count_digits(c->s, &u);
  const char *s = c->s + n;
  if (n == 0 || n > 15 || (*s != ' ' && *s != '\n')) {
    double d, lo, hi;
    const char *txt;
    if (!fast_double(c->s, s = tok_end(c->s), &d))
      return 0;
    range_of(r, &lo, &hi, &txt);
    if (!(d >= lo && d < hi) || trunc(d) != d)
      return 0;
    *out = (int64_t)d;
  } else if ((r == R_INT && u > INT_MAX) || (r == R_UNSIGNED && u > UINT_MAX)) {
    return 0;
  } else {
    *out = (int64_t)u;
  }
  return next_tok(c, s);
}

/* A double field (FLOPS, SECONDS) within Clinger's fast path. */
static INLINE int ff_double(cur *c, double *out) {
  uint64_t u, e;
  int n = dec_digits(c->s, &u), ne;
  const char *q = c->s + n;
  if (n > 0 && n < 16) { /* the usual forms first: digits (< 2^53, exact), digits e digits */
    if (*q == ' ' || *q == '\n') {
      *out = (double)u;
      return next_tok(c, q);
    }
    if (*q == 'e' && (ne = dec_digits(q + 1, &e)) > 0 && ne < 3 && e <= 22 &&
        (q[1 + ne] == ' ' || q[1 + ne] == '\n')) {
      *out = (double)u * pow10_exact[e]; /* as fast_double: one correctly rounded product */
      return next_tok(c, q + 1 + ne);
    }
  }
  q = tok_end(q);
  return fast_double(c->s, q, out) && next_tok(c, q);
}

/* A datatype id ("-1", "0" to "59"); absent: TRACE_DT_DEFAULT unless required. */
static INLINE int ff_dtype(cur *c, int required, int *out) {
  const char *s = c->s;
  if (at_end(c)) {
    *out = TRACE_DT_DEFAULT;
    return !required;
  }
  if (s[0] == '-' && s[1] == '1') {
    *out = TRACE_DT_NULL;
    return next_tok(c, s + 2);
  }
  if (!is_digit(s[0]))
    return 0;
  int two = s[0] != '0' && is_digit(s[1]), v = two ? (s[0] - '0') * 10 + s[1] - '0' : s[0] - '0';
  *out = v;
  return v < 60 && next_tok(c, s + 1 + two);
}

/* n std::stoi elements (f_vec) into the parser's *vec, allocated as f_vec does (np_world
 * long), which the action then points to (*out). */
static INLINE int ff_vec(cur *c, trace_parser *p, int64_t **vec, int n, int64_t **out) {
  if (!*vec)
    *vec = x_calloc((size_t)p->np_world, sizeof **vec);
  int64_t *v = *out = *vec;
  for (int i = 0; i < n; i++) {
    int x;
    if (!ff_int(c, &x))
      return 0;
    v[i] = x;
  }
  return 1;
}

/* The arguments of op, as its pf_* function reads them, vectors of n elements (the
 * communicator's size); 0: not a fast line. */
static INLINE int fast_args(cur *c, trace_parser *p, int op, int n, trace_action *a) {
  switch (op) {
  case TRACE_INIT: case TRACE_FINALIZE: case TRACE_COMM_SIZE: case TRACE_COMM_SPLIT:
  case TRACE_COMM_DUP: case TRACE_WAITALL: case TRACE_BARRIER:
    return 1; /* without arguments (init: has_arg 0; comm_split/dup: SimGrid's no-op) */
  case TRACE_COMPUTE: case TRACE_SLEEP:
    return ff_double(c, &a->amount);
  case TRACE_SEND: case TRACE_ISEND: case TRACE_RECV: case TRACE_IRECV:
    return ff_int(c, &a->peer) && ff_int(c, &a->tag) && ff_count(c, R_SSIZE, &a->count) &&
           ff_dtype(c, 0, &a->dtype);
  case TRACE_WAIT:
    return ff_int(c, &a->peer) && ff_int(c, &a->peer2) && ff_int(c, &a->tag);
  case TRACE_TEST: /* [FLAG]: "0" or "1" (pf_waittest), absent: -1 */
    if (!(ff_int(c, &a->peer) && ff_int(c, &a->peer2) && ff_int(c, &a->tag)))
      return 0;
    if (at_end(c)) {
      a->count = -1;
      return 1;
    }
    a->count = c->s[0] - '0';
    return (c->s[0] == '0' || c->s[0] == '1') && next_tok(c, c->s + 1);
  case TRACE_PUT: case TRACE_ACCUMULATE: case TRACE_RPUT: case TRACE_RACCUMULATE:
    return ff_int(c, &a->win) && ff_int(c, &a->peer) && ff_count(c, R_SSIZE, &a->count);
  case TRACE_GET: case TRACE_RGET: /* what comes back: count2 (pf_rma) */
    return ff_int(c, &a->win) && ff_int(c, &a->peer) && ff_count(c, R_SSIZE, &a->count2);
  case TRACE_GET_ACCUMULATE: case TRACE_FETCH_AND_OP: case TRACE_COMPARE_AND_SWAP:
  case TRACE_RGET_ACCUMULATE:
    return ff_int(c, &a->win) && ff_int(c, &a->peer) && ff_count(c, R_SSIZE, &a->count) &&
           ff_count(c, R_SSIZE, &a->count2);
  case TRACE_WIN_FENCE: case TRACE_WIN_LOCK_ALL: case TRACE_WIN_UNLOCK_ALL: case TRACE_WIN_FLUSH_ALL:
  case TRACE_WIN_FLUSH_LOCAL_ALL: case TRACE_WIN_COMPLETE: case TRACE_WIN_WAIT: case TRACE_WIN_SYNC:
    return ff_int(c, &a->win);
  case TRACE_WIN_UNLOCK: case TRACE_WIN_FLUSH: case TRACE_WIN_FLUSH_LOCAL:
    return ff_int(c, &a->win) && ff_int(c, &a->peer);
  case TRACE_WIN_LOCK: /* EXCLUSIVE: "0" or "1" only (else pf_win's message) */
    if (!(ff_int(c, &a->win) && ff_int(c, &a->peer) && (c->s[0] == '0' || c->s[0] == '1')))
      return 0;
    a->count = c->s[0] - '0';
    return next_tok(c, c->s + 1);
  case TRACE_PROBE:
    return ff_int(c, &a->peer) && ff_int(c, &a->tag);
  case TRACE_IPROBE: {
    int flag;
    if (!(ff_int(c, &a->peer) && ff_int(c, &a->tag) && ff_int(c, &flag)))
      return 0;
    a->count = flag;
    return 1;
  }
  case TRACE_SENDRECV:
    return ff_count(c, R_INT, &a->count) && ff_int(c, &a->peer) &&
           ff_count(c, R_INT, &a->count2) && ff_int(c, &a->peer2) &&
           ff_dtype(c, 1, &a->dtype) && ff_dtype(c, 1, &a->dtype2);
  case TRACE_BCAST:
    return ff_count(c, R_SIZE, &a->count) && ff_root(c, &a->peer) && ff_dtype(c, 0, &a->dtype);
  case TRACE_REDUCE:
    return ff_count(c, R_UNSIGNED, &a->count) && ff_double(c, &a->amount) &&
           ff_root(c, &a->peer) && ff_dtype(c, 0, &a->dtype);
  case TRACE_ALLREDUCE: case TRACE_SCAN: case TRACE_EXSCAN:
    return ff_count(c, op == TRACE_ALLREDUCE ? R_UNSIGNED : R_SIZE, &a->count) &&
           ff_double(c, &a->amount) && ff_dtype(c, 0, &a->dtype);
  case TRACE_GATHER: case TRACE_SCATTER:
    return ff_count(c, R_INT, &a->count) && ff_count(c, R_INT, &a->count2) &&
           ff_root(c, &a->peer) && ff_dtype(c, 0, &a->dtype) && ff_dtype(c, 0, &a->dtype2);
  case TRACE_ALLTOALL: case TRACE_ALLGATHER:
    return ff_count(c, R_INT, &a->count) && ff_count(c, R_INT, &a->count2) &&
           ff_dtype(c, 0, &a->dtype) && ff_dtype(c, 0, &a->dtype2);
  case TRACE_GATHERV:
    a->nvec = n;
    return ff_count(c, R_INT, &a->count) && ff_vec(c, p, &p->vec, n, &a->vec) &&
           ff_root(c, &a->peer) && ff_dtype(c, 0, &a->dtype) && ff_dtype(c, 0, &a->dtype2);
  case TRACE_ALLGATHERV: /* only [DT_S [DT_R]] after the counts, which SimGrid's rule
                            (pf_allgatherv) reads so when n >= 2 */
    a->nvec = n;
    return n >= 2 && ff_count(c, R_INT, &a->count) && ff_vec(c, p, &p->vec, n, &a->vec) &&
           ff_dtype(c, 0, &a->dtype) && ff_dtype(c, 0, &a->dtype2);
  case TRACE_SCATTERV:
    a->nvec = n;
    return ff_vec(c, p, &p->vec, n, &a->vec) && ff_count(c, R_INT, &a->count2) &&
           ff_root(c, &a->peer) && ff_dtype(c, 0, &a->dtype) && ff_dtype(c, 0, &a->dtype2);
  case TRACE_REDUCESCATTER:
    a->nvec = n;
    return ff_vec(c, p, &p->vec, n, &a->vec) && ff_double(c, &a->amount) &&
           ff_dtype(c, 0, &a->dtype);
  case TRACE_ALLTOALLV:
    a->nvec = n;
    return ff_count(c, R_INT, &a->count) && ff_vec(c, p, &p->vec, n, &a->vec) &&
           ff_count(c, R_INT, &a->count2) && ff_vec(c, p, &p->vec2, n, &a->vec2) &&
           ff_dtype(c, 0, &a->dtype) && ff_dtype(c, 0, &a->dtype2);
  default:
    return 0;
  }
}

/* When k (whose first 8 bytes are x) starts with the keyword w, followed by the end of the
 * token (a byte <= ' '), the end of w in *q, and 1: one masked compare for the first 8
 * letters, then byte compares, which stop at the first difference (so nothing past the
 * token's end is used). The end test makes the order of two keywords sharing a start
 * ("wait", "waitall") a matter of speed only. */
static INLINE int starts(const char *k, uint64_t x, const char *w, const char **q) {
  size_t n = strlen(w);
  if ((x & mask8(n)) != pack8(w, n))
    return 0;
#pragma GCC unroll 8
  for (size_t i = 8; i < n; i++)
    if (k[i] != w[i])
      return 0;
  *q = k + n;
  return 1;
}

/* The canonical rank (< 10^9) that s starts with, when a space follows it: the rank, and
 * *k past the space. Otherwise -1. */
static INLINE int fast_rank(const char *s, const char **k) {
  uint64_t v;
  int n = s[0] == '0' ? (v = 0, 1) : dec_digits(s, &v);
  if (n == 0 || n > 9 || s[n] != ' ')
    return -1;
  *k = s + n + 1;
  return (int)v;
}

/* Remembers the text "WANT " of a rank, as load8 sees it, for a one-compare match of the
 * rank field of its next lines (key_rank = want; ranks < 10^7: their text fits). */
static inline void rank_key(trace_parser *p, int want) {
  char b[16] = "";
  int n = snprintf(b, sizeof b, "%d ", want);
  if (n > 8)
    return;
  p->key_rank = want;
  p->key_len = n;
  p->key_mask = mask8((size_t)n);
  p->key = load8(b) & p->key_mask;
}

/* The rest of a fast line (its rank and comm_size in *a) whose keyword is op (ending at q), on
 * communicator comm of size members, non-blocking (i prefix) when nbc: the action in *a and the position of
 * the newline, or NULL. Inlined once per keyword, so op is a constant there and
 * fast_args's switch vanishes. */
static INLINE const char *fast_rest(trace_parser *p, int op, int comm, int size,
                                    int nbc, const char *s,
                                    const char *q, trace_action *a) {
  cur c;
  if (!next_tok(&c, q))
    return NULL;
  clear_fields(a, s);
  a->op = (trace_op)op;
  a->comm = comm;
  a->nbc = nbc;
  return fast_args(&c, p, op, size, a) && at_end(&c) ? c.s : NULL;
}

static const char *fast_prefixed(trace_parser *p, const char *k, int comm, int size,
                                 const char *s, trace_action *a);

/* One keyword of keywords.h, tried when the line's keyword starts with letter (L) and the
 * pass (hot keywords first, then the others) is its own: the constant part of the test (its
 * first letter, its flags) folds away, so each case of fast_kw's switch keeps only the
 * compares of its own letter's keywords. Only collectives take the "i" prefix (nbc). */
#define FAST_TRY(op, kw, flags)                                                            \
  if ((kw)[0] == letter && ((flags) & TRACE_KWF_FAST) && !((flags) & TRACE_KWF_HOT) == !hot && \
      (!nbc || ((flags) & TRACE_KWF_COLL)) && starts(k, x, kw, &q) &&                   \
      (r = fast_rest(p, TRACE_##op, comm, size, nbc, s, q, a)))                          \
    return r;
#define FAST_LETTER(L)                                                                     \
  {                                                                                        \
    const int letter = (L);                                                                \
    {                                                                                      \
      const int hot = 1;                                                                   \
      TRACE_KEYWORDS(FAST_TRY)                                                             \
    }                                                                                      \
    {                                                                                      \
      const int hot = 0;                                                                   \
      TRACE_KEYWORDS(FAST_TRY)                                                             \
    }                                                                                      \
  }

/* The line from its keyword k on, as fast_rest. The keyword is found by a switch on its
 * first letter, then compares, hot keywords first, else in the table's order. The
 * prefixes "comm ID" and "i" go to fast_prefixed, which reads them and comes back. */
static INLINE const char *fast_kw(trace_parser *p, const char *k, int comm, int size,
                                  int nbc, const char *s,
                                  trace_action *a) {
  const char *q, *r;
  uint64_t x = load8(k);
  switch ((unsigned char)x) {
  case 'a': FAST_LETTER('a') break;
  case 'b': FAST_LETTER('b') break;
  case 'e': FAST_LETTER('e') break;
  case 'f': FAST_LETTER('f') break;
  case 'g': FAST_LETTER('g') break;
  case 'p': FAST_LETTER('p') break;
  case 'r': FAST_LETTER('r') break;
  case 's': FAST_LETTER('s') break;
  case 't': FAST_LETTER('t') break;
  case 'w': FAST_LETTER('w') break;
  case 'c':
    FAST_LETTER('c')
    if (!nbc && !comm)
      return fast_prefixed(p, k, comm, size, s, a);
    break;
  case 'i':
    FAST_LETTER('i')
    if (!nbc)
      return fast_prefixed(p, k, comm, size, s, a);
    break;
  default: break;
  }
  return NULL;
}
#undef FAST_LETTER
#undef FAST_TRY

/* The prefixes, out of the usual path: "comm ID " (a communicator the parser saw created,
 * ID written as plain digits) before a keyword, or "i" before a collective's. */
static __attribute__((noinline)) const char *fast_prefixed(trace_parser *p, const char *k,
                                                            int comm, int size,
                                                            const char *s, trace_action *a) {
  const char *q;
  if (k[0] == TRACE_KW_NBC[0])
    return fast_kw(p, k + 1, comm, size, 1, s, a);
  uint64_t id;
  int n;
  if (comm || !starts(k, load8(k), TRACE_KW_COMM, &q) || *q++ != ' ' || (n = dec_digits(q, &id)) == 0 ||
      n > 9 || q[n] != ' ' || id < 1 || id >= p->ncsize || p->csize[id] <= 0)
    return NULL;
  a->comm_size = p->csize[id];
  return fast_kw(p, q + n + 1, (int)id, p->csize[id], 0, s, a);
}

/* The fast path on the line at s: when it is a fast line of rank want (want < 0: any),
 * the action in *a (text s, still ended by the newline; file and line left for the caller
 * to set) and the position of the newline; else NULL, with *a to be rebuilt by the general
 * path. */
static INLINE const char *fast_line(trace_parser *p, int want, const char *s, trace_action *a) {
  const char *k;
  int rank = want;
  if (want == p->key_rank) { /* the reader's case: the rank's text, or not a fast line */
    if ((load8(s) & p->key_mask) != p->key)
      return NULL;
    k = s + p->key_len;
  } else if (!p->fast || (rank = fast_rank(s, &k)) < 0 || (want >= 0 && rank != want)) {
    return NULL;
  } else if (want >= 0) {
    rank_key(p, want); /* for its next lines */
  }
  a->rank = rank; /* (now: fewer values to keep; clear_fields leaves them) */
  a->comm_size = p->np_world; /* (p->np is set by the general path before any use) */
  return fast_kw(p, k, 0, p->np_world, 0, s, a);
}

#endif
