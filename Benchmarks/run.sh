#!/usr/bin/env bash
# darkroom against libvips (and ImageMagick, GraphicsMagick, Pillow where they do the same work)
# on three jobs, each in one run, the tools taking turns (A B C A B C …) so that a machine
# whose speed drifts slows them alike:
#   chain     — the libvips "speed and memory use" chain (DESIGN.md §6) on a 5000×5000 JPEG:
#               crop 100 px each side, shrink to 90 % bilinear, 3×3 sharpen, JPEG Q90
#   thumbnail — a 2725×2225 JPEG to 720 px wide, Q80 (`vips thumbnail`)
#   rotation  — `transform rotate=30deg canvas=grow` on the 5000×5000 JPEG (`vips rotate 30`), Q75
# Prints the median wall time and peak memory (max RSS) of $RUNS runs of each, and darkroom's
# ratios against each tool. Needs a release build and the tools: `make bench` does both.
# BASELINE=path/to/an/older/darkroom adds it as "before", for before-and-after figures.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg

big=$work/input-5000.jpg
big_jpeg "$big"
photo=$work/input-2725.jpg
if [[ ! -f $photo ]]; then
  echo "generating $photo (2725×2225 JPEG, q90)…" >&2
  "$im" -seed 7 -size 545x445 plasma:fractal -resize 2725x2225! \
    \( -size 2725x2225 xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite \
    -quality 90 "$photo"
fi
gcc -O2 -o "$work/vips_chain" Benchmarks/vips_chain.c $(pkg-config --cflags --libs vips)

chain='crop x=100 y=100 width=4800 height=4800 | resize scale=0.9 kernel=bilinear | convolve kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] scale=8'

before() { [[ -n ${BASELINE:-} ]] && echo "before=$BASELINE process --chain '$1' --quality $2 $3 -o $work/before.jpg"; return 0; }

tools=(
  "darkroom=$darkroom process --chain '$chain' --quality 90 $big -o $work/out-darkroom.jpg"
  "libvips=$work/vips_chain $big '$work/out-vips.jpg[Q=90]'"
  "imagemagick=$im $big -crop 4800x4800+100+100 +repage -filter triangle -resize 90% -morphology Convolve '3x3: -0.125,-0.125,-0.125 -0.125,2,-0.125 -0.125,-0.125,-0.125' -quality 90 $work/out-im.jpg"
)
# GraphicsMagick's -convolve normalises by the kernel's sum (8) itself; ImageMagick's -morphology
# takes the kernel as given (so ÷8 is written in).
command -v gm >/dev/null && tools+=("graphicsmagick=gm convert $big -crop 4800x4800+100+100 +repage -filter triangle -resize 90% -convolve -1,-1,-1,-1,16,-1,-1,-1,-1 -quality 90 $work/out-gm.jpg")
# Debian's python3-pil, or a PATH python that has Pillow.
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import PIL' 2>/dev/null; then tools+=("pillow=$py Benchmarks/pillow_chain.py $big $work/out-pillow.jpg"); break; fi
done
[[ -n ${BASELINE:-} ]] && tools+=("$(before "$chain" 90 "$big")")
bench "chain: crop, shrink 0.9 bilinear, 3×3 sharpen, Q90 on 5000×5000" "${tools[@]}"

bench "thumbnail: 2725×2225 JPEG → 720 px wide, Q80" \
  "darkroom=$darkroom process --chain 'resize width=720' --quality 80 $photo -o $work/thumb-darkroom.jpg" \
  "libvips=vips thumbnail $photo $work/thumb-vips.jpg[Q=80] 720" \
  "imagemagick=$im $photo -thumbnail 720x -quality 80 $work/thumb-im.jpg" \
  "$(before 'resize width=720' 80 "$photo")"

bench "rotation: 30° with the canvas grown, 5000×5000 JPEG, Q75" \
  "darkroom=$darkroom process --chain 'transform rotate=30deg canvas=grow' --quality 75 $big -o $work/rot-darkroom.jpg" \
  "libvips=vips rotate $big $work/rot-vips.jpg 30" \
  "$(before 'transform rotate=30deg canvas=grow' 75 "$big")"

echo
echo "ratios: darkroom's median time and peak memory divided by each tool's (below 1 = darkroom better)."

# The memory estimate the daemon admits jobs by, against the pixel memory each job really held
# (both from the job's report): the estimate must never be below the peak, and within 1.5× of it.
echo
echo "memory estimate (estimated_pixel_bytes ÷ peak_pixel_bytes, from each job's report):"
estimate() {
  local name=$1 chain=$2 input=$3 dir=$work/estimate-$1
  rm -rf "$dir"
  "$darkroom" process --chain "$chain" "$input" -o "$dir/out.jpg" --reports "$dir" >/dev/null
  python3 - "$name" "$dir" <<'PY'
import glob, json, sys
name, folder = sys.argv[1], sys.argv[2]
out = json.load(open(glob.glob(folder + "/*.json")[0]))["outputs"][0]
est, peak = out["estimated_pixel_bytes"], out["peak_pixel_bytes"]
print(f"  {name:10s} peak {peak / 2**20:6.1f} MiB  estimate {est / 2**20:6.1f} MiB  ratio {est / peak:.2f}"
      + ("  BELOW THE PEAK" if est < peak else ""))
PY
}
estimate chain "$chain" "$big"
estimate thumbnail 'resize width=720' "$photo"
estimate rotation 'transform rotate=30deg canvas=grow' "$big"
