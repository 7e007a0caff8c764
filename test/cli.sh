#!/bin/sh
# cli.sh - tir-replay's command line (tir-replay(1)): smpirun's spellings give the same
# simulated times as tir's long options (and, with SimGrid installed, as smpirun given the
# very same arguments); every bad command line exits with 2 and names the argument at
# fault; -map, -trace, -p NAME (a shipped platform); a one-rank trace replays without -n
# when its trace.meta says np = 1, and the summary prints the counter source from trace.meta
# and warns when the hosts' speed scales a CPU-time trace.
. "$(dirname "$0")/setup.sh"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok    $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
time_of() { $TIR "$@" 2>/dev/null | sed -n 's/^Simulated time: \(.*\) s$/\1/p'; }
same() { # WHAT EXPECTED GOT
  if [ -n "$2" ] && [ "$2" = "$3" ]; then ok "$1: $3 s"; else ko "$1: got '$3', expected '$2'"; fi
}
cp -r "$top_srcdir/examples/stencil-16" "$top_srcdir/examples/small" "$tmp/"
printf '#!/bin/sh\nexit 0\n' > "$tmp/smpi_replay"; chmod +x "$tmp/smpi_replay"
cd "$tmp/stencil-16"
gunzip rank*.txt.gz && sed -i 's/\.gz$//' index.txt   # SimGrid reads plain files only
# 1. smpirun's command lines, unchanged
long=$(time_of -p platform.xml -H hostfile -n 16 index.txt)
same "-np -platform -hostfile -replay" "$long" "$(time_of -np 16 -platform platform.xml -hostfile hostfile -replay index.txt)"
same "-platform -hostfile TRACE (np from the index)" "$long" "$(time_of -platform platform.xml -hostfile hostfile index.txt)"
same "-machinefile, -n" "$long" "$(time_of -n 16 -platform platform.xml -machinefile hostfile -replay index.txt)"
# the oracle's own smpirun line (test/simgrid-oracle): a replay program, --log, -no-privatize
oracle_args="-no-privatize -replay index.txt --log=replay.thresh:critical --log=no_loc -np 16 -platform platform.xml
  -hostfile hostfile $tmp/smpi_replay --log=smpi_config.thres:warning --cfg=smpi/async-small-thresh:65536"
# shellcheck disable=SC2086
got=$(time_of $oracle_args)
same "smpirun's replay line with a program, --log and --cfg" \
  "$(time_of -p platform.xml -H hostfile -n 16 --cfg=smpi/async-small-thresh:65536 index.txt)" "$got"
if [ -n "${SMPIRUN:-}" ] || command -v smpirun >/dev/null 2>&1; then
  main=/usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain
  # shellcheck disable=SC2086
  sg=$(smpirun $(printf '%s\n' $oracle_args | sed "s|^$tmp/smpi_replay\$|$main|") \
         '--log=smpi_replay.fmt:[%.20r]%e%m%n' 2>&1 | sed -n 's/^\[\([0-9.]*\)\].*Simulation time.*/\1/p' | tail -n 1)
  if [ -n "$sg" ] && python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-6 * b)" "$got" "$sg"
  then ok "smpirun with the same arguments: $sg s"; else ko "smpirun with the same arguments: '$sg' s, tir $got s"; fi
fi
cd "$tmp/small"
cp "$top_srcdir/platforms/small_platform.xml" .
same "-np 3 on one shared trace file" "$(time_of -p small_platform.xml -H hostfile -n 3 actions_bcast.txt)" \
  "$(time_of -np 3 -platform small_platform.xml -hostfile hostfile -replay actions_bcast.txt)"
# 2. -map prints every rank's host before the summary
$TIR -q -np 3 -platform small_platform.xml -hostfile hostfile -map actions_bcast.txt > map.out
if printf '[rank 0] -> Tremblay\n[rank 1] -> Jupiter\n[rank 2] -> Fafard\n' | cmp -s - "$(head -n 3 map.out > m3; echo m3)" &&
   sed -n 4p map.out | grep -q '^Simulated time: '; then ok "-map"; else ko "-map:"; cat map.out; fi
# 3. -trace: a Paje timeline in smpi_simgrid.trace, or -trace-file's
$TIR -q -np 3 -platform small_platform.xml -hostfile hostfile -trace actions_bcast.txt > /dev/null
$TIR -q -np 3 -platform small_platform.xml -hostfile hostfile -trace -trace-file mine.trace actions_bcast.txt > /dev/null
if head -n 1 smpi_simgrid.trace | grep -q '^%EventDef' && cmp -s smpi_simgrid.trace mine.trace; then ok "-trace, -trace-file"
else ko "-trace: no Paje trace"; fi
# 4. bad command lines: exit 2, stderr names the argument
bad() { # REGEX ARGS...
  re=$1; shift
  if $TIR "$@" > out.txt 2> err.txt; then rc=0; else rc=$?; fi
  if [ "$rc" = 2 ] && grep -Eq -- "$re" err.txt && [ ! -s out.txt ]; then ok "exit 2 for: $*"
  else ko "tir-replay $* -> exit $rc, stdout $(wc -c < out.txt) bytes, stderr: $(cat err.txt)"; fi
}
I=actions_bcast.txt P=small_platform.xml
bad "-np: 'p' is not" -np p $I
bad "-n/--np: 'p' is not a positive integer" -n p -platform $P $I
bad "'-platform' needs an argument" -platform
bad "'--np' needs an argument" $I --np
bad "'-replayx'" -replayx $I
bad "'-report'.*'--report'" -report r.json $I
bad "'-hostfil'" -hostfil hostfile $I
bad "'--bogus'" --bogus $I
bad "'-vx'" -vx $I
bad "'--map=1' takes no argument" --map=1 $I
bad "missing TRACE" -platform $P -hostfile hostfile
bad "missing TRACE"
bad "unexpected argument 'hostfile'" $I hostfile
bad "unexpected argument 'hostfile'.*--replay" -replay $I hostfile
bad "--timeline given twice, 'a.svg' then 'b.csv'" --timeline a.svg --timeline b.csv $I
bad "-p/--platform given twice" -p $P -platform other.xml $I
bad "-n/--np given twice" -n 3 -np 4 $I
bad "'nope'" -m nope $I
bad "r.txt: report name" --report r.txt $I
bad "t.foo" --timeline t.foo $I
bad "'nope'" --timeline-format nope --timeline t.csv $I
bad "'2:1'" --timeline-window 2:1 $I
bad "'0' is not a positive integer" -n 0 $I
bad "'2x' is not a positive integer" -n 2x $I
bad "--cfg=smpi/nope:1: unknown configuration key" -n 3 -p $P --cfg=smpi/nope:1 $I
bad "-trace-ti" -trace-ti $I
bad "-bandwidth" -bandwidth 1e9 $I
bad "--trace and --timeline" -trace --timeline t.csv $I
[ ! -e a.svg ] && [ ! -e b.csv ] && [ ! -e r.json ] || ko "a bad command line wrote a file"
# 5. -p NAME: a platform shipped with tir
if $TIR -q -p graphene -n 3 $I > /dev/null 2> err.txt; then ok "-p graphene"; else ko "-p graphene: $(cat err.txt)"; fi
if $TIR -q -p nosuch -n 3 $I > /dev/null 2> err.txt; then rc=0; else rc=$?; fi
if [ $rc = 3 ] && grep -q "nosuch: no such platform file, nor a platform shipped with tir (shipped: .*graphene" err.txt
then ok "-p nosuch names the shipped platforms"; else ko "-p nosuch: exit $rc: $(cat err.txt)"; fi
# 6. a one-rank CPU-time trace (tir-trace's layout) on a 2 Gf host: 1e9 units at 1e9 units
# per CPU second, replayed at 2e9 units/s, take 0.5 s and the summary says why
mkdir one
printf 'rank-00000.tit\n' > one/index
printf '0 init\n0 compute 1000000000\n0 finalize\n' > one/rank-00000.tit
printf 'np = 1\ncounter_source = thread_cputime\ncounter_rate = 1000000000\n' > one/trace.meta
printf '<?xml version="1.0"?>\n<platform version="4.1"><zone id="z" routing="Full">\n<host id="h" speed="2Gf"/>\n</zone></platform>\n' > two.xml
if $TIR -p two.xml one > one.out 2> one.err; then rc=0; else rc=$?; fi
if [ $rc = 0 ] && grep -qx 'Simulated time: 0.5 s' one.out; then ok "1-rank trace without -n (trace.meta np = 1): 0.5 s"
else ko "1-rank trace: exit $rc: $(cat one.out one.err)"; fi
if grep -q '^Counter source: thread_cputime, 1e+09 units per CPU second of the tracing machine (one/trace.meta); hosts run 2e+09 units/s$' one.out
then ok "summary prints the counter source"; else ko "no counter source line: $(cat one.out)"; fi
if grep -q 'warning: one/trace.meta: .* computation replays 2x as fast as it was measured' one.err
then ok "warning on a 2x scaling"; else ko "no scaling warning: $(cat one.err)"; fi
printf 'counter_source = instructions\ncounter_rate = none\nnp = 1\n' > one/trace.meta
$TIR -p two.xml one > one.out 2> one.err
if grep -q '^Counter source: instructions, rate none (one/trace.meta)' one.out && [ ! -s one.err ]
then ok "instructions: counter source, no warning"; else ko "instructions: $(cat one.out one.err)"; fi
# 7. --validate simulates nothing: no word about a platform
if $TIR --validate -n 3 $I > v.out 2>&1 && ! grep -q 'platform' v.out; then ok "--validate says nothing of a platform"
else ko "--validate: $(cat v.out)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
