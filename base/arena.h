/* arena.h - objects of any size carved one after the other from large blocks, never freed
 * one by one: arena_destroy frees them all. For what lives until the end and is made once
 * per key, in numbers: the engine's cached routes, one per host pair (4.2 M at 2,048 ranks
 * with one a host), where a malloc of each would add its 8-byte header and its rounding to
 * 16 bytes. An object is aligned on 8 bytes; its address never changes. */
#ifndef TIR_ARENA_H
#define TIR_ARENA_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define ARENA_FN static __attribute__((unused))

#define ARENA_BLOCK ((size_t)64 << 10) /* bytes a block holds (more for a larger object) */

typedef struct arena_block {
  struct arena_block *prev; /* the block filled before it */
  _Alignas(8) char data[];
} arena_block;

typedef struct arena {
  arena_block *last; /* the block being filled, NULL before the first object */
  size_t used, size; /* its bytes given out, and its capacity */
} arena;

ARENA_FN void arena_init(arena *a) { memset(a, 0, sizeof *a); }

/* size bytes, uninitialised, never NULL. */
ARENA_FN void *arena_alloc(arena *a, size_t size) {
  size = (size + 7) & ~(size_t)7;
  if (!a->last || a->size - a->used < size) {
    size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
    arena_block *b = x_malloc(sizeof *b + cap);
    b->prev = a->last;
    a->last = b;
    a->used = 0;
    a->size = cap;
  }
  void *p = a->last->data + a->used;
  a->used += size;
  return p;
}

ARENA_FN void arena_destroy(arena *a) {
  for (arena_block *b = a->last, *prev; b; b = prev) {
    prev = b->prev;
    free(b);
  }
  memset(a, 0, sizeof *a);
}

#endif
