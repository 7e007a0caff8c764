#!/bin/sh
# timeline_svg.sh - the SVG Gantt chart is well-formed XML (xmllint) for a stencil case,
# a collective case, a window of a run and 256 ranks (aggregated lanes are not needed
# there, but lanes are 2.5 px high); it has one label per lane, a legend naming the
# actions seen, and arrows only when they are few. Skipped without xmllint.
# At 2,048 ranks (8 per lane, bins of 1 ms), a stencil whose halo exchange takes 0.36 ms of
# each 10 ms iteration (2.8% of the busy time) still shows its communication: rendered by
# rsvg-convert, more than 5% of the chart's ink is in MPI colours (test/png_share.py; the
# majority rule of bins drew it solid compute, 0%), and less than 20% (not all MPI).
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
command -v rsvg-convert >/dev/null || skip "rsvg-convert not found (apt-get install librsvg2-bin): 2,048 ranks not checked"
cd "$tmp"
python3 "$top_srcdir/scripts/tir-gen-stencil" --gzip --allreduce-every 10 --suffix "" 2048 100 st2048 > /dev/null
$TIR -q -p "$top_srcdir/platforms/fattree-2048.xml" -n 2048 --timeline st2048.svg st2048/index.txt > /dev/null
has st2048 'MPI: 2.8% of the ranks'"'"' busy time'
rsvg-convert st2048.svg -o st2048.png
share=$(python3 "$top_srcdir/test/png_share.py" st2048.svg st2048.png)
echo "2048 ranks: $share"
echo "$share" | awk '{ exit !($2 > 0.05 && $2 < 0.20) }' || { echo "FAIL: MPI share of the rendered chart"; exit 1; }
echo "ok    2048 ranks: the rendered chart shows the communication"
