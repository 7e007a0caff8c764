dnl tracer/tracer.m4 - configure checks of the tracer (included by configure.ac)
dnl The tracer needs an MPI compiler wrapper; without one it is skipped (announced).
dnl libtirtrace is compiled by libtool with the flags the wrapper reports (Open MPI:
dnl -showme:compile/link, MPICH: -compile-info/-link-info), then a test program is linked
dnl with them, so a wrapper that does not work is found here, not at make time.
AC_ARG_VAR([MPICC], [MPI C compiler wrapper used to build libtirtrace])
AC_ARG_VAR([MPIFC], [MPI Fortran compiler wrapper (tests of the Fortran wrappers)])
AC_ARG_VAR([MPIRUN], [MPI launcher used by the tracer tests])
AC_CHECK_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich], [])
AC_CHECK_PROGS([MPIFC], [mpifort mpif90 mpifort.openmpi mpifort.mpich], [])
AC_CHECK_PROGS([MPIRUN], [mpirun mpiexec], [])

dnl TIR_MPI_FLAGS(WRAPPER, OPENMPI-ARG, MPICH-ARG): the flags the wrapper adds, or empty
AC_DEFUN([TIR_MPI_FLAGS], [m4_normalize([
  `$1 $2 2>/dev/null || { $1 $3 2>/dev/null | cut -d' ' -f2-; }`])])

have_mpi=no
AS_IF([test -n "$MPICC"], [
  MPI_CFLAGS=TIR_MPI_FLAGS([$MPICC], [-showme:compile], [-compile-info])
  MPI_LIBS=TIR_MPI_FLAGS([$MPICC], [-showme:link], [-link-info])
  dnl keep -I/-D from the compile line and -L/-l/-Wl from the link line
  MPI_CFLAGS=`for f in $MPI_CFLAGS; do case $f in -I*|-D*|-pthread) printf '%s ' "$f";; esac; done`
  MPI_LIBS=`for f in $MPI_LIBS; do case $f in -L*|-l*|-Wl,*|-pthread) printf '%s ' "$f";; esac; done`
  dnl the library of the Fortran bindings (pmpi_*_ symbols): a dependency of libtirtrace,
  dnl so that programs linked with -ltirtrace still load it
  MPI_FLIBS=
  AS_IF([test -n "$MPIFC"], [
    for f in TIR_MPI_FLAGS([$MPIFC], [-showme:link], [-link-info]); do
      case $f in -L*) MPI_FLIBS="$MPI_FLIBS $f";; -lmpi_mpifh|-lmpichfort|-lmpifort) MPI_FLIBS="$MPI_FLIBS $f";; esac
    done])
  AC_MSG_CHECKING([whether MPI programs link with the flags of $MPICC])
  tir_save_CFLAGS=$CFLAGS tir_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $MPI_CFLAGS" LIBS="$MPI_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
    [[MPI_Fint f = MPI_Comm_c2f(MPI_COMM_WORLD); return PMPI_Init(0, 0) + (int)f;]])],
    [have_mpi=yes], [have_mpi=no])
  CFLAGS=$tir_save_CFLAGS LIBS=$tir_save_LIBS
  AC_MSG_RESULT([$have_mpi])
  dnl Open MPI's mpirun needs --oversubscribe for more ranks than cores
  MPIRUN_FLAGS=
  AS_IF([test -n "$MPIRUN" && $MPIRUN --version 2>&1 | grep -q 'Open MPI\|OpenRTE'],
        [MPIRUN_FLAGS=--oversubscribe])
])
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AC_SUBST([MPI_FLIBS])
AC_SUBST([MPIRUN_FLAGS])
AM_CONDITIONAL([HAVE_MPI], [test "x$have_mpi" = xyes])
AS_IF([test -z "$MPICC"],
  [AC_MSG_NOTICE([no MPI compiler wrapper (mpicc) found: the tracer libtirtrace is not built (apt-get install libopenmpi-dev)])],
  [test "x$have_mpi" != xyes],
  [AC_MSG_WARN([$MPICC does not give working MPI flags: the tracer libtirtrace is not built])])
AC_CONFIG_FILES([test/mpi/mpi-env.sh])
