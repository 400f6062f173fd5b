#!/usr/bin/env bash
# Camera RAW (issue 25) against libraw's own dcraw_emu followed by `vips thumbnail` (libvips
# reads no RAW), in one run, taking turns (see bench_lib.sh). The input is a 24 MP (6000×4000)
# DNG of 14-bit RGGB samples made by scripts/make-dng.py (tifffile), written once into $work.
#   raw thumbnail — the DNG to a 720-px wide JPEG Q80. darkroom takes libraw's half-size decode
#                   by itself (the output is under half the sensor's size); the references
#                   develop with AHD (`dcraw_emu -w`, then vips thumbnail) and at half size
#                   (`dcraw_emu -h -w`, then vips thumbnail), as PPM through a pipe-free file.
#   raw full      — the same output from the whole sensor developed with AHD: a leading crop
#                   of the whole image keeps darkroom from shrinking on load.
# Both develop with the camera's white balance and the sRGB tone curve (-g 2.4 12.92).
# Prints medians and darkroom's ratios. RUNS (default 3) runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom; bench

dng=$work/raw-6000x4000.dng
if [[ ! -f $dng ]]; then
  echo "generating $dng (6000×4000 DNG)…" >&2
  python3 scripts/make-dng.py --synthetic 6000x4000 "$dng" --gains 0.6,1,0.8
fi
emu="dcraw_emu -w -g 2.4 12.92"

SIZE_OF_darkroom=$work/raw-darkroom.jpg \
bench "raw thumbnail: 6000×4000 DNG → 720 px wide JPEG, Q80" \
  "darkroom=$darkroom process --chain 'resize width=720' --quality 80 $dng -o $work/raw-darkroom.jpg" \
  "dcraw_emu_h_vips=bash -c '$emu -h -Z $work/raw-emu-half.ppm $dng && vips thumbnail $work/raw-emu-half.ppm $work/raw-emu-half.jpg[Q=80] 720'" \
  "dcraw_emu_vips=bash -c '$emu -Z $work/raw-emu.ppm $dng && vips thumbnail $work/raw-emu.ppm $work/raw-emu.jpg[Q=80] 720'"

bench "raw full: the same, the whole sensor developed (AHD)" \
  "darkroom=$darkroom process --chain 'crop x=0 y=0 width=6000 height=4000 | resize width=720' --quality 80 $dng -o $work/raw-darkroom-full.jpg" \
  "dcraw_emu_vips=bash -c '$emu -Z $work/raw-emu.ppm $dng && vips thumbnail $work/raw-emu.ppm $work/raw-emu.jpg[Q=80] 720'"

echo
echo "ratios: darkroom's median time and peak memory divided by each reference's (below 1 = darkroom better)."
