#!/bin/sh
# man_examples.sh - runs every example of man/tir-replay.1 (the `$ ` lines between .EX and
# .EE of its EXAMPLES section) from a copy of the source tree's layout, and checks that
# each output line shown under a command is among the lines it prints (stdout and
# stderr), that it exits with the status shown as `[exit N]` (0 when none is shown), and
# that the files it names after --timeline or --report exist when it succeeds.
. "$(dirname "$0")/setup.sh"
man="$top_srcdir/man/tir-replay.1"
mkdir "$tmp/bin" "$tmp/run"
printf '#!/bin/sh\nexec %s "$@"\n' "$TIR" > "$tmp/bin/tir-replay"
chmod +x "$tmp/bin/tir-replay"
ln -s "$top_srcdir/examples" "$top_srcdir/platforms" "$tmp/run/"
# The examples, unescaped: "C cmd" for a command, "O line" for an expected output line.
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$man" | sed -n '/^\.EX/,/^\.EE/p' | grep -v '^\.E[XE]' |
  sed 's/\\-/-/g; s/\\e/\\/g' | sed 's/^\$ /C /; t; s/^/O /' > "$tmp/examples"
[ -s "$tmp/examples" ] || { echo "FAIL: no examples found in $man"; exit 1; }
n=0 fail=0
check() { # runs the pending command and checks its expected lines and status
  [ -n "$cmd" ] || return 0
  n=$((n + 1))
  out=$(cd "$tmp/run" && PATH="$tmp/bin:$PATH" sh -c "$cmd" 2>&1) && rc=0 || rc=$?
  ok=1
  [ "$rc" -eq "$want_rc" ] || { echo "FAIL: exit $rc, expected $want_rc: $cmd"; ok=0; }
  printf '%s' "$want" | while IFS= read -r line; do
    printf '%s\n' "$out" | grep -qxF -- "$line" || { echo "FAIL: no line '$line' from: $cmd"; exit 1; }
  done || ok=0
  if [ "$want_rc" -eq 0 ]; then
    for f in $(printf '%s\n' "$cmd" | sed -n 's/.*--\(timeline\|report\) \([^ ]*\).*/\2/p'); do
      [ -s "$tmp/run/$f" ] || { echo "FAIL: $f not written by: $cmd"; ok=0; }
    done
  fi
  [ $ok = 1 ] && echo "ok    $cmd" || { fail=$((fail + 1)); printf '%s\n' "$out" | head -n 5; }
}
cmd= want= want_rc=0
while IFS= read -r l; do
  case "$l" in
  'C '*) check; cmd=${l#C } want= want_rc=0 ;;
  'O [exit '*) want_rc=$(printf '%s' "$l" | sed 's/O \[exit \([0-9]*\)\]/\1/') ;;
  'O '*) want="$want${l#O }
" ;;
  esac
done < "$tmp/examples"
check
echo "$n examples, $fail failed"
[ "$fail" -eq 0 ]
