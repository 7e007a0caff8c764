/* inputs.h - the files a run reads: opened without hanging, regular files only, and
 * remembered so that no output of the run replaces one of them.
 *
 * Every reader of a file given by the user (platform, hostfile, trace index and trace
 * files, trace.meta) opens it through inputs_open. A FIFO, a device or a socket is
 * refused: tir reads some inputs more than once (a trace's first line tells an index from
 * a trace, --validate and the replay both read the traces), a FIFO with no writer would
 * block the open forever and /dev/zero never ends. The open itself is non-blocking, so
 * refusing a FIFO never waits for a writer. Each file opened is noted by identity
 * (device, inode, path); output.c refuses to write over a noted file (`--timeline
 * trace.txt`). The list lives as long as the process (one entry per file). */
#ifndef TIR_INPUTS_H
#define TIR_INPUTS_H

#include <stdio.h>
#include <sys/stat.h>

/* Opens path for reading (close-on-exec, blocking reads). Returns the descriptor, or -1
 * with *why set to a static reason ("No such file or directory", "not a regular file
 * (a FIFO)", ...), nothing left open. The file's identity is noted (inputs_is_input).
 * st, when not NULL, receives the file's fstat. */
int inputs_open(const char *path, struct stat *st, const char **why);

/* The same as a stdio stream ("r"). */
FILE *inputs_fopen(const char *path, const char **why);

/* Notes path's identity as an input without opening it (nothing when it does not exist). */
void inputs_note(const char *path);

/* 1 when st (of an existing file) is one of the files noted as inputs, still there under
 * the path it was opened by. */
int inputs_contains(const struct stat *st);

/* "a FIFO", "a character device", ... for the file type in mode (messages). */
const char *inputs_kind(mode_t mode);

#endif
