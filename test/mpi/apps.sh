#!/bin/sh
# apps.sh - real applications nobody here wrote, from Debian packages, traced under mpirun
# and replayed. Open MPI builds (4 ranks): lammps (C++, LJ melt), quantum-espresso pw.x
# (Fortran, bulk Si SCF with the Si pseudopotential quantum-espresso-data ships), hpcc (C,
# N=500, on request), nwchem (Fortran, one-sided MPI through ARMCI-MPI: water SCF
# gradient). MPICH builds (Debian packages no lammps, quantum-espresso nor hpcc for MPICH):
# NetPIPE (C, point to point, 2 ranks) and nwchem (1 rank: Debian's nwchem-mpich 7.0.2 does
# not converge on 2 ranks or more even untraced, MPICH 4.0.2's one-sided calls being at
# fault). tir-trace picks the tracer flavour of each program by itself, and trace.meta
# must name that program's MPI. Each is traced twice: the per-rank counts of each action
# must be equal (hpcc: of its collectives only, as it randomises its process grid and
# rings and polls; nwchem: of its collectives but allreduce and barrier, as it polls and
# their number varies by a few from run to run), then its --simgrid-compatible trace must replay
# in SimGrid 3.32, and its tir trace in tir-replay when that is built. Applications not
# installed are skipped (apt-get install lammps quantum-espresso quantum-espresso-data hpcc
# nwchem-openmpi nwchem-mpich netpipe-mpich2); none installed: exit 77.
# Lammps and quantum-espresso are also replayed with two ranks a host under the mvapich2 and
# impi selectors (tir in both modes; the impi one against SimGrid's time with
# send-is-detached-thresh 0: SimGrid's SMP set-up crashes otherwise; SimGrid's mvapich2
# allreduce crashes, doc/collectives.md).
. "${top_srcdir:-.}/test/mpi/setup.sh"
ran=0
np=4

# check_rma DIR: a one-sided application's trace (NWChem: Global Arrays over ARMCI-MPI,
# MPI-3 RMA): no call unexpressed, one line per RMA call (calls.MPI_X in trace.meta); with
# several ranks, its replay by tir-replay with its polling runs as waits (ARMCI-MPI's
# progress MPI_Iprobe calls, never followed by a message, are free) much shorter than with
# every poll charged as SMPI does (--cfg=tir/polling:simgrid).
check_rma() {
  for call in Get_accumulate:get_accumulate Accumulate:accumulate Fetch_and_op:fetch_and_op \
    Win_lock_all:win_lock_all Win_flush_all:win_flush_all Win_allocate:win_allocate Win_free:win_free; do
    n=$(meta "$1" "calls.MPI_${call%%:*}")
    lines=$(for r in $(seq 0 $((np - 1))); do rank_lines "$1" "$r"; done | grep -c " ${call#*:} ")
    [ "$np" -eq 1 ] || { [ -n "$n" ] && [ "$n" -gt 0 ]; } || fail "$1: no MPI_${call%%:*} call"
    [ "${n:-0}" = "$lines" ] || fail "$1: ${n:-0} MPI_${call%%:*} calls but $lines '${call#*:}' lines"
  done
  [ "$(meta "$1" unexpressed)" = 0 ] || fail "$1: unexpressed calls: $(grep '^unexpressed' "$1/trace.meta")"
  echo "ok: $(basename "$1"): $(meta "$1" calls.MPI_Get_accumulate) get_accumulate," \
    "$(meta "$1" calls.MPI_Win_flush_all) win_flush_all, unexpressed 0"
  [ "$np" -gt 1 ] || return 0
  tir=$top_builddir/replay/tir-replay
  w=$("$tir" -q -p "$here/cluster4.xml" -H "$here/hostfile4" "$1" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
  sg=$("$tir" -q --cfg=tir/polling:simgrid -p "$here/cluster4.xml" -H "$here/hostfile4" "$1" |
    sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
  awk -v w="$w" -v s="$sg" 'BEGIN { exit !(w > 0 && 10 * w < s) }' ||
    fail "$1: replayed in $w s, and $sg s with every poll charged"
  echo "ok: $(basename "$1"): replayed in $w s ($sg s with tir/polling:simgrid)"
}

# counts DIR FILTER: per rank, "action count" pairs of the actions matching FILTER
counts() {
  for r in $(seq 0 $((np - 1))); do
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
    run_np "$np" "$tirtrace" -o "$tmp/$name.$i" -- "$@" >"$tmp/$name.log$i" 2>&1 ||
      { tail -n 20 "$tmp/$name.log$i"; fail "$name: traced run $i failed"; }
    counts "$tmp/$name.$i" "$filter" >"$tmp/$name.counts$i"
  done
  diff "$tmp/$name.counts1" "$tmp/$name.counts2" || fail "$name: per-rank action counts differ between two runs"
  check_flavour "$tmp/$name.1"
  echo "ok: $name: $(meta "$tmp/$name.1" trace_lines) lines, $(meta "$tmp/$name.1" trace_bytes) bytes," \
    "unexpressed $(meta "$tmp/$name.1" unexpressed); counts stable: $(head -n 1 "$tmp/$name.counts1")"
  run_np "$np" "$tirtrace" -o "$tmp/$name.sg" --simgrid-compatible --no-compress -- "$@" >"$tmp/$name.logsg" 2>&1 ||
    fail "$name: --simgrid-compatible run failed"
  replay_simgrid "$tmp/$name.sg" "$np"
  tir=$top_builddir/replay/tir-replay
  if [ -x "$tir" ]; then
    out=$("$tir" -p "$here/cluster4.xml" -H "$here/hostfile4" -n "$np" "$tmp/$name.1/index" 2>&1) ||
      { echo "$out" | tail -n 5; fail "$name: tir-replay failed"; }
    echo "ok: $name: tir-replay: $(echo "$out" | grep '^Simulated time')"
    selectors "$tmp/$name.sg"
  fi
  ran=$((ran + 1))
}

# selectors DIR: the SimGrid-compatible trace of $np ranks with 2 ranks a host, mvapich2
# and impi
selectors() {
  dir=$1
  awk -v n="$np" 'BEGIN { for (h = 0; 2 * h < n; h++) printf "node-%d:2\n", h }' >"$tmp/hostfile2"
  for sel in mvapich2 impi; do
    set -- -q -p "$here/cluster4.xml" -H "$tmp/hostfile2" -n "$np" --cfg=smpi/coll-selector:$sel \
      --cfg=smpi/send-is-detached-thresh:0
    t=$(cd "$dir" && "$tir" "$@" index 2>&1) || { echo "$t"; fail "$name: tir-replay, $sel selector"; }
    c=$(cd "$dir" && "$tir" "$@" --cfg=tir/simgrid-compat:yes index 2>&1) ||
      { echo "$c"; fail "$name: tir-replay, $sel selector, compat mode"; }
    echo "ok: $name: $sel selector, 2 ranks a host: $t (compat: $c)"
    [ "$sel" = impi ] && [ -n "$SMPIRUN" ] && [ -x "$top_srcdir/test/simgrid-oracle" ] || continue
    s=$(cd "$dir" && "$top_srcdir/test/simgrid-oracle" --platform "$here/cluster4.xml" --hostfile "$tmp/hostfile2" \
      --np "$np" --cfg=smpi/coll-selector:impi --cfg=smpi/send-is-detached-thresh:0 index) ||
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
collectives='^(allreduce|alltoall|barrier|bcast|gather|reduce|allgather|comm_split|comm_dup|comm:)'
nwchem_stable='^(bcast|gather|reduce|allgather|comm_split|comm_dup)'
has() { case " $flavours " in *" $1 "*) command -v "$2" >/dev/null 2>&1 ;; *) false ;; esac; }
use_flavour ompi 2>/dev/null || :
if has ompi lmp >/dev/null 2>&1; then
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
if has ompi pw.x && [ -r "$pseudo" ]; then
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
if [ -n "${TIR_TEST_HPCC:-}" ] && has ompi hpcc && [ -r /usr/share/doc/hpcc/examples/_hpccinf.txt ]; then
  mkdir -p "$tmp/hpcc"
  sed -e '6s/^1000 /500  /' /usr/share/doc/hpcc/examples/_hpccinf.txt >"$tmp/hpcc/hpccinf.txt"
  (cd "$tmp/hpcc" && app hpcc "$collectives" hpcc)
  ran=$((ran + 1))
fi
# nwchem: a water SCF gradient (STO-3G); its one-sided calls (ARMCI-MPI) are the point
cat >"$tmp/h2o.nw" <<'NW'
start h2o
title "water gradient"
geometry units angstrom
  O  0.000  0.000  0.000
  H  0.000  0.757  0.587
  H  0.000 -0.757  0.587
end
basis
  * library sto-3g
end
scf
  thresh 1e-6
end
task scf gradient
NW
if has ompi nwchem.openmpi; then
  mkdir -p "$tmp/nwo"
  # it makes a few more or fewer allreduce and barrier calls from run to run (the same on
  # every rank: the program decides it collectively): its other collectives are compared
  (cd "$tmp/nwo" && app nwchem "$nwchem_stable" nwchem.openmpi "$tmp/h2o.nw"
   grep -q 'Total SCF energy = *-74.96306312' "$tmp/nwchem.log1" || fail "nwchem: wrong SCF energy under the tracer"
   check_rma "$tmp/nwchem.1")
  ran=$((ran + 1))
fi
if case " $flavours " in *" mpich "*) true ;; *) false ;; esac; then
  use_flavour mpich
  if command -v NPmpich2 >/dev/null 2>&1; then
    np=2
    (cd "$tmp" && app netpipe "$all" NPmpich2 -u 65536 -n 20 -p 0 -o "$tmp/np.out")
    ran=$((ran + 1))
  fi
  if command -v nwchem.mpich >/dev/null 2>&1; then
    np=1
    mkdir -p "$tmp/nwm"
    (cd "$tmp/nwm" && app nwchem-mpich "$nwchem_stable" nwchem.mpich "$tmp/h2o.nw"
     grep -q 'Total SCF energy = *-74.96306312' "$tmp/nwchem-mpich.log1" || fail "nwchem-mpich: wrong SCF energy"
     check_rma "$tmp/nwchem-mpich.1")
    ran=$((ran + 1))
  fi
fi
[ "$ran" -gt 0 ] || { echo "SKIP: none of lammps, quantum-espresso, hpcc, nwchem, NetPIPE is installed"; exit 77; }
