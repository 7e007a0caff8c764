/* xalloc.c - allocate memory or exit: tir's single out-of-memory policy. */
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void x_oom(void) {
  fputs("tir: out of memory\n", stderr);
  exit(TIR_EXIT_NOMEM); /* atexit handlers run: output.c removes its temporary files */
}

static void *check(void *p) {
  if (!p)
    x_oom();
  return p;
}

void *x_malloc(size_t n) { return check(malloc(n ? n : 1)); }

void *x_malloc_lines(size_t n) {
  size_t lines = n ? (n - 1) / X_LINE + 1 : 1; /* (aligned_alloc: a multiple of X_LINE) */
  if (lines > SIZE_MAX / X_LINE)
    x_oom();
  return check(aligned_alloc(X_LINE, lines * X_LINE));
}

void *x_calloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1)); }
void *x_realloc(void *p, size_t n) { return check(realloc(p, n ? n : 1)); }
char *x_strdup(const char *s) { return check(strdup(s)); }

char *x_asprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = x_malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

void x_grow(void *arr, size_t *cap, size_t need, size_t elt) {
  if (need <= *cap)
    return;
  size_t n = *cap ? *cap : 8;
  while (n < need)
    n *= 2;
  void **a = arr;
  *a = x_realloc(*a, n * elt);
  *cap = n;
}

int x_err(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}
