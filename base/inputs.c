/* inputs.c - opening the run's input files safely, and the list of their identities.
 *
 * inputs_open opens with O_NONBLOCK (a FIFO opens at once even without a writer), checks
 * the type with fstat on the open descriptor (no race between a stat and the open), then
 * clears O_NONBLOCK. The identities noted are kept in a hash table (one entry per input
 * file, up to one per rank). A match is confirmed by a stat of the path noted, so that an
 * input deleted since (its inode reused by a new file, as in the unit tests' temporary
 * files) is no longer one. */
#include "inputs.h"

#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ident {
  dev_t dev;
  ino_t ino;
  char *path; /* as last opened (NULL: free slot); a match is confirmed by stat of it (the
                 inode of a file deleted since may belong to a new one) */
} ident;

/* The identities noted: an open-addressing hash table (linear probing, at most half full),
 * one entry per (device, inode), so that noting the files of a per-rank trace, each opened
 * twice, stays linear in their number. */
static ident *noted;
static size_t nnoted, cap;

const char *inputs_kind(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISDIR(mode))
    return "a directory";
  return S_ISREG(mode) ? "a regular file" : "not a regular file";
}

/* The slot of (dev, ino): its entry, or the free slot where it would go. */
static ident *slot(dev_t dev, ino_t ino) {
  uint64_t h = ((uint64_t)dev * 0x9E3779B97F4A7C15u) ^ ((uint64_t)ino * 0xC2B2AE3D27D4EB4Fu);
  size_t i = (size_t)(h ^ (h >> 31)) & (cap - 1);
  while (noted[i].path && !(noted[i].dev == dev && noted[i].ino == ino))
    i = (i + 1) & (cap - 1);
  return &noted[i];
}

static void grow(void) {
  ident *old = noted;
  size_t ocap = cap;
  cap = cap ? 2 * cap : 64;
  noted = x_calloc(cap, sizeof *noted);
  for (size_t i = 0; i < ocap; i++)
    if (old[i].path)
      *slot(old[i].dev, old[i].ino) = old[i];
  free(old);
}

static void note(const char *path, const struct stat *st) {
  if (2 * (nnoted + 1) > cap)
    grow();
  ident *e = slot(st->st_dev, st->st_ino);
  if (e->path && !strcmp(e->path, path))
    return;
  if (!e->path)
    nnoted++;
  free(e->path);
  *e = (ident){st->st_dev, st->st_ino, x_strdup(path)};
}

int inputs_contains(const struct stat *st) {
  struct stat now;
  if (!cap)
    return 0;
  const ident *e = slot(st->st_dev, st->st_ino);
  return e->path && stat(e->path, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

void inputs_note(const char *path) {
  struct stat st;
  if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode))
    note(path, &st);
}

/* The reasons of a refusal, one per file type (static: *why points to them). */
static const char *refusal(mode_t mode) {
  if (S_ISFIFO(mode))
    return "not a regular file (a FIFO: tir reads its inputs from regular files only)";
  if (S_ISCHR(mode))
    return "not a regular file (a character device: tir reads its inputs from regular files only)";
  if (S_ISDIR(mode))
    return "Is a directory";
  return "not a regular file (tir reads its inputs from regular files only)";
}

int inputs_open(const char *path, struct stat *st, const char **why) {
  struct stat own;
  if (!st)
    st = &own;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *why = strerror(errno);
    return -1;
  }
  int bad = fstat(fd, st) < 0 ? errno : 0;
  if (bad || !S_ISREG(st->st_mode)) {
    *why = bad ? strerror(bad) : refusal(st->st_mode);
    close(fd);
    return -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  note(path, st);
  return fd;
}

FILE *inputs_fopen(const char *path, const char **why) {
  int fd = inputs_open(path, NULL, why);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
  if (fd >= 0 && !f) {
    if (errno == ENOMEM) /* (its buffer) */
      x_oom();
    *why = strerror(errno);
    close(fd);
  }
  return f;
}
