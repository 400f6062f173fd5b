#!/usr/bin/env bash
# Makes N distinct 2725×2225 JPEGs (p0.jpg …) in the folder $1, the hot-folder workload of
# daemon.sh and cluster.sh; kept between runs, regenerated when N changes.
#   Benchmarks/photos.sh FOLDER N
set -euo pipefail
dir=$1 N=$2
[[ $(find "$dir" -name '*.jpg' 2>/dev/null | wc -l) -eq $N ]] || { rm -rf "$dir"; mkdir -p "$dir"; }
[[ -f $dir/p$((N - 1)).jpg ]] && exit 0
im=$(command -v convert-im6.q16 || command -v convert)
# Distinct content per file, so nothing is cached or deduplicated.
"$im" -seed 7 -size 545x445 plasma:fractal -resize 2725x2225! \
  \( -size 2725x2225 xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite -quality 90 "$dir/../base.jpg"
for ((i = 0; i < N; i++)); do
  "$im" "$dir/../base.jpg" -roll +$((i * 7))+$((i * 3)) -quality 90 "$dir/p$i.jpg"
done
