/* timeline_sort.c - records of a timeline put back in time order (Paje, Paraver).
 *
 * The replay reports an interval when it ends, so the records of a sorted format come
 * with start times out of order. Their text goes to an anonymous temporary file as it
 * comes; memory holds only a 24-byte index entry per record (key, tie-break, length,
 * offset). At the end the index is sorted by (key, order, offset) - the offset keeps
 * records with equal keys in the order they were added - and the records are copied
 * out in that order.
 *
 * Cost: 24 bytes of memory per record (a 10 M-action Paje trace needs ~0.5 GB) and one
 * seek per record at the end. The better design, not built: an external merge sort of
 * sorted runs, bounded memory whatever the trace size. */
#include "timeline_impl.h"

#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  double key;   /* time of the record (s) */
  int32_t order; /* tie-break between equal keys (smaller first) */
  uint32_t len;  /* bytes of text */
  uint64_t off;  /* offset in the spill file (also the order of arrival) */
} entry;
_Static_assert(sizeof(entry) == 24, "index entries are 24 bytes");

struct tl_sort {
  FILE *spill;   /* anonymous temporary file of the records' text */
  uint64_t size; /* bytes written to it */
  entry *v;      /* index, one entry per record */
  size_t n, cap;
};

tl_sort *tl_sort_new(char *err, size_t errlen) {
  FILE *f = tmpfile();
  if (!f && errno == ENOMEM)
    x_oom();
  if (!f) {
    x_err(err, errlen, "cannot create a temporary file to sort the timeline: %s", strerror(errno));
    return NULL;
  }
  tl_sort *s = x_calloc(1, sizeof *s);
  s->spill = f;
  return s;
}

void tl_sort_add(tl_sort *s, double key, int order, const char *text, size_t len) {
  x_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
  s->v[s->n++] = (entry){.key = key, .order = order, .len = (uint32_t)len, .off = s->size};
  fwrite(text, 1, len, s->spill);
  s->size += len;
}

static int cmp(const void *a, const void *b) {
  const entry *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  return x->off < y->off ? -1 : x->off > y->off;
}

int tl_sort_write(tl_sort *s, FILE *out) {
  if (fflush(s->spill) != 0 || ferror(s->spill))
    return -1;
  if (s->n > 1) /* (v is NULL when there is no record: qsort(NULL, 0) is undefined) */
    qsort(s->v, s->n, sizeof *s->v, cmp);
  char *buf = NULL;
  size_t cap = 0;
  int rc = 0;
  for (size_t i = 0; i < s->n && rc == 0; i++) {
    const entry *e = &s->v[i];
    x_grow(&buf, &cap, e->len + 1, 1);
    if (fseeko(s->spill, (off_t)e->off, SEEK_SET) != 0 || fread(buf, 1, e->len, s->spill) != e->len) {
      if (!errno)
        errno = EIO;
      rc = -1;
    } else if (fwrite(buf, 1, e->len, out) != e->len)
      rc = -1;
  }
  free(buf);
  return rc;
}

size_t tl_sort_count(const tl_sort *s) { return s->n; }

void tl_sort_free(tl_sort *s) {
  if (!s)
    return;
  fclose(s->spill);
  free(s->v);
  free(s);
}
