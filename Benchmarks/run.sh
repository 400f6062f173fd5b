#!/usr/bin/env bash
# darkroom against libvips, ImageMagick, GraphicsMagick and Pillow on the libvips
# "speed and memory use" chain (DESIGN.md §6), on one generated 5000×5000 JPEG, in one run.
# Prints wall time and peak memory (max RSS) of each, best of $RUNS, and darkroom's ratios.
# Needs: `make bench` installs everything and builds darkroom in release mode first.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
work=${BENCH_DIR:-/tmp/darkroom-bench}
mkdir -p "$work"
darkroom=.build/release/darkroom
[[ -x $darkroom ]] || { echo "build first: swift build -c release" >&2; exit 1; }

src=$work/input-5000.jpg
if [[ ! -f $src ]]; then
  echo "generating $src (5000×5000 JPEG, q90)…" >&2
  # Smooth fractal noise plus fine grain: photo-like frequency content, so JPEG sizes are realistic.
  convert -seed 42 -size 1250x1250 plasma:fractal -resize 5000x5000 \
    \( -size 5000x5000 xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite \
    -quality 90 "$src"
fi
gcc -O2 -o "$work/vips_chain" Benchmarks/vips_chain.c $(pkg-config --cflags --libs vips)

chain='crop x=100 y=100 width=4800 height=4800 | resize scale=0.9 kernel=bilinear | convolve kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] scale=8'
# ImageMagick's -morphology takes the kernel as given (so ÷8 is written in); GraphicsMagick's
# -convolve normalises by the kernel's sum (8) itself.
declare -A cmd=(
  [darkroom]="$darkroom process --chain '$chain' --quality 90 $src -o $work/out-darkroom.jpg"
  [libvips]="$work/vips_chain $src $work/out-vips.jpg"
  [imagemagick]="convert $src -crop 4800x4800+100+100 +repage -filter triangle -resize 90% -morphology Convolve '3x3: -0.125,-0.125,-0.125 -0.125,2,-0.125 -0.125,-0.125,-0.125' -quality 90 $work/out-im.jpg"
  [graphicsmagick]="gm convert $src -crop 4800x4800+100+100 +repage -filter triangle -resize 90% -convolve -1,-1,-1,-1,16,-1,-1,-1,-1 -quality 90 $work/out-gm.jpg"
  [pillow]="python3 Benchmarks/pillow_chain.py $src $work/out-pillow.jpg"
)
order=(darkroom libvips imagemagick graphicsmagick pillow)

declare -A best_t best_m
for tool in "${order[@]}"; do
  case $tool in graphicsmagick) command -v gm >/dev/null || continue ;; pillow) python3 -c 'import PIL' 2>/dev/null || continue ;; esac
  best_t[$tool]=999999; best_m[$tool]=0
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%e %M' -o "$work/time.txt" bash -c "${cmd[$tool]}" >/dev/null 2>"$work/stderr.txt" \
      || { echo "$tool failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
    read -r t m <"$work/time.txt"
    if awk -v a="$t" -v b="${best_t[$tool]}" 'BEGIN{exit !(a<b)}'; then best_t[$tool]=$t; best_m[$tool]=$m; fi
  done
done

printf '\n%-15s %9s %11s %14s %14s\n' tool "wall s" "peak MiB" "darkroom ×t" "darkroom ×mem"
for tool in "${order[@]}"; do
  [[ -n ${best_t[$tool]:-} ]] || continue
  awk -v n="$tool" -v t="${best_t[$tool]}" -v m="${best_m[$tool]}" -v dt="${best_t[darkroom]}" -v dm="${best_m[darkroom]}" \
    'BEGIN{printf "%-15s %9.2f %11.0f %14.2f %14.2f\n", n, t, m/1024, dt/t, dm/m}'
done
echo
echo "ratios: darkroom's time and peak memory divided by each tool's (below 1 = darkroom better)."
