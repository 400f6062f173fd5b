#!/usr/bin/env bash
# The area and analysis filters of issue 14 against libvips (and ImageMagick where it does the
# same work), on the 5000×5000 JPEG of Benchmarks/run.sh, all saved as JPEG Q90, the tools taking
# turns run by run (bench_lib.sh):
#   unsharp    — unsharp_mask radius=1 intensity=1 vs `vips sharpen --sigma 1` (vips sharpens
#                L* in LAB with its own curve: the same job, not the same formula) and
#                ImageMagick -unsharp 0x1+1+0 (the same formula)
#   median     — median radius=1 (3×3) vs `vips rank 3 3 4`
#   smartcrop  — crop 1000×1000 gravity=attention vs `vips smartcrop 1000 1000`
#   gaussblur  — gaussian_blur radius=5 vs `vips gaussblur 5` (its default integer path, cut
#                at 0.2 of the peak), then each one's PSNR against a near-exact float Gaussian
#                (vips gaussblur --precision float --min-ampl 0.001, written as 8-bit PNG)
# Needs a release build and the input that Benchmarks/run.sh generates (`make bench` runs both).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg
big=$work/input-5000.jpg
[[ -f $big ]] || { echo "$big is missing: run Benchmarks/run.sh first (make bench does)" >&2; exit 1; }

process() { echo "$darkroom process --chain '$1' --quality 90 $big -o $work/$2"; }

bench "unsharp: radius 1, amount 1, 5000×5000 JPEG, Q90" \
  "darkroom=$(process 'unsharp_mask radius=1 intensity=1' area-usm.jpg)" \
  "libvips=vips sharpen $big $work/area-usm-vips.jpg[Q=90] --sigma 1" \
  "imagemagick=$im $big -unsharp 0x1+1+0 -quality 90 $work/area-usm-im.jpg"

bench "median 3×3, 5000×5000 JPEG, Q90" \
  "darkroom=$(process 'median radius=1' area-median.jpg)" \
  "libvips=vips rank $big $work/area-median-vips.jpg[Q=90] 3 3 4"

bench "smart crop to 1000×1000 (attention), 5000×5000 JPEG, Q90" \
  "darkroom=$(process 'crop width=1000 height=1000 gravity=attention' area-smart.jpg)" \
  "libvips=vips smartcrop $big $work/area-smart-vips.jpg[Q=90] 1000 1000 --interesting attention"

bench "gaussian blur sigma 5, 5000×5000 JPEG, Q90" \
  "darkroom=$(process 'gaussian_blur radius=5' area-blur.jpg)" \
  "libvips=vips gaussblur $big $work/area-blur-vips.jpg[Q=90] 5"

# Accuracy against the (near-)exact Gaussian, on lossless 8-bit outputs.
"$darkroom" process --chain 'gaussian_blur radius=5' "$big" -o "$work/area-blur.png" >/dev/null
vips gaussblur "$big" "$work/area-blur-vips.png" 5
vips gaussblur "$big" "$work/area-blur-exact.v" 5 --precision float --min-ampl 0.001
psnr() {
  vips subtract "$1" "$work/area-blur-exact.v" "$work/area-diff.v"
  vips multiply "$work/area-diff.v" "$work/area-diff.v" "$work/area-sq.v"
  vips avg "$work/area-sq.v" | awk '{ printf "%.1f dB", 10 * log(255 * 255 / $1) / log(10) }'
}
echo
echo "gaussian blur sigma 5 against the exact Gaussian: darkroom $(psnr "$work/area-blur.png"), libvips $(psnr "$work/area-blur-vips.png")"
rm -f "$work"/area-*.v
echo "ratios: darkroom's median time and peak memory divided by each tool's (below 1 = darkroom better)."
