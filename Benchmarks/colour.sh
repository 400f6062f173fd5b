#!/usr/bin/env bash
# `.cube` LUTs on the 5000×5000 JPEG, darkroom against libvips and ImageMagick in one run (tools
# taking turns, see bench_lib.sh), JPEG Q90 out:
#   1-D — a 256-entry LUT_1D_SIZE table (an S-curve) against `vips maplut` with the same table:
#         the same work, one lookup per 8-bit value
#   3-D — a 36³ LUT_3D_SIZE table (a warm, desaturating look), trilinear, against ImageMagick's
#         `-hald-clut` with the same table as a level-6 Hald image; libvips has no 3-D LUT, so
#         its 1-D maplut run is listed beside it as the floor of "decode, map, encode"
# Prints median wall time and peak memory of $RUNS runs and darkroom's ratios. Needs a release
# build and the tools: `make bench` does both.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg

big=$work/input-5000.jpg
big_jpeg "$big"

# The tables, written as Adobe's Cube LUT Specification 1.0 lays them out (red fastest).
awk 'BEGIN { print "TITLE \"S-curve\""; print "LUT_1D_SIZE 256"
  for (i = 0; i < 256; i++) { v = i / 255; s = 0.05 + 0.9 * v * v * (3 - 2 * v); printf "%.6f %.6f %.6f\n", s, s, s }
  }' >"$work/curve1d.cube"
# vips maplut takes the same table as a 256×1 matrix image, scaled to 0…255 for 8-bit output.
awk 'BEGIN { printf "256 1\n"; for (i = 0; i < 256; i++) { v = i / 255; printf "%.4f ", 255 * (0.05 + 0.9 * v * v * (3 - 2 * v)) } print "" }' \
  >"$work/curve1d.mat"
n=36
awk -v n=$n 'BEGIN { print "TITLE \"warm\""; print "LUT_3D_SIZE " n
  for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
    R = r / (n - 1); G = g / (n - 1); B = b / (n - 1); l = 0.2126 * R + 0.7152 * G + 0.0722 * B
    R = l + 0.7 * (R - l); G = l + 0.7 * (G - l); B = l + 0.7 * (B - l)
    R = R * 0.95 + 0.05; B = B * 0.85
    printf "%.6f %.6f %.6f\n", R, G, B } }' >"$work/warm3d.cube"
# The same 36³ table as a level-6 Hald image (216×216), 16-bit text PPM.
awk -v n=$n 'BEGIN { print "P3"; print "216 216"; print "65535" }
  /^[0-9]/ { printf "%d %d %d\n", $1 * 65535 + 0.5, $2 * 65535 + 0.5, $3 * 65535 + 0.5 }' "$work/warm3d.cube" >"$work/warm3d-hald.ppm"

bench "1-D .cube LUT (256 entries) on 5000×5000, Q90" \
  "darkroom=$darkroom process --chain 'color_cube file=$work/curve1d.cube' --quality 90 $big -o $work/lut1-darkroom.jpg" \
  "libvips=vips maplut $big $work/lut1-vips.jpg[Q=90] $work/curve1d.mat"

bench "3-D .cube LUT (36³, trilinear) on 5000×5000, Q90" \
  "darkroom=$darkroom process --chain 'color_cube file=$work/warm3d.cube' --quality 90 $big -o $work/lut3-darkroom.jpg" \
  "imagemagick=$im $big $work/warm3d-hald.ppm -interpolate bilinear -hald-clut -quality 90 $work/lut3-im.jpg" \
  "libvips_1d=vips maplut $big $work/lut3-vips.jpg[Q=90] $work/curve1d.mat"

echo
echo "ratios: darkroom's median time and peak memory divided by each tool's (below 1 = darkroom better)."
