/* tt_out.h - the per-rank trace writer of libtirtrace: lines -> buffer -> zlib stream.
 *
 * Lines are formatted straight into one growing buffer and handed to zlib (or written plain,
 * gzip "transparent" mode, for --no-compress) only as whole lines, so a file cut short always
 * ends on a complete line or on a partial one that the reader drops. The buffer is pushed to
 * the stream when it passes 64 KiB, and synced to disk (Z_SYNC_FLUSH: everything before is
 * decompressible, without a gzip trailer) by tt_out_sync, which the tracer's helper thread
 * calls every TIR_FLUSH_INTERVAL seconds (tt_watch.c), so a killed rank loses at most that
 * much; with an interval of 0 every line is synced.
 * Holds: a field whose value is not known yet (the source of an MPI_ANY_SOURCE irecv, known
 * when the request completes) is written as a padded placeholder holding its fallback value;
 * nothing from the line of the oldest open hold onwards leaves the buffer until it is
 * patched or released. The buffer is capped (TT_OUT_HOLD_CAP): past it the oldest hold is
 * released with its fallback value.
 * Threads: one mutex guards the writer; the recording thread holds it from tt_out_begin to
 * tt_out_end (one uncontended lock per line), the helper thread for a sync or a close.
 * Write errors (a full disk) are recorded, never fatal: tt_out_error tells. */
#ifndef TT_OUT_H
#define TT_OUT_H

#include <stdint.h>

#define TT_OUT_HOLD_CAP (64u << 20) /* bytes kept in memory for open holds, at most */

/* Open path for writing with zlib level (0: plain text); flush_interval 0 syncs after every
 * line. Returns 0, or -1 with errno set. */
int tt_out_open(const char *path, int level, double flush_interval);
/* Finish the stream and close the file (holds keep their fallback values). Returns 0, or
 * -1 if a write failed (tt_out_error). No-op on a closed stream. */
int tt_out_close(void);
/* The same from a crash path (any thread but a signal handler): waits at most `wait`
 * seconds for a line being written; -1 if it never ended, and then the file ends at its
 * last sync. */
int tt_out_emergency_close(double wait);
/* Sync the lines written since the last sync to the file. Returns tt_out_error(). */
int tt_out_sync(void);
/* errno of the first failed write (ENOSPC for a full disk), 0 if none. */
int tt_out_error(void);
/* Start a line: "# " if comment, then "RANK ACTION". */
void tt_out_begin(int rank, const char *action, int comment);
void tt_out_int(long long v);          /* " V" */
void tt_out_str(const char *s);        /* " S" */
void tt_out_end(void);                 /* "\n", and push/sync if due */
/* A placeholder field of 11 characters holding fallback; returns its stream position. */
uint64_t tt_out_hold(long long fallback);
/* Write v into the hold at pos and release it. Unknown or already released pos: no-op. */
void tt_out_patch(uint64_t pos, long long v);
/* Turn the line of the hold at pos into a comment (its rank token becomes '#'s) and
 * release the hold: the line of a cancelled receive disappears from the replay. */
void tt_out_retract(uint64_t pos);
/* Bytes written so far (uncompressed), for the trace statistics. */
uint64_t tt_out_written(void);
/* Lines written so far. */
uint64_t tt_out_lines(void);

#endif
