#!/bin/sh
# exec_share.sh - two executions sharing one host's core, the second starting while the
# first runs (engine.c: an execution alone on its host has no solver variable; the second
# one gives it one, and the solver then shares the core). Ranks 0 and 1 on MyHost2 (1 core,
# 100 Mf), rank 2 on MyHost3: rank 0 computes 1e8 flops from 0; rank 1 first sends 7e4 bytes
# to rank 2 (rendez-vous: it ends at T, when the transfer does), then computes 1e8. By hand:
# rank 0 runs alone until T (T x 1e8 flops done), then both at 50 Mf: rank 0 ends at
# T + 2 (1 - T) = 2 - T, having given rank 1 (1 - T) x 1e8 flops' time; rank 1 then runs
# alone for its last T x 1e8 flops: it ends at 2 s. So the simulated time is 2 s and both
# computes last 2 - T, whatever T is (0.781517 s here); and the same with
# tir/simgrid-marking:yes (every execution has its variable there).
. "$(dirname "$0")/setup.sh"
cd "$tmp"
printf '0 init\n1 init\n2 init\n0 compute 1e8\n1 send 2 0 7e4\n1 compute 1e8\n2 recv 1 0 7e4\n0 finalize\n1 finalize\n2 finalize\n' > t.txt
printf 'MyHost2:2\nMyHost3\n' > hf
fail=0
for cfg in tir/simgrid-marking:no tir/simgrid-marking:yes; do
  $TIR -v --cfg=$cfg -p "$REF/energy/energy_platform.xml" -H hf t.txt > out 2>&1 || { cat out; exit 1; }
  awk -v cfg="$cfg" '
    / 1 send 2 0 7e4 / { t = substr($1, 2) + 0 }
    / 0 compute 1e8 / { end0 = substr($1, 2) + 0; d0 = $NF + 0 }
    / 1 compute 1e8 / { end1 = substr($1, 2) + 0; d1 = $NF + 0 }
    /^Simulated time:/ { sim = $3 + 0 }
    function near(a, b) { return a - b < 2e-6 && b - a < 2e-6 }
    END {
      ok = t > 0.5 && t < 1 && near(end0, 2 - t) && near(d0, 2 - t) && near(end1, 2) && near(d1, 2 - t) && near(sim, 2)
      printf "%s: T %.6f, rank 0 ends %.6f (2 - T %.6f), rank 1 ends %.6f, simulated %.9g: %s\n", cfg, t, end0, 2 - t, end1, sim, ok ? "ok" : "FAIL"
      exit !ok
    }' out || { fail=1; cat out; }
done
[ "$fail" -eq 0 ]
