#!/usr/bin/env bash
# Regenerates the TIFF, WebP, HEIF, AVIF and JPEG XL fixtures of the mutation fuzz test from the PNG and
# JPEG fixtures (see README.md). Needs vips (libvips-tools), tiffcp (libtiff-tools), cwebp and
# img2webp (webp), heif-enc (libheif-examples), cjxl (libjxl-tools), brotli.
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
cjxl -d 1 -e 7 --lossless_jpeg=0 noise.jpg noise.jxl 2>/dev/null
cjxl -e 7 noise.jpg noise_transcoded.jxl 2>/dev/null
cjxl -d 0 -e 3 rgba16.png rgba16_lossless.jxl 2>/dev/null
# noise_transcoded.jxl with a Brotli-compressed Exif box ("brob") that inflates to 40 MB of zeros.
head -c 40000000 /dev/zero | brotli -q 11 -c > "$tmp/zeros.br"
python3 - "$tmp/zeros.br" <<'PY'
import sys
src, br = open('noise_transcoded.jxl', 'rb').read(), open(sys.argv[1], 'rb').read()
box = (12 + len(br)).to_bytes(4, 'big') + b'brobExif' + br
open('exif_brotli_bomb.jxl', 'wb').write(src[:32] + box + src[32:])  # after the signature and ftyp boxes
PY
# A small DNG with a JPEG preview (scripts/make-dng.py, tifffile from PyPI): seeds RAW fuzzing.
vips resize noise.jpg "$tmp/raw.ppm" 0.75
vips thumbnail noise.jpg "$tmp/raw_preview.jpg" 24 --export-profile none
python3 ../../../scripts/make-dng.py "$tmp/raw.ppm" raw.dng --gains 0.6,1,0.8 --preview "$tmp/raw_preview.jpg"
