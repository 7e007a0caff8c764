#!/usr/bin/env python3
"""calibrate_synth.py - self-consistency of tir-calibrate fit (test/calibrate_selfcheck.sh).

A "true" platform with known piecewise overheads and factors (TRUE_CONFIG, breaks at 1500,
8192 and 65536 bytes) plays the machine: the four measurements of tir-calibrate bench are
synthesised by replaying, with tir-replay on a 2-node version of it, traces that do what
the benchmark does (send: rank 1 waits in recv; recv: a long sleep, then the recv, so that
a message below the eager limit has arrived: SMPI's eager mailbox, smpi/async-small-thresh,
equal to the detached threshold on the true platform; from it on, the transfer starts with
the recv as in a rendez-vous; isend; ping-pong round trips), over tir-calibrate's
default sizes, 10 repetitions in random order, each duration multiplied by 1 + 2 % Gaussian
noise, and 1 % of them by 1.2 to 3 (outliers, as a shared machine gives). tir-calibrate fit
turns them into a platform; then a communication-bound 16-rank trace (small, medium and
rendez-vous messages, blocking and non-blocking, an allreduce) is replayed on the true
platform, on the fitted one and on the true cluster with SimGrid's default factors and no
overheads. Prints the three times and the errors; exits 1 unless the fitted platform is
within 3 % of the truth and the default one is off by at least 20 %.
usage: calibrate_synth.py TIR-REPLAY TIR-CALIBRATE WORKDIR
"""
import csv
import os
import random
import subprocess
import sys

TRUE_CONFIG = {
    "smpi/os": "0:2e-6:1e-10;8191:5e-6:2e-10;65535:0:0",
    "smpi/or": "0:3e-6:2e-10;8191:6e-6:1.5e-10;65535:0:0",
    "smpi/ois": "0:1e-6:5e-11;8191:2e-6:1e-10;65535:4e-6:0",
    "smpi/bw-factor": "0:0.4;1515:0.7;8207:0.5;65551:0.6",
    "smpi/lat-factor": "0:1.0;1515:1.5;8207:2.0;65551:3.0",
    "smpi/send-is-detached-thresh": "65536",
    "smpi/async-small-thresh": "65536",
}


def platform(nodes, config):
    cfg = "".join(f'    <prop id="{k}" value="{v}"/>\n' for k, v in config.items())
    return ("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            '<platform version="4.1">\n' + (f'  <config id="General">\n{cfg}  </config>\n' if cfg else "") +
            '  <zone id="z" routing="Full">\n'
            f'    <cluster id="c" prefix="node-" suffix="" radical="0-{nodes - 1}" speed="1Gf" '
            'bw="1.25GBps" lat="2us"/>\n  </zone>\n</platform>\n')


def write_trace(d, ranks):
    """ranks: list of lists of action strings (without the rank prefix)."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "index"), "w") as idx:
        for r, acts in enumerate(ranks):
            with open(os.path.join(d, f"rank{r}.txt"), "w") as f:
                f.write(f"{r} init\n" + "".join(f"{r} {a}\n" for a in acts) + f"{r} finalize\n")
            idx.write(f"rank{r}.txt\n")
    return os.path.join(d, "index")


def bench_traces(work, items):
    """One 2-rank trace per operation, items in the given order (what the benchmark does)."""
    t = {}
    t["send"] = [[a for op, k in items if op == "send" for a in ("sleep 0.001", f"send 1 0 {k}")],
                 [f"recv 0 0 {k}" for op, k in items if op == "send"]]
    t["isend"] = [[a for op, k in items if op == "isend" for a in ("sleep 0.001", f"isend 1 0 {k}", "wait 0 1 0")],
                  [f"recv 0 0 {k}" for op, k in items if op == "isend"]]
    t["recv"] = [[a for op, k in items if op == "recv" for a in (f"send 1 0 {k}", "recv 1 1 0")],
                 [a for op, k in items if op == "recv" for a in ("sleep 1", f"recv 0 0 {k}", "send 0 1 0")]]
    t["pingpong"] = [[a for op, k in items if op == "pingpong" for a in (f"send 1 0 {k}", f"recv 1 0 {k}", "sleep 0.001")],
                     [a for op, k in items if op == "pingpong" for a in (f"recv 0 0 {k}", f"send 0 0 {k}")]]
    return {op: write_trace(os.path.join(work, f"bench-{op}"), ranks) for op, ranks in t.items()}


def states(replay, plat, trace, tl):
    subprocess.run([replay, "-q", "-p", plat, "--timeline", tl, trace], check=True, stdout=subprocess.DEVNULL)
    with open(tl, newline="") as f:
        return [r for r in csv.DictReader(f) if r["type"] == "state"]


def durations(replay, plat, traces, work):
    """{op: [seconds]} in item order, read from the replays' timelines."""
    out = {}
    for op, tr in traces.items():
        rows = states(replay, plat, tr, os.path.join(work, f"tl-{op}.csv"))
        if op == "pingpong":
            r0 = [r for r in rows if r["rank"] == "0" and r["state"] in ("send", "recv")]
            out[op] = [float(b["end"]) - float(a["start"]) for a, b in zip(r0[0::2], r0[1::2])]
        else:
            rank, names = {"send": ("0", ("send",)), "isend": ("0", ("isend",)), "recv": ("1", ("wait", "recv"))}[op]
            out[op] = [float(r["end"]) - float(r["start"]) for r in rows if r["rank"] == rank and r["state"] in names]
    return out


def measure(replay, calibrate, work, plat2):
    sizes = [int(s) for s in subprocess.run([calibrate, "sizes"], check=True, capture_output=True,
                                            text=True).stdout.split()]
    rng = random.Random(18)
    items = [(op, k) for _ in range(10) for k in sizes for op in ("send", "recv", "isend", "pingpong")]
    rng.shuffle(items)
    d = durations(replay, plat2, bench_traces(work, items), work)
    meas = os.path.join(work, "meas")
    os.makedirs(meas, exist_ok=True)
    pos = {op: 0 for op in d}
    with open(os.path.join(meas, "pingpong.csv"), "w") as f:
        f.write("op,bytes,seconds\n")
        for op, k in items:
            t = d[op][pos[op]] * (1 + 0.02 * rng.gauss(0, 1))
            if rng.random() < 0.01:
                t *= rng.uniform(1.2, 3.0)
            pos[op] += 1
            f.write(f"{op},{k},{max(t, 0.0):.9e}\n")
    with open(os.path.join(meas, "meta"), "w") as f:
        f.write("tool = calibrate_synth.py\nmpi_library = tir-replay on a known platform\n"
                "host_0 = node-0\nhost_1 = node-1\nsame_host = no\n")
    return meas


def app_trace(work, n=16, iters=10):
    """Communication-bound: per iteration a neighbour exchange of 20000 B, a blocking
    exchange of 1000 B and of 3000 B with rank ^ 1, a rendez-vous exchange of 300000 B with
    rank ^ 2, an allreduce of 8 B, and little computation."""
    ranks = []
    for r in range(n):
        left, right, p1, p2 = (r - 1) % n, (r + 1) % n, r ^ 1, r ^ 2
        acts = []
        for _ in range(iters):
            acts += ["compute 20000", f"irecv {left} 1 20000", f"irecv {right} 2 20000", f"isend {right} 1 20000",
                     f"isend {left} 2 20000", "waitall"]
            for k, tag in ((1000, 3), (3000, 4)):
                first, second = (f"send {p1} {tag} {k}", f"recv {p1} {tag} {k}")
                acts += [first, second] if r % 2 == 0 else [second, first]
            acts += [f"irecv {p2} 5 300000", f"isend {p2} 5 300000", "waitall", "allreduce 8 0"]
        ranks.append(acts)
    return write_trace(os.path.join(work, "app16"), ranks)


def simulated(replay, plat, trace):
    out = subprocess.run([replay, "-q", "-p", plat, trace], check=True, capture_output=True, text=True).stdout
    return float(out.split("Simulated time:")[1].split()[0])


def main():
    replay, calibrate, work = sys.argv[1:4]
    plats = {}
    for name, nodes, cfg in (("true2", 2, TRUE_CONFIG), ("true16", 16, TRUE_CONFIG), ("default16", 16, {})):
        plats[name] = os.path.join(work, f"{name}.xml")
        with open(plats[name], "w") as f:
            f.write(platform(nodes, cfg))
    meas = measure(replay, calibrate, work, plats["true2"])
    fitted = os.path.join(work, "fitted.xml")
    fit = subprocess.run([calibrate, "fit", meas, "-o", fitted, "--nodes", "16"], capture_output=True, text=True)
    print(fit.stdout + fit.stderr, end="")
    if fit.returncode != 0:
        print("FAIL: tir-calibrate fit failed")
        return 1
    app = app_trace(work)
    t_true, t_fit, t_def = (simulated(replay, p, app) for p in (plats["true16"], fitted, plats["default16"]))
    e_fit, e_def = abs(t_fit / t_true - 1), abs(t_def / t_true - 1)
    print(f"16-rank trace: true platform {t_true:.6f} s, fitted {t_fit:.6f} s ({100 * e_fit:.2f} %), "
          f"default factors {t_def:.6f} s ({100 * e_def:.1f} %)")
    ok = e_fit <= 0.03 and e_def >= 0.20
    print("ok" if ok else "FAIL: the fitted platform must be within 3 % and the default off by 20 % or more")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
