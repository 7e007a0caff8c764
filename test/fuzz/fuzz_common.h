/* fuzz_common.h - what the libFuzzer harnesses share: the input as a file.
 *
 * tir reads its inputs from regular files (inputs.h), so each input is written to one
 * temporary file per process, rewritten in place for every input (its identity, noted
 * by inputs_open, stays the same: the list of inputs does not grow). */
#ifndef TIR_FUZZ_COMMON_H
#define TIR_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file holding data[0, n) (created on first use, removed at exit): its path. */
static const char *fuzz_file(const char *suffix, const uint8_t *data, size_t n);

static char fuzz_paths[4][64];
static int fuzz_nfiles;

static void fuzz_cleanup(void) {
  for (int i = 0; i < fuzz_nfiles; i++)
    unlink(fuzz_paths[i]);
}

/* The file of this suffix (one per suffix, at most 4), with data as its whole content. */
static const char *fuzz_file(const char *suffix, const uint8_t *data, size_t n) {
  int i = 0;
  while (i < fuzz_nfiles && !strstr(fuzz_paths[i], suffix))
    i++;
  if (i == fuzz_nfiles) {
    if (i == 4)
      abort();
    snprintf(fuzz_paths[i], sizeof fuzz_paths[i], "/tmp/tir-fuzz-%ld%s", (long)getpid(), suffix);
    if (fuzz_nfiles++ == 0)
      atexit(fuzz_cleanup);
  }
  FILE *f = fopen(fuzz_paths[i], "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0)
    abort();
  return fuzz_paths[i];
}

#endif
