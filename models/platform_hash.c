/* platform_hash.c - the two hash maps of the platform: names -> ids, pairs -> routes.
 *
 * Open addressing with linear probing in a power-of-two table kept at most half full,
 * so a lookup touches O(1) slots on average. Keys are never removed (a platform only
 * grows while it is built). strmap does not own its keys: they point into strings the
 * platform owns and keeps until plat_free(). u64map stores key + 1 so that 0 marks an
 * empty slot (np_pair() never yields UINT64_MAX for valid netpoints). */
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

/* FNV-1a: small, good enough for identifiers. */
static size_t str_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return (size_t)h;
}

/* splitmix64 finaliser */
static size_t u64_hash(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return (size_t)x;
}

/* ---------------------------------------------------------------- strmap */
static size_t str_slot(const strmap *m, const char *key) {
  size_t i = str_hash(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key) != 0)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void str_grow(strmap *m) {
  strmap bigger = {x_calloc(m->cap ? m->cap * 2 : 16, sizeof(char *)), NULL,
                   m->cap ? m->cap * 2 : 16, 0};
  bigger.vals = x_calloc(bigger.cap, sizeof(int));
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) {
      size_t j = str_slot(&bigger, m->keys[i]);
      bigger.keys[j] = m->keys[i];
      bigger.vals[j] = m->vals[i];
      bigger.n++;
    }
  plat_strmap_free(m);
  *m = bigger;
}

int plat_strmap_get(const strmap *m, const char *key) {
  if (m->cap == 0)
    return -1;
  size_t i = str_slot(m, key);
  return m->keys[i] ? m->vals[i] : -1;
}

int plat_strmap_put(strmap *m, const char *key, int val) {
  if (2 * (m->n + 1) > m->cap)
    str_grow(m);
  size_t i = str_slot(m, key);
  if (m->keys[i])
    return m->vals[i];
  m->keys[i] = key;
  m->vals[i] = val;
  m->n++;
  return -1;
}

void plat_strmap_free(strmap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- u64map */
static size_t u64_slot(const u64map *m, uint64_t stored) {
  size_t i = u64_hash(stored) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != stored)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void u64_grow(u64map *m) {
  u64map bigger = {x_calloc(m->cap ? m->cap * 2 : 16, sizeof(uint64_t)), NULL,
                   m->cap ? m->cap * 2 : 16, 0};
  bigger.vals = x_calloc(bigger.cap, sizeof(int));
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) {
      size_t j = u64_slot(&bigger, m->keys[i]);
      bigger.keys[j] = m->keys[i];
      bigger.vals[j] = m->vals[i];
      bigger.n++;
    }
  plat_u64map_free(m);
  *m = bigger;
}

int plat_u64map_get(const u64map *m, uint64_t key) {
  if (m->cap == 0)
    return -1;
  size_t i = u64_slot(m, key + 1);
  return m->keys[i] ? m->vals[i] : -1;
}

int plat_u64map_put(u64map *m, uint64_t key, int val) {
  if (2 * (m->n + 1) > m->cap)
    u64_grow(m);
  size_t i = u64_slot(m, key + 1);
  if (m->keys[i])
    return m->vals[i];
  m->keys[i] = key + 1;
  m->vals[i] = val;
  m->n++;
  return -1;
}

void plat_u64map_free(u64map *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}
