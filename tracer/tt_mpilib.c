/* tt_mpilib.c - the MPI library under the tracer: its ABI (checked at MPI_Init), its Fortran
 * bindings (found for the Fortran wrappers) and its Fortran MPI_IN_PLACE.
 *
 * A PMPI tracer is compiled against one MPI ABI: handles are pointers to library objects in
 * Open MPI (MPI_COMM_WORLD is &ompi_mpi_comm_world) and integers in MPICH and the libraries
 * that share its ABI (Intel MPI, MVAPICH, Cray MPICH). Each flavour of libtirtrace
 * (libtirtrace-ompi.so, libtirtrace-mpich.so) is built from the same sources against one
 * of them. Preloaded into a program of the other ABI, the first handle it passed would make
 * the library fail (`Invalid communicator`, then SIGSEGV): tt_mpilib_check, run by every
 * MPI_Init wrapper before anything else, looks at every loaded object that defines
 * PMPI_Init and stops the program with one message when one is of the other ABI. Open MPI's
 * libmpi is told apart by a function only it defines (ompi_mpi_init); a data symbol would
 * not do, as a program may hold a copy of it.
 * The Fortran bindings of each MPI live in its own libraries (Open MPI: libmpi_mpifh for
 * mpif.h and `use mpi`, libmpi_usempif08 for `use mpi_f08`; MPICH: libmpichfort for all,
 * libmpifort for Intel MPI): only the flavour's own are ever loaded. */
#define _GNU_SOURCE 1 /* RTLD_NEXT, RTLD_DEFAULT, dladdr */
#include "tt.h"

#include <ctype.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OPEN_MPI
const char tt_flavour[] = "ompi";
static const char abi_name[] = "Open MPI", other[] = "mpich", other_name[] = "MPICH";
static const char *const flib_names[] = {"libmpi_mpifh.so.40", "libmpi_mpifh.so"};
static const char *const f08lib_names[] = {"libmpi_usempif08.so.40", "libmpi_usempif08.so"};
#else
const char tt_flavour[] = "mpich";
static const char abi_name[] = "MPICH", other[] = "ompi", other_name[] = "Open MPI";
static const char *const flib_names[] = {"libmpichfort.so.12", "libmpifort.so.12", "libmpichfort.so",
                                         "libmpifort.so"};
static const char *const f08lib_names[] = {"libmpichfort.so.12", "libmpifort.so.12", "libmpichfort.so",
                                           "libmpifort.so"};
#endif
#define NAMES(a) (sizeof(a) / sizeof *(a))

/* The object defining function sym in the global scope; 0 when there is none. */
static int object_of(const char *sym, Dl_info *di) {
  void *f = dlsym(RTLD_DEFAULT, sym);
  return f && dladdr(f, di) && di->dli_fname;
}

/* Function sym if the object named name defines it itself (not one of its dependencies). */
static void *own_symbol(void *h, const char *name, const char *sym) {
  void *f = dlsym(h, sym);
  Dl_info di;
  return f && dladdr(f, &di) && di.dli_fname && !strcmp(di.dli_fname, name) ? f : NULL;
}

struct foreign {
  char name[4096];  /* the first MPI library of the other ABI, "" if none */
  char version[16384]; /* MPICH writes up to its own MPI_MAX_LIBRARY_VERSION_STRING, 8192 */
};

/* dl_iterate_phdr callback: an object that defines PMPI_Init is an MPI library; Open MPI's
 * also defines ompi_mpi_init. One of the other ABI is recorded in *data. */
static int look(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct foreign *f = data;
  void *h = *info->dlpi_name ? dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD) : NULL;
  if (!h)
    return 0;
  if (own_symbol(h, info->dlpi_name, "PMPI_Init")) {
    int is_ompi = own_symbol(h, info->dlpi_name, "ompi_mpi_init") != NULL;
#ifdef OPEN_MPI
    int theirs = !is_ompi;
#else
    int theirs = is_ompi;
#endif
    int (*version)(char *, int *) = (int (*)(char *, int *))own_symbol(h, info->dlpi_name, "MPI_Get_library_version");
    int len = 0;
    if (theirs && version)
      version(f->version, &len); /* allowed before MPI_Init; touches no handle */
    if (theirs)
      snprintf(f->name, sizeof f->name, "%s", info->dlpi_name);
  }
  dlclose(h);
  return *f->name != 0;
}

/* The rank the launcher gave this process, or -1 (before MPI_Init: from its environment). */
static int launcher_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
                                     "MV2_COMM_WORLD_RANK"};
  for (size_t i = 0; i < NAMES(vars); i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return atoi(v);
  }
  return -1;
}

/* Every loaded object that defines PMPI_Init must be of the flavour's ABI. libtirtrace
 * itself loads its own MPI (a dependency), so a program of the other ABI holds two MPI
 * libraries, and which one a given call reaches depends on the load order. */
void tt_mpilib_check(void) {
  struct foreign f = {"", ""};
  dl_iterate_phdr(look, &f);
  if (!*f.name)
    return;
  f.version[strcspn(f.version, "\n")] = 0;
  for (char *t = f.version; *t; t++)
    *t = *t == '\t' ? ' ' : *t;
  if (launcher_rank() <= 0)
    fprintf(stderr,
            "libtirtrace: this program runs with the %s library %s (%s), but this is the %s tracer "
            "(libtirtrace-%s.so): nothing traced, the program stops. Use the %s tracer: "
            "tir-trace --mpi %s (tir-trace picks it by itself for programs linked with %s), "
            "or link with -ltirtrace-%s.\n",
            other_name, f.name, f.version, abi_name, tt_flavour, other_name, other, other_name, other);
  exit(2);
}

/* Load the first of names that dlopen finds, trying the folder of the C library first (an
 * MPI installed outside the loader's path). */
static void *load_first(const char *const *names, size_t n) {
  Dl_info init;
  char dir[4096] = "";
  if (object_of("PMPI_Init", &init) && strrchr(init.dli_fname, '/'))
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(init.dli_fname, '/') - init.dli_fname + 1),
             init.dli_fname);
  for (int pass = *dir ? 0 : 1; pass < 2; pass++)
    for (size_t i = 0; i < n; i++) {
      char path[8192];
      snprintf(path, sizeof path, "%s%s", pass == 0 ? dir : "", names[i]);
      void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
      if (h)
        return h;
    }
  return NULL;
}

/* The first of the n symbol names sym[] found after libtirtrace, else in the library that
 * *lib caches (loaded from names the first time). */
static void *find(char sym[][96], int n, void **lib, const char *const *names, size_t nnames) {
  for (int i = 0; i < n; i++) {
    void *f = dlsym(RTLD_NEXT, sym[i]);
    if (f)
      return f;
  }
  if (!*lib)
    *lib = load_first(names, nnames);
  for (int i = 0; *lib && i < n; i++) {
    void *f = dlsym(*lib, sym[i]);
    if (f)
      return f;
  }
  fprintf(stderr, "libtirtrace: the %s library has no Fortran binding %s (nor %s): is its Fortran "
          "library (%s) installed?\n", abi_name, sym[0], sym[1], names[0]);
  abort();
}

void *tt_fsym(const char *name) {
  static void *flib;
  char sym[4][96];
  snprintf(sym[0], sizeof sym[0], "pmpi_%s_", name);
  snprintf(sym[1], sizeof sym[1], "pmpi_%s__", name);
  snprintf(sym[2], sizeof sym[2], "pmpi_%s", name);
  snprintf(sym[3], sizeof sym[3], "PMPI_%s", name);
  for (char *p = sym[3]; *p; p++)
    *p = (char)toupper((unsigned char)*p);
  return find(sym, 4, &flib, flib_names, NAMES(flib_names));
}

void *tt_f08sym(const char *name) {
  static void *f08lib;
  char sym[2][96];
  snprintf(sym[0], sizeof sym[0], "pmpi_%s_f08_", name);  /* Open MPI */
  snprintf(sym[1], sizeof sym[1], "pmpir_%s_f08_", name); /* MPICH 4 */
  return find(sym, 2, &f08lib, f08lib_names, NAMES(f08lib_names));
}

int tt_f08_index_base(void) {
#ifdef OPEN_MPI
  return 1;
#else
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0, major = 0, minor = 0;
  PMPI_Get_library_version(lib, &len);
  const char *v = strstr(lib, "MPICH Version:");
  if (v && sscanf(v + strlen("MPICH Version:"), " %d.%d", &major, &minor) == 2 && major == 4 && minor == 0)
    return 0; /* pmodels/mpich#6270 */
  return 1;
#endif
}

int tt_f_in_place(const void *buf) {
  static int init;
  static const void *cand[3]; /* Open MPI's common block (mpif.h, use mpi, use mpi_f08), MPICH's */
  if (!init) {
    cand[0] = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
    cand[1] = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place");
    void **p = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
    cand[2] = p ? *p : NULL;
    init = 1;
  }
  for (int i = 0; i < 3; i++)
    if (cand[i] && buf == cand[i])
      return 1;
  return 0;
}

/* The program's mpif.h common blocks (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE...),
 * named here for the linker: a program linked with -ltirtrace-FLAVOUR often no longer links
 * the MPI Fortran library itself (the wrappers define every mpi_*_ it calls, and
 * --as-needed drops the library), and then it would not export its copy of the blocks;
 * the library, loaded as libtirtrace's dependency, would compare MPI_IN_PLACE with its own
 * copy and never recognise it. A shared library's reference makes the program export them.
 * Weak: a C program defines none of them. */
#ifdef OPEN_MPI
extern char mpi_fortran_bottom_[] __attribute__((weak)), mpi_fortran_in_place_[] __attribute__((weak)),
    mpi_fortran_argv_null_[] __attribute__((weak)), mpi_fortran_argvs_null_[] __attribute__((weak)),
    mpi_fortran_errcodes_ignore_[] __attribute__((weak)), mpi_fortran_status_ignore_[] __attribute__((weak)),
    mpi_fortran_statuses_ignore_[] __attribute__((weak)), mpi_fortran_unweighted_[] __attribute__((weak)),
    mpi_fortran_weights_empty_[] __attribute__((weak));
__attribute__((used)) static const void *const f_commons[] = {
    mpi_fortran_bottom_, mpi_fortran_in_place_, mpi_fortran_argv_null_, mpi_fortran_argvs_null_,
    mpi_fortran_errcodes_ignore_, mpi_fortran_status_ignore_, mpi_fortran_statuses_ignore_,
    mpi_fortran_unweighted_, mpi_fortran_weights_empty_};
#else
extern char mpipriv1_[] __attribute__((weak)), mpipriv2_[] __attribute__((weak)),
    mpiprivc_[] __attribute__((weak)), mpifcmb5_[] __attribute__((weak)), mpifcmb9_[] __attribute__((weak));
__attribute__((used)) static const void *const f_commons[] = {mpipriv1_, mpipriv2_, mpiprivc_, mpifcmb5_, mpifcmb9_};
#endif
