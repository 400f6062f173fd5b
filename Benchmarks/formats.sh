#!/usr/bin/env bash
# darkroom against libvips (or the format's own tool) on the formats of issues 15 and 25, in one run, taking turns (see bench_lib.sh):
#   heic thumbnail — a 12 MP (4032×3024) HEIC to a 720-px JPEG, Q80 (`vips thumbnail`)
#   chain as WebP  — the chain of run.sh on the 5000×5000 JPEG, written as WebP Q80 (webpsave,
#                    both at libwebp's default effort 4)
#   chain as AVIF  — the same written as AVIF Q50 (heifsave, AV1 at effort 4 = libaom speed 5,
#                    darkroom's default speed), 8-bit 4:2:0 both
#   avif 10-bit    — the 12 MP picture as a 16-bit PNG written as 10-bit AVIF Q50 at speed 5;
#                    vips cannot (libheif 1.15 aborts on 10-bit), so the yardstick is libavif's
#                    own avifenc with the settings darkroom gives libavif (the files are identical)
#   tiff 50 %      — a 16-bit LZW TIFF scan of 8000×6000 resized to 50 % (Lanczos3), written as an
#                    uncompressed 16-bit TIFF by both
#   jxl effort 7   — a 12 MP (4032×3024) q90 JPEG's pixels written as JPEG XL at effort 7, distance 1
#                    (darkroom's quality 90), against cjxl with the same effort and distance
#   jxl lossless_jpeg — the same JPEG transcoded byte-exactly (darkroom's lossless_jpeg, cjxl's
#                    default for a JPEG input), effort 7
# Prints medians, darkroom's ratios, and the output files' sizes. RUNS (default 3) runs each;
# ONLY=WORD runs only the jobs whose title holds WORD (e.g. ONLY=heic, ONLY=jxl).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench, big_jpeg
if [[ -n ${ONLY:-} ]]; then
  eval "$(declare -f bench | sed '1s/^bench /bench_every /')"
  bench() { [[ $1 != *"$ONLY"* ]] || bench_every "$@"; }
fi

# Photo-like inputs: fractal plasma plus grain, as run.sh makes them.
photo() { # WIDTH HEIGHT SEED OUT
  "$im" -seed "$3" -size "$(($1 / 5))x$(($2 / 5))" plasma:fractal -resize "$1x$2!" \
    \( -size "$1x$2" xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite "$4"
}
big=$work/input-5000.jpg
big_jpeg "$big"
heic=$work/input-12mp.heic
if [[ ! -f $heic ]]; then
  echo "generating $heic (4032×3024, heif-enc Q80)…" >&2
  photo 4032 3024 11 "$work/12mp.png"
  heif-enc -q 80 "$work/12mp.png" -o "$heic" >/dev/null
fi
scan=$work/input-8000x6000-16bit-lzw.tif
if [[ ! -f $scan ]]; then
  # The 12 MP picture (a 16-bit PNG: ImageMagick's Q16) enlarged by vips: ImageMagick's default
  # resource policy refuses an 8000×6000 canvas.
  echo "generating $scan…" >&2
  vips resize "$work/12mp.png" "$work/scan.v" 1.98413 --vscale 1.98413
  vips tiffsave "$work/scan.v" "$scan" --compression lzw --predictor horizontal
  rm -f "$work/scan.v"
fi
jpeg12=$work/input-4032x3024.jpg
photo_jpeg 4032 3024 "$jpeg12"
gcc -O2 -o "$work/vips_chain" Benchmarks/vips_chain.c $(pkg-config --cflags --libs vips)
chain='crop x=100 y=100 width=4800 height=4800 | resize scale=0.9 kernel=bilinear | convolve kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] scale=8'

SIZE_OF_darkroom=$work/heic-darkroom.jpg SIZE_OF_libvips=$work/heic-vips.jpg \
bench "heic thumbnail: 4032×3024 HEIC → 720 px wide JPEG, Q80" \
  "darkroom=$darkroom process --chain 'resize width=720' --quality 80 $heic -o $work/heic-darkroom.jpg" \
  "libvips=vips thumbnail $heic '$work/heic-vips.jpg[Q=80]' 720"

SIZE_OF_darkroom=$work/chain-darkroom.webp SIZE_OF_libvips=$work/chain-vips.webp \
bench "chain as WebP Q80 on 5000×5000" \
  "darkroom=$darkroom process --chain '$chain' --quality 80 $big -o $work/chain-darkroom.webp" \
  "libvips=$work/vips_chain $big '$work/chain-vips.webp[Q=80]'"

SIZE_OF_darkroom=$work/chain-darkroom.avif SIZE_OF_libvips=$work/chain-vips.avif \
bench "chain as AVIF Q50 on 5000×5000" \
  "darkroom=$darkroom process --chain '$chain' --quality 50 $big -o $work/chain-darkroom.avif" \
  "libvips=$work/vips_chain $big '$work/chain-vips.avif[Q=50,compression=av1,effort=4]'"

SIZE_OF_darkroom=$work/deep-darkroom.avif SIZE_OF_avifenc=$work/deep-avifenc.avif \
bench "avif 10-bit: 4032×3024 16-bit PNG → 10-bit AVIF Q50 (4:2:0, speed 5)" \
  "darkroom=$darkroom process --chain 'resize scale=1' --bit-depth 10 --quality 50 $work/12mp.png -o $work/deep-darkroom.avif" \
  "avifenc=avifenc -d 10 -y 420 -s 5 -j 4 --min 0 --max 63 -a end-usage=q -a cq-level=32 $work/12mp.png $work/deep-avifenc.avif"

bench "tiff 50 %: 8000×6000 16-bit LZW TIFF resized to 50 %, 16-bit TIFF out" \
  "darkroom=$darkroom process --chain 'resize scale=0.5' $scan -o $work/scan-darkroom.tif" \
  "libvips=vips resize $scan $work/scan-vips.tif 0.5"

SIZE_OF_darkroom=$work/jxl-darkroom.jxl SIZE_OF_cjxl=$work/jxl-cjxl.jxl \
bench "jxl effort 7: 4032×3024 JPEG → JPEG XL, distance 1 (quality 90)" \
  "darkroom=$darkroom process --effort 7 --quality 90 $jpeg12 -o $work/jxl-darkroom.jxl" \
  "cjxl=cjxl -e 7 -d 1 --lossless_jpeg=0 $jpeg12 $work/jxl-cjxl.jxl"

SIZE_OF_darkroom=$work/jxl-lj-darkroom.jxl SIZE_OF_cjxl=$work/jxl-lj-cjxl.jxl \
bench "jxl lossless_jpeg: 4032×3024 JPEG transcoded byte-exactly, effort 7" \
  "darkroom=$darkroom process --lossless-jpeg $jpeg12 -o $work/jxl-lj-darkroom.jxl" \
  "cjxl=cjxl -e 7 $jpeg12 $work/jxl-lj-cjxl.jxl"

echo
echo "ratios: darkroom's median time and peak memory divided by libvips' (below 1 = darkroom better)."
