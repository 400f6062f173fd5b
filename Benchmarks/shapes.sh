#!/usr/bin/env bash
# draw (issue 13): 100 random shapes (filled ellipses and rectangles, stroked lines, translucent
# colours; Benchmarks/shapes.py, seed 1) over the 5000×5000 JPEG of run.sh, written as JPEG Q90,
# against
#   cairo       — Benchmarks/cairo_shapes.c: libjpeg decodes into one cairo surface, cairo draws
#                 every shape on the whole image at once, libjpeg encodes, 4:4:4 at Q90 like
#                 darkroom and ImageMagick (the target: darkroom within 1.2× of its time, strips
#                 painted independently),
#   ImageMagick — `convert -draw` with the same shapes as MVG primitives (ImageMagick's security
#                 policy refuses `-draw @file`, so they are passed inline).
# Same turn-taking and medians as the other scripts (bench_lib.sh); RUNS (default 3) runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg

big=$work/input-5000.jpg
big_jpeg "$big"
Benchmarks/shapes.py 5000 5000 "$work"
gcc -O2 -o "$work/cairo_shapes" Benchmarks/cairo_shapes.c $(pkg-config --cflags --libs cairo) -ljpeg -lm

bench "100 random shapes over 5000×5000, JPEG Q90" \
  "darkroom=$darkroom process --chain \"\$(cat $work/shapes.chain)\" --quality 90 $big -o $work/shapes-darkroom.jpg" \
  "cairo=$work/cairo_shapes $big $work/shapes.txt $work/shapes-cairo.jpg 90" \
  "imagemagick=$im $big -draw \"\$(cat $work/shapes.mvg)\" -quality 90 $work/shapes-im.jpg"

echo
echo "ratios: darkroom's median time and peak memory divided by each tool's (below 1 = darkroom better)."
