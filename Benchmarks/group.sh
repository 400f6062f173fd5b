#!/usr/bin/env bash
# group (issue 13): the 100 random shapes of shapes.sh drawn inside a transparency layer at
# opacity 0.5 over the 5000×5000 JPEG of run.sh, written as JPEG Q90, against
#   cairo — Benchmarks/cairo_shapes.c with a group alpha: cairo_push_group on the whole image,
#           the shapes, cairo_pop_group_to_source and cairo_paint_with_alpha (what Core
#           Graphics' transparency layers do), libjpeg around it;
#   draw  — darkroom drawing the same shapes with no layer: what the layer costs.
# libvips has no transparency layers (nor shapes); it is left out. Same turn-taking and medians
# as the other scripts (bench_lib.sh); RUNS (default 3) runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg

big=$work/input-5000.jpg
big_jpeg "$big"
Benchmarks/shapes.py 5000 5000 "$work"
gcc -O2 -o "$work/cairo_shapes" Benchmarks/cairo_shapes.c $(pkg-config --cflags --libs cairo) -ljpeg -lm

bench "100 random shapes in a group at opacity 0.5 over 5000×5000, JPEG Q90" \
  "darkroom=$darkroom process --chain \"group opacity=0.5 chain=[\$(cat $work/shapes.chain)]\" --quality 90 $big -o $work/group-darkroom.jpg" \
  "cairo=$work/cairo_shapes $big $work/shapes.txt $work/group-cairo.jpg 90 0.5" \
  "draw=$darkroom process --chain \"\$(cat $work/shapes.chain)\" --quality 90 $big -o $work/group-draw.jpg"

echo
echo "ratios: darkroom's median time and peak memory divided by each tool's (below 1 = darkroom better)."
