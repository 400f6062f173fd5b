#!/usr/bin/env bash
# The watermark job of issue 13, darkroom against libvips in the same run, the tools taking
# turns: a 5000×5000 JPEG, a 500×500 PNG logo with alpha drawn at south_east (20 px margin) at
# opacity 0.5, and a caption (DejaVu Sans, 120 px, black, south_west, 40 px margin); JPEG Q90.
# libvips does it through its C API (Benchmarks/vips_compose.c: vips_composite2 + vips_text,
# one pipeline). Prints the median wall time and peak memory of $RUNS runs and darkroom's ratios
# (target: ≤ 1.0× libvips' time, ≤ 1.5× its memory). Needs a release build (`make bench`).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg

big=$work/input-5000.jpg
big_jpeg "$big"
logo=$work/logo-500.png
if [[ ! -f $logo ]]; then
  # An antialiased disc and a bar on transparency: a logo's soft edges.
  "$im" -size 500x500 xc:none -fill '#ff8000' -draw 'circle 250,250 250,30' \
    -fill white -draw 'roundrectangle 90,205 410,295 30,30' "$logo"
fi
gcc -O2 -o "$work/vips_compose" Benchmarks/vips_compose.c $(pkg-config --cflags --libs vips)

caption='darkroom © 2026 watermark test'
chain="overlay_image image=$logo gravity=south_east margin=20 opacity=0.5 | draw_text text=\"$caption\" size=120 color=black gravity=south_west margin=40"

bench "watermark: 5000×5000 JPEG + 500×500 PNG logo at opacity 0.5 + caption, Q90" \
  "darkroom=$darkroom process --chain '$chain' --quality 90 $big -o $work/compose-darkroom.jpg" \
  "libvips=$work/vips_compose $big $logo '$caption' 120 $work/compose-vips.jpg" \
  "$([[ -n ${BASELINE:-} ]] && echo "before=$BASELINE process --chain '$chain' --quality 90 $big -o $work/compose-before.jpg")"
echo
echo "ratios: darkroom's median time and peak memory divided by libvips' (below 1 = darkroom better)."
