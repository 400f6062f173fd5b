#!/usr/bin/env bash
# Animation (issue 25) against libvips and gifsicle, in one run, taking turns (see bench_lib.sh):
#   gif resize  — a 100-frame 800×600 GIF (photo-like frames, a palette each) resized to 400 px
#                 wide, written as an animated GIF: `vips thumbnail in.gif[n=-1] out.gif 400`
#                 (libvips' cgifsave: libimagequant, dithered) and `gifsicle --resize-width 400`
#                 (gifsicle keeps and remaps its palettes, no new quantisation)
#   webp resize — the same 100 frames as an animated lossy WebP, resized to 400 px and written
#                 as animated WebP Q75 by both (`vips thumbnail … [Q=75]`)
# Prints medians, darkroom's ratios and the output files' sizes. RUNS (default 3) runs each.
# --max-seconds lifts process's 120-s limit for the GIF job on a loaded machine.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench

gif=$work/anim-800x600x100.gif
webp=$work/anim-800x600x100.webp
if [[ ! -f $gif || ! -f $webp ]]; then
  # Ten photo-like frames (plasma) panned across ten positions each: 100 distinct frames.
  frames=()
  for seed in 1 2 3 4 5 6 7 8 9 10; do
    "$im" -seed "$seed" -size 320x240 plasma:fractal -resize 1000x600! "$work/anim-plasma-$seed.png"
    for step in 0 1 2 3 4 5 6 7 8 9; do
      out=$work/anim-frame-$seed-$step.png
      "$im" "$work/anim-plasma-$seed.png" -crop "800x600+$((step * 20))+0" +repage "$out"
      frames+=("$out")
    done
  done
  "$im" -delay 4 "${frames[@]}" -loop 0 "$gif"
  args=()
  for f in "${frames[@]}"; do args+=(-d 40 -lossy -q 80 "$f"); done
  img2webp -loop 0 "${args[@]}" -o "$webp" 2>/dev/null
  rm -f "$work"/anim-frame-*.png "$work"/anim-plasma-*.png
fi

bench "animated GIF, 100 frames 800×600, resized to 400 px wide" \
  "darkroom=$darkroom process --max-seconds 3600 --chain 'resize width=400' $gif -o $work/anim-out.gif" \
  "libvips=vips thumbnail $gif[n=-1] $work/anim-out-vips.gif 400" \
  "gifsicle=gifsicle --resize-width 400 $gif -o $work/anim-out-gifsicle.gif"
ls -l "$work"/anim-out.gif "$work"/anim-out-vips.gif "$work"/anim-out-gifsicle.gif | awk '{ print "  " $NF ": " $5 " bytes" }'

bench "animated WebP, 100 frames 800×600, resized to 400 px wide, Q75" \
  "darkroom=$darkroom process --chain 'resize width=400' --quality 75 $webp -o $work/anim-out.webp" \
  "libvips=vips thumbnail $webp[n=-1] $work/anim-out-vips.webp[Q=75] 400"
ls -l "$work"/anim-out.webp "$work"/anim-out-vips.webp | awk '{ print "  " $NF ": " $5 " bytes" }'
echo "ratios: darkroom's median time and peak memory divided by each tool's (below 1 = darkroom better)."
