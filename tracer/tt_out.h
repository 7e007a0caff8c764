/* tt_out.h - the per-rank trace writer of libtirtrace: lines -> buffer -> zlib stream.
 *
 * Lines are formatted straight into one growing buffer and handed to zlib (or written plain,
 * gzip "transparent" mode, for --no-compress) only as whole lines, so a file cut short always
 * ends on a complete line or on a partial one that the reader drops. The buffer is pushed to
 * the stream when it passes 64 KiB, and synced to disk (Z_SYNC_FLUSH) at most every
 * TIR_FLUSH_INTERVAL seconds of wall time, so a killed rank loses at most that much.
 * Holds: a field whose value is not known yet (the source of an MPI_ANY_SOURCE irecv, known
 * when the request completes) is written as a padded placeholder holding its fallback value;
 * nothing from the line of the oldest open hold onwards leaves the buffer until it is
 * patched or released. The buffer is capped (TT_OUT_HOLD_CAP): past it the oldest hold is
 * released with its fallback value.
 * Syncing: a helper thread wakes every flush interval and syncs the lines written since,
 * so an event reaches the disk within about one interval even if the rank then computes
 * for hours and is killed. It shares a mutex with the writer, which holds it from
 * tt_out_begin to tt_out_end (one uncontended lock per line). */
#ifndef TT_OUT_H
#define TT_OUT_H

#include <stdint.h>

#define TT_OUT_HOLD_CAP (64u << 20) /* bytes kept in memory for open holds, at most */

/* Open path for writing with zlib level (0: plain text). Returns 0, or -1 with errno set. */
int tt_out_open(const char *path, int level, double flush_interval);
/* Finish the stream and close the file (holds keep their fallback values). Returns 0 or -1. */
int tt_out_close(void);
/* Close from a crash path (signal handler, atexit): best effort, never blocks; -1 when a
 * line was being written, and then the file ends at the last sync. */
int tt_out_emergency_close(void);
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
