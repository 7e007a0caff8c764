/* tirtrace.h - the application-side API of libtirtrace (tir's MPI tracer): code regions.
 *
 * tir_region_begin("solve") ... tir_region_end("solve") marks a region of the program; the
 * trace gets `R region solve` / `R region_end solve` lines (in the CPU bursts around them
 * too), which tir-replay uses to report time and energy per region. Regions may nest. The
 * standard profiling hook does the same: MPI_Pcontrol(1, "solve") ... MPI_Pcontrol(0).
 *
 * The functions are declared weak: a program that includes this header runs unchanged
 * without the tracer (TIR_REGION_BEGIN/END do nothing then) and records regions when
 * libtirtrace is preloaded (tir-trace) or linked (-ltirtrace). From Fortran:
 * call tir_region_begin('solve') / call tir_region_end('solve'). */
#ifndef TIRTRACE_H
#define TIRTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Enter / leave region name (no spaces: they are replaced by '_'). NULL names "region". */
void tir_region_begin(const char *name) __attribute__((weak));
void tir_region_end(const char *name) __attribute__((weak));

#define TIR_REGION_BEGIN(name) do { if (tir_region_begin) tir_region_begin(name); } while (0)
#define TIR_REGION_END(name) do { if (tir_region_end) tir_region_end(name); } while (0)

#ifdef __cplusplus
}
#endif

#endif
