#!/bin/sh
# rma.sh - one-sided communication replayed (replay/rma.c, doc/model.md "One-sided
# communication"), every time derived by hand from the platform and the model's rules:
# test/mpi/cluster4.xml (rank i on node-i: route latency L = 5 + 1 + 5 us, bottleneck the
# 1.25 GBps node links), the hybrid model's lat/bw factors of the payload (bytes + 16), and
# network/crosstraffic:no, so that transfers in opposite directions do not share. An
# isolated transfer of S payload bytes takes T(S) = L lat(S) + S / (bw(S) B); two equal ones
# started together on one link take L lat(S) + 2 S / (bw(S) B). A barrier of 2 ranks
# (ompi_basic_linear: rank 1 -> 0, then 0 -> 1, 0-byte messages, each starting when both
# sides are posted) and of 3 ranks (1 and 2 -> 0 sharing node-0's link, then 0 -> 1 and 2).
#  fence: put 100000 B and get 1000 B at one date, the fence waits for both, then a barrier;
#  lock: ranks 0 and 1 lock rank 2 exclusively: rank 1's put waits for rank 0's unlock (and
#    so with ranks 0 and 1 on one host);
#  lock_all: both ranks lock all (shared: no wait), get_accumulate and fetch_and_op are two
#    transfers each (there and back), flush and flush_all wait for them; rput + wait;
#    (rank 0 computes first, so that its first transfer does not share the link with its
#    last barrier message);
#  PSCW: start waits for the post's notice, complete waits for the put then notifies, wait
#    returns when the notice arrives;
#  a rank whose trace ends with a put in flight ends when the put does.
# Action end dates come from the CSV timeline (exact), compared at 1e-9 relative.
. "$(dirname "$0")/setup.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
cd "$tmp"
TIR="$TIR" PLAT="$top_srcdir/test/mpi/cluster4.xml" HF="$top_srcdir/test/mpi/hostfile4" python3 - <<'EOF'
import os, re, subprocess, sys

L, B = 11e-6, 1.25e9
LAT = [(257, 2.01467), (732, 1.95341), (1426, 1.9503), (3484, 1.61075), (5776, 1.88101), (9376, 2.18796),
       (15424, 2.59299), (65472, 3.48845)]
BW = [(257, 0.812084), (732, 0.338112), (1426, 0.341987), (3484, 0.608902), (5776, 0.77493), (9376, 1.08739),
      (15424, 0.58729), (65472, 0.697866)]


def factor(table, last, s):
    for limit, v in table:
        if s <= limit:
            return v
    return last


def T(nbytes, share=1):
    """An isolated transfer of nbytes (+16), or one of `share` equal ones on one link."""
    s = nbytes + 16
    return L * factor(LAT, 11.6436, s) + share * s / (factor(BW, 0.940694, s) * B)


def replay(name, text, np, hosts=None):
    with open(name, "w") as f:
        f.write(text)
    with open("hf", "w") as f:
        f.write(hosts or "".join("node-%d\n" % i for i in range(np)))
    cmd = os.environ["TIR"].split() + ["-q", "--cfg=network/crosstraffic:no", "-p", os.environ["PLAT"], "-H",
                                       "hf", "-n", str(np), "--timeline", name + ".csv", name]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("FAIL: %s: tir-replay exited %d:\n%s%s" % (name, out.returncode, out.stdout, out.stderr))
    ends = {}  # "RANK ACTION" -> the end dates (exact, from the CSV timeline), in order
    with open(name + ".csv") as f:
        for row in f:
            v = row.split(",")
            if v[0] == "state":
                ends.setdefault(v[1] + " " + v[5], []).append(float(v[4]))
    sim = float(re.search(r"Simulated time: ([0-9.e+-]+)", out.stdout).group(1))
    return ends, sim


bad = 0


def check(what, got, want):
    global bad
    ok = abs(got - want) <= 1e-9 * want
    print("%s: %s: %.12g s (by hand %.12g)" % ("ok" if ok else "FAIL", what, got, want))
    bad += not ok


def check_sim(what, got, want):
    global bad
    ok = abs(got - want) <= 1e-9 * want
    print("%s: %s: simulated %.12g s (by hand %.12g)" % ("ok" if ok else "FAIL", what, got, want))
    bad += not ok


# ---- fence epoch: put and get at one date, 2 ranks
t16 = T(0)
ends, sim = replay("fence.txt", """0 init
1 init
0 win_create 1 0 4096
1 win_create 1 0 4096
0 win_fence 1
1 win_fence 1
0 put 1 1 100000
0 get 1 1 1000
0 win_fence 1
1 win_fence 1
0 win_free 1
1 win_free 1
""", 2)
# create barrier: rank 0 out at t16, rank 1 at 2 t16; first fence: 3 t16 and 4 t16
start = 3 * t16
put, get = T(100000), T(0) + T(1000)  # get: the request (envelope only), then the data back
enter0 = start + max(put, get)         # rank 0's second fence waits for both, then the barrier
s = max(enter0, 4 * t16)               # the 1 -> 0 message starts when both sides are posted
check("fence: rank 0 leaves the first fence", ends["0 win_fence"][0], 3 * t16)
check("fence: rank 0 leaves the second fence (ops done, then barrier)", ends["0 win_fence"][1], s + t16)
check("fence: rank 1 leaves the second fence", ends["1 win_fence"][1], s + 2 * t16)
check_sim("fence", sim, s + 4 * t16)  # win_free: one more barrier

# ---- exclusive locks: ranks 0 and 1 on target 2, 3 ranks
b3 = T(0, share=2)  # the two concurrent 0-byte messages of a 3-rank barrier's phases
ends, sim = replay("lock.txt", """0 init
1 init
2 init
0 win_allocate 1 0 4096
1 win_allocate 1 0 4096
2 win_allocate 1 0 4096
0 win_lock 1 2 1
0 put 1 2 10000
0 win_unlock 1 2
1 win_lock 1 2 1
1 put 1 2 10000
1 win_unlock 1 2
0 win_free 1
1 win_free 1
2 win_free 1
""", 3)
p10 = T(10000)
check("lock: rank 0's unlock (its put done)", ends["0 win_unlock"][0], b3 + p10)
check("lock: rank 1's lock granted at rank 0's unlock", ends["1 win_lock"][0], b3 + p10)
check("lock: rank 1's unlock", ends["1 win_unlock"][0], b3 + 2 * p10)
# free barrier: 2 -> 0 alone at rank 0's entry, 1 -> 0 alone at rank 1's, then 0 -> 1 and 2 together
check_sim("lock", sim, b3 + 2 * p10 + t16 + b3)

# ---- the same with ranks 0 and 1 on node-0 (a host:2 line), rank 2 on node-1: the barrier's
# messages now share node-0's links with each other, but rank 1's lock is still granted at
# rank 0's unlock, and its put (node-0 -> node-1, alone) still takes T(10000)
lock_text = open("lock.txt").read()
ends, sim = replay("lock2.txt", lock_text, 3, "node-0:2\nnode-1\n")
check("lock, 2 ranks per host: rank 1's lock granted at rank 0's unlock", ends["1 win_lock"][0], ends["0 win_unlock"][0])
check("lock, 2 ranks per host: rank 1's unlock", ends["1 win_unlock"][0], ends["0 win_unlock"][0] + p10)

# ---- lock_all (shared, both ranks), get_accumulate, fetch_and_op, flushes, rput
ends, sim = replay("lockall.txt", """0 init
1 init
0 win_create 1 0 64
1 win_create 1 0 64
0 compute 100000
0 win_lock_all 1
1 win_lock_all 1
0 get_accumulate 1 1 8 8
0 win_flush 1 1
0 fetch_and_op 1 1 0 8
0 win_flush_local 1 1
0 compare_and_swap 1 1 16 8
0 win_flush_all 1
0 rput 1 1 2000
0 wait 0 0 -1
0 win_unlock_all 1
1 win_unlock_all 1
0 win_free 1
1 win_free 1
""", 2)
t0 = t16 + 1e-4  # rank 0 computes 1e5 flops at 1 Gf/s (its barrier message to rank 1 is then long arrived)
gacc = T(8) + T(8)
check("lock_all: rank 1 is not held by rank 0's shared locks", ends["1 win_lock_all"][0], 2 * t16)
check("lock_all: flush waits for get_accumulate (two transfers)", ends["0 win_flush"][0], t0 + gacc)
# fetch_and_op with MPI_NO_OP: nothing goes but the envelope; compare_and_swap: 16 B go
t1 = t0 + gacc
fop, cas = T(0) + T(8), T(16) + T(8)
check("lock_all: flush_local waits for fetch_and_op", ends["0 win_flush_local"][0], t1 + fop)
check("lock_all: flush_all waits for compare_and_swap", ends["0 win_flush_all"][0], t1 + fop + cas)
check("lock_all: wait on rput's request", ends["0 wait"][0], t1 + fop + cas + T(2000))

# ---- PSCW, 2 ranks: rank 1 exposes, rank 0 accesses
ends, sim = replay("pscw.txt", """0 init
1 init
0 win_create 1 0 64
1 win_create 1 0 64
1 win_post 1 1 0
0 win_start 1 1 1
0 put 1 1 5000
0 win_complete 1
1 win_wait 1
0 win_free 1
1 win_free 1
""", 2)
check("pscw: start returns when the post's notice arrives", ends["0 win_start"][0], 3 * t16)
check("pscw: complete returns when the put is done", ends["0 win_complete"][0], 3 * t16 + T(5000))
check("pscw: wait returns when complete's notice arrives", ends["1 win_wait"][0], 3 * t16 + T(5000) + t16)
# ---- a rank's trace that ends with an operation in flight: its end waits for it
ends, sim = replay("end.txt", """0 init
1 init
0 win_create 1 0 64
1 win_create 1 0 64
0 put 1 1 50000
""", 2)
check_sim("end of trace", sim, max(2 * t16, t16 + T(50000)))
sys.exit(1 if bad else 0)
EOF
