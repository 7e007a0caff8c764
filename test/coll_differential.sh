#!/bin/sh
# coll_differential.sh - tir-replay vs SimGrid 3.32 with collective algorithms forced and
# with the five selectors, in both modes (test/coll_differential.py; 77 = skipped without SimGrid).
# A larger sweep by hand: python3 test/coll_differential.py --tir replay/tir-replay --full
top=${top_srcdir:-.}
build=${top_builddir:-.}
command -v python3 >/dev/null 2>&1 || exit 77
exec python3 "$top/test/coll_differential.py" --tir "${TIR:-$build/replay/tir-replay}" \
  --oracle "$top/test/simgrid-oracle" --per-algo "${COLL_PER_ALGO:-2}" "$@"
