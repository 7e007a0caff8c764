#!/usr/bin/env python3
"""coll_differential.py - tir-replay against SimGrid 3.32 with a collective algorithm forced.

For every algorithm of tir's registry that SimGrid 3.32 has under the same name (every
name whose description does not start with "[tir]"), and for every selector, a sample of
(communicator size, message size, root, datatype, skew) cases is generated: a small cluster
platform, a hostfile and a one-file trace in a temporary folder. Both simulators replay it
with the same --cfg=smpi/<kind>:<algo> (or smpi/coll-selector:<sel>); their simulated times
must agree within 1e-6 relative (5e-7 s absolute on top).

The sample is a fixed pseudo-random subset (--seed) so CI runs are repeatable; --per-algo
sets how many cases each algorithm gets (CI default 2), --full sweeps sizes 2..64 and
1 B..8 MB more densely (slow: run by hand). Exit 77 when SimGrid is absent."""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

KIND_CFG = {"reduce_scatter": "reduce_scatter"}
DTSIZE = {6: 1, 1: 4, 0: 8}
PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-{last}" speed="1Gf" core="{cores}"
           bw="125MBps" lat="50us" bb_bw="500MBps" bb_lat="20us"/>
</platform>
"""


def log_uniform_bytes(rng, lo=1, hi=8 << 20):
    """A message size in bytes, log-uniform in [lo, hi], sometimes an exact power of two."""
    e = rng.uniform(0, 23)
    b = int(2 ** e) if rng.random() < 0.3 else int(lo * (hi / lo) ** rng.random())
    return max(lo, min(hi, b))


def vec(rng, n, avg):
    """n per-rank counts around avg (some zero), for the v collectives."""
    return [0 if rng.random() < 0.1 else max(1, int(avg * rng.uniform(0.2, 1.8))) for _ in range(n)]


def action(kind, i, n, c, root, dt, v, m):
    """Rank i's trace line for one call of kind (count c elements, root, datatype dt)."""
    if kind == "bcast":
        return f"{i} bcast {c} {root} {dt}"
    if kind == "reduce":
        return f"{i} reduce {c} 0 {root} {dt}"
    if kind == "allreduce":
        return f"{i} allreduce {c} 0 {dt}"
    if kind in ("alltoall", "allgather"):
        return f"{i} {kind} {c} {c} {dt} {dt}"
    if kind in ("gather", "scatter"):
        return f"{i} {kind} {c} {c} {root} {dt} {dt}"
    if kind == "barrier":
        return f"{i} barrier"
    if kind == "gatherv":
        return f"{i} gatherv {v[i]} {' '.join(map(str, v))} {root} {dt} {dt}"
    if kind == "allgatherv":
        return f"{i} allgatherv {v[i]} {' '.join(map(str, v))} {dt} {dt}"
    if kind == "scatterv":
        return f"{i} scatterv {' '.join(map(str, v))} {v[i]} {root} {dt} {dt}"
    if kind == "reduce_scatter":
        return f"{i} reducescatter {' '.join(map(str, v))} 0 {dt}"
    if kind == "alltoallv":
        sc = [m[i][j] for j in range(n)]
        rc = [m[j][i] for j in range(n)]
        return f"{i} alltoallv {sum(sc)} {' '.join(map(str, sc))} {sum(rc)} {' '.join(map(str, rc))} {dt} {dt}"
    raise ValueError(kind)


def make_case(rng, kind, n, nbytes, ppn, name=None, mult=False):
    """(trace text, description) of one case; mult: a count that is a multiple of n."""
    dt = rng.choice(DT_ONLY.get(name, [6, 1, 0]))
    c = max(1, nbytes // DTSIZE[dt])
    if mult:
        c = max(n, c // n * n)
    root = rng.randrange(n) if rng.random() < 0.5 else 0
    v = vec(rng, n, c)
    if kind == "reduce_scatter" and (rng.random() < 0.5 or name in REGULAR_ONLY):
        v = [c] * n  # regular counts take other branches
    m = [vec(rng, n, c) for _ in range(n)]
    skew = rng.random() < 0.5
    lines = [f"{i} init" for i in range(n)]
    for i in range(n):
        if skew:
            lines.append(f"{i} compute {((i * 7919) % 13) * 1e5:g}")
        lines.append(action(kind, i, n, c, root, dt, v, m))
        lines.append(action(kind, i, n, c, (root + 1) % n, dt, v, m))
    desc = f"n={n} ppn={ppn} bytes={nbytes} dt={dt} root={root} skew={int(skew)}"
    return "\n".join(lines) + "\n", desc


def sim_time(out):
    m = re.search(r"Simulated time: *([0-9.eE+-]+)", out)
    return float(m.group(1)) if m else None


def run_case(args, tmp, kind, cfg, n, ppn, trace):
    """Runs both simulators; returns (tir time, SimGrid time, error text)."""
    nhosts = (n + ppn - 1) // ppn
    with open(os.path.join(tmp, "p.xml"), "w") as f:
        f.write(PLATFORM.format(last=max(nhosts - 1, 0), cores=ppn))
    with open(os.path.join(tmp, "hosts"), "w") as f:
        f.write("".join(f"node-{h}:{ppn}\n" for h in range(nhosts)))
    with open(os.path.join(tmp, "trace"), "w") as f:
        f.write(trace)
    with open(os.path.join(tmp, "index"), "w") as f:
        f.write("trace\n")
    hosts = []
    for h in range(nhosts):
        hosts += [f"node-{h}"] * ppn
    with open(os.path.join(tmp, "hostlist"), "w") as f:
        f.write("".join(x + "\n" for x in hosts[:n]))
    tir = subprocess.run([args.tir, "-q", "-p", "p.xml", "-H", "hostlist", "-n", str(n), f"--cfg={cfg}", "index"],
                         cwd=tmp, capture_output=True, text=True)
    sg = subprocess.run([args.oracle, "--platform", "p.xml", "--hostfile", "hostlist", "--np", str(n),
                         f"--cfg={cfg}", "index"], cwd=tmp, capture_output=True, text=True)
    t, s = sim_time(tir.stdout), sim_time(sg.stdout)
    err = ""
    if t is None:
        err += "tir: " + (tir.stderr.strip().splitlines() or ["no output"])[-1]
    if s is None:
        err += " SimGrid: " + (sg.stderr.strip().splitlines() or ["no output"])[-1]
    return t, s, err


def quirk(args, tmp, n, cfg, s):
    """True when tir with SimGrid's selective-update marking (and either order of equal
    dates) gives SimGrid's time: the difference is SimGrid's solver quirk, not tir's."""
    for extra in (["--cfg=tir/simgrid-marking:yes"], ["--cfg=tir/simgrid-marking:yes", "--cfg=tir/lifo-ties:yes"]):
        q = subprocess.run([args.tir, "-q", "-p", "p.xml", "-H", "hostlist", "-n", str(n), f"--cfg={cfg}"] + extra +
                           ["index"], cwd=tmp, capture_output=True, text=True)
        c = sim_time(q.stdout)
        if c is not None and abs(c - s) <= max(1e-6 * abs(s), 5e-7):
            return True
    return False


def algorithms(tir):
    """(kind, name) of every algorithm SimGrid also has, from tir-replay --list-algorithms."""
    out = subprocess.run([tir, "--list-algorithms"], capture_output=True, text=True).stdout
    algos = []
    out = out.split("Algorithms", 1)[-1]
    for line in out.splitlines():
        m = re.match(r"\s*([a-z_]+)\s+([A-Za-z0-9_]+)\s+(.*)", line)
        if m and not m.group(3).startswith("[tir]") and m.group(1) not in ("scan", "exscan", "gatherv", "scatterv") \
                and m.group(2) not in ("ompi", "mpich") + SG_CRASHES:
            algos.append((m.group(1), m.group(2)))
    return algos


def usable(kind, name, n):
    """False for the (algorithm, size) pairs SimGrid 3.32 cannot run (doc/collectives.md)."""
    pow2 = n & (n - 1) == 0
    if name == "ompi_two_procs":
        return n == 2
    if name in REGULAR_ONLY:
        return pow2
    if name in POW2_ONLY.get(kind, ()):
        return pow2
    return True


# SMP algorithms: SimGrid 3.32's replay aborts when it builds its SMP communicators
# ("free(): invalid pointer"), so they cannot be compared (check_coll counts them).
# ompi_split_bintree falls back to SMP_linear below 2 segments a half: big messages only.
SG_CRASHES = ("SMP_linear", "SMP_binomial", "mvapich2_knomial_intra_node", "smp_binomial", "smp_binomial_pipeline",
              "smp_rdb", "smp_rsag", "smp_rsag_lr", "smp_rsag_rab", "smp_simple")
MIN_BYTES = {"ompi_split_bintree": 1 << 17,
             "scatter_gather": 512}  # SimGrid truncates below N elements (N <= 64, 8 B each)
# Algorithms that hand small vectors to another one: half their cases use at most
# BIG[name][0] ranks and BIG[name][1] bytes a rank or more (ring_segmented: 1 MiB segments).
BIG = {"ompi_ring_segmented": (7, 1 << 20)}
# reduce rab takes its own protocol only for the datatypes it knows (not MPI_BYTE); for the
# others SimGrid falls back to colls::reduce, i.e. rab again when forced, and crashes.
DT_ONLY = {"rab": [1, 0]}
# Algorithms whose padded path (count not a multiple of N) corrupts SimGrid's heap in
# replay ("corrupted size vs. prev_size"): their cases get counts that are multiples of N.
MULT_ONLY = ("rab1", "rab2")
# Algorithms SimGrid asserts on unless counts are equal (and the size a power of two).
REGULAR_ONLY = ("mpich_noncomm",)
POW2_ONLY = {"alltoall": ("pair", "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier"),
             "alltoallv": ("pair", "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier"),
             "allgather": ("pair", "rhv"), "allgatherv": ("pair",), "allreduce": ("rab1",)}


# Collectives whose every selector pick tir has (the others wait for their algorithms;
# SimGrid's mpich bcast/reduce/allreduce abort in replay: see doc/collectives.md).
# The ompi bcast (alg 7, mvapich2_knomial_intra_node) aborts SimGrid's replay, and so
# does the ompi allgatherv through GB's bcast; mpich alltoall picks pair (SimGrid aborts)
# on odd sizes from 32768 B: those cases get an even size (selector_size). The ompi
# allreduce's lr hands vectors shorter than N (and its count % N remainder) to redbcast,
# whose ompi bcast may be alg 7: its cases get counts that are multiples of N.
SELECTOR_KINDS = {"ompi": ("alltoall", "alltoallv", "barrier", "gather", "scatter", "allgather", "reduce",
                           "reduce_scatter", "allreduce"),
                  "mpich": ("barrier", "allgather", "gather", "scatter", "reduce_scatter", "alltoall", "alltoallv",
                            "allgatherv")}


def selector_size(cfg, kind, n, nbytes, maxn):
    """n, made even where the selector would pick an algorithm SimGrid cannot run."""
    if cfg.endswith(":mpich") and kind == "alltoall" and nbytes >= 32768 and n % 2:
        return n + 1 if n < maxn else n - 1
    if cfg.endswith(":ompi") and kind == "alltoallv" and n == 3:  # pair, which needs 2^k
        return 4
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tir", default=os.environ.get("TIR", "./tir-replay"))
    ap.add_argument("--oracle", default=os.environ.get("SIMGRID_ORACLE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "simgrid-oracle")))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-algo", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="dense sweep (slow)")
    ap.add_argument("--only", default="", help="regexp on kind:algo")
    ap.add_argument("--maxn", type=int, default=64)
    args = ap.parse_args()
    # the simulators run inside a temporary folder: relative paths (make check's) must not break
    args.oracle = os.path.abspath(args.oracle)
    if os.sep in args.tir:
        args.tir = os.path.abspath(args.tir)
    if not shutil.which("smpirun") or not os.path.exists(args.oracle):
        print("SimGrid 3.32 absent: skipped")
        return 77
    rng = random.Random(args.seed)
    per = 12 if args.full else args.per_algo
    cases = []
    for kind, name in algorithms(args.tir):
        for _ in range(per):
            cases.append((kind, f"smpi/{KIND_CFG.get(kind, kind)}:{name}", name))
    for sel, kinds in SELECTOR_KINDS.items():
        for kind in kinds:
            for _ in range(per):
                cases.append((kind, f"smpi/coll-selector:{sel}", None))
    if args.only:
        cases = [c for c in cases if re.search(args.only, c[0] + ":" + c[1])]
    npass = nfail = nquirk = 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind, cfg, name in cases:
            ppn = 1
            sizes = [n for n in range(2, args.maxn + 1) if name is None or usable(kind, name, n)]
            n = rng.choice(sizes)
            nbytes = log_uniform_bytes(rng, MIN_BYTES.get(name, 1))
            if name in BIG and rng.random() < 0.5:  # reach the algorithm's own path
                n = rng.randint(2, BIG[name][0])
                nbytes = rng.randint(BIG[name][1] * n, 8 << 20)
            n = selector_size(cfg, kind, n, nbytes, args.maxn) if name is None else n
            if n * n * nbytes >= (1 << 31):  # keep each case small (and SimGrid's int sizes valid)
                nbytes = max(1, ((1 << 31) - 1) // (n * n), MIN_BYTES.get(name, 1))
            mult = (name is None and cfg.endswith(":ompi") and kind == "allreduce") or name in MULT_ONLY
            trace, desc = make_case(rng, kind, n, nbytes, ppn, name, mult)
            t, s, err = run_case(args, tmp, kind, cfg, n, ppn, trace)
            ok = not err and abs(t - s) <= max(1e-6 * abs(s), 5e-7)
            if not ok and not err and quirk(args, tmp, n, cfg, s):
                nquirk += 1
                print(f"note {kind} {cfg} {desc}: tir {t} SimGrid {s}: SimGrid's selective-update quirk "
                      "(--cfg=tir/simgrid-marking:yes gives SimGrid's time; doc/model.md)")
                ok = True
            if ok:
                npass += 1
            else:
                nfail += 1
                print(f"FAIL {kind} {cfg} {desc}: tir {t} SimGrid {s} {err}")
                if os.environ.get("KEEP"):
                    shutil.copytree(tmp, f"{os.environ['KEEP']}/fail{nfail}", dirs_exist_ok=True)
    print(f"coll_differential: {nquirk} differences explained by SimGrid's selective-update quirk")
    print(f"coll_differential: {npass} passed, {nfail} failed, {npass + nfail} cases")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
