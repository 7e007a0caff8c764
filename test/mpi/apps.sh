#!/bin/sh
# apps.sh - real applications nobody here wrote, from Debian packages, traced under mpirun
# (4 ranks) and replayed: lammps (C++, LJ melt), quantum-espresso pw.x (Fortran, bulk Si
# SCF with the Si pseudopotential quantum-espresso-data ships) and hpcc (C, N=500). Each is
# traced twice: the per-rank counts of each action must be equal (hpcc: of its collectives
# only, as it randomises its process grid and rings, and polls with MPI_Test), then its
# --simgrid-compatible trace must replay in SimGrid 3.32, and its tir trace in tir-replay
# when that is built. Applications not installed are skipped (apt-get install lammps
# quantum-espresso quantum-espresso-data hpcc nwchem-openmpi); none installed: exit 77.
# NWChem (one-sided communication) has its own section at the end.
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
  fi
  ran=$((ran + 1))
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
# ---- one-sided communication: NWChem (Debian nwchem-openmpi: Global Arrays over ARMCI-MPI,
# MPI-3 RMA). A water SCF gradient, 4 ranks (~5 s). Its load balancing (a shared counter read
# with MPI_Fetch_and_op) changes who does what from run to run, so only the collectives and
# the windows' creation are compared between the two runs. Then: no call unexpressed, one
# line per RMA call (calls.MPI_X in trace.meta), and the replay by tir-replay with its
# polling runs as waits (ARMCI-MPI's progress MPI_Iprobe calls, never followed by a message,
# are free) much shorter than with every poll charged as SMPI does.
nwchem_rma() {
  for call in Get_accumulate:get_accumulate Accumulate:accumulate Fetch_and_op:fetch_and_op \
    Win_lock_all:win_lock_all Win_flush_all:win_flush_all Win_allocate:win_allocate Win_free:win_free; do
    n=$(meta "$tmp/nwchem.1" "calls.MPI_${call%%:*}")
    lines=$(for r in 0 1 2 3; do rank_lines "$tmp/nwchem.1" "$r"; done | grep -c " ${call#*:} ")
    [ -n "$n" ] && [ "$n" -gt 0 ] || fail "nwchem: no MPI_${call%%:*} call"
    [ "$n" = "$lines" ] || fail "nwchem: $n MPI_${call%%:*} calls but $lines '${call#*:}' lines"
  done
  [ "$(meta "$tmp/nwchem.1" unexpressed)" = 0 ] || fail "nwchem: unexpressed calls: $(grep '^unexpressed' "$tmp/nwchem.1/trace.meta")"
  tir=$top_builddir/replay/tir-replay
  w=$("$tir" -q -p "$here/cluster4.xml" -H "$here/hostfile4" "$tmp/nwchem.1" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
  sg=$("$tir" -q --cfg=tir/polling:simgrid -p "$here/cluster4.xml" -H "$here/hostfile4" "$tmp/nwchem.1" |
    sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
  awk -v w="$w" -v s="$sg" 'BEGIN { exit !(w > 0 && 10 * w < s) }' ||
    fail "nwchem: replayed in $w s, and $sg s with every poll charged"
  echo "ok: nwchem: $(meta "$tmp/nwchem.1" calls.MPI_Get_accumulate) get_accumulate, $(meta "$tmp/nwchem.1" calls.MPI_Win_flush_all)" \
    "win_flush_all, unexpressed 0; replayed in $w s ($sg s with tir/polling:simgrid)"
}
if command -v nwchem.openmpi >/dev/null 2>&1 && [ "$MPIRUN" = mpirun ]; then
  mkdir -p "$tmp/nw"
  cat >"$tmp/nw/water.nw" <<'NW'
start water
title "water SCF gradient"
geometry units angstrom
  O  0.000  0.000  0.000
  H  0.000  0.757  0.587
  H  0.000 -0.757  0.587
end
basis
  * library 6-31g
end
task scf gradient
NW
  (cd "$tmp/nw" && app nwchem '^(allreduce|barrier|bcast|allgather|win_allocate|win_free)$' nwchem.openmpi water.nw)
  nwchem_rma
  ran=$((ran + 1))
fi
[ "$ran" -gt 0 ] || { echo "SKIP: none of lammps, quantum-espresso, hpcc, nwchem is installed"; exit 77; }
