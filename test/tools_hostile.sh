#!/bin/sh
# tools_hostile.sh - hostile input to tir-platform, tir-sweep and tir-plot (issue 21): clear
# errors instead of Python tracebacks, no shell injection into the Slurm script, linear
# time for large platforms, and outputs written under the same rules as tir-replay's
# (doc/outputs.md: umask, devices and FIFOs in place, symbolic links followed).
. "$(dirname "$0")/setup.sh"
command -v python3 >/dev/null || skip "python3 not found"
S="$top_srcdir/scripts"
cd "$tmp"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# exits STATUS REGEX CMD...: CMD exits with STATUS (within a 60 s guard), stderr matches
# REGEX (empty: anything) and holds no Python traceback
exits() {
  want=$1 re=$2; shift 2
  if timeout 60 "$@" > out.txt 2> err.txt; then rc=0; else rc=$?; fi
  if [ "$rc" = "$want" ] && { [ -z "$re" ] || grep -Eq -- "$re" err.txt; } && ! grep -q Traceback err.txt; then ok
  else bad "$* -> exit $rc (want $want, stderr matching $re):"; cat err.txt; fi
}

### tir-platform: values tir-replay would refuse are refused here; large sizes in linear time
for f in "--speed 1e400Gf|--speed: '1e400Gf' is out of range" "--watts-off nan|--watts-off: 'nan' is not a finite" \
         "--bw 0Gbps|--bw: '0Gbps' must be > 0" "--watts 95:1e400:200|--watts: '1e400' is not a finite"; do
  # shellcheck disable=SC2086
  exits 2 "${f#*|}" python3 "$S/tir-platform" flat --nodes 4 ${f%%|*}
done
exits 2 'torus: 1000000000000000 hosts: tir-replay reads clusters of at most 10000000 nodes' \
  python3 "$S/tir-platform" torus --dims 100000,100000,100000
# 30,000 nodes: the most cubic dimensions by divisors (was O(N^2): 33 s)
exits 0 '' python3 "$S/tir-platform" torus --nodes 30000 -o torus.xml
grep -q 'topo_parameters="40,30,25"' torus.xml && ok || bad "torus dims: $(grep -o 'topo_parameters="[^"]*"' torus.xml)"
# 3,000 cabinets of one node: 6,000 routes (a star), not 9 million; the file loads and replays
exits 0 '' python3 "$S/tir-platform" cabinets --nodes 3000 --cabinet-size 1 -o cab.xml
[ "$(grep -c '<zoneRoute' cab.xml)" = 6000 ] && ok || bad "cabinets: $(grep -c '<zoneRoute' cab.xml) routes"
printf '0 init\n0 send 2999 0 1000\n2999 init\n2999 recv 0 0 1000\n' > far.txt
if timeout 60 $TIR -q -p cab.xml -n 3000 far.txt > out.txt 2>&1 && grep -q '^Simulated time' out.txt; then ok
else bad "replay on 3,000 cabinets: $(cat out.txt)"; fi
# outputs: the umask's mode, a symbolic link followed, a FIFO written in place
(umask 027 && python3 "$S/tir-platform" flat --nodes 2 -o mode.xml)
[ "$(stat -c %a mode.xml)" = 640 ] && ok || bad "tir-platform mode with umask 027: $(stat -c %a mode.xml)"
echo old > real.xml; ln -s real.xml link.xml
python3 "$S/tir-platform" flat --nodes 2 -o link.xml && [ -L link.xml ] && grep -q '<platform' real.xml && ok ||
  bad "tir-platform -o a symbolic link: $(ls -l link.xml real.xml)"
mkfifo fifo
exits 4 'fifo: cannot write: a FIFO that no process reads' python3 "$S/tir-platform" flat --nodes 2 -o fifo
cat fifo > from_fifo & reader=$!
sleep 1
python3 "$S/tir-platform" flat --nodes 2 -o fifo; wait $reader
[ -p fifo ] && grep -q '<platform' from_fifo && ok || bad "tir-platform -o a FIFO with a reader"
ln -s nowhere/x.xml dangling.xml
exits 4 'dangling.xml: cannot write: a symbolic link to a file that does not exist' python3 "$S/tir-platform" flat --nodes 2 -o dangling.xml

### tir-sweep: clear errors for a spec that is not UTF-8 text or has timeout = inf
cat > good.spec <<'SPEC'
[sweep]
output = out
[trace stencil]
ranks = 4
generate = tir-gen-stencil {ranks} 2 {dir}
[platform flat]
kind = flat
nodes = {ranks}
SPEC
printf '[sweep]\noutput = out\n# caf\351\n' > latin1.spec
exits 2 'latin1.spec:3: not UTF-8 text \(byte 0xe9\)' python3 "$S/tir-sweep" -q --replay "$TIR" latin1.spec
sed 's/^output = out$/output = out\ntimeout = inf/' good.spec > inf.spec
exits 2 'inf.spec:3: timeout: expected a positive number of seconds, got `inf`' python3 "$S/tir-sweep" -q --replay "$TIR" inf.spec
touch afile
exits 4 'afile: File exists' python3 "$S/tir-sweep" -q --replay "$TIR" -o afile good.spec
# results are written with the umask's mode
(umask 027 && python3 "$S/tir-sweep" -q --replay "$TIR" good.spec) && [ "$(stat -c %a out/results.csv)" = 640 ] && ok ||
  bad "tir-sweep results mode with umask 027: $(stat -c %a out/results.csv 2>&1)"

### tir-sweep's Slurm script: no name breaks out of it (a fake sbatch keeps the script)
mkdir bin
cat > bin/sbatch <<'EOF'
#!/bin/sh
for a in "$@"; do last=$a; done
cp "$last" "$SBATCH_KEEP"; printf '%s\n' "$@" > "$SBATCH_KEEP.args"; echo 4242
EOF
chmod +x bin/sbatch
nl_dir=$(printf 'res\ntouch INJECTED #')
SBATCH_KEEP="$tmp/kept.sh" PATH="$tmp/bin:$PATH" exits 2 "output folder .*a name with a newline or another control character" \
  python3 "$S/tir-sweep" -q --backend slurm --replay "$TIR" -o "$nl_dir" good.spec
[ ! -e kept.sh ] && ok || bad "a script was submitted for an output folder with a newline"
# shell metacharacters in the spec's name and the output folder: quoted, never run
meta='we$(touch INJECTED)`touch INJECTED`;touch INJECTED"'"'"
cp good.spec "$meta.spec"
if SBATCH_KEEP="$tmp/kept.sh" PATH="$tmp/bin:$PATH" python3 "$S/tir-sweep" -q --backend slurm --replay "$TIR" \
     -o "out $meta" "$meta.spec" > out.txt 2>&1; then rc=0; else rc=$?; fi
[ "$rc" = 1 ] && [ -f kept.sh ] && ok || { bad "slurm submission: exit $rc"; cat out.txt; }
grep -q -- '--output=.*out we\$(touch INJECTED)' kept.sh.args && ! grep -q '^#SBATCH' kept.sh && ok ||
  bad "sbatch arguments: $(cat kept.sh.args)"
SLURM_ARRAY_TASK_ID=0 sh kept.sh > task.txt 2>&1 && grep -q ': ok ' task.txt && ok || { bad "the array task:"; cat task.txt; }
[ ! -e INJECTED ] && [ ! -e "out $meta/INJECTED" ] && ok || bad "a name was run as a command"

### tir-plot: its outputs follow the same rules (a symbolic link followed)
if command -v gnuplot >/dev/null; then
  echo old > real.svg; ln -s real.svg plot.svg
  if python3 "$S/tir-plot" -o plot out/results.csv > out.txt 2>&1 && [ -L plot.svg ] && grep -q '<svg' real.svg; then ok
  else bad "tir-plot to a symbolic link: $(cat out.txt)"; fi
  exits 4 'dangling.png: cannot write: a symbolic link to a file that does not exist' \
    sh -c "ln -s nowhere/x dangling.png && python3 '$S/tir-plot' -o dangling out/results.csv"
fi

### tir-calibrate fit -o: the same rules (it wrote mode 0644 and refused devices and links)
CAL="$top_builddir/tir-calibrate"
export TIR_PLATFORM="$S/tir-platform" # (a separate build folder has no scripts/ of its own)
if [ -x "$CAL" ]; then
  mkdir m  # measurements of a known model (calibrate_fit.sh's, fewer sizes)
  python3 - <<'PY'
L, B = 5e-6, 1e9
ow = lambda k: L + (k + 16) / B
meas = {"send": lambda k: 2e-6 + 1e-10 * k if k < 8192 else ow(k), "recv": lambda k: 1e-6 + 2e-10 * k if k < 8192 else ow(k),
        "isend": lambda k: 5e-7, "pingpong": lambda k: 2 * (3e-6 + ow(k)) if k < 8192 else 2 * ow(k)}
with open("m/pingpong.csv", "w") as f:
    f.write("op,bytes,seconds\n")
    for k in (1, 1024, 4096, 8192, 16384, 65536, 1048576, 4194304):
        for op, fn in meas.items():
            f.write(f"{op},{k},{fn(k)!r}\n")
PY
  (umask 027 && "$CAL" fit m -o cal.xml >/dev/null 2>&1) && [ "$(stat -c %a cal.xml)" = 640 ] && ok ||
    bad "tir-calibrate fit -o with umask 027: $(stat -c %a cal.xml 2>&1)"
  echo old > calreal.xml; ln -s calreal.xml callink.xml
  "$CAL" fit m -o callink.xml >/dev/null 2>&1 && [ -L callink.xml ] && grep -q '<platform' calreal.xml && ok ||
    bad "tir-calibrate fit -o a symbolic link: $(ls -l callink.xml calreal.xml)"
  exits 4 'fifo: cannot write: a FIFO that no process reads' "$CAL" fit m -o fifo
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
