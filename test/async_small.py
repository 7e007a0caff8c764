#!/usr/bin/env python3
"""async_small.py - random cases with smpi/async-small-thresh (SimGrid's eager small mailbox)
and per-host smpi/os, ois, or properties, replayed by tir-replay and by SimGrid 3.32.

Each case draws a platform (a flat cluster, or a Full zone whose hosts may carry their own
smpi/os, smpi/ois and smpi/or properties), a hostfile of `host:k` lines with uneven counts,
settings (async-small-thresh from 1 byte to 64 KiB, send-is-detached-thresh at or above it,
as SimGrid requires; global overheads sometimes) and a trace that sends messages before,
after and around their receives: late and early receives, isend/irecv with wait, waitall
and test, probes (recv with a negative size), several messages of one key below and above
the threshold, two receives of one key on the two mailboxes, sendRecv and collectives.
tir-replay must give SimGrid's simulated time to 1e-6 under --cfg=tir/simgrid-compat:yes,
and in its default mode but where SimGrid's scheduling decides (at most a tenth of the
cases; counted and told apart from the differences that a threshold of 0 shows too).

usage: async_small.py [-n CASES] [--seed S] [--keep DIR] TIR_REPLAY SIMGRID_ORACLE
exit 0 when all pass, 1 on a failure, 77 when SimGrid is not installed."""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402  (its collectives, time parsing and driver)

TOL = 1e-6
THRESH = [1, 100, 1001, 4000, 20000, 65536]
OVERHEADS = ["0:1e-5:1e-9;65536:2e-5:2e-9", "0:3e-6:1e-9;16384:1e-5:0", "0:2e-6:1e-10", "0:0:0", "100:4us:0;2000:1e-5:1e-8"]


def host_props(rng):
    """A host's own overhead properties (SimGrid's smpi_host.cpp), maybe none."""
    props = ""
    for key in ("smpi/os", "smpi/ois", "smpi/or"):
        if rng.random() < 0.4:
            props += f'<prop id="{key}" value="{rng.choice(OVERHEADS)}"/>'
    return props


def platform(rng, with_props):
    n = rng.randint(2, 5)
    if not with_props and rng.random() < 0.5:
        lat = rng.choice(["50us", "1us", "0us"])
        zone = (f'<zone id="AS0" routing="Full"><cluster id="c" prefix="node-" suffix="" radical="0-{n - 1}" '
                f'speed="{rng.choice(["1Gf", "500Mf"])}" core="{rng.choice([1, 2])}" bw="{rng.choice(["125MBps", "1GBps"])}" '
                f'lat="{lat}" sharing_policy="{rng.choice(["SPLITDUPLEX", "SHARED"])}"/></zone>')
        names = [f"node-{i}" for i in range(n)]
    else:
        hosts = [f'<host id="h{i}" speed="{rng.choice(["1Gf", "300Mf"])}" core="{rng.choice([1, 2])}">'
                 f'{host_props(rng) if with_props else ""}</host>' for i in range(n)]
        links = [f'<link id="l{i}" bandwidth="{rng.choice(["10MBps", "100MBps", "1GBps"])}" '
                 f'latency="{rng.choice(["10us", "500us", "0us"])}"/>' for i in range(3)]
        routes = [f'<route src="h{i}" dst="h{j}"><link_ctn id="l{rng.randrange(3)}"/></route>'
                  for i in range(n) for j in range(i, n) if i != j or rng.random() < 0.5]
        zone = '<zone id="z" routing="Full">' + "".join(hosts + links + routes) + "</zone>"
        names = [f"h{i}" for i in range(n)]
    xml = ("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
           "<platform version=\"4.1\">\n" + zone + "\n</platform>\n")
    return xml, names


def settings(rng):
    a = rng.choice(THRESH)
    d = rng.choice([x for x in THRESH + [1000000] if x >= a])
    cfg = [f"smpi/async-small-thresh:{a}", f"smpi/send-is-detached-thresh:{d}"]
    for key in ("smpi/os", "smpi/ois", "smpi/or"):
        if rng.random() < 0.2:
            cfg.append(f"{key}:{rng.choice(OVERHEADS)}")
    return a, cfg


def sizes(rng, a):
    """Message sizes around the threshold a."""
    return [0, 1, max(a - 1, 0), a, a + 1, 1000, 30000, 70000, 200000]


def pattern(rng, np_, tr, a):
    kind = rng.choice(["late", "early", "keyseq", "straddle", "probe", "test", "ring", "sendrecv", "coll", "compute"])
    sz = sizes(rng, a)
    delay = lambda: rng.choice([0, 1e5, 1e6, 1e7])  # noqa: E731
    pairs = [(r, (r + rng.randint(1, np_ - 1)) % np_) for r in range(0, np_ - 1, 2)]
    if kind in ("probe", "test"):
        # one pair: SimGrid's MPI_Probe and MPI_Test sleeps grow with a counter all ranks
        # share, so concurrent polls on several ranks hang on the order of equal dates,
        # which tir's compat mode does not always reproduce (doc/model.md, ties)
        pairs = pairs[:1]
    for s, d in pairs:
        tag = rng.randint(0, 3)
        m = rng.choice(sz)
        if kind == "late":  # the send comes first: eager below the threshold
            op = rng.choice(["send", "isend"])
            tr[s] += [f"{s} {op} {d} {tag} {m}"] + ([f"{s} wait {s} {d} {tag}"] if op == "isend" else [])
            tr[d] += [f"{d} compute {delay()}", f"{d} {rng.choice(['recv', 'irecv'])} {s} {tag} {m}"]
            if tr[d][-1].split()[1] == "irecv":
                tr[d] += [f"{d} compute {delay()}", f"{d} wait {s} {d} {tag}"]
        elif kind == "early":  # the receive comes first
            tr[d] += [f"{d} irecv {s} {tag} {m}", f"{d} compute {delay()}", f"{d} wait {s} {d} {tag}"]
            tr[s] += [f"{s} compute {delay()}", f"{s} send {d} {tag} {m}"]
        elif kind == "keyseq":  # one key, sizes below and above: one message id order
            ms = [rng.choice(sz) for _ in range(rng.randint(2, 4))]
            tr[s] += [f"{s} isend {d} {tag} {x}" for x in ms] + ["%d waitall" % s]
            tr[d] += [f"{d} compute {delay()}"]
            for x in ms:
                tr[d] += [f"{d} recv {s} {tag} {x}", f"{d} compute {rng.choice([0, 1e5])}"]
        elif kind == "straddle":  # two receives of one key, buffers on both sides of a
            small = rng.choice([x for x in sz if x < a] or [0])
            big = max(a, small) + rng.choice([0, 5000])
            tr[d] += [f"{d} irecv {s} {tag} {small}", f"{d} irecv {s} {tag} {big}", f"{d} compute {delay()}",
                      f"{d} waitall"]
            tr[s] += [f"{s} compute {delay()}", f"{s} send {d} {tag} {rng.randint(0, small)}",
                      f"{s} compute {delay()}", f"{s} send {d} {tag} {rng.randint(0, small)}"]
        elif kind == "probe":  # MPI_Probe then a receive of the size found
            tr[s] += [f"{s} compute {delay()}", f"{s} send {d} {tag} {m}"]
            tr[d] += [f"{d} compute {delay()}", f"{d} recv {s} {tag} -1"]
        elif kind == "test":
            tr[s] += [f"{s} isend {d} {tag} {m}", f"{s} compute {delay()}", f"{s} wait {s} {d} {tag}"]
            tr[d] += [f"{d} irecv {s} {tag} {m}", f"{d} compute {delay()}", f"{d} test {s} {d} {tag}",
                      f"{d} compute {delay()}", f"{d} test {s} {d} {tag}", f"{d} waitall"]
            # (a waitall: SimGrid aborts on a wait whose request a test completed when no
            # other request is pending)
    if kind == "ring":
        m, tag = rng.choice(sz), rng.randint(0, 3)
        for r in range(np_):
            first = [f"{r} irecv {(r - 1) % np_} {tag} {m}", f"{r} isend {(r + 1) % np_} {tag} {m}"]
            if rng.random() < 0.5:
                first.reverse()
            tr[r] += [f"{r} compute {delay()}"] + first + [f"{r} compute {delay()}", f"{r} waitall"]
    elif kind == "sendrecv":
        m = rng.choice(sz)
        for r in range(np_):
            tr[r].append(f"{r} sendRecv {m} {(r + 1) % np_} {m} {(r - 1) % np_} 6 6")
    elif kind == "coll":
        differential.coll(rng, np_, tr)
    elif kind == "compute":
        for r in range(np_):
            tr[r].append(f"{r} compute {delay()}")


def write_case(d, rng, with_props):
    xml, names = platform(rng, with_props)
    lines, np_ = [], 0
    while np_ < 2 or rng.random() < 0.5 and np_ < 9:
        k = rng.choice([1, 1, 2, 3])
        lines.append(f"{rng.choice(names)}:{k}")
        np_ += k
    with open(os.path.join(d, "platform.xml"), "w") as f:
        f.write(xml)
    with open(os.path.join(d, "hostfile"), "w") as f:
        f.write("\n".join(lines) + "\n")
    a, cfg = settings(rng)
    tr = [[f"{r} init"] for r in range(np_)]
    for _ in range(rng.randint(2, 6)):
        pattern(rng, np_, tr, a)
    with open(os.path.join(d, "index"), "w") as idx:
        for r in range(np_):
            with open(os.path.join(d, f"rank{r}.txt"), "w") as f:
                f.write("\n".join(tr[r] + [f"{r} finalize"]) + "\n")
            idx.write(os.path.join(d, f"rank{r}.txt") + "\n")
    return np_, cfg


def run_case(i, args, base):
    rng = random.Random(args.seed * 100003 + i)
    d = os.path.join(base, f"case{i}")
    os.makedirs(d)
    with_props = i % 3 == 2
    np_, cfg = write_case(d, rng, with_props)
    cfgs = [f"--cfg={c}" for c in cfg]
    plat, hf, idx = (os.path.join(d, x) for x in ("platform.xml", "hostfile", "index"))
    sg = subprocess.run([args.oracle, "--platform", plat, "--hostfile", hf, "--np", str(np_)] + cfgs + [idx],
                        capture_output=True, text=True, cwd=d)
    a = differential.sim_time(sg.stdout)
    desc = f"case {i} (np {np_}{', host overheads' if with_props else ''}, cfg {' '.join(cfg)})"
    if a is None:
        return "skip", f"{desc}: SimGrid gave no time: {sg.stderr.strip().splitlines()[-1:]}"
    got = [tir_time(args, plat, hf, np_, cfgs + mode, d) for mode in ([], ["--cfg=tir/simgrid-compat:yes"])]
    if isinstance(got[0], str) or isinstance(got[1], str):
        return "fail", f"{desc}: tir-replay failed: {got[0] if isinstance(got[0], str) else got[1]}"
    if not near(a, got[1]):
        return "fail", f"{desc}: SimGrid {a!r}, compat mode {got[1]!r} (default {got[0]!r})"
    if near(a, got[0]):
        return "pass", desc
    # The default mode may differ where SimGrid's scheduling decides (doc/model.md): a quirk
    # the compat mode reproduces (it gave SimGrid's time). With a non-zero threshold there
    # are more of them: SimGrid's post takes several simcalls, so a probe may miss a message
    # posted at the same date. Told apart from the differences also seen with 0.
    cfg0 = [c for c in cfgs if "async-small-thresh" not in c]
    sg0 = differential.sim_time(subprocess.run([args.oracle, "--platform", plat, "--hostfile", hf, "--np", str(np_)]
                                               + cfg0 + [idx], capture_output=True, text=True, cwd=d).stdout)
    t0 = tir_time(args, plat, hf, np_, cfg0, d)
    also = "also" if sg0 is not None and not isinstance(t0, str) and not near(sg0, t0) else "not"
    return "quirk", f"{desc}: default mode {got[0]!r}, SimGrid {a!r} (compat mode exact; {also} with 0)"


def near(a, b):
    return abs(a - b) <= TOL * abs(a) or abs(a - b) <= 1e-12


def tir_time(args, plat, hf, np_, cfgs, d):
    """tir-replay's simulated time, or its error message."""
    t = subprocess.run([args.tir, "-q", "-p", plat, "-H", hf, "-n", str(np_)] + cfgs + [os.path.join(d, "index")],
                       capture_output=True, text=True, cwd=d)
    b = differential.sim_time(t.stdout)
    return b if b is not None else (t.stderr.strip()[:300] or f"exit {t.returncode}")


def main():
    args, counts = differential.drive(60, 1, "tir-async-", run_case)
    if args is None:
        return 77
    print(f"async_small: seed {args.seed}, {counts['skip']} cases SimGrid could not run, {counts['quirk']} "
          "default-mode differences (SimGrid's scheduling; the compat mode is exact)")
    print(f"{counts['pass']} passed, {counts['fail']} failed")
    # the default mode gives SimGrid's time but for scheduling quirks, a few percent of cases
    return 1 if counts["fail"] or counts["pass"] < args.n // 2 or counts["quirk"] > args.n // 10 else 0


if __name__ == "__main__":
    sys.exit(main())
