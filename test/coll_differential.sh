#!/bin/sh
# coll_differential.sh - tir-replay vs SimGrid 3.32 with collective algorithms forced and
# with the ompi/mpich selectors (test/coll_differential.py; 77 = skipped without SimGrid).
# A larger sweep by hand: python3 test/coll_differential.py --tir ./tir-replay --full
top=${top_srcdir:-.}
command -v python3 >/dev/null 2>&1 || exit 77
exec python3 "$top/test/coll_differential.py" --tir "${TIR:-./tir-replay}" --per-algo "${COLL_PER_ALGO:-3}" "$@"
