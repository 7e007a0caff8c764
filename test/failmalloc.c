/* failmalloc.c - a capped allocator for tests (LD_PRELOAD): every allocation from the Nth
 * on fails, as when memory runs out for good (lua's ltests.c memory limit, done from outside).
 *
 * TIR_FAIL_AT=N (N >= 1): malloc, calloc, realloc, posix_memalign and aligned_alloc return
 * NULL with ENOMEM from the Nth call on (counting all of them, including those glibc makes
 * for stdio or getline and those of zlib and libxml2). TIR_FAIL_COUNT set: the number of
 * calls made is written to standard error at exit ("allocations: N"), to size a sweep.
 * free is left alone: the blocks come from glibc's own allocator (__libc_*). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static long calls, fail_at;

__attribute__((constructor)) static void init(void) {
  const char *s = getenv("TIR_FAIL_AT");
  fail_at = s ? atol(s) : 0;
}

__attribute__((destructor)) static void report(void) {
  if (getenv("TIR_FAIL_COUNT")) {
    char b[64];
    int n = snprintf(b, sizeof b, "allocations: %ld\n", calls);
    if (write(2, b, (size_t)n) < 0)
      _exit(99);
  }
}

/* 1 when this call must fail. */
static int fail(void) {
  calls++;
  if (fail_at > 0 && calls >= fail_at) {
    errno = ENOMEM;
    return 1;
  }
  return 0;
}

void *malloc(size_t n) { return fail() ? NULL : __libc_malloc(n); }
void *calloc(size_t n, size_t size) { return fail() ? NULL : __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { return fail() ? NULL : __libc_realloc(p, n); }
void *aligned_alloc(size_t align, size_t n) { return fail() ? NULL : __libc_memalign(align, n); }
int posix_memalign(void **p, size_t align, size_t n) {
  if (fail())
    return ENOMEM;
  *p = __libc_memalign(align, n);
  return *p ? 0 : ENOMEM;
}
