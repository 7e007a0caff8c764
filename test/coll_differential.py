#!/usr/bin/env python3
"""coll_differential.py - tir-replay against SimGrid 3.32 with a collective algorithm forced.

For every algorithm of tir's registry that SimGrid 3.32 has under the same name (every
name whose description does not start with "[tir]"), and for every selector, a sample of
(communicator size, message size, root, datatype, skew, rank placement) cases is
generated: a small cluster platform, a hostfile and a one-file trace in a temporary
folder. Both simulators replay it with the same --cfg=smpi/<kind>:<algo> (or
smpi/coll-selector:<sel>).

Placements: one rank a host, k ranks a host in blocks ("block") or round-robin
("cyclic"), or uneven counts a host ("uneven", in blocks, or "uneven-cyclic"). SMP-aware
algorithms and the selectors that reach them always get several ranks on some host, and
`--cfg=smpi/send-is-detached-thresh:0` or `:1` (SimGrid's replay crashes building its SMP
communicators with detached sends); other cases get that setting one time in four.

tir runs twice. With `--cfg=tir/simgrid-compat:yes` its time must equal SimGrid's within
1e-6 relative (5e-7 s absolute on top). In the default mode it must too, or else the
compat run must (a documented SimGrid quirk of its solver or scheduling, doc/model.md;
counted and printed). A case where SimGrid itself fails (it aborts on some algorithms
and sizes, doc/collectives.md) is skipped and printed, and tir must still give a time.

Each selector also gets "mixed" cases: 2 to 8 calls of random collectives, sizes and roots
in one trace, so that what a selector keeps from call to call (SimGrid's SMP views, built
once per rank; mvapich2's globals) is exercised.

The sample is a fixed pseudo-random subset (--seed) so CI runs are repeatable; --per-algo
sets how many cases each algorithm gets (CI: 2), --full sweeps sizes and placements more
densely (slow: run by hand). Exit 77 when SimGrid is absent."""
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
SELECTORS = ("default", "ompi", "mpich", "mvapich2", "impi")
KINDS = ("bcast", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "allgather", "allgatherv", "scatter",
         "barrier", "reduce_scatter")

# Algorithms that build SimGrid's SMP communicators (init_smp): several ranks a host, and
# SimGrid needs non-detached small sends to get through its init_smp in replay.
SMP = {"SMP_linear", "SMP_binomial", "SMP_binary", "SMP_NTS", "loosely_lr", "smp_simple", "mvapich2_smp",
       "mvapich2_knomial_intra_node", "mvapich2_intra_node", "mvapich2_inter_node", "mvapich2_two_level",
       "mvapich2_two_level_binomial", "mvapich2_two_level_direct", "smp_binomial", "smp_binomial_pipeline",
       "smp_rdb", "smp_rsag", "smp_rsag_lr", "smp_rsag_rab", "mpich_smp", "ompi_split_bintree", "mpich",
       "mvapich2", "impi"}
# ompi_split_bintree falls back to SMP_linear below 2 segments a half: big messages only.
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
# Algorithms SimGrid throws on (std::invalid_argument) unless the ranks form a mesh, or
# unless every host holds as many ranks, in blocks (allgather mvapich2_smp); tir runs them
# anyway (doc/collectives.md), the test keeps to the shapes SimGrid accepts.
MESH = {"2dmesh": 2, "3dmesh": 3}
BLOCKED_UNIFORM = ("mvapich2_smp",)
# gather mvapich2_two_level reads host sizes it never filled when hosts are unequal
# (SimGrid crashes): uniform layouts, blocks or cyclic; with root 0 SimGrid's root skips
# the leaders' gather and the run deadlocks: other roots.
UNIFORM = ("mvapich2_two_level",)
# Algorithms that read is_blocked right after building SimGrid's SMP view: rank 0 sets it
# at the end of its init_smp, so other ranks read false on the first call (a race that
# makes SimGrid throw, doc/collectives.md). Their cases first run a barrier that builds the
# view (barrier mpich_smp).
AFTER_INIT = ("mvapich2_smp",)
# Forced-algorithm cases SimGrid cannot run whatever the shape: its replay passes
# MPI_OP_NULL, and these dereference it (op->is_commutative()).
SG_NULL_OP = {("allreduce", "mpich"), ("reduce", "mpich"), ("allreduce", "mvapich2"), ("allreduce", "impi")}


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


def make_case(rng, kind, n, nbytes, name=None, mult=False, root0=False, barrier=False, nonzero=False):
    """(trace text, description) of one case; mult: a count that is a multiple of n;
    root0: root 0 in both calls; nonzero: roots other than 0; barrier: a barrier first."""
    dt = rng.choice(DT_ONLY.get(name, [6, 1, 0]))
    c = max(1, nbytes // DTSIZE[dt])
    if mult:
        c = max(n, c // n * n)
    root = 0 if root0 or rng.random() >= 0.5 else rng.randrange(n)
    if nonzero:
        root = rng.randrange(1, n)
    v = vec(rng, n, c)
    if kind == "reduce_scatter" and (rng.random() < 0.5 or name in REGULAR_ONLY):
        v = [c] * n  # regular counts take other branches
    m = [vec(rng, n, c) for _ in range(n)]
    skew = rng.random() < 0.5
    lines = [f"{i} init" for i in range(n)] + ([f"{i} barrier" for i in range(n)] if barrier else [])
    root2 = root if root0 else root % (n - 1) + 1 if nonzero else (root + 1) % n
    for i in range(n):
        if skew:
            lines.append(f"{i} compute {((i * 7919) % 13) * 1e5:g}")
        lines.append(action(kind, i, n, c, root, dt, v, m))
        lines.append(action(kind, i, n, c, root2, dt, v, m))
    desc = f"n={n} bytes={nbytes} dt={dt} root={root} skew={int(skew)}"
    return "\n".join(lines) + "\n", desc


def layout(rng, n, smp):
    """(host of each rank, description): smp forces several ranks on some host."""
    kinds = ["block", "cyclic", "uneven", "uneven-cyclic"] + ([] if smp else ["one", "one"])
    kind = rng.choice(kinds)
    if kind == "one" or n < 2:
        return list(range(n)), "one"
    if kind in ("block", "cyclic"):
        k = rng.choice([d for d in range(2, min(n, 8) + 1)])
        nh = (n + k - 1) // k
        hosts = [i // k for i in range(n)] if kind == "block" else [i % nh for i in range(n)]
        return hosts, f"{kind}:{k}"
    counts = []
    while sum(counts) < n:
        counts.append(rng.randint(1, 6))
    counts[-1] -= sum(counts) - n
    if len(counts) == 1 or max(counts) == 1:  # make it uneven with one host of 2
        counts = [2] + [1] * (n - 2)
    hosts = [h for h, k in enumerate(counts) for _ in range(k)]
    if kind == "uneven-cyclic":
        order, left = [], list(counts)
        while any(left):
            for h in range(len(left)):
                if left[h]:
                    order.append(h)
                    left[h] -= 1
        hosts = order
    return hosts, f"{kind}:{'+'.join(map(str, counts))}"


def sim_time(out):
    m = re.search(r"Simulated time: *([0-9.eE+-]+)", out)
    return float(m.group(1)) if m else None


def last_line(p):
    return (p.stderr.strip().splitlines() or ["no output"])[-1]


def write_case(tmp, hosts, trace):
    nh = max(hosts) + 1
    cores = max(hosts.count(h) for h in range(nh))
    with open(os.path.join(tmp, "p.xml"), "w") as f:
        f.write(PLATFORM.format(last=nh - 1, cores=cores))
    with open(os.path.join(tmp, "hostlist"), "w") as f:
        f.write("".join(f"node-{h}\n" for h in hosts))
    with open(os.path.join(tmp, "trace"), "w") as f:
        f.write(trace)
    with open(os.path.join(tmp, "index"), "w") as f:
        f.write("trace\n")


def run_tir(args, tmp, n, cfgs):
    return subprocess.run([args.tir, "-q", "-p", "p.xml", "-H", "hostlist", "-n", str(n)] +
                          [f"--cfg={c}" for c in cfgs] + ["index"], cwd=tmp, capture_output=True, text=True)


def close(t, s):
    return t is not None and s is not None and abs(t - s) <= max(1e-6 * abs(s), 5e-7)


def run_case(args, tmp, n, cfgs, sel):
    """Runs SimGrid and tir (both modes): (verdict, message); verdict in pass, quirk, skip, fail.
    Where SimGrid fails, a selector's case still needs a time from tir's default mode."""
    sg = subprocess.run([args.oracle, "--platform", "p.xml", "--hostfile", "hostlist", "--np", str(n)] +
                        [f"--cfg={c}" for c in cfgs] + ["index"], cwd=tmp, capture_output=True, text=True)
    tir = run_tir(args, tmp, n, cfgs)
    compat = run_tir(args, tmp, n, cfgs + ["tir/simgrid-compat:yes"])
    s, t, c = sim_time(sg.stdout), sim_time(tir.stdout), sim_time(compat.stdout)
    if s is None and sel and t is None:
        return "fail", f"SimGrid fails ({last_line(sg)}), and so does tir: {last_line(tir)}"
    if s is None:  # a forced algorithm may deadlock in tir too (its own deadlock, as in SimGrid)
        return "skip", f"SimGrid fails ({last_line(sg)}); tir: {t if t is not None else last_line(tir)}"
    if t is None or c is None:
        return "fail", f"tir: {last_line(tir if t is None else compat)}"
    if not close(c, s):
        return "fail", f"compat {c} SimGrid {s} (default {t})"
    if not close(t, s):
        return "quirk", f"default {t} SimGrid {s}: a SimGrid quirk (solver or scheduling, doc/model.md; compat mode gives SimGrid's time)"
    return "pass", ""


def algorithms(tir):
    """(kind, name) of every algorithm SimGrid also has, from tir-replay --list-algorithms."""
    out = subprocess.run([tir, "--list-algorithms"], capture_output=True, text=True).stdout
    algos = []
    out = out.split("Algorithms", 1)[-1]
    for line in out.splitlines():
        m = re.match(r"\s*([a-z_]+)\s+([A-Za-z0-9_]+)\s+(.*)", line)
        if m and not m.group(3).startswith("[tir]") and m.group(1) not in ("scan", "exscan", "gatherv", "scatterv") \
                and m.group(2) not in SELECTORS:
            algos.append((m.group(1), m.group(2)))
    return algos


def is_mesh(n, d):
    if d == 2:
        return any(n % x == 0 for x in range(int(n ** 0.5), n // 2 + 1))
    x = int(round(n ** (1 / 3)))
    while x ** 3 > n:
        x -= 1
    return any(n % (y * y) == 0 for y in range(max(x, 1), n // 3 + 1))


def usable(kind, name, n):
    """False for the (algorithm, size) pairs SimGrid 3.32 cannot run (doc/collectives.md)."""
    pow2 = n & (n - 1) == 0
    if name == "ompi_two_procs":
        return n == 2
    if name in REGULAR_ONLY:
        return pow2
    if name in POW2_ONLY.get(kind, ()):
        return pow2
    if kind == "allgather" and name in MESH:
        return is_mesh(n, MESH[name])
    return True


def selector_size(sel, kind, n, nbytes, maxn):
    """n, made even where the selector would pick an algorithm SimGrid cannot run."""
    if sel == "mpich" and kind == "alltoall" and nbytes >= 32768 and n % 2:
        return n + 1 if n < maxn else n - 1
    if sel == "ompi" and kind == "alltoallv" and n == 3:  # pair, which needs 2^k
        return 4
    return n


def draw(rng, args, kind, cfg, name, sel):
    """One case: (n, hosts, placement, trace, description, settings)."""
    smp = (name or sel) in SMP
    sizes = [n for n in range(2, args.maxn + 1) if name is None or usable(kind, name, n)]
    n = rng.choice(sizes)
    nbytes = log_uniform_bytes(rng, MIN_BYTES.get(name, 1))
    if name in BIG and rng.random() < 0.5:  # reach the algorithm's own path
        n = rng.randint(2, BIG[name][0])
        nbytes = rng.randint(BIG[name][1] * n, 8 << 20)
    if sel:
        n = selector_size(sel, kind, n, nbytes, args.maxn)
    if n * n * nbytes >= (1 << 31):  # keep each case small (and SimGrid's int sizes valid)
        nbytes = max(1, ((1 << 31) - 1) // (n * n), MIN_BYTES.get(name, 1))
    hosts, place = layout(rng, n, smp)
    if name in BLOCKED_UNIFORM or (name in UNIFORM and kind == "gather"):
        k = rng.choice([d for d in range(1, 9) if n % d == 0])
        cyc = name in UNIFORM and rng.random() < 0.5
        hosts = [i % (n // k) for i in range(n)] if cyc else [i // k for i in range(n)]
        place = f"{'cyclic' if cyc else 'block'}:{k}"
    mult = (sel == "ompi" and kind == "allreduce") or name in MULT_ONLY
    # SMP algorithms given a world root as a host root (mvapich2): root 0 only
    trace, desc = make_case(rng, kind, n, nbytes, name, mult, root0=(name or sel) in ("mvapich2_intra_node",),
                            barrier=name in AFTER_INIT, nonzero=name in UNIFORM and kind == "gather")
    cfgs = [cfg] + (["smpi/barrier:mpich_smp"] if name in AFTER_INIT else [])
    # the ompi bcast (and allgatherv's GB through it) may pick SMP_linear or
    # mvapich2_knomial_intra_node, which build SimGrid's SMP view
    if smp or (sel == "ompi" and kind in ("bcast", "allgatherv")) or rng.random() < 0.25:
        cfgs.append(f"smpi/send-is-detached-thresh:{rng.choice([0, 1])}")
    return n, hosts, place, trace, desc, cfgs


def make_mixed(rng, n, sel):
    """(trace text, description) of 2 to 8 calls of random collectives (those SimGrid can
    run with selector sel), random sizes and roots: the selector's state (SMP views built
    once per rank, mvapich2's globals) carries from call to call."""
    kinds = [k for k in KINDS if (k, sel) not in SG_NULL_OP]
    lines = [f"{i} init" for i in range(n)]
    calls = []
    for _ in range(rng.randint(2, 8)):
        kind = rng.choice(kinds)
        nbytes = log_uniform_bytes(rng, 1, max(1, min(8 << 20, ((1 << 31) - 1) // (n * n))))
        dt = rng.choice([6, 1, 0])
        c = max(1, nbytes // DTSIZE[dt])
        if sel == "ompi" and kind == "allreduce":
            c = max(n, c // n * n)
        calls.append((kind, c, rng.randrange(n), dt, vec(rng, n, c), [vec(rng, n, c) for _ in range(n)],
                      rng.random() < 0.3))
    for i in range(n):
        for kind, c, root, dt, v, m, skew in calls:
            if skew:
                lines.append(f"{i} compute {((i * 7919) % 13) * 1e5:g}")
            lines.append(action(kind, i, n, c, root, dt, v, m))
    desc = f"n={n} calls={'/'.join(f'{k}:{c}' for k, c, *_ in calls)}"
    return "\n".join(lines) + "\n", desc


def draw_mixed(rng, args, sel):
    """A mixed case of selector sel: (n, hosts, placement, trace, description, settings)."""
    n = rng.randint(2, args.maxn)
    if sel == "mpich" and n % 2:  # its alltoall takes pair on odd sizes, which SimGrid aborts
        n = n + 1 if n < args.maxn else n - 1
    if sel == "ompi" and n == 3:  # its alltoallv takes pair, which needs 2^k
        n = 4
    hosts, place = layout(rng, n, True)
    trace, desc = make_mixed(rng, n, sel)
    cfgs = [f"smpi/coll-selector:{sel}", f"smpi/send-is-detached-thresh:{rng.choice([0, 1])}"]
    return n, hosts, place, trace, desc, cfgs


def cases_of(args):
    per = 12 if args.full else args.per_algo
    cases = []
    for kind, name in algorithms(args.tir):
        for _ in range(per):
            cases.append((kind, f"smpi/{KIND_CFG.get(kind, kind)}:{name}", name, None))
    for sel in SELECTORS:
        for kind in KINDS + ("mixed",):
            for _ in range(per):
                cases.append((kind, f"smpi/coll-selector:{sel}", None, sel))
    if args.only:
        cases = [c for c in cases if re.search(args.only, c[0] + ":" + c[1])]
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tir", default=os.environ.get("TIR", "./tir-replay"))
    ap.add_argument("--oracle", default=os.environ.get("SIMGRID_ORACLE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "simgrid-oracle")))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-algo", type=int, default=3)
    ap.add_argument("--full", action="store_true", help="dense sweep (slow)")
    ap.add_argument("--only", default="", help="regexp on kind:smpi/key:value")
    ap.add_argument("--maxn", type=int, default=64)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    # the simulators run inside a temporary folder: relative paths (make check's) must not break
    args.oracle = os.path.abspath(args.oracle)
    if os.sep in args.tir:
        args.tir = os.path.abspath(args.tir)
    if not shutil.which("smpirun") or not os.path.exists(args.oracle):
        print("SimGrid 3.32 absent: skipped")
        return 77
    rng = random.Random(args.seed)
    count = {"pass": 0, "quirk": 0, "skip": 0, "fail": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, cfg, name, sel in cases_of(args):
            if (kind, sel) in SG_NULL_OP:
                continue
            if kind == "mixed":
                n, hosts, place, trace, desc, cfgs = draw_mixed(rng, args, sel)
            else:
                n, hosts, place, trace, desc, cfgs = draw(rng, args, kind, cfg, name, sel)
            write_case(tmp, hosts, trace)
            verdict, msg = run_case(args, tmp, n, cfgs, sel)
            count[verdict] += 1
            if verdict != "pass" or args.verbose:
                print(f"{verdict} {kind} {' '.join(cfgs)} {desc} hosts={place}: {msg}")
            if verdict == "fail" and os.environ.get("KEEP"):
                shutil.copytree(tmp, f"{os.environ['KEEP']}/fail{count['fail']}", dirs_exist_ok=True)
    print(f"coll_differential: {count['quirk']} default-mode differences explained by SimGrid's solver and scheduling quirks "
          f"(doc/model.md), {count['skip']} cases SimGrid cannot run")
    total = count["pass"] + count["quirk"] + count["fail"]
    print(f"coll_differential: {count['pass'] + count['quirk']} passed, {count['fail']} failed, {total} cases")
    return 1 if count["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
