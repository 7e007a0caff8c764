#!/usr/bin/env python3
"""gen-wrappers.py - write libtirtrace's PMPI wrappers (C and Fortran) from mpi-api.txt.

usage: gen-wrappers.py mpi-api.txt OUT.c OUT.h

Each line of mpi-api.txt describes one MPI call (name, kind, hooks, C parameters). For each
call this script writes
  * the C wrapper MPI_Name: enter the tracer (tt_enter), call PMPI_Name, run the hand-written
    hooks tt_pre_Name / tt_post_Name on the C arguments, leave (tt_leave);
  * the Fortran wrapper mpi_name_ (aliased as mpi_name__, mpi_name, MPI_NAME): the same, but
    the real call is the MPI library's own Fortran binding pmpi_name_ (found with dlsym, so
    that the library keeps doing the Fortran-specific work: MPI_IN_PLACE, MPI_BOTTOM,
    status conversion) and the hooks get C arguments converted with the MPI_*_f2c calls;
  * the Fortran 2008 wrapper mpi_name_f08_ (`use mpi_f08`): the same with the library's
    f08 binding (tt_f08sym), an optional IERROR (a null pointer when absent) and statuses
    that already have the C layout (TYPE(MPI_Status) is the C struct in Open MPI and MPICH).
    MPICH's f08 bindings with a choice buffer (mpi_send_f08ts_) call the C MPI_Send, which
    the C wrapper records: those are generated for Open MPI only (TT_F08_CHOICE, tt.h).
The hooks are written by hand (ev_*.c); the generated header declares them, so a hook whose
signature drifts from the table fails to compile. make runs this script whenever the table or
the script changes (tracer/tracer.am); the output is not in git, only in release tarballs.
"""
import re
import sys

HANDLE_F2C = {"MPI_Datatype": "Type", "MPI_Comm": "Comm", "MPI_Op": "Op",
              "MPI_Group": "Group", "MPI_Info": "Info", "MPI_Win": "Win"}


class Param:
    """One C parameter: its declaration, name and conversion class."""

    def __init__(self, text):
        self.out = "!out" in text
        text = text.replace("!out", "").strip()
        m = re.match(r"^(.*?)(\w+)\s*(\[\])?$", text)
        if not m:
            sys.exit("gen-wrappers: cannot parse parameter '%s'" % text)
        self.ctype = m.group(1).strip()
        self.name = m.group(2)
        self.array = bool(m.group(3))
        self.decl = text
        self.kind = self.classify()

    def classify(self):
        t, a = self.ctype.replace("const ", "").strip(), self.array
        if t in ("void *", "void*"):
            return "buf"
        if t == "int":
            return "intarr" if a else "int"
        if t in ("int *", "int*"):
            return "intp"
        if t in HANDLE_F2C and not a:
            return "handle"
        if t.startswith("MPI_Request"):
            return "reqarr" if a else "reqp"
        if t.startswith("MPI_Status"):
            return "statarr" if a else "statp"
        if t.startswith("MPI_Comm") and "*" in t:
            return "commp"
        if t.startswith("MPI_Win") and "*" in t:
            return "winp"
        if t == "MPI_Aint" and not a:
            return "aint"
        return "other"


class Call:
    """One line of the table."""

    def __init__(self, line, lineno, path):
        head, _, params = line.partition("|")
        words = head.split()
        if len(words) < 2 or words[1] not in ("ev", "local", "unsup"):
            sys.exit("%s:%d: expected 'NAME ev|local|unsup [HOOKS] | PARAMS'" % (path, lineno))
        self.name, self.kind = words[0], words[1]
        self.pre = len(words) > 2 and "pre" in words[2]
        self.params = [Param(p) for p in params.split(",") if p.strip()]
        for p in self.params:
            if self.kind == "ev" and p.kind == "other":
                sys.exit("%s:%d: no Fortran conversion for '%s'" % (path, lineno, p.decl))

    def has_choice(self):
        """A choice buffer (TYPE(*) in Fortran 2008; baseptr is a TYPE(C_PTR))."""
        return any(p.kind == "buf" and p.name != "baseptr" for p in self.params)

    def count_param(self):
        """Name of the parameter giving the length of request/status arrays."""
        for p in self.params:
            if p.name in ("count", "incount"):
                return p.name
        return "0"


def read_table(path):
    calls = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                calls.append(Call(line, n, path))
    return calls


def c_decl(call):
    return ", ".join(p.decl for p in call.params) or "void"


def c_args(call):
    return ", ".join(p.name for p in call.params)


# ---------------------------------------------------------------- C wrappers
def c_wrapper(call):
    n, args = call.name, c_args(call)
    out = ["int MPI_%s(%s)" % (n, c_decl(call)), "{", "  struct tt_call c;"]
    mode = {"ev": "TT_EV", "local": "TT_LOCAL", "unsup": "TT_UNSUP"}[call.kind]
    out.append("  if (!tt_enter(&c, TT_FN_%s, %s, TT_SITE(), TT_C))" % (n, mode))
    out.append("    return PMPI_%s(%s);" % (n, args))
    if call.kind == "ev":
        for p in call.params:
            if p.kind == "statp":
                out.append("  MPI_Status st_%s;" % p.name)
                out.append("  if (%s == MPI_STATUS_IGNORE)" % p.name)
                out.append("    %s = &st_%s;" % (p.name, p.name))
            elif p.kind == "statarr":
                out.append("  if (%s == MPI_STATUSES_IGNORE)" % p.name)
                out.append("    %s = tt_scratch_status(%s);" % (p.name, call.count_param()))
        if call.pre:
            out.append("  tt_pre_%s(&c, %s);" % (n, args))
    out.append("  int rc = PMPI_%s(%s);" % (n, args))
    if call.kind == "ev":
        out.append("  if (rc == MPI_SUCCESS)")
        out.append("    tt_post_%s(&c, %s);" % (n, args))
    out += ["  tt_leave(&c);", "  return rc;", "}", ""]
    return out


# ---------------------------------------------------------- Fortran wrappers
def f_param_decl(p, passthrough):
    if passthrough or p.kind == "buf":
        return "void *%s" % p.name
    if p.kind == "aint":  # INTEGER(KIND=MPI_ADDRESS_KIND)
        return "MPI_Aint *%s" % p.name
    return "MPI_Fint *%s" % p.name


def f_locals(call, f08=False):
    """Declarations and pre-call conversions of the C view of each argument."""
    out = []
    cnt = "(int)*" + call.count_param() if call.count_param() != "0" else "0"
    for p in call.params:
        k, x = p.kind, p.name
        if k == "handle":
            out.append("  %s c_%s = PMPI_%s_f2c(*%s);" % (p.ctype.replace("const ", ""), x,
                                                         HANDLE_F2C[p.ctype.replace("const ", "").strip()], x))
        elif k == "reqp":
            init = "MPI_REQUEST_NULL" if p.out else "PMPI_Request_f2c(*%s)" % x
            out.append("  MPI_Request c_%s = %s;" % (x, init))
        elif k == "reqarr":
            out.append("  MPI_Request *c_%s = tt_scratch_request(%s);" % (x, cnt))
            out.append("  for (int i = 0; i < %s; i++)" % cnt)
            out.append("    c_%s[i] = PMPI_Request_f2c(%s[i]);" % (x, x))
        elif k == "statp" and f08:
            out.append("  MPI_Status fst_%s;" % x)
            out.append("  if ((void *)%s == TT_F08_STATUS_IGNORE)" % x)
            out.append("    %s = (MPI_Fint *)&fst_%s;" % (x, x))
            out.append("  MPI_Status c_%s;" % x)
            out.append("  memset(&c_%s, 0, sizeof c_%s);" % (x, x))
        elif k == "statarr" and f08:
            out.append("  if ((void *)%s == TT_F08_STATUSES_IGNORE)" % x)
            out.append("    %s = (MPI_Fint *)tt_scratch_status(%s);" % (x, cnt))
            out.append("  MPI_Status *c_%s = (MPI_Status *)%s;" % (x, x))
        elif k == "statp":
            out.append("  MPI_Fint fst_%s[TT_F_STATUS_SIZE];" % x)
            out.append("  if (%s == MPI_F_STATUS_IGNORE)" % x)
            out.append("    %s = fst_%s;" % (x, x))
            out.append("  MPI_Status c_%s;" % x)
            out.append("  memset(&c_%s, 0, sizeof c_%s);" % (x, x))
        elif k == "statarr":
            out.append("  if (%s == MPI_F_STATUSES_IGNORE)" % x)
            out.append("    %s = tt_scratch_fstatus(%s);" % (x, cnt))
            out.append("  MPI_Status *c_%s = tt_scratch_status(%s);" % (x, cnt))
        elif k == "commp":
            init = "MPI_COMM_NULL" if p.out else "PMPI_Comm_f2c(*%s)" % x
            out.append("  MPI_Comm c_%s = %s;" % (x, init))
        elif k == "winp":
            init = "MPI_WIN_NULL" if p.out else "PMPI_Win_f2c(*%s)" % x
            out.append("  MPI_Win c_%s = %s;" % (x, init))
    return out


def f_post_convert(call, f08=False):
    """Conversions of the outputs, after the Fortran call."""
    out = []
    cnt = "(int)*" + call.count_param() if call.count_param() != "0" else "0"
    for p in call.params:
        k, x = p.kind, p.name
        if k == "reqp" and p.out:
            out.append("    c_%s = PMPI_Request_f2c(*%s);" % (x, x))
        elif k == "commp" and p.out:
            out.append("    c_%s = PMPI_Comm_f2c(*%s);" % (x, x))
        elif k == "statp" and f08:
            out.append("    memcpy(&c_%s, %s, sizeof c_%s);" % (x, x, x))
        elif k == "winp" and p.out:
            out.append("    c_%s = PMPI_Win_f2c(*%s);" % (x, x))
        elif k == "statp":
            out.append("    PMPI_Status_f2c(%s, &c_%s);" % (x, x))
        elif k == "statarr" and not f08:
            out.append("    for (int i = 0; i < %s; i++)" % cnt)
            out.append("      PMPI_Status_f2c(%s + (size_t)i * TT_F_STATUS_SIZE, &c_%s[i]);" % (x, x))
    return out


def f_hook_args(call):
    args = []
    for p in call.params:
        k, x = p.kind, p.name
        if k == "buf":
            args.append(x)
        elif k == "int":
            args.append("(int)*" + x)
        elif k == "intp":
            args.append("(int *)" + x)
        elif k == "intarr":
            args.append("(int *)" + x)
        elif k in ("handle", "reqarr", "statarr"):
            args.append("c_" + x)
        elif k in ("reqp", "statp", "commp", "winp"):
            args.append("&c_" + x)
        elif k == "aint":
            args.append("*" + x)
    return ", ".join(args)


def f_wrapper(call):
    n, low = call.name, call.name.lower()
    passthrough = call.kind != "ev"
    fparams = [f_param_decl(p, passthrough) for p in call.params] + ["MPI_Fint *ierr"]
    fargs = ", ".join([p.name for p in call.params] + ["ierr"])
    ftype = "tt_f_%s_t" % n
    out = ["typedef void (*%s)(%s);" % (ftype, ", ".join(fparams)),
           "static %s f_%s;" % (ftype, n),
           "void mpi_%s_(%s)" % (low, ", ".join(fparams)), "{",
           "  if (!f_%s)" % n,
           "    f_%s = (%s)tt_fsym(\"%s\");" % (n, ftype, low),
           "  struct tt_call c;"]
    mode = {"ev": "TT_EV", "local": "TT_LOCAL", "unsup": "TT_UNSUP"}[call.kind]
    out.append("  if (!tt_enter(&c, TT_FN_%s, %s, TT_SITE(), TT_FORTRAN)) {" % (n, mode))
    out += ["    f_%s(%s);" % (n, fargs), "    return;", "  }"]
    if call.kind == "ev":
        out += f_locals(call)
        if call.pre:
            out.append("  tt_pre_%s(&c, %s);" % (n, f_hook_args(call)))
    out.append("  f_%s(%s);" % (n, fargs))
    if call.kind == "ev":
        out.append("  if (*ierr == MPI_SUCCESS) {")
        out += f_post_convert(call)
        out.append("    tt_post_%s(&c, %s);" % (n, f_hook_args(call)))
        out.append("  }")
    out += ["  tt_leave(&c);", "}"]
    for alias in ("mpi_%s__" % low, "mpi_%s" % low, "MPI_%s" % n.upper()):
        out.append("void %s(%s) __attribute__((alias(\"mpi_%s_\")));" % (alias, ", ".join(fparams), low))
    out.append("")
    return out


def f08_wrapper(call):
    """mpi_name_f08_: the Fortran wrapper's twin for `use mpi_f08` (see the module comment)."""
    n, low = call.name, call.name.lower()
    passthrough = call.kind != "ev"
    fparams = [f_param_decl(p, passthrough) for p in call.params] + ["MPI_Fint *ierr"]
    fargs = ", ".join([p.name for p in call.params] + ["ierr"])
    ftype = "tt_f_%s_t" % n
    out = ["#if TT_F08_CHOICE"] if call.has_choice() else []
    out += ["static %s f08_%s;" % (ftype, n),
            "void mpi_%s_f08_(%s)" % (low, ", ".join(fparams)), "{",
            "  if (!f08_%s)" % n,
            "    f08_%s = (%s)tt_f08sym(\"%s\");" % (n, ftype, low),
            "  struct tt_call c;"]
    mode = {"ev": "TT_EV", "local": "TT_LOCAL", "unsup": "TT_UNSUP"}[call.kind]
    out.append("  if (!tt_enter(&c, TT_FN_%s, %s, TT_SITE(), TT_F08)) {" % (n, mode))
    out += ["    f08_%s(%s);" % (n, fargs), "    return;", "  }"]
    if call.kind != "ev":
        out += ["  f08_%s(%s);" % (n, fargs), "  tt_leave(&c);", "}"]
    else:
        out.append("  MPI_Fint e = MPI_SUCCESS;")
        out += f_locals(call, True)
        if call.pre:
            out.append("  tt_pre_%s(&c, %s);" % (n, f_hook_args(call)))
        out.append("  f08_%s(%s);" % (n, ", ".join([p.name for p in call.params] + ["&e"])))
        out.append("  if (e == MPI_SUCCESS) {")
        out += f_post_convert(call, True)
        out.append("    tt_post_%s(&c, %s);" % (n, f_hook_args(call)))
        out += ["  }", "  if (ierr)", "    *ierr = e;", "  tt_leave(&c);", "}"]
    if call.has_choice():
        out.append("#endif")
    out.append("")
    return out


# ----------------------------------------------------------------- outputs
def header(calls):
    out = ["/* wrappers-gen.h - GENERATED by gen-wrappers.py from mpi-api.txt: do not edit.",
           " *",
           " * Ids and names of the wrapped MPI calls, and the prototypes of the hand-written hooks",
           " * (ev_*.c) that turn a call into trace lines. */",
           "#ifndef TT_WRAPPERS_GEN_H", "#define TT_WRAPPERS_GEN_H", "",
           "#include <mpi.h>", "", "struct tt_call;", "",
           "/* wrapped calls, in table order; TT_FN_COUNT is their number */", "enum tt_fn {"]
    out += ["  TT_FN_%s," % c.name for c in calls]
    out += ["  TT_FN_Init, TT_FN_Init_thread, TT_FN_Finalize, TT_FN_Abort, TT_FN_Pcontrol,",
            "  TT_FN_COUNT", "};", "",
            "/* \"MPI_Send\", ... indexed by enum tt_fn */",
            "extern const char *const tt_fn_name[TT_FN_COUNT];", ""]
    for c in calls:
        if c.kind != "ev":
            continue
        if c.pre:
            out.append("void tt_pre_%s(struct tt_call *c, %s);" % (c.name, c_decl(c)))
        out.append("void tt_post_%s(struct tt_call *c, %s);" % (c.name, c_decl(c)))
    out += ["", "#endif", ""]
    return out


def source(calls):
    out = ["/* wrappers-gen.c - GENERATED by gen-wrappers.py from mpi-api.txt: do not edit.",
           " *",
           " * The C (MPI_*) and Fortran (mpi_*_, mpi_*__, mpi_*, MPI_*) wrappers of libtirtrace.",
           " * Every wrapper enters the tracer, calls the MPI library (PMPI_* for C, the library's",
           " * own Fortran binding for Fortran) and gives the C view of the arguments to the hooks. */",
           "#include \"tt.h\"", "", "#include <string.h>", "",
           "const char *const tt_fn_name[TT_FN_COUNT] = {"]
    out += ["  \"MPI_%s\"," % c.name for c in calls]
    out += ["  \"MPI_Init\", \"MPI_Init_thread\", \"MPI_Finalize\", \"MPI_Abort\", \"MPI_Pcontrol\",",
            "};", "", "/* ======================================================== C */", ""]
    for c in calls:
        out += c_wrapper(c)
    out += ["/* ================================================== Fortran */", ""]
    for c in calls:
        out += f_wrapper(c)
    out += ["/* ======================================== Fortran 2008 (use mpi_f08) */", ""]
    for c in calls:
        out += f08_wrapper(c)
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen-wrappers.py mpi-api.txt OUT.c OUT.h")
    calls = read_table(sys.argv[1])
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(source(calls)))
    with open(sys.argv[3], "w") as f:
        f.write("\n".join(header(calls)))


if __name__ == "__main__":
    main()
