#!/bin/sh
# apps.sh - real applications nobody here wrote, from Debian packages, traced under mpirun
# (4 ranks) and replayed: lammps (C++, LJ melt), quantum-espresso pw.x (Fortran, bulk Si
# SCF with the Si pseudopotential quantum-espresso-data ships) and hpcc (C, N=500). Each is
# traced twice: the per-rank counts of each action must be equal (hpcc: of its collectives
# only, as it randomises its process grid and rings, and polls with MPI_Test), then its
# --simgrid-compatible trace must replay in SimGrid 3.32, and its tir trace in tir-replay
# when that is built, also with two ranks a host under the mvapich2 and impi selectors (tir
# in both modes; the impi one against SimGrid's time, send-is-detached-thresh 0: SimGrid's
# SMP set-up crashes otherwise; SimGrid's mvapich2 allreduce crashes, doc/collectives.md).
# Applications not installed are skipped (apt-get install lammps
# quantum-espresso quantum-espresso-data hpcc); none installed: exit 77.
. "${top_srcdir:-.}/test/mpi/setup.sh"
ran=0

# counts DIR FILTER: per rank, "action count" pairs of the actions matching FILTER
counts() {
  for r in 0 1 2 3; do
    printf 'rank %s:' "$r"
    rank_lines "$1" "$r" | grep -v '^#' | awk '{ a = $2 == "comm" ? "comm:" $4 : $2; print a }' |
      grep -E "$2" | sort | uniq -c | tr -s ' ' | tr '\n' ';'
    echo
  done
}

# app NAME FILTER CMD...: trace twice, compare counts, replay
app() {
  name=$1 filter=$2; shift 2
  for i in 1 2; do
    run_np 4 "$tirtrace" -o "$tmp/$name.$i" -- "$@" >"$tmp/$name.log$i" 2>&1 ||
      { tail -n 20 "$tmp/$name.log$i"; fail "$name: traced run $i failed"; }
    counts "$tmp/$name.$i" "$filter" >"$tmp/$name.counts$i"
  done
  diff "$tmp/$name.counts1" "$tmp/$name.counts2" || fail "$name: per-rank action counts differ between two runs"
  echo "ok: $name: $(meta "$tmp/$name.1" trace_lines) lines, $(meta "$tmp/$name.1" trace_bytes) bytes," \
    "unexpressed $(meta "$tmp/$name.1" unexpressed); counts stable: $(head -n 1 "$tmp/$name.counts1")"
  run_np 4 "$tirtrace" -o "$tmp/$name.sg" --simgrid-compatible --no-compress -- "$@" >"$tmp/$name.logsg" 2>&1 ||
    fail "$name: --simgrid-compatible run failed"
  replay_simgrid "$tmp/$name.sg" 4
  tir=$top_builddir/replay/tir-replay
  if [ -x "$tir" ]; then
    out=$("$tir" -p "$here/cluster4.xml" -H "$here/hostfile4" "$tmp/$name.1/index" 2>&1) ||
      { echo "$out" | tail -n 5; fail "$name: tir-replay failed"; }
    echo "ok: $name: tir-replay: $(echo "$out" | grep '^Simulated time')"
    selectors "$tmp/$name.sg"
  fi
  ran=$((ran + 1))
}

# selectors DIR: the SimGrid-compatible trace with 2 ranks a host, mvapich2 and impi
selectors() {
  dir=$1
  printf 'node-0:2\nnode-1:2\n' >"$tmp/hostfile2"
  for sel in mvapich2 impi; do
    set -- -q -p "$here/cluster4.xml" -H "$tmp/hostfile2" -n 4 --cfg=smpi/coll-selector:$sel \
      --cfg=smpi/send-is-detached-thresh:0
    t=$(cd "$dir" && "$tir" "$@" index 2>&1) || { echo "$t"; fail "$name: tir-replay, $sel selector"; }
    c=$(cd "$dir" && "$tir" "$@" --cfg=tir/simgrid-compat:yes index 2>&1) ||
      { echo "$c"; fail "$name: tir-replay, $sel selector, compat mode"; }
    echo "ok: $name: $sel selector, 2 ranks a host: $t (compat: $c)"
    [ "$sel" = impi ] && [ -n "$SMPIRUN" ] && [ -x "$top_srcdir/test/simgrid-oracle" ] || continue
    s=$(cd "$dir" && "$top_srcdir/test/simgrid-oracle" --platform "$here/cluster4.xml" --hostfile "$tmp/hostfile2" \
      --np 4 --cfg=smpi/coll-selector:impi --cfg=smpi/send-is-detached-thresh:0 index) ||
      fail "$name: SimGrid could not replay it with the impi selector"
    python3 - "$s" "$c" <<'PY' || fail "$name: impi selector: tir (compat) and SimGrid differ"
import sys
s, c = (float(x.split()[2]) for x in sys.argv[1:3])
sys.exit(0 if abs(s - c) <= 1e-6 * s + 5e-7 else 1)
PY
    echo "ok: $name: impi selector equals SimGrid's: $s"
  done
}

all='.'
if command -v lmp >/dev/null 2>&1; then
  cat >"$tmp/in.lj" <<'LJ'
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 10 0 10 0 10
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 20 check no
fix 1 all nve
thermo 50
run 200
LJ
  (cd "$tmp" && app lammps "$all" lmp -in "$tmp/in.lj" -log none)
  ran=$((ran + 1))
fi
pseudo=/usr/share/doc/quantum-espresso/examples/EPW/sic/pp/Si.pz-vbc.UPF.gz
if command -v pw.x >/dev/null 2>&1 && [ -r "$pseudo" ]; then
  mkdir -p "$tmp/qe/pseudo"
  gzip -dc "$pseudo" >"$tmp/qe/pseudo/Si.pz-vbc.UPF"
  cat >"$tmp/qe/si.in" <<'QE'
 &control
    calculation = 'scf', prefix = 'si', pseudo_dir = './pseudo', outdir = './out'
 /
 &system
    ibrav = 2, celldm(1) = 10.20, nat = 2, ntyp = 1, ecutwfc = 12.0
 /
 &electrons
    conv_thr = 1.0d-8
 /
ATOMIC_SPECIES
 Si 28.086 Si.pz-vbc.UPF
ATOMIC_POSITIONS alat
 Si 0.00 0.00 0.00
 Si 0.25 0.25 0.25
K_POINTS automatic
 2 2 2 0 0 0
QE
  (cd "$tmp/qe" && app qe "$all" pw.x -in si.in)
  ran=$((ran + 1))
fi
# hpcc (2.3M lines, ~1 min per run) runs on request: TIR_TEST_HPCC=1
if [ -n "${TIR_TEST_HPCC:-}" ] && command -v hpcc >/dev/null 2>&1 && [ -r /usr/share/doc/hpcc/examples/_hpccinf.txt ]; then
  mkdir -p "$tmp/hpcc"
  sed -e '6s/^1000 /500  /' /usr/share/doc/hpcc/examples/_hpccinf.txt >"$tmp/hpcc/hpccinf.txt"
  (cd "$tmp/hpcc" && app hpcc '^(allreduce|alltoall|barrier|bcast|gather|reduce|comm_split|comm:)' hpcc)
  ran=$((ran + 1))
fi
[ "$ran" -gt 0 ] || { echo "SKIP: none of lammps, quantum-espresso, hpcc is installed"; exit 77; }
