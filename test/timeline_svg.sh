#!/bin/sh
# timeline_svg.sh - the SVG Gantt chart is well-formed XML (xmllint) for a stencil case,
# a collective case, a window of a run and 256 ranks (aggregated lanes are not needed
# there, but lanes are 2.5 px high); it has one label per lane, a legend naming the
# actions seen, and arrows only when they are few. Skipped without xmllint.
. "$(dirname "$0")/setup.sh"
command -v xmllint >/dev/null || skip "xmllint not found (apt-get install libxml2-utils)"
cd "$REF"
st16="-p stencil_16_20/platform.xml -H stencil_16_20/hostfile -n 16 stencil_16_20/index.txt"
svg() { # name, then replay arguments
  name=$1; shift
  $TIR -q --timeline "$tmp/$name.svg" "$@" >/dev/null
  xmllint --noout "$tmp/$name.svg" || { echo "FAIL: $name: not well-formed"; exit 1; }
}
has() { grep -q "$2" "$tmp/$1.svg" || { echo "FAIL: $1: no '$2'"; exit 1; }; }
svg stencil_16 $st16
has stencil_16 '>rank 15</text>'
has stencil_16 '>waitall</text>'
has stencil_16 '>allreduce</text>'
has stencil_16 'too many to draw'
svg window --timeline-window=1.0:1.2 $st16
has window 'time since 1 s (ms)'
has window 'Arrows: 188 messages'
svg bcast -p small_platform.xml -H hostfile -n 3 index/bcast
has bcast '>bcast</text>'
has bcast '>reduce</text>'
has bcast 'Arrows: 6 messages'
echo "ok    SVG timelines are well-formed, labelled, with legends and arrows"
