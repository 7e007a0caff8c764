#!/usr/bin/env python3
"""png_share.py - what a rendered SVG timeline shows: the share of the plot area's ink drawn in
a non-compute colour (MPI calls), read from the PNG itself.

usage: png_share.py CHART.svg CHART.png
The SVG gives the plot area (its clipPath rectangle) and the legend's colours (action name ->
fill); the PNG (as rsvg-convert draws the SVG, same size) is decoded here with zlib alone (8-bit
RGB or RGBA, not interlaced). Thin bars are antialiased, so most pixels of a 2,048-rank chart are
blends: of a colour with the background (white or the lane stripes' grey), or of two colours at
the edge of two bars. Each pixel is put on the nearest such segment: it carries 1 - t of the
colour at t = 0 (t = its position along the segment), and t of the other colour of a two-colour
segment. Pixels farther than FAR from every segment count for nothing.
Prints `mpi_share <fraction> of <ink> pixels of ink`, then the ink per action.
"""
import re
import struct
import sys
import zlib

FAR = 40.0  # distance (RGB units) beyond which a pixel belongs to no segment


def decode(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    assert depth == 8 and ctype in (2, 6) and not interlace, "unsupported PNG"
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows, i = zlib.decompress(idat), w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        unfilter(f, line, prev, bpp)
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def unfilter(f, line, prev, bpp):
    """PNG's five row filters, undone in place."""
    for x in range(len(line)):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255


def rgb(hexa):
    return tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))


def on_segment(p, a, b):
    """(distance from p to the segment a-b, position t in [0, 1] of its nearest point)."""
    d = [y - x for x, y in zip(a, b)]
    dd = sum(v * v for v in d)
    t = min(1.0, max(0.0, sum((q - x) * v for q, x, v in zip(p, a, d)) / dd)) if dd else 0.0
    return sum((q - x - t * v) ** 2 for q, x, v in zip(p, a, d)) ** 0.5, t


def ink(p, colours):
    """{name: share} the pixel p carries."""
    back = [(255, 255, 255), (0xf3, 0xf3, 0xf3)]
    best = (FAR, {})
    names = list(colours.items())
    for i, (c, n) in enumerate(names):
        for b in back:
            dist, t = on_segment(p, c, b)
            best = min(best, (dist, {n: 1 - t}), key=lambda x: x[0])
        for c2, n2 in names[i + 1:]:
            dist, t = on_segment(p, c, c2)
            best = min(best, (dist, {n: 1 - t, n2: t}), key=lambda x: x[0])
    return best[1]


def main():
    svg, png = sys.argv[1:3]
    text = open(svg).read()
    x, y, w, h = (float(v) for v in re.search(
        r'<clipPath id="plot"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', text).groups())
    legend = re.findall(r'width="14" height="11" fill="(#[0-9a-f]{6})"/><text[^>]*>([^<]+)</text>', text)
    colours = {rgb(c): name for c, name in legend}
    _, _, rows = decode(png)
    pixels = {}
    for r in rows[int(y) + 1:int(y + h) - 1]:
        for p in r[int(x) + 1:int(x + w) - 1]:
            pixels[p] = pixels.get(p, 0) + 1
    total = {}
    for p, n in pixels.items():
        for name, share in ink(p, colours).items():
            total[name] = total.get(name, 0) + n * share
    all_ink = sum(total.values())
    mpi = sum(v for k, v in total.items() if k not in ("compute", "sleep"))
    print(f"mpi_share {mpi / all_ink if all_ink else 0:.4f} of {all_ink:.0f} pixels of ink "
          + " ".join(f"{k}={v:.0f}" for k, v in sorted(total.items())))


if __name__ == "__main__":
    main()
