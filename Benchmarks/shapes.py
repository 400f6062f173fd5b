#!/usr/bin/env python3
"""The 100 random shapes of Benchmarks/shapes.sh, written three ways from one seed, so darkroom,
cairo and ImageMagick draw the same thing: ellipses (filled), rectangles (filled) and lines
(stroked), at random places and sizes over a W x H image, in random translucent colours.
Usage: shapes.py W H OUTDIR  →  OUTDIR/shapes.txt (cairo_shapes.c), shapes.chain (darkroom
--chain), shapes.mvg (ImageMagick -draw @file)."""
import random, sys

w, h, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(1)
cairo, chain, mvg = [], [], []
for i in range(100):
    kind = ("ellipse", "rect", "line")[i % 3]
    r, g, b = (rng.random() for _ in range(3))
    a = round(rng.uniform(0.5, 1), 3)
    hexa = "#%02x%02x%02x%02x" % tuple(round(v * 255) for v in (r, g, b, a))
    r, g, b, a = (round(v * 255) / 255 for v in (r, g, b, a))
    lw = round(rng.uniform(2, 30), 1)
    rgba = "rgba(%d,%d,%d,%.4f)" % (round(r * 255), round(g * 255), round(b * 255), a)
    if kind == "ellipse":
        cx, cy, rx, ry = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(50, 700), rng.uniform(50, 700)
        cairo.append(f"ellipse {cx:.1f} {cy:.1f} {rx:.1f} {ry:.1f} {r} {g} {b} {a} 0 1")
        chain.append(f"{{shape=ellipse, center=[{cx:.1f},{cy:.1f}], radii=[{rx:.1f},{ry:.1f}], fill={hexa}}}")
        mvg.append(f"fill {rgba} stroke none ellipse {cx - .5:.1f},{cy - .5:.1f} {rx:.1f},{ry:.1f} 0,360")
    elif kind == "rect":
        x, y, rw, rh = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(50, 1400), rng.uniform(50, 1400)
        cairo.append(f"rect {x:.1f} {y:.1f} {rw:.1f} {rh:.1f} {r} {g} {b} {a} 0 1")
        chain.append(f"{{shape=rect, x={x:.1f}, y={y:.1f}, width={rw:.1f}, height={rh:.1f}, fill={hexa}}}")
        mvg.append(f"fill {rgba} stroke none rectangle {x - .5:.1f},{y - .5:.1f} {x + rw - .5:.1f},{y + rh - .5:.1f}")
    else:
        x1, y1, x2, y2 = (rng.uniform(0, s) for s in (w, h, w, h))
        cairo.append(f"line {x1:.1f} {y1:.1f} {x2:.1f} {y2:.1f} {r} {g} {b} {a} {lw} 0")
        chain.append(f"{{shape=line, points=[{x1:.1f},{y1:.1f},{x2:.1f},{y2:.1f}], stroke={hexa}, line_width={lw}}}")
        mvg.append(f"fill none stroke {rgba} stroke-width {lw} line {x1 - .5:.1f},{y1 - .5:.1f} {x2 - .5:.1f},{y2 - .5:.1f}")
open(f"{out}/shapes.txt", "w").write("\n".join(cairo) + "\n")
open(f"{out}/shapes.chain", "w").write("draw shapes=[" + ", ".join(chain) + "]")
open(f"{out}/shapes.mvg", "w").write("\n".join(mvg) + "\n")
