#!/bin/sh
# slurm.sh - tir-sweep --backend slurm for real: a single-node Slurm (slurmctld + slurmd on this
# host, a generated slurm.conf, a private munged) runs a small sweep as a job array; its CSV
# must equal the local backend's. Skipped (77) where Slurm cannot start (not root, no Slurm or
# munge installed: apt-get install slurmctld slurmd slurm-client munge).
. "$(dirname "$0")/setup.sh"
S="$top_srcdir/scripts"
[ "$(id -u)" = 0 ] || skip "needs root to start slurmctld/slurmd"
for p in slurmctld slurmd sbatch sinfo munged; do
  command -v $p > /dev/null 2>&1 || [ -x /usr/sbin/$p ] || skip "$p not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
PATH=$PATH:/usr/sbin
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; sleep 0.5; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp"
mkdir -p state spool log
# munge with its own key and socket
dd if=/dev/urandom of=munge.key bs=1024 count=1 2>/dev/null && chmod 600 munge.key
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge.seed" || skip "munged does not start"
pids="$(cat munged.pid)"
host=$(hostname -s)
port=$((20000 + $$ % 20000))
cat > slurm.conf <<CONF
ClusterName=tirtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=tir Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
SLURM_CONF=$tmp/slurm.conf
export SLURM_CONF
slurmctld -D -f "$SLURM_CONF" > log/ctld.out 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" > log/d.out 2>&1 &
pids="$pids $!"
n=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
  n=$((n + 1))
  if [ $n -gt 60 ]; then
    tail -n 5 log/*.log log/*.out 2>/dev/null
    skip "Slurm did not come up in 30 s (see the logs above)"
  fi
  sleep 0.5
done
echo "ok   single-node Slurm up ($(sinfo -h -o '%N %t %c CPUs'))"
cat > test.spec <<'SPEC'
[sweep]
output = out
energy = yes
[trace stencil]
ranks = 4 8
generate = tir-gen-stencil {ranks} 2 {dir}
[platform flat]
kind = flat
nodes = {ranks}
bw = 10Gbps 1Gbps
speed = 2Gf,1Gf
watts = 100:120:200,90:100:140
[cfg]
host/pstate = 0 1
SPEC
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
python3 "$S/tir-sweep" -q --replay "$TIR" -o local test.spec && rc=0 || rc=$?
check "local sweep: 8 runs ok" '[ $rc = 0 ]'
out=$(timeout 100 python3 "$S/tir-sweep" --backend slurm --wait --replay "$TIR" -o slurm test.spec 2>&1) && rc=0 || rc=$?
printf '%s\n' "$out" | sed 's/^/     /'
check "slurm sweep (sbatch --wait) exits 0" '[ $rc = 0 ]'
check "8 array tasks ran" '[ $(ls slurm/slurm/*_*.out 2>/dev/null | wc -l) = 8 ]'
out=$(python3 "$S/tir-sweep" collect -o slurm test.spec 2>&1) || true
check "collect: 8 ok" 'printf "%s\n" "$out" | grep -q "^8 ok, 0 failed, 0 pending"'
tsv() { python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c not in ("wall_seconds", "error")]
for r in rows: print("\t".join(r[i] for i in keep))' "$1"; }
tsv slurm/results.csv > slurm.tsv
tsv local/results.csv > local.tsv
check "slurm CSV = local CSV (but wall times and error texts)" 'diff local.tsv slurm.tsv'
out=$(python3 "$S/tir-sweep" --backend slurm -o slurm --replay "$TIR" test.spec 2>&1) || true
check "re-submitting: nothing to do" 'printf "%s\n" "$out" | grep -q "8 already done, 0 to run"'
exit $fail
