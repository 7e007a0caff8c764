/* trace_parse.c - turns one line of a time-independent trace into a trace_action.
 *
 * A line is trimmed of isspace() characters at both ends, skipped when empty or when it
 * starts with '#', and split on runs of spaces and tabs (only those: '\v', '\f', '\r'
 * inside a line belong to a token), exactly as SimGrid 3.32's boost::trim + boost::split.
 * Token 0 is the rank, token 1 the keyword, the others are the arguments. Lines in the
 * common forms take the fast path (section "Fast path" below: read in place, no copy);
 * the others take the general path, which alone writes messages and warnings: the line is
 * copied into `tok` and cut there into NUL-terminated tokens, and the tokens' single-space
 * join goes to `text` (a plain copy of the line when its separators are single spaces);
 * both buffers belong to the parser, so an action stays valid whatever happens to the line.
 * Each action's arguments are then read by a small function per family of actions, from a
 * table (indexed by trace_op) that also holds the keyword, the argument counts SimGrid
 * checks and the usage shown in messages.
 *
 * Numbers go through the three parsers SimGrid uses (TI_FORMAT.md 1.3), and the
 * difference is visible: "1e3" is 1000 as a COUNT (strtod, then truncation and a range
 * check against the C type SimGrid stores it in) but 1 inside a count vector (std::stoi
 * reads the leading integer). Doubles keep strtod's exact result: a fast path handles
 * decimal tokens whose value is m * 10^e with m < 2^53 and |e| <= 22, where one IEEE
 * multiplication or division of two exact doubles is correctly rounded, as strtod is
 * (Clinger's fast path); every other token goes to strtod itself.
 *
 * In strict mode the forms SimGrid accepts silently but that lose information (trailing
 * garbage after an integer, a fractional count) are errors; otherwise they give one
 * warning each per run. */
#include "trace_fast.h"
#include "xalloc.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define W_GARBAGE 1u  /* warned: trailing garbage after an integer field */
#define W_FRACTION 2u /* warned: fractional count truncated */


/* ====================================================================================
 * Action table
 * ==================================================================================== */

typedef int (*parse_fn)(trace_parser *p, trace_action *a, char *err, size_t errlen);


typedef struct op_def {
  int mand, opt;      /* argument counts checked (opt < 0: no check at all) */
  int mand_np;        /* np multiples added to mand (count vectors) */
  count_range range;  /* range of the main scalar count */
  const char *usage;  /* argument names, for messages */
  parse_fn parse;
} op_def;

static int pf_none(trace_parser *, trace_action *, char *, size_t);
static int pf_init(trace_parser *, trace_action *, char *, size_t);
static int pf_amount(trace_parser *, trace_action *, char *, size_t);
static int pf_p2p(trace_parser *, trace_action *, char *, size_t);
static int pf_waittest(trace_parser *, trace_action *, char *, size_t);
static int pf_sendrecv(trace_parser *, trace_action *, char *, size_t);
static int pf_bcast(trace_parser *, trace_action *, char *, size_t);
static int pf_reduce(trace_parser *, trace_action *, char *, size_t);
static int pf_countflops(trace_parser *, trace_action *, char *, size_t);
static int pf_two(trace_parser *, trace_action *, char *, size_t);
static int pf_rooted_two(trace_parser *, trace_action *, char *, size_t);
static int pf_gatherv(trace_parser *, trace_action *, char *, size_t);
static int pf_allgatherv(trace_parser *, trace_action *, char *, size_t);
static int pf_scatterv(trace_parser *, trace_action *, char *, size_t);
static int pf_reducescatter(trace_parser *, trace_action *, char *, size_t);
static int pf_alltoallv(trace_parser *, trace_action *, char *, size_t);
static int pf_location(trace_parser *, trace_action *, char *, size_t);
static int pf_region(trace_parser *, trace_action *, char *, size_t);
static int pf_comm(trace_parser *, trace_action *, char *, size_t);
static int pf_probe(trace_parser *, trace_action *, char *, size_t);
static int pf_win_create(trace_parser *, trace_action *, char *, size_t);
static int pf_win(trace_parser *, trace_action *, char *, size_t);
static int pf_win_group(trace_parser *, trace_action *, char *, size_t);
static int pf_rma(trace_parser *, trace_action *, char *, size_t);

/* Keywords and fast-path flags of the ops, from the one keyword table. */
#define KW_NAME(op, kw, flags) [TRACE_##op] = kw,
#define KW_FLAGS(op, kw, flags) [TRACE_##op] = (flags),
static const char *const kw_name[TRACE_NOPS] = {TRACE_KEYWORDS(KW_NAME)};
static const unsigned char kw_flags[TRACE_NOPS] = {TRACE_KEYWORDS(KW_FLAGS)};

/* Collective keywords, which tir also accepts with an "i" (non-blocking) prefix. */
static int is_collective(int op) { return (kw_flags[op] & TRACE_KWF_COLL) != 0; }

/* Indexed by trace_op (keywords: kw_name). Counts and usages follow SimGrid's
 * CHECK_ACTION_PARAMS calls; each op of keywords.def must have its entry (a parse function:
 * checked by the unit tests). */
static const op_def ops[TRACE_NOPS] = {
  [TRACE_INIT] = {0, 1, 0, R_NONE, "[ANYTHING: default datatype DOUBLE]", pf_init},
  [TRACE_FINALIZE] = {0, -1, 0, R_NONE, "", pf_none},
  [TRACE_COMM_SIZE] = {0, -1, 0, R_NONE, "", pf_none},
  [TRACE_COMM_SPLIT] = {0, -1, 0, R_NONE, "[ID SIZE WORLD_RANKS*SIZE]", pf_comm},
  [TRACE_COMM_DUP] = {0, -1, 0, R_NONE, "[ID SIZE WORLD_RANKS*SIZE]", pf_comm},
  [TRACE_COMM_CREATE] = {2, -1, 0, R_NONE, "ID SIZE WORLD_RANKS*SIZE", pf_comm},
  [TRACE_PROBE] = {2, 0, 0, R_NONE, "SRC TAG", pf_probe},
  [TRACE_IPROBE] = {3, 0, 0, R_NONE, "SRC TAG FLAG", pf_probe},
  [TRACE_COMPUTE] = {1, 0, 0, R_NONE, "FLOPS", pf_amount},
  [TRACE_SLEEP] = {1, 0, 0, R_NONE, "SECONDS", pf_amount},
  [TRACE_SEND] = {3, 1, 0, R_SSIZE, "DST TAG COUNT [DATATYPE]", pf_p2p},
  [TRACE_ISEND] = {3, 1, 0, R_SSIZE, "DST TAG COUNT [DATATYPE]", pf_p2p},
  [TRACE_RECV] = {3, 1, 0, R_SSIZE, "SRC TAG COUNT [DATATYPE]", pf_p2p},
  [TRACE_IRECV] = {3, 1, 0, R_SSIZE, "SRC TAG COUNT [DATATYPE]", pf_p2p},
  [TRACE_TEST] = {3, 1, 0, R_NONE, "SRC DST TAG [FLAG]", pf_waittest},
  [TRACE_WAIT] = {3, 0, 0, R_NONE, "SRC DST TAG", pf_waittest},
  [TRACE_WAITALL] = {0, 0, 0, R_NONE, "", pf_none},
  [TRACE_SENDRECV] = {6, 0, 0, R_INT, "SENDCOUNT DST RECVCOUNT SRC DT_S DT_R",
                      pf_sendrecv},
  [TRACE_BARRIER] = {0, 0, 0, R_NONE, "", pf_none},
  [TRACE_BCAST] = {1, 2, 0, R_SIZE, "COUNT [ROOT [DATATYPE]]", pf_bcast},
  [TRACE_REDUCE] = {2, 2, 0, R_UNSIGNED, "COUNT FLOPS [ROOT [DATATYPE]]", pf_reduce},
  [TRACE_ALLREDUCE] = {2, 1, 0, R_UNSIGNED, "COUNT FLOPS [DATATYPE]",
                       pf_countflops},
  [TRACE_ALLTOALL] = {2, 2, 0, R_INT, "SENDCOUNT RECVCOUNT [DT_S [DT_R]]", pf_two},
  [TRACE_ALLTOALLV] = {2, 2, 2, R_INT,
                       "SENDBUFSIZE SENDCOUNTS*np RECVBUFSIZE RECVCOUNTS*np [DT_S [DT_R]]",
                       pf_alltoallv},
  [TRACE_GATHER] = {2, 3, 0, R_INT, "SENDCOUNT RECVCOUNT [ROOT [DT_S [DT_R]]]",
                    pf_rooted_two},
  [TRACE_GATHERV] = {1, 3, 1, R_INT, "SENDCOUNT RECVCOUNTS*np [ROOT [DT_S [DT_R]]]",
                     pf_gatherv},
  [TRACE_ALLGATHER] = {2, 2, 0, R_INT, "SENDCOUNT RECVCOUNT [DT_S [DT_R]]",
                       pf_two},
  [TRACE_ALLGATHERV] = {1, 2, 1, R_INT,
                        "SENDCOUNT RECVCOUNTS*np [DT_S [DT_R]] | ... DISPLS*np"
                        " | ... DT_S DT_R DISPLS*np",
                        pf_allgatherv},
  [TRACE_SCATTER] = {2, 3, 0, R_INT, "SENDCOUNT RECVCOUNT [ROOT [DT_S [DT_R]]]",
                     pf_rooted_two},
  [TRACE_SCATTERV] = {1, 3, 1, R_INT, "SENDCOUNTS*np RECVCOUNT [ROOT [DT_S [DT_R]]]",
                      pf_scatterv},
  [TRACE_REDUCESCATTER] = {1, 1, 1, R_NONE, "RECVCOUNTS*np FLOPS [DATATYPE]",
                           pf_reducescatter},
  [TRACE_SCAN] = {2, 1, 0, R_SIZE, "COUNT FLOPS [DATATYPE]", pf_countflops},
  [TRACE_EXSCAN] = {2, 1, 0, R_SIZE, "COUNT FLOPS [DATATYPE]", pf_countflops},
  [TRACE_LOCATION] = {2, 0, 0, R_NONE, "FILE LINE", pf_location},
  [TRACE_REGION] = {1, 0, 0, R_NONE, "NAME", pf_region},
  [TRACE_REGION_END] = {0, 1, 0, R_NONE, "[NAME]", pf_region},
  /* one-sided communication (tir): WIN is the window, TARGET a world rank, sizes in bytes */
  [TRACE_WIN_CREATE] = {3, 0, 0, R_SSIZE, "WIN COMM BYTES", pf_win_create},
  [TRACE_WIN_ALLOCATE] = {3, 0, 0, R_SSIZE, "WIN COMM BYTES", pf_win_create},
  [TRACE_WIN_ALLOCATE_SHARED] = {3, 0, 0, R_SSIZE, "WIN COMM BYTES", pf_win_create},
  [TRACE_WIN_CREATE_DYNAMIC] = {2, 0, 0, R_SSIZE, "WIN COMM", pf_win_create},
  [TRACE_WIN_FREE] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_PUT] = {3, 0, 0, R_SSIZE, "WIN TARGET BYTES", pf_rma},
  [TRACE_GET] = {3, 0, 0, R_SSIZE, "WIN TARGET BYTES", pf_rma},
  [TRACE_ACCUMULATE] = {3, 0, 0, R_SSIZE, "WIN TARGET BYTES", pf_rma},
  [TRACE_GET_ACCUMULATE] = {4, 0, 0, R_SSIZE, "WIN TARGET SBYTES RBYTES", pf_rma},
  [TRACE_FETCH_AND_OP] = {4, 0, 0, R_SSIZE, "WIN TARGET SBYTES RBYTES", pf_rma},
  [TRACE_COMPARE_AND_SWAP] = {4, 0, 0, R_SSIZE, "WIN TARGET SBYTES RBYTES", pf_rma},
  [TRACE_RPUT] = {3, 0, 0, R_SSIZE, "WIN TARGET BYTES", pf_rma},
  [TRACE_RGET] = {3, 0, 0, R_SSIZE, "WIN TARGET BYTES", pf_rma},
  [TRACE_RACCUMULATE] = {3, 0, 0, R_SSIZE, "WIN TARGET BYTES", pf_rma},
  [TRACE_RGET_ACCUMULATE] = {4, 0, 0, R_SSIZE, "WIN TARGET SBYTES RBYTES", pf_rma},
  [TRACE_WIN_FENCE] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_LOCK] = {3, 0, 0, R_NONE, "WIN TARGET EXCLUSIVE", pf_win},
  [TRACE_WIN_UNLOCK] = {2, 0, 0, R_NONE, "WIN TARGET", pf_win},
  [TRACE_WIN_LOCK_ALL] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_UNLOCK_ALL] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_FLUSH] = {2, 0, 0, R_NONE, "WIN TARGET", pf_win},
  [TRACE_WIN_FLUSH_ALL] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_FLUSH_LOCAL] = {2, 0, 0, R_NONE, "WIN TARGET", pf_win},
  [TRACE_WIN_FLUSH_LOCAL_ALL] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_POST] = {2, 0, 0, R_NONE, "WIN SIZE WORLD_RANKS*SIZE", pf_win_group},
  [TRACE_WIN_START] = {2, 0, 0, R_NONE, "WIN SIZE WORLD_RANKS*SIZE", pf_win_group},
  [TRACE_WIN_COMPLETE] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_WAIT] = {1, 0, 0, R_NONE, "WIN", pf_win},
  [TRACE_WIN_SYNC] = {1, 0, 0, R_NONE, "WIN", pf_win},
};

const char *trace_op_name(trace_op op) {
  return (unsigned)op < TRACE_NOPS ? kw_name[op] : "?";
}

/* Datatype sizes on x86_64, by id (TI_FORMAT.md 1.4); ids 55 and 56 (UB, LB) are 0. */
static const signed char dtype_sizes[60] = {
  8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8, 8, 16, 4, 1, 1, 2, 4,   /* 0-19 */
  8, 1, 2, 4, 8, 8, 16, 32, 8, 8, 8, 16, 16, 8, 8, 8, 16, 16, 4, 4, /* 20-39 */
  8, 16, 8, 16, 16, 4, 2, 4, 8, 16, 32, 1, 8, 16, 32, 0, 0, 1, 8, 8, /* 40-59 */
};

int trace_dtype_size(int id) {
  if (id == TRACE_DT_NULL)
    return 0;
  return id >= 0 && id < 60 ? dtype_sizes[id] : -1;
}

/* ====================================================================================
 * Parser life cycle, errors, warnings
 * ==================================================================================== */

trace_parser *trace_parser_new(int np, const trace_opts *opts, unsigned *warned) {
  trace_parser *p = x_calloc(1, sizeof *p);
  p->np = p->np_world = np > 0 ? np : 1;
  if (opts)
    p->opts = *opts;
  p->warned = warned ? warned : &p->own_warned;
  p->fast = 1;
  p->key_rank = INT_MIN;
  return p;
}

void trace_parser_free(trace_parser *p) {
  if (!p)
    return;
  free(p->tok);
  free(p->text);
  free(p->argv);
  free(p->vec);
  free(p->vec2);
  free(p->csize);
  free(p);
}

/* s with control bytes written as C escapes, in out (cut to n bytes). */
static const char *escaped(const char *s, char *out, size_t n) {
  static const char names[] = "a\ab\bt\tn\nv\vf\fr\r"; /* letter, then its byte */
  size_t w = 0;
  for (; *s && w + 5 < n; s++) {
    const char *e = (unsigned char)*s < 32 ? strchr(names, *s) : NULL;
    if ((unsigned char)*s >= 32 && *s != 127)
      out[w++] = *s;
    else if (e && *s)
      w += (size_t)snprintf(out + w, n - w, "\\%c", e[-1]);
    else
      w += (size_t)snprintf(out + w, n - w, "\\x%02x", (unsigned char)*s);
  }
  out[w] = '\0';
  return out;
}

/* "FILE:LINE: <message>: 'TEXT'" into err; returns -1. */
static int perr(const trace_parser *p, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int perr(const trace_parser *p, char *err, size_t errlen, const char *fmt, ...) {
  char msg[1024], text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return x_err(err, errlen, "%s:%ld: %s: '%s'", p->file, p->lineno, msg,
               escaped(p->text, text, sizeof text));
}

/* One warning per kind and run (the callback, when there is one, gets the first). */
static void pwarn(trace_parser *p, unsigned kind, const char *what) {
  if (!p->opts.warn || (*p->warned & kind))
    return;
  *p->warned |= kind;
  char *msg = x_asprintf("%s:%ld: %s: '%s' (further warnings of this kind are not shown)",
                         p->file, p->lineno, what, p->text);
  p->opts.warn(p->opts.warn_ctx, msg);
  free(msg);
}

/* ====================================================================================
 * Tokenizer
 * ==================================================================================== */

static int is_trim_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Narrows [*s, *s + *n) to its trimmed part. */
static void trim(const char **s, size_t *n) {
  while (*n && is_trim_space((*s)[0])) {
    (*s)++;
    (*n)--;
  }
  while (*n && is_trim_space((*s)[*n - 1]))
    (*n)--;
}

/* Makes tok and text hold at least n + 1 bytes (their contents are not kept). */
static void reserve(trace_parser *p, size_t n) {
  if (p->cap >= n + 1)
    return;
  p->cap = n + 1 > 256 ? n + 1 : 256;
  free(p->tok);
  free(p->text);
  p->tok = x_malloc(p->cap);
  p->text = x_calloc(p->cap + TRACE_PAD, 1); /* the fast path may read past a line */
}

/* Slow path of split: any line, one byte at a time, a NUL shown as '?' in the text. */
static int split_slow(trace_parser *p, const char *s, size_t n) {
  char *t = p->tok, *x = p->text;
  int in_tok = 0, nul = 0;
  p->argc = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == ' ' || c == '\t') {
      if (in_tok)
        *t++ = '\0';
      in_tok = 0;
      continue;
    }
    if (!in_tok) {
      if (p->argc)
        *x++ = ' ';
      p->argv[p->argc++] = t;
      in_tok = 1;
    }
    nul |= (c == '\0');
    *t++ = c;
    *x++ = c ? c : '?';
  }
  *t = '\0';
  *x = '\0';
  return nul ? -1 : 0;
}

/* Splits the trimmed, non-empty s (n bytes) into tok/argv and text. The fast path copies
 * the line and cuts it at its separators; a line with tabs or runs of separators gets
 * its text rebuilt by split_slow, and so does a line holding a NUL byte, which is an
 * error (returns -1, after the text is built so that the message can show the line). */
static int split(trace_parser *p, const char *s, size_t n) {
  reserve(p, n);
  if (p->argcap < n / 2 + 2) /* tokens <= (n + 1) / 2 */
    x_grow(&p->argv, &p->argcap, n / 2 + 2, sizeof *p->argv);
  if (memchr(s, '\0', n))
    return split_slow(p, s, n);
  char *q = p->tok;
  memcpy(q, s, n);
  q[n] = '\0';
  int simple = 1;
  p->argc = 0;
  while (*q) {
    p->argv[p->argc++] = q;
    while (*q && *q != ' ' && *q != '\t')
      q++;
    if (!*q)
      break;
    simple &= (*q == ' ' && q[1] != ' ' && q[1] != '\t');
    while (*q == ' ' || *q == '\t')
      *q++ = '\0';
  }
  if (!simple)
    return split_slow(p, s, n);
  memcpy(p->text, s, n);
  p->text[n] = '\0';
  return 0;
}

/* ====================================================================================
 * The three number parsers
 * ==================================================================================== */

/* strtod over the whole token (xbt_str_parse_double). 0 ok, -1 not a number. */
static int parse_double(const char *s, double *out) {
  if (fast_double(s, s + strlen(s), out))
    return 0;
  char *end;
  if (*s == '\0')
    return -1;
  *out = strtod(s, &end);
  return *end == '\0' ? 0 : -1;
}

/* std::stoi: leading space, sign, decimal digits; the rest is ignored. Returns 0 ok,
 * -1 no digits, -2 out of int range. *clean = 1 when the token is exactly [+-]digits. */
static int stoi_like(const char *s, int *out, int *clean) {
  const char *s0 = s;
  while (*s != '-' && (*s < '0' || *s > '9') && isspace((unsigned char)*s))
    s++;
  int neg = (*s == '-');
  s += (*s == '-' || *s == '+');
  if (*s < '0' || *s > '9')
    return -1;
  long long v = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    v = v * 10 + (*s - '0');
    if (v > (long long)INT_MAX + 1)
      v = (long long)INT_MAX + 2; /* saturate: out of range either way */
  }
  v = neg ? -v : v;
  if (v < INT_MIN || v > INT_MAX)
    return -2;
  *out = (int)v;
  *clean = (*s == '\0' && !isspace((unsigned char)*s0));
  return 0;
}

/* ====================================================================================
 * Field parsers: argument k is token k + 1
 * ==================================================================================== */

static const char *arg(const trace_parser *p, int k) {
  return (size_t)k + 1 < p->argc ? p->argv[k + 1] : NULL;
}

/* A double field (FLOPS, SECONDS). */
static int f_double(trace_parser *p, int k, const char *name, double *out, char *err,
                    size_t errlen) {
  if (parse_double(arg(p, k), out) < 0)
    return perr(p, err, errlen, "%s %s must be a number, got '%s'", p->kw, name, arg(p, k));
  return 0;
}

/* A std::stoi field (peer, tag, root, vector element, line). */
static int f_int(trace_parser *p, int k, const char *name, int *out, char *err, size_t errlen) {
  const char *s = arg(p, k);
  int clean = 1, rc = stoi_like(s, out, &clean);
  if (rc == -1)
    return perr(p, err, errlen, "%s %s must be an integer, got '%s'", p->kw, name, s);
  if (rc == -2)
    return perr(p, err, errlen, "%s %s out of int range, got '%s'", p->kw, name, s);
  if (!clean && p->opts.strict)
    return perr(p, err, errlen,
                "%s %s must be an integer, got '%s' (SimGrid reads %d and ignores the rest;"
                " an error in strict mode)", p->kw, name, s, *out);
  if (!clean)
    pwarn(p, W_GARBAGE, "integer field with trailing characters read as its leading integer,"
          " as SimGrid does");
  return 0;
}


/* An integer-via-double field (a scalar count): strtod, truncation, range check. */
static int f_count(trace_parser *p, int k, const char *name, count_range r, int64_t *out,
                   char *err, size_t errlen) {
  const char *s = arg(p, k), *txt;
  double d, lo, hi;
  size_t n = 0;
  uint64_t u = 0;
  while (n < 16 && s[n] >= '0' && s[n] <= '9')
    u = u * 10 + (uint64_t)(s[n++] - '0');
  if (n > 0 && n < 16 && s[n] == '\0') /* plain digits: what strtod gives, exactly (< 2^53) */
    d = (double)u;
  else if (parse_double(s, &d) < 0)
    return perr(p, err, errlen, "%s %s must be a number, got '%s'", p->kw, name, s);
  double v = trunc(d);
  range_of(r, &lo, &hi, &txt);
  if (!(v >= lo && v < hi))
    return perr(p, err, errlen, "%s %s out of range %s, got '%s'", p->kw, name, txt, s);
  if (v != d && p->opts.strict)
    return perr(p, err, errlen, "%s %s must be a whole number, got '%s' (SimGrid truncates it"
                " to %.0f; an error in strict mode)", p->kw, name, s, v);
  if (v != d)
    pwarn(p, W_FRACTION, "fractional count truncated toward zero, as SimGrid does");
  *out = (int64_t)v;
  return 0;
}

/* A datatype id: the exact strings "-1" and "0" to "59" (SimGrid's id2type_lookup). */
static int dtype_of(const char *s) {
  if (strcmp(s, "-1") == 0)
    return TRACE_DT_NULL;
  size_t n = strlen(s);
  if (n < 1 || n > 2 || (n == 2 && s[0] == '0'))
    return -100;
  int v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -100;
    v = v * 10 + (s[i] - '0');
  }
  return v < 60 ? v : -100;
}

/* An optional datatype field: absent -> TRACE_DT_DEFAULT. */
static int f_dtype(trace_parser *p, int k, const char *name, int *out, char *err,
                   size_t errlen) {
  const char *s = arg(p, k);
  if (!s) {
    *out = TRACE_DT_DEFAULT;
    return 0;
  }
  if ((*out = dtype_of(s)) == -100)
    return perr(p, err, errlen, "%s %s: unknown datatype id '%s' (valid: -1 = NULL, 0 to 59;"
                " common: 0 DOUBLE, 1 INT, 2 CHAR, 3 SHORT, 4 LONG, 5 FLOAT, 6 BYTE)",
                p->kw, name, s);
  return 0;
}

/* An optional root (std::stoi), 0 when absent. */
static int f_root(trace_parser *p, int k, int *out, char *err, size_t errlen) {
  if (!arg(p, k)) {
    *out = 0;
    return 0;
  }
  return f_int(p, k, "ROOT", out, err, errlen);
}

/* np std::stoi elements from argument k into *vec (allocated on first use). */
static int f_vec(trace_parser *p, int k, const char *name, int64_t **vec, char *err,
                 size_t errlen) {
  if (!*vec)
    *vec = x_calloc((size_t)p->np_world, sizeof **vec);
  for (int i = 0; i < p->np; i++) {
    int v;
    if (f_int(p, k + i, name, &v, err, errlen) < 0)
      return -1;
    (*vec)[i] = v;
  }
  return 0;
}

/* ====================================================================================
 * Per-action parsers (argument numbers as in TI_FORMAT.md section 2)
 * ==================================================================================== */

static const op_def *def_of(const trace_action *a) { return &ops[a->op]; }

static int pf_none(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  (void)p, (void)a, (void)err, (void)errlen;
  return 0;
}

static int pf_init(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  (void)err, (void)errlen;
  a->has_arg = p->argc > 2;
  return 0;
}

static int pf_amount(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  return f_double(p, 1, def_of(a)->usage, &a->amount, err, errlen);
}

static int pf_p2p(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int is_send = a->op == TRACE_SEND || a->op == TRACE_ISEND;
  if (f_int(p, 1, is_send ? "DST" : "SRC", &a->peer, err, errlen) < 0 ||
      f_int(p, 2, "TAG", &a->tag, err, errlen) < 0 ||
      f_count(p, 3, "COUNT", R_SSIZE, &a->count, err, errlen) < 0)
    return -1;
  return f_dtype(p, 4, "DATATYPE", &a->dtype, err, errlen);
}

/* wait / test SRC DST TAG; test's FLAG (tir: 0 for a poll that completed nothing, 1 for the
 * completion) is read when it is "0" or "1", else (absent, or another extra argument, which
 * SimGrid ignores) count is -1. */
static int pf_waittest(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  if (f_int(p, 1, "SRC", &a->peer, err, errlen) < 0 ||
      f_int(p, 2, "DST", &a->peer2, err, errlen) < 0)
    return -1;
  const char *flag = arg(p, 4);
  if (a->op == TRACE_TEST)
    a->count = flag && (!strcmp(flag, "0") || !strcmp(flag, "1")) ? flag[0] - '0' : -1;
  return f_int(p, 3, "TAG", &a->tag, err, errlen);
}

static int pf_sendrecv(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  if (f_count(p, 1, "SENDCOUNT", R_INT, &a->count, err, errlen) < 0 ||
      f_int(p, 2, "DST", &a->peer, err, errlen) < 0 ||
      f_count(p, 3, "RECVCOUNT", R_INT, &a->count2, err, errlen) < 0 ||
      f_int(p, 4, "SRC", &a->peer2, err, errlen) < 0 ||
      f_dtype(p, 5, "DT_S", &a->dtype, err, errlen) < 0)
    return -1;
  return f_dtype(p, 6, "DT_R", &a->dtype2, err, errlen);
}

static int pf_bcast(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  if (f_count(p, 1, "COUNT", R_SIZE, &a->count, err, errlen) < 0 ||
      f_root(p, 2, &a->peer, err, errlen) < 0)
    return -1;
  return f_dtype(p, 3, "DATATYPE", &a->dtype, err, errlen);
}

static int pf_reduce(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  if (f_count(p, 1, "COUNT", R_UNSIGNED, &a->count, err, errlen) < 0 ||
      f_double(p, 2, "FLOPS", &a->amount, err, errlen) < 0 ||
      f_root(p, 3, &a->peer, err, errlen) < 0)
    return -1;
  return f_dtype(p, 4, "DATATYPE", &a->dtype, err, errlen);
}

/* allreduce (count is an unsigned), scan, exscan (a size_t): COUNT FLOPS [DT]. */
static int pf_countflops(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  if (f_count(p, 1, "COUNT", def_of(a)->range, &a->count, err, errlen) < 0 ||
      f_double(p, 2, "FLOPS", &a->amount, err, errlen) < 0)
    return -1;
  return f_dtype(p, 3, "DATATYPE", &a->dtype, err, errlen);
}

/* Two counts then datatypes from argument k (alltoall, allgather: k = 3). */
static int two_counts(trace_parser *p, trace_action *a, int k, char *err, size_t errlen) {
  if (f_count(p, 1, "SENDCOUNT", R_INT, &a->count, err, errlen) < 0 ||
      f_count(p, 2, "RECVCOUNT", R_INT, &a->count2, err, errlen) < 0 ||
      f_dtype(p, k, "DT_S", &a->dtype, err, errlen) < 0)
    return -1;
  return f_dtype(p, k + 1, "DT_R", &a->dtype2, err, errlen);
}

static int pf_two(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  return two_counts(p, a, 3, err, errlen);
}

/* gather, scatter: SENDCOUNT RECVCOUNT [ROOT [DT_S [DT_R]]]. */
static int pf_rooted_two(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  if (f_root(p, 3, &a->peer, err, errlen) < 0)
    return -1;
  return two_counts(p, a, 4, err, errlen);
}

static int pf_gatherv(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int n = p->np;
  a->nvec = n;
  if (f_count(p, 1, "SENDCOUNT", R_INT, &a->count, err, errlen) < 0 ||
      f_vec(p, 2, "RECVCOUNTS", &p->vec, err, errlen) < 0 ||
      f_root(p, 2 + n, &a->peer, err, errlen) < 0 ||
      f_dtype(p, 3 + n, "DT_S", &a->dtype, err, errlen) < 0 ||
      f_dtype(p, 4 + n, "DT_R", &a->dtype2, err, errlen) < 0)
    return -1;
  a->vec = p->vec;
  return 0;
}

/* allgatherv's tail is told apart by the token count T (SimGrid's GatherVArgParser):
 * T > 2N+3: DT_S DT_R DISPLS*N; else T > N+5: DISPLS*N; else [DT_S [DT_R]]. A tail
 * too short for its displacements fails SimGrid's assertion: an error here. */
static int pf_allgatherv(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int n = p->np, T = (int)p->argc, dt = 2 + n, disp = 0;
  a->nvec = n;
  if (f_count(p, 1, "SENDCOUNT", R_INT, &a->count, err, errlen) < 0 ||
      f_vec(p, 2, "RECVCOUNTS", &p->vec, err, errlen) < 0)
    return -1;
  a->vec = p->vec;
  if (T > 2 * n + 3)
    disp = 4 + n;
  else if (T > n + 5)
    dt = 0, disp = 2 + n;
  if (disp && disp + 1 + n > T)
    return perr(p, err, errlen, "allgatherv with np = %d takes %d arguments (SENDCOUNT"
                " RECVCOUNTS*np [DT_S [DT_R]]), %d (... DISPLS*np) or %d (... DT_S DT_R"
                " DISPLS*np), got %d", n, n + 1, 2 * n + 1, 2 * n + 3, T - 2);
  if (dt && (f_dtype(p, dt, "DT_S", &a->dtype, err, errlen) < 0 ||
             f_dtype(p, dt + 1, "DT_R", &a->dtype2, err, errlen) < 0))
    return -1;
  int d;
  for (int i = 0; disp && i < n; i++)
    if (f_int(p, disp + i, "DISPLS", &d, err, errlen) < 0)
      return -1;
  return 0;
}

static int pf_scatterv(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int n = p->np;
  a->nvec = n;
  if (f_count(p, 1 + n, "RECVCOUNT", R_INT, &a->count2, err, errlen) < 0 ||
      f_root(p, 2 + n, &a->peer, err, errlen) < 0 ||
      f_dtype(p, 3 + n, "DT_S", &a->dtype, err, errlen) < 0 ||
      f_dtype(p, 4 + n, "DT_R", &a->dtype2, err, errlen) < 0 ||
      f_vec(p, 1, "SENDCOUNTS", &p->vec, err, errlen) < 0)
    return -1;
  a->vec = p->vec;
  return 0;
}

static int pf_reducescatter(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int n = p->np;
  a->nvec = n;
  if (f_double(p, 1 + n, "FLOPS", &a->amount, err, errlen) < 0 ||
      f_dtype(p, 2 + n, "DATATYPE", &a->dtype, err, errlen) < 0 ||
      f_vec(p, 1, "RECVCOUNTS", &p->vec, err, errlen) < 0)
    return -1;
  a->vec = p->vec;
  return 0;
}

static int pf_alltoallv(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int n = p->np;
  a->nvec = n;
  if (f_dtype(p, 3 + 2 * n, "DT_S", &a->dtype, err, errlen) < 0 ||
      f_dtype(p, 4 + 2 * n, "DT_R", &a->dtype2, err, errlen) < 0 ||
      f_count(p, 1, "SENDBUFSIZE", R_INT, &a->count, err, errlen) < 0 ||
      f_count(p, 2 + n, "RECVBUFSIZE", R_INT, &a->count2, err, errlen) < 0 ||
      f_vec(p, 2, "SENDCOUNTS", &p->vec, err, errlen) < 0 ||
      f_vec(p, 3 + n, "RECVCOUNTS", &p->vec2, err, errlen) < 0)
    return -1;
  a->vec = p->vec;
  a->vec2 = p->vec2;
  return 0;
}

static int pf_location(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int line;
  a->str = arg(p, 1);
  if (f_int(p, 2, "LINE", &line, err, errlen) < 0)
    return -1;
  a->count = line;
  return 0;
}

static int pf_region(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  (void)err, (void)errlen;
  a->str = arg(p, 1);
  return 0;
}

/* ====================================================================================
 * Lines
 * ==================================================================================== */

/* Keyword -> op: open addressing on (length, first, second and last bytes), whose
 * weights were chosen (by search) to spread the keywords of keywords.h with few collisions,
 * which linear probing resolves. Filled on first use, before any thread could exist (one
 * reading thread). */
#define KW_SLOTS 128
static signed char kw_slot[KW_SLOTS];
static unsigned char kw_len[TRACE_NOPS];
static int kw_ready;

static unsigned kw_hash(const char *kw, size_t n) {
  unsigned c1 = n > 1 ? (unsigned char)kw[1] : 0;
  return ((unsigned)n + (unsigned char)kw[0] * 4u + c1 * 26u + (unsigned char)kw[n - 1]) %
         KW_SLOTS;
}

static void kw_init(void) {
  memset(kw_slot, -1, sizeof kw_slot);
  for (int op = 0; op < TRACE_NOPS; op++) {
    kw_len[op] = (unsigned char)strlen(kw_name[op]);
    unsigned h = kw_hash(kw_name[op], kw_len[op]);
    while (kw_slot[h] >= 0)
      h = (h + 1) % KW_SLOTS;
    kw_slot[h] = (signed char)op;
  }
  kw_ready = 1;
}

/* The op of keyword [kw, kw + n) (n >= 1), or -1. */
static int lookup_n(const char *kw, size_t n) {
  if (!kw_ready)
    kw_init();
  for (unsigned h = kw_hash(kw, n); kw_slot[h] >= 0; h = (h + 1) % KW_SLOTS) {
    int op = kw_slot[h];
    if (kw_len[op] == n && memcmp(kw_name[op], kw, n) == 0)
      return op;
  }
  return -1;
}

/* The op of the NUL-terminated keyword kw, or -1. */
static int lookup(const char *kw) {
  size_t n = strlen(kw);
  return n ? lookup_n(kw, n) : -1;
}

static int unknown_action(trace_parser *p, const char *kw, char *err, size_t errlen) {
  char valid[1024] = "";
  size_t w = 0;
  const char *hint = "";
  for (int op = 0; op < TRACE_NOPS; op++) {
    if (w < sizeof valid)
      w += (size_t)snprintf(valid + w, sizeof valid - w, "%s%s", op ? " " : "", kw_name[op]);
    if (strcasecmp(kw_name[op], kw) == 0)
      hint = kw_name[op];
  }
  char k[64];
  if (*hint)
    return perr(p, err, errlen, "unknown action '%s' (keywords are case-sensitive: did you"
                " mean '%s'?)", escaped(kw, k, sizeof k), hint);
  return perr(p, err, errlen, "unknown action '%s' (valid: %s)", escaped(kw, k, sizeof k),
              valid);
}

/* Checks the argument count against the table (SimGrid's CHECK_ACTION_PARAMS). */
static int check_count(trace_parser *p, const op_def *d, char *err, size_t errlen) {
  int got = (int)p->argc - 2, mand = d->mand + d->mand_np * p->np;
  if (d->opt < 0 || got >= mand)
    return 0;
  char np[32] = "";
  if (d->mand_np)
    snprintf(np, sizeof np, " for np = %d", p->np);
  if (d->opt == 0)
    return perr(p, err, errlen, "%s needs %d argument%s%s (%s), got %d", kw_name[d - ops], mand,
                mand == 1 ? "" : "s", np, d->usage, got);
  return perr(p, err, errlen, "%s needs %d to %d arguments%s (%s), got %d", kw_name[d - ops], mand,
              mand + d->opt, np, d->usage, got);
}

/* The rank field t (n bytes): a rank, TRACE_LINE_NOMATCH or TRACE_LINE_BADRANK. */
static int rank_token(const char *t, size_t n) {
  size_t i = (t[0] == '+' || t[0] == '-');
  if (i == n)
    return TRACE_LINE_BADRANK;
  long long v = 0;
  for (size_t j = i; j < n; j++) {
    if (t[j] < '0' || t[j] > '9')
      return TRACE_LINE_BADRANK;
    v = v > INT_MAX ? v : v * 10 + (t[j] - '0');
  }
  if (i || (t[0] == '0' && n > 1) || v > INT_MAX)
    return TRACE_LINE_NOMATCH;
  return (int)v;
}

static int rank_field(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  const char *r = p->argv[0];
  int rank = rank_token(r, strlen(r));
  if (rank == TRACE_LINE_BADRANK)
    return perr(p, err, errlen, "the first field must be a rank number, got '%s'", r);
  if (rank < 0)
    return perr(p, err, errlen, "rank field '%s' is not written as SimGrid writes ranks"
                " (decimal, no sign, no leading zero): no rank matches it", r);
  a->rank = rank;
  return 0;
}


/* tir's communicator extension: "R comm ID ACTION ARGS..." runs a collective on the
 * communicator ID, created earlier by a comm_split/comm_dup/comm_create line of the same
 * trace (whose size the parser remembers: count vectors then have that many elements).
 * The two tokens are removed, so the action parses as usual. Returns 0 or -1 (err). */
static int comm_prefix(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  a->comm_size = p->np = p->np_world;
  if (p->argc < 2 || strcmp(p->argv[1], TRACE_KW_COMM))
    return 0;
  int id, clean = 1;
  if (p->argc < 4 || stoi_like(p->argv[2], &id, &clean) < 0 || !clean || id < 1)
    return perr(p, err, errlen, "comm needs a communicator ID >= 1 and an action (comm ID ACTION ...)");
  int size = (size_t)id < p->ncsize ? p->csize[id] : 0;
  if (size <= 0)
    return perr(p, err, errlen, "communicator %d is used before a comm_split, comm_dup or comm_create line "
                "created it", id);
  a->comm = id;
  a->comm_size = p->np = size;
  memmove(p->argv + 1, p->argv + 3, (p->argc - 3) * sizeof *p->argv);
  p->argc -= 2;
  return 0;
}

/* Remembers that communicator id has size members (for later "comm ID" lines). */
static void remember_comm(trace_parser *p, int id, int size) {
  if (id < 1)
    return;
  if ((size_t)id >= p->ncsize) {
    size_t n = (size_t)id + 16;
    p->csize = x_realloc(p->csize, n * sizeof *p->csize);
    memset(p->csize + p->ncsize, 0, (n - p->ncsize) * sizeof *p->csize);
    p->ncsize = n;
  }
  p->csize[id] = size;
}

/* comm_split / comm_dup / comm_create ID SIZE w0 .. w(SIZE-1) (tir, as tir-trace writes
 * them; ID -1 SIZE 0: the rank got MPI_COMM_NULL); without arguments: SimGrid's no-op. */
static int pf_comm(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int id, size, got = (int)p->argc - 2, clean = 1;
  if (got == 0 && a->op != TRACE_COMM_CREATE)
    return 0;
  if (a->op != TRACE_COMM_CREATE && !p->opts.strict && (stoi_like(p->argv[2], &id, &clean) < 0 || !clean))
    return 0; /* not tir's form: SimGrid ignores comm_split/comm_dup's arguments */
  if (got < 2 || f_int(p, 1, "ID", &id, err, errlen) < 0 || f_int(p, 2, "SIZE", &size, err, errlen) < 0)
    return got < 2 ? perr(p, err, errlen, "%s needs ID SIZE w0 .. w(SIZE-1), got %d argument%s", p->kw, got,
                          got == 1 ? "" : "s")
                   : -1;
  if (id == -1 && size == 0) {
    a->count = -1;
    a->has_arg = 1;
    return 0;
  }
  if (id < 1 || size < 1 || size > p->np_world)
    return perr(p, err, errlen, "%s: bad ID %d or SIZE %d (ID >= 1, 1 <= SIZE <= %d; or -1 0)", p->kw, id, size,
                p->np_world);
  if (got < 2 + size)
    return perr(p, err, errlen, "%s with SIZE %d needs %d arguments (ID SIZE and %d world ranks), got %d", p->kw,
                size, 2 + size, size, got);
  int np = p->np;
  p->np = size;
  int rc = f_vec(p, 3, "member", &p->vec, err, errlen);
  p->np = np;
  if (rc < 0)
    return -1;
  a->vec = p->vec;
  a->nvec = size;
  a->count = id;
  a->has_arg = 1;
  remember_comm(p, id, size);
  return 0;
}

/* probe SRC TAG / iprobe SRC TAG FLAG (tir). */
static int pf_probe(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int flag = 0;
  if (f_int(p, 1, "SRC", &a->peer, err, errlen) < 0 || f_int(p, 2, "TAG", &a->tag, err, errlen) < 0 ||
      (a->op == TRACE_IPROBE && f_int(p, 3, "FLAG", &flag, err, errlen) < 0))
    return -1;
  a->count = flag;
  return 0;
}

/* ---- one-sided communication (tir extension) ---------------------------------------- */

/* win_create / win_allocate / win_allocate_shared WIN COMM BYTES, win_create_dynamic WIN
 * COMM: the window's communicator (0: MPI_COMM_WORLD, else one a comm_split, comm_dup or
 * comm_create line created before) goes to comm (and its size to comm_size). */
static int pf_win_create(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int comm;
  if (f_int(p, 1, "WIN", &a->win, err, errlen) < 0 || f_int(p, 2, "COMM", &comm, err, errlen) < 0 ||
      (a->op != TRACE_WIN_CREATE_DYNAMIC && f_count(p, 3, "BYTES", R_SSIZE, &a->count, err, errlen) < 0))
    return -1;
  int size = comm == 0 ? p->np_world : comm > 0 && (size_t)comm < p->ncsize ? p->csize[comm] : 0;
  if (size <= 0)
    return perr(p, err, errlen, "%s: communicator %d is used before a comm_split, comm_dup or comm_create line "
                "created it", p->kw, comm);
  a->comm = comm;
  a->comm_size = size;
  return 0;
}

/* The window synchronisations: WIN [TARGET [EXCLUSIVE]] as the op takes them (ops[]'s mand);
 * EXCLUSIVE (win_lock: 1 exclusive, 0 shared) goes to count. */
static int pf_win(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int n = ops[a->op].mand, excl = 0;
  if (f_int(p, 1, "WIN", &a->win, err, errlen) < 0 || (n > 1 && f_int(p, 2, "TARGET", &a->peer, err, errlen) < 0) ||
      (n > 2 && f_int(p, 3, "EXCLUSIVE", &excl, err, errlen) < 0))
    return -1;
  if (excl != 0 && excl != 1)
    return perr(p, err, errlen, "%s EXCLUSIVE must be 1 (MPI_LOCK_EXCLUSIVE) or 0 (MPI_LOCK_SHARED), got %d", p->kw,
                excl);
  a->count = excl;
  return 0;
}

/* win_post / win_start WIN SIZE w0 .. w(SIZE-1): the group, as world ranks, in vec. */
static int pf_win_group(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int size, got = (int)p->argc - 2;
  if (f_int(p, 1, "WIN", &a->win, err, errlen) < 0 || f_int(p, 2, "SIZE", &size, err, errlen) < 0)
    return -1;
  if (size < 0 || size > p->np_world)
    return perr(p, err, errlen, "%s: bad SIZE %d (0 to %d)", p->kw, size, p->np_world);
  if (got < 2 + size)
    return perr(p, err, errlen, "%s with SIZE %d needs %d arguments (WIN SIZE and %d world ranks), got %d", p->kw,
                size, 2 + size, size, got);
  int np = p->np;
  p->np = size;
  int rc = f_vec(p, 3, "group member", &p->vec, err, errlen);
  p->np = np;
  a->vec = p->vec;
  a->nvec = size;
  return rc;
}

/* put, get, accumulate (and r*) WIN TARGET BYTES; get_accumulate, fetch_and_op,
 * compare_and_swap (and rget_accumulate) WIN TARGET SBYTES RBYTES: count is what goes to
 * the target, count2 what comes back (get: count2 = BYTES, count = 0). */
static int pf_rma(trace_parser *p, trace_action *a, char *err, size_t errlen) {
  int two = ops[a->op].mand == 4;
  if (f_int(p, 1, "WIN", &a->win, err, errlen) < 0 || f_int(p, 2, "TARGET", &a->peer, err, errlen) < 0 ||
      f_count(p, 3, two ? "SBYTES" : "BYTES", R_SSIZE, &a->count, err, errlen) < 0 ||
      (two && f_count(p, 4, "RBYTES", R_SSIZE, &a->count2, err, errlen) < 0))
    return -1;
  if (a->op == TRACE_GET || a->op == TRACE_RGET) {
    a->count2 = a->count;
    a->count = 0;
  }
  return 0;
}

/* The general path: the trimmed, non-blank line [line, line + len), copied and split. */
static int parse_general(trace_parser *p, const char *file, long lineno, const char *line,
                         size_t len, trace_action *a, char *err, size_t errlen) {
  p->file = file;
  p->lineno = lineno;
  int nul = split(p, line, len);
  clear_action(a, file, lineno, p->text);
  if (nul < 0)
    return perr(p, err, errlen, "the line holds a NUL byte (shown as '?'): not a text trace");
  if (rank_field(p, a, err, errlen) < 0)
    return -1;
  if (p->argc < 2)
    return perr(p, err, errlen, "missing action keyword after the rank");
  if (comm_prefix(p, a, err, errlen) < 0)
    return -1;
  int op = lookup(p->argv[1]);
  if (op < 0 && p->argv[1][0] == 'i' && (op = lookup(p->argv[1] + 1)) >= 0) {
    if (!is_collective(op))
      op = -1;
    else
      a->nbc = 1; /* tir extension: ibcast, iallreduce, ... */
  }
  if (op < 0)
    return unknown_action(p, p->argv[1], err, errlen);
  a->op = (trace_op)op;
  p->kw = kw_name[op];
  if (check_count(p, &ops[op], err, errlen) < 0 || ops[op].parse(p, a, err, errlen) < 0)
    return -1;
  return 1;
}

/* The fast path on the trimmed, non-blank line [s, s + n), with s[n] writable: 1 (the
 * action in *a, text s) or 0 (*a to be rebuilt). Leaves a NUL in s[n]. */
static int fast_bounded(trace_parser *p, const char *file, long lineno, char *s, size_t n,
                        trace_action *a) {
  s[n] = '\n'; /* a newline inside the line stops the fast path before s + n */
  int ok = fast_line(p, -1, s, a) == s + n;
  a->file = file;
  a->line = lineno;
  s[n] = '\0';
  return ok;
}

int trace_parse_line(trace_parser *p, const char *file, long lineno, const char *line,
                     size_t len, trace_action *a, char *err, size_t errlen) {
  trim(&line, &len);
  if (len == 0 || line[0] == '#')
    return 0;
  if (p->fast) { /* a copy in text, which the general path rebuilds if it takes over */
    reserve(p, len);
    memcpy(p->text, line, len);
    if (fast_bounded(p, file, lineno, p->text, len, a))
      return 1;
  }
  return parse_general(p, file, lineno, line, len, a, err, errlen);
}

int trace_parse_inplace(trace_parser *p, int want, const char *file, long lineno, char *line,
                        size_t len, trace_action *a, char *err, size_t errlen) {
  int r = trace_line_rank(line, len);
  if (r == TRACE_LINE_BLANK)
    return 0;
  if (want >= 0 && r != want)
    return TRACE_PARSE_OTHER;
  char *s = line;
  trim((const char **)&s, &len);
  if (p->fast && fast_bounded(p, file, lineno, s, len, a))
    return 1;
  s[len] = '\0'; /* a trimmed byte, or the one past the line */
  return parse_general(p, file, lineno, s, len, a, err, errlen);
}

char *trace_parse_fast(trace_parser *p, int want, const char *file, long lineno, char *s,
                       trace_action *a) {
  char *nl = (char *)fast_line(p, want, s, a);
  if (nl) {
    *nl = '\0';
    a->file = file;
    a->line = lineno;
  }
  return nl;
}

void trace_parser_fast(trace_parser *p, int on) {
  p->fast = on;
  p->key_rank = INT_MIN;
}

/* ====================================================================================
 * Rank field of a raw line
 * ==================================================================================== */

int trace_line_rank(const char *line, size_t len) {
  if (len > 1 && is_digit(line[0])) { /* the usual "RANK " (canonical, < 10^9) at once */
    int v = line[0] - '0';
    size_t i = 1;
    while (v && i < len && i < 9 && is_digit(line[i]))
      v = v * 10 + (line[i++] - '0');
    if (i < len && line[i] == ' ')
      return v;
  }
  trim(&line, &len);
  if (len == 0 || line[0] == '#')
    return TRACE_LINE_BLANK;
  size_t n = 0;
  while (n < len && line[n] != ' ' && line[n] != '\t')
    n++;
  return rank_token(line, n);
}
