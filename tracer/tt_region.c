/* tt_region.c - code regions: tir_region_begin/end, MPI_Pcontrol and their Fortran forms
 * (mpif.h and `use mpi`, `use mpi_f08`).
 *
 * A region boundary closes the CPU burst like an MPI call does (the burst before it is
 * written whatever TIR_MIN_BURST says, so that no volume crosses a boundary), then writes
 * `R region NAME` or `R region_end NAME` (tir extensions: comments in --simgrid-compatible
 * traces). Names are at most 255 characters, blanks replaced by '_'. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tirtrace.h"
#include "tt.h"
#include "tt_counter.h"
#include "tt_out.h"

#define NAME_MAX_LEN 255

/* Write one region line named name (len characters, or a C string if len < 0). */
static void region_line(const char *action, const char *name, long len, void *site) {
  struct tt_call c;
  if (!tt_enter(&c, TT_FN_Pcontrol, TT_EV, site, TT_C))
    return;
  char clean[NAME_MAX_LEN + 1];
  size_t n = name ? (len < 0 ? strlen(name) : (size_t)len) : 0;
  while (n > 0 && name[n - 1] == ' ')
    n--; /* Fortran strings are blank-padded */
  if (n > NAME_MAX_LEN)
    n = NAME_MAX_LEN;
  for (size_t i = 0; i < n; i++)
    clean[i] = (name[i] == ' ' || name[i] == '\t' || name[i] == '\n') ? '_' : name[i];
  clean[n] = 0;
  tt.calls[TT_FN_Pcontrol]--; /* a region is not an MPI call */
  tt_burst_flush(&c, 1);
  tt_out_begin(tt.rank, action, tt.simgrid);
  tt_out_str(n ? clean : "region");
  tt_out_end();
  tt_leave(&c);
}

void tir_region_begin(const char *name) { region_line(TT_KW(REGION), name, -1, TT_SITE()); }
void tir_region_end(const char *name) { region_line(TT_KW(REGION_END), name, -1, TT_SITE()); }

/* Fortran: call tir_region_begin('name'), hidden length argument last */
void tir_region_begin_(const char *name, long len) { region_line(TT_KW(REGION), name, len, TT_SITE()); }
void tir_region_end_(const char *name, long len) { region_line(TT_KW(REGION_END), name, len, TT_SITE()); }

/* MPI_Pcontrol(1, "name") opens a region, MPI_Pcontrol(0) closes the innermost one. */
static char *stack[64]; /* names of the open Pcontrol regions */
static int depth;

static void pcontrol(int level, const char *name, void *site) {
  if (!tt.active)
    return;
  if (level == 1) {
    region_line(TT_KW(REGION), name ? name : "pcontrol", -1, site);
    if (depth < 64)
      stack[depth] = x_strdup(name ? name : "pcontrol");
    depth++;
  } else if (level == 0 && depth > 0) {
    depth--;
    region_line(TT_KW(REGION_END), depth < 64 ? stack[depth] : "pcontrol", -1, site);
    if (depth < 64)
      free(stack[depth]);
  }
  tt.calls[TT_FN_Pcontrol]++;
}

int MPI_Pcontrol(const int level, ...) {
  const char *name = NULL;
  if (level == 1) {
    va_list ap;
    va_start(ap, level);
    name = va_arg(ap, const char *);
    va_end(ap);
  }
  pcontrol(level, name, TT_SITE());
  return PMPI_Pcontrol(level);
}

/* Fortran MPI_PCONTROL(LEVEL) has no IERROR argument; Fortran codes name their regions
 * with tir_region_begin/end instead. */
void mpi_pcontrol_(MPI_Fint *level) { pcontrol((int)*level, NULL, TT_SITE()); }
void mpi_pcontrol__(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
void mpi_pcontrol(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
void MPI_PCONTROL(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
/* `use mpi_f08`: MPI_Pcontrol(level), no IERROR either */
void mpi_pcontrol_f08_(MPI_Fint *level) __attribute__((alias("mpi_pcontrol_")));
