/* pool.h - fixed-size objects carved from chunks, recycled through a free list: the
 * solver's elements, variables, classes and edges, the engine's actions and twins. A
 * recycled object's first word links the free list; pool_destroy frees every chunk, the
 * objects still taken with them. Chunks start on a cache line (x_malloc_lines), so that an
 * object of 64 bytes is one line and a larger one made of whole lines starts one (malloc's
 * 16-byte alignment would put three in four 64-byte objects across two lines: 4.8 % more L1
 * misses on issue 15's 256-rank mix with 4 ranks a host, doc/performance.md). */
#ifndef TIR_POOL_H
#define TIR_POOL_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Static, not inline: each file's compiler decides as for a function of its own. */
#define POOL_FN static __attribute__((unused))

#define POOL_CHUNK 256 /* objects per chunk */

typedef struct pool {
  size_t size;     /* object size, rounded up to a multiple of sizeof(void *) */
  void *free_list; /* recycled objects, linked through their first word */
  void **chunks;   /* every chunk allocated, freed by pool_destroy */
  size_t nchunks;  /* chunks in use */
  size_t cap;      /* capacity of chunks */
} pool;

POOL_FN void pool_init(pool *p, size_t size) {
  memset(p, 0, sizeof *p);
  p->size = (size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
}

POOL_FN void pool_add_chunk(pool *p) {
  char *chunk = x_malloc_lines(p->size * POOL_CHUNK); /* (a 64-byte object: one line) */
  x_grow(&p->chunks, &p->cap, p->nchunks + 1, sizeof *p->chunks);
  p->chunks[p->nchunks++] = chunk;
  for (size_t i = POOL_CHUNK; i-- > 0;) {
    void **obj = (void **)(chunk + i * p->size);
    *obj = p->free_list;
    p->free_list = obj;
  }
}

/* An object with unspecified contents; never NULL. Inline: one per flow, in a few places. */
POOL_FN inline __attribute__((always_inline)) void *pool_take(pool *p) {
  if (!p->free_list)
    pool_add_chunk(p);
  void **obj = p->free_list;
  p->free_list = *obj;
  return obj;
}

/* A zeroed object; never NULL. */
POOL_FN void *pool_get(pool *p) {
  void *obj = pool_take(p);
  memset(obj, 0, p->size);
  return obj;
}

POOL_FN void pool_put(pool *p, void *obj) {
  *(void **)obj = p->free_list;
  p->free_list = obj;
}

POOL_FN void pool_destroy(pool *p) {
  for (size_t i = 0; i < p->nchunks; i++)
    free(p->chunks[i]);
  free(p->chunks);
  memset(p, 0, sizeof *p);
}

#endif
