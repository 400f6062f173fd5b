#!/usr/bin/env bash
# Regenerates the TIFF, WebP, HEIF and AVIF fixtures of the mutation fuzz test from the PNG and
# JPEG fixtures (see README.md). Needs vips (libvips-tools), tiffcp (libtiff-tools), cwebp and
# img2webp (webp), heif-enc (libheif-examples).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
vips tiffsave rgba16.png rgba16_lzw.tif --compression lzw --predictor horizontal --strip
vips copy noise.jpg "$tmp/noise.png"
vips tiffsave noise.jpg noise_tiled.tif --compression deflate --tile --tile-width 16 --tile-height 16 --strip
cwebp -quiet -lossless -exact rgba8.png -o rgba8_lossless.webp
cwebp -quiet -q 80 noise.jpg -o noise.webp
img2webp -lossless rgba8.png rgb8.png -o animated.webp
heif-enc -q 50 "$tmp/noise.png" -o noise.heic >/dev/null
vips resize noise.jpg "$tmp/wavefront.png" 4
heif-enc -q 40 "$tmp/wavefront.png" -o wavefront.heic >/dev/null
heif-enc -A -q 50 "$tmp/noise.png" -o noise.avif >/dev/null
python3 make_grid_heic.py
# A small DNG with a JPEG preview (scripts/make-dng.py, tifffile from PyPI): seeds RAW fuzzing.
vips resize noise.jpg "$tmp/raw.ppm" 0.75
vips thumbnail noise.jpg "$tmp/raw_preview.jpg" 24 --export-profile none
python3 ../../../scripts/make-dng.py "$tmp/raw.ppm" raw.dng --gains 0.6,1,0.8 --preview "$tmp/raw_preview.jpg"
