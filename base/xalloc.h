/* xalloc.h - the out-of-memory policy of tir, in one place.
 *
 * tir never tries to survive an allocation failure half-way through a replay: the
 * functions below allocate or print one message and exit with TIR_EXIT_NOMEM.
 * Error messages and exit codes shared by every program live here too. */
#ifndef TIR_XALLOC_H
#define TIR_XALLOC_H

#include <stddef.h>
#include <stdarg.h>

/* Exit codes of every tir program (named, as jq does). */
enum tir_exit {
  TIR_EXIT_OK = 0,
  TIR_EXIT_FAILURE = 1, /* the replay ran but found an error (deadlock, unmatched message) */
  TIR_EXIT_USAGE = 2,   /* bad command line */
  TIR_EXIT_INPUT = 3,   /* bad input: trace, platform, hostfile, configuration */
  TIR_EXIT_IO = 4,      /* cannot read or write a file */
  TIR_EXIT_NOMEM = 5    /* out of memory */
};

/* Prints "tir: out of memory" and exits with TIR_EXIT_NOMEM: for allocations made by
 * libraries (zlib's Z_MEM_ERROR, libxml2's XML_ERR_NO_MEMORY, stdio's ENOMEM), which must
 * end the same way as tir's own. */
_Noreturn void x_oom(void);

void *x_malloc(size_t n);              /* never returns NULL */
void *x_calloc(size_t n, size_t size); /* never returns NULL */
void *x_realloc(void *p, size_t n);    /* never returns NULL */
char *x_strdup(const char *s);         /* never returns NULL */
/* n bytes starting on a cache line (X_LINE bytes), freed by free(): the chunks that pools
 * carve objects of a line or a few from, so that an object of 64 bytes is one line, not
 * two (malloc gives 16-byte alignment). Never returns NULL. */
#define X_LINE 64
void *x_malloc_lines(size_t n);
char *x_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (of *cap elements of size elt) so that it holds at least need elements. */
void x_grow(void *arr, size_t *cap, size_t need, size_t elt);

/* snprintf into err (if err != NULL and errlen > 0); always returns -1 so that
 * callers can write `return x_err(err, errlen, "...")`. */
int x_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
