dnl tracer/tracer.m4 - configure checks of the tracer (included by configure.ac)
dnl
dnl One tracer flavour per MPI ABI found: `ompi` (Open MPI) and `mpich` (MPICH and the
dnl MPICH-ABI libraries: Intel MPI, MVAPICH, Cray MPICH). A PMPI tracer is bound to the ABI
dnl of the headers it was compiled with (handles are pointers in Open MPI, integers in
dnl MPICH), so each flavour is its own library, libtirtrace-ompi.so / libtirtrace-mpich.so,
dnl compiled with the flags its MPI compiler wrapper reports (Open MPI: -showme:compile/link,
dnl MPICH: -compile-info/-link-info) and linked once here, so a wrapper that does not work
dnl is found now, not at make time. libtirtrace.so names the default flavour (that of the
dnl `mpicc` in PATH). Without any MPI wrapper the tracer is skipped (announced).
dnl Which wrapper belongs to which ABI is asked of the wrapper itself (its <mpi.h> defines
dnl OPEN_MPI or not), never guessed from its name.
AC_ARG_VAR([MPICC], [MPI C compiler wrapper: builds the tracer flavour of its MPI (Open MPI, or MPICH ABI for MPICH, Intel MPI, MVAPICH) instead of the one found])
AC_ARG_VAR([MPIFC], [MPI Fortran compiler wrapper that goes with MPICC (Fortran tests)])
AC_ARG_VAR([MPIRUN], [MPI launcher that goes with MPICC (tests)])
AC_ARG_VAR([MPICC_OMPI], [Open MPI C compiler wrapper (default: mpicc.openmpi or mpicc)])
AC_ARG_VAR([MPIFC_OMPI], [Open MPI Fortran compiler wrapper])
AC_ARG_VAR([MPIRUN_OMPI], [Open MPI launcher])
AC_ARG_VAR([MPICC_MPICH], [MPICH-ABI C compiler wrapper (default: mpicc.mpich or mpicc)])
AC_ARG_VAR([MPIFC_MPICH], [MPICH-ABI Fortran compiler wrapper])
AC_ARG_VAR([MPIRUN_MPICH], [MPICH-ABI launcher])
AC_ARG_WITH([tracer],
  [AS_HELP_STRING([--with-tracer=LIST], [tracer flavours to build: ompi, mpich, "ompi mpich", no (default: one per MPI found)])],
  [], [with_tracer=auto])

[
# tir_abi WRAPPER: "ompi" or "mpich" (the ABI of the wrapper's <mpi.h>), or nothing
tir_abi() {
  printf '#include <mpi.h>\n#ifdef OPEN_MPI\ntir_abi_ompi\n#else\ntir_abi_mpich\n#endif\n' >conftest_abi.c
  tir_out=`$1 -E conftest_abi.c 2>/dev/null`
  rm -f conftest_abi.c
  case $tir_out in *tir_abi_ompi*) echo ompi ;; *tir_abi_mpich*) echo mpich ;; esac
}
# tir_fabi WRAPPER: the same for a Fortran wrapper (Open MPI's answer to -showme:version)
tir_fabi() {
  command -v "${1%% *}" >/dev/null 2>&1 || return 0
  if $1 -showme:version 2>&1 | grep -q 'Open MPI'; then echo ompi
  elif $1 -show >/dev/null 2>&1; then echo mpich; fi
}
# tir_runabi LAUNCHER: the same for a launcher (its --version)
tir_runabi() {
  command -v "${1%% *}" >/dev/null 2>&1 || return 0
  tir_out=`$1 --version 2>&1 </dev/null`
  case $tir_out in *'Open MPI'*|*OpenRTE*) echo ompi ;; *HYDRA*|*Intel*|*MPICH*|*MVAPICH*) echo mpich ;; esac
}
# tir_pick ABI TEST CANDIDATES...: the first candidate (a program in PATH) whose TEST is ABI
tir_pick() {
  tir_want=$1 tir_test=$2; shift 2
  for tir_c in "$@"; do
    test -n "$tir_c" || continue
    command -v "${tir_c%% *}" >/dev/null 2>&1 || continue
    if test "`$tir_test "$tir_c"`" = "$tir_want"; then echo "$tir_c"; return 0; fi
  done
}
# tir_flags WRAPPER OPENMPI-ARG MPICH-ARG: the flags the wrapper adds
tir_flags() {
  $1 $2 2>/dev/null || { $1 $3 2>/dev/null | cut -d' ' -f2-; }
}
]

dnl MPICC / MPIFC / MPIRUN given: their flavour uses them
with_tracer=`echo "$with_tracer" | tr ',' ' '`
tir_given_abi=
AS_IF([test -n "$MPICC"], [
  tir_given_abi=`tir_abi "$MPICC"`
  AS_IF([test -z "$tir_given_abi"], [AC_MSG_ERROR([MPICC=$MPICC cannot preprocess a program including <mpi.h>])])
])
tir_flavours=
tir_default=
for tir_f in ompi mpich; do
  case $tir_f in
    ompi) tir_sys=openmpi tir_ucc=$MPICC_OMPI tir_ufc=$MPIFC_OMPI tir_urun=$MPIRUN_OMPI ;;
    mpich) tir_sys=mpich tir_ucc=$MPICC_MPICH tir_ufc=$MPIFC_MPICH tir_urun=$MPIRUN_MPICH ;;
  esac
  case " $with_tracer " in
    " auto "|" yes "|*" $tir_f "*) ;;
    *) continue ;;
  esac
  AS_IF([test -z "$tir_ucc" && test "x$tir_given_abi" = "x$tir_f"],
    [tir_ucc=$MPICC tir_ufc=${tir_ufc:-$MPIFC} tir_urun=${tir_urun:-$MPIRUN}])
  AC_MSG_CHECKING([for the $tir_f MPI C compiler wrapper])
  tir_cc=`tir_pick $tir_f tir_abi "$tir_ucc" mpicc.$tir_sys mpicc`
  AC_MSG_RESULT([${tir_cc:-none}])
  AS_IF([test -n "$tir_ucc" && test "x$tir_cc" != "x$tir_ucc"],
    [AC_MSG_ERROR([$tir_ucc: not found, or not an $tir_f MPI C compiler wrapper (its mpi.h must compile, and be Open MPI's for ompi, another's for mpich)])])
  test -n "$tir_cc" || continue
  tir_fc=`tir_pick $tir_f tir_fabi "$tir_ufc" mpifort.$tir_sys mpif90.$tir_sys mpifort mpif90`
  tir_run=`tir_pick $tir_f tir_runabi "$tir_urun" mpirun.$tir_sys mpiexec.$tir_sys mpirun mpiexec`
  tir_cflags=`tir_flags "$tir_cc" -showme:compile -compile-info`
  tir_libs=`tir_flags "$tir_cc" -showme:link -link-info`
  dnl keep -I/-D from the compile line and -L/-l/-Wl from the link line
  tir_cflags=`for f in $tir_cflags; do case $f in -I*|-D*|-pthread) printf '%s ' "$f";; esac; done`
  tir_libs=`for f in $tir_libs; do case $f in -L*|-l*|-Wl,*|-pthread) printf '%s ' "$f";; esac; done`
  dnl the library of the Fortran bindings (pmpi_*_ symbols): a dependency of libtirtrace,
  dnl so that programs linked with -ltirtrace still load it
  tir_flibs=
  AS_IF([test -n "$tir_fc"], [
    for f in `tir_flags "$tir_fc" -showme:link -link-info`; do
      case $f in -L*) tir_flibs="$tir_flibs $f";; -lmpi_mpifh|-lmpichfort|-lmpifort) tir_flibs="$tir_flibs $f";; esac
    done])
  AC_MSG_CHECKING([whether MPI programs link with the flags of $tir_cc])
  tir_save_CFLAGS=$CFLAGS tir_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $tir_cflags" LIBS="$tir_libs $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
    [[MPI_Fint f = MPI_Comm_c2f(MPI_COMM_WORLD); return PMPI_Init(0, 0) + (int)f;]])],
    [tir_ok=yes], [tir_ok=no])
  CFLAGS=$tir_save_CFLAGS LIBS=$tir_save_LIBS
  AC_MSG_RESULT([$tir_ok])
  AS_IF([test "x$tir_ok" != xyes], [
    AC_MSG_WARN([$tir_cc does not give working MPI flags: no $tir_f tracer])
    continue])
  dnl Open MPI's mpirun needs --oversubscribe for more ranks than cores
  tir_runflags=
  AS_IF([test $tir_f = ompi], [tir_runflags=--oversubscribe])
  case $tir_f in
    ompi) MPICC_OMPI=$tir_cc MPIFC_OMPI=$tir_fc MPIRUN_OMPI=$tir_run MPIRUN_FLAGS_OMPI=$tir_runflags
          MPI_CFLAGS_OMPI=$tir_cflags MPI_LIBS_OMPI=$tir_libs MPI_FLIBS_OMPI=$tir_flibs ;;
    mpich) MPICC_MPICH=$tir_cc MPIFC_MPICH=$tir_fc MPIRUN_MPICH=$tir_run MPIRUN_FLAGS_MPICH=$tir_runflags
           MPI_CFLAGS_MPICH=$tir_cflags MPI_LIBS_MPICH=$tir_libs MPI_FLIBS_MPICH=$tir_flibs ;;
  esac
  tir_flavours="$tir_flavours${tir_flavours:+ }$tir_f"
  dnl the default flavour: that of the mpicc in PATH (the system's MPI), else the first built
  AS_IF([test -z "$tir_default"], [tir_default=$tir_f])
  AS_IF([test "x`tir_abi mpicc`" = "x$tir_f"], [tir_default=$tir_f])
done
case " $with_tracer " in
  " auto "|" yes "|" no ") ;;
  *) for tir_f in $with_tracer; do
       case " $tir_flavours " in *" $tir_f "*) ;; *) AC_MSG_ERROR([--with-tracer=$with_tracer: no working $tir_f MPI found (set MPICC_${tir_f}... or MPICC)]) ;; esac
     done ;;
esac
AS_IF([test "x$tir_default" = xmpich && test "x$tir_given_abi" = xompi], [tir_default=ompi])
AS_IF([test "x$tir_default" = xompi && test "x$tir_given_abi" = xmpich], [tir_default=mpich])
TRACER_FLAVOURS=$tir_flavours
TRACER_DEFAULT=$tir_default
dnl configure's closing summary prints this as the tracer's line
tir_tracer_summary=
for tir_f in $tir_flavours; do
  AS_CASE([$tir_f], [ompi], [tir_s="Open MPI ($MPICC_OMPI)"], [mpich], [tir_s="MPICH ($MPICC_MPICH)"])
  tir_tracer_summary="$tir_tracer_summary${tir_tracer_summary:+, }$tir_s"
done
AS_IF([test -n "$tir_tracer_summary"],
  [tir_tracer_summary="$tir_tracer_summary; libtirtrace.so = $tir_default"])
AC_SUBST([MPICC_OMPI]) AC_SUBST([MPIFC_OMPI]) AC_SUBST([MPIRUN_OMPI]) AC_SUBST([MPIRUN_FLAGS_OMPI])
AC_SUBST([MPI_CFLAGS_OMPI]) AC_SUBST([MPI_LIBS_OMPI]) AC_SUBST([MPI_FLIBS_OMPI])
AC_SUBST([MPICC_MPICH]) AC_SUBST([MPIFC_MPICH]) AC_SUBST([MPIRUN_MPICH]) AC_SUBST([MPIRUN_FLAGS_MPICH])
AC_SUBST([MPI_CFLAGS_MPICH]) AC_SUBST([MPI_LIBS_MPICH]) AC_SUBST([MPI_FLIBS_MPICH])
AC_SUBST([TRACER_FLAVOURS])
AC_SUBST([TRACER_DEFAULT])
dnl the default flavour's tools and flags (unit tests of the tracer, bench/overhead)
AS_CASE([$tir_default],
  [ompi], [MPICC=$MPICC_OMPI MPIFC=$MPIFC_OMPI MPIRUN=$MPIRUN_OMPI MPIRUN_FLAGS=$MPIRUN_FLAGS_OMPI
           MPI_CFLAGS=$MPI_CFLAGS_OMPI MPI_LIBS=$MPI_LIBS_OMPI],
  [mpich], [MPICC=$MPICC_MPICH MPIFC=$MPIFC_MPICH MPIRUN=$MPIRUN_MPICH MPIRUN_FLAGS=$MPIRUN_FLAGS_MPICH
            MPI_CFLAGS=$MPI_CFLAGS_MPICH MPI_LIBS=$MPI_LIBS_MPICH])
AC_SUBST([MPIRUN_FLAGS])
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AM_CONDITIONAL([HAVE_MPI], [test -n "$tir_flavours"])
AM_CONDITIONAL([TRACER_OMPI], [case " $tir_flavours " in *" ompi "*) true ;; *) false ;; esac])
AM_CONDITIONAL([TRACER_MPICH], [case " $tir_flavours " in *" mpich "*) true ;; *) false ;; esac])
dnl (configure's closing summary says it again on stdout, which --quiet does not silence)
AS_IF([test -n "$tir_flavours"],
  [AC_MSG_NOTICE([tracer flavours: $tir_flavours (libtirtrace-FLAVOUR.so; libtirtrace.so = $tir_default)])],
  [test "x$with_tracer" = xno],
  [AC_MSG_NOTICE([tracer not built (--with-tracer=no)])],
  [AC_MSG_WARN([no working MPI compiler wrapper (mpicc) found: the tracer libtirtrace is not built (apt-get install libopenmpi-dev, or libmpich-dev)])])
AC_CONFIG_FILES([test/mpi/mpi-env.sh])
