#!/bin/sh
# install.sh - `make install DESTDIR=...` ships what a user needs: tir-replay, the scripts and
# the trace generators under their tir- names (with a --help that explains them), the man
# pages, the platforms in share/tir/platforms and the examples in share/tir/examples; and
# the installed tir-replay finds a shipped platform by name (-p graphene) in its own tree
# (the platform it loaded is the installed copy), with the simulated time of the source
# tree's platforms/graphene.xml.
. "$(dirname "$0")/setup.sh"
command -v "${MAKE:-make}" > /dev/null || skip "no make"
d="$tmp/dest"
# a make of its own: not the jobserver of the make running the tests
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$top_builddir" install DESTDIR="$d" \
     > "$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"; echo "FAIL: make install"; exit 1
fi
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok    $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
find1() { find "$d" -path "$1" | head -n 1; }
bin=$(dirname "$(find1 '*/bin/tir-replay')")
share=$(find1 '*/share/tir')
[ -n "$bin" ] && [ -n "$share" ] || { echo "FAIL: no bin/tir-replay or share/tir in $d"; find "$d" | head; exit 1; }
for f in tir-replay tir-platform tir-sweep tir-plot tir-gen-stencil tir-gen-wavefront; do
  [ -x "$bin/$f" ] && ok "bin/$f" || ko "no bin/$f"
done
[ ! -e "$bin/gen-stencil" ] && [ ! -e "$bin/gen-wavefront" ] && ok "no generically named gen-*" || ko "gen-* installed"
for f in graphene graphene-2048 fattree-2048 small_platform taurus cluster-stencil; do
  [ -s "$share/platforms/$f.xml" ] && ok "platforms/$f.xml" || ko "no platforms/$f.xml"
done
for f in small/actions_bcast.txt small/hostfile stencil-16/index.txt stencil-16/rank15.txt.gz stencil-16/platform.xml \
         stencil-16/hostfile sweep/sweep.spec sweep/ci.spec sweep/README.md; do
  [ -s "$share/examples/$f" ] && ok "examples/$f" || ko "no examples/$f"
done
man=$(find1 '*/man1/tir-gen-stencil.1')
[ -n "$man" ] && [ -s "$(dirname "$man")/tir-replay.1" ] && ok "man pages" || ko "man pages"
for g in tir-gen-stencil tir-gen-wavefront; do
  if "$bin/$g" --help > "$tmp/help" && grep -q "^usage: $g " "$tmp/help" && grep -q 'index.txt' "$tmp/help" &&
     grep -q 'N  *number of ranks' "$tmp/help"; then ok "$g --help"; else ko "$g --help:"; cat "$tmp/help"; fi
done
# the installed tir-replay, -p NAME
cd "$tmp"
want=$($TIR -q -p "$top_srcdir/platforms/graphene.xml" -n 16 "$top_srcdir/examples/stencil-16/index.txt")
got=$("$bin/tir-replay" -q -p graphene -n 16 --report r.json "$share/examples/stencil-16/index.txt")
used=$(sed -n 's/^  "platform": "\(.*\)",$/\1/p' r.json)
case "$used" in
"$d"/*) ok "installed tir-replay -p graphene loads $used" ;;
*) ko "installed tir-replay -p graphene loaded '$used', not the installed platform" ;;
esac
[ "$got" = "$want" ] && ok "installed tir-replay -p graphene: $got" || ko "-p graphene: '$got', want '$want'"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
