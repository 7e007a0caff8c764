# test/setup.sh - shared set-up of the shell tests (sourced): strict shell, C locale, a
# temporary directory removed on exit, the paths of the build, optional valgrind.
set -eu
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
TIR="$top_builddir/replay/tir-replay"
DATA="$top_srcdir/test/data"
REF="$DATA/reference"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${TIR_VALGRIND:-}" ]; then
  TIR="valgrind -q --error-exitcode=99 --leak-check=full $TIR"
fi
# skip: exit status 77 tells automake's harness the test was skipped (never "passed")
skip() { echo "SKIP: $*"; exit 77; }
# near GOT WANT: GOT (a simulated time, not empty) within 1e-9 relative of WANT
near() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-9 * w) }'; }
