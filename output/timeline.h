/* timeline.h - timelines of a replay: CSV, Paje, Paraver (.prv/.pcf/.row) and an SVG
 * Gantt chart, one writer per format behind this small interface (timeline_*.c).
 *
 * A timeline watches the replay through an observer (observer.h) and writes its file
 * when closed, atomically (temporary file, then rename; nothing is left on failure). */
#ifndef TIR_TIMELINE_H
#define TIR_TIMELINE_H

#include "observer.h"
#include "trace.h"
#include "platform.h"

typedef struct timeline timeline;

/* Opens a timeline to path in format ("csv", "paje", "prv", "svg"; NULL: from the file
 * name's extension). Only [win_start, win_end] is kept when win_end > win_start.
 * Returns NULL with a message in err (unknown format, unwritable folder). */
timeline *timeline_open(const char *path, const char *format, double win_start, double win_end,
                        const platform *p, char *err, size_t errlen);
/* 0 when timeline_open would know the format of path (format as there), else -1 with err. */
int timeline_check(const char *path, const char *format, char *err, size_t errlen);
void timeline_observer(timeline *t, replay_observer *o);
/* Writes and closes (failed != 0: discards). Returns 0 or -1 with "PATH: reason" in err. */
int timeline_close(timeline *t, int failed, char *err, size_t errlen);

#endif
