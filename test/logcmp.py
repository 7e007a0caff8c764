#!/usr/bin/env python3
"""logcmp.py - compare tir-replay's -v log with SimGrid's replay log, rank by rank.

Both logs list completed actions: SimGrid `[Host:r:(pid) T] [smpi_replay/VERBOSE] TEXT D`,
tir `[T] TEXT D`. For every rank (first token of TEXT) the sequences must have the same
actions in the same order, with times and durations equal within TOL seconds (both print
6 decimals). Usage: logcmp.py SIMGRID_LOG TIR_LOG [TOL]. Exit 0 when they match."""
import re
import sys


def parse(path):
    ranks = {}
    pat = re.compile(r'^\[(?:[^\]]* )?([0-9.]+)\] (?:\[smpi_replay/VERBOSE\] )?(\d+ .*) ([0-9.]+)$')
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if 'smpi_replay/INFO' in line or not line.startswith('['):
                continue
            m = pat.match(line)
            if not m:
                continue
            t, text, d = float(m.group(1)), m.group(2), float(m.group(3))
            ranks.setdefault(text.split()[0], []).append((t, text, d))
    return ranks


def main():
    sg, tir = parse(sys.argv[1]), parse(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 2e-6
    bad = 0
    if sorted(sg) != sorted(tir):
        print(f"ranks differ: SimGrid {sorted(sg)}, tir {sorted(tir)}")
        return 1
    for r in sorted(sg, key=int):
        a, b = sg[r], tir[r]
        if len(a) != len(b):
            print(f"rank {r}: {len(a)} actions in SimGrid's log, {len(b)} in tir's")
            bad += 1
        for (t1, x1, d1), (t2, x2, d2) in zip(a, b):
            if x1 != x2 or abs(t1 - t2) > tol or abs(d1 - d2) > tol:
                print(f"rank {r}: SimGrid [{t1:.6f}] {x1} {d1:.6f}  vs  tir [{t2:.6f}] {x2} {d2:.6f}")
                bad += 1
                break
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
