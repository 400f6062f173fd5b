#!/usr/bin/env bash
# Soak test (not run in CI): feeds the release daemon COUNT large mixed photos through two
# outputs and samples its resident set size every INTERVAL seconds, to see whether RSS grows
# over time (glibc's per-thread arenas are the usual suspect with big images on many threads).
#
#   scripts/soak.sh [COUNT=3000] [INTERVAL=5]
#   MALLOC_ARENA_MAX=2 scripts/soak.sh                                   # compare allocators:
#   LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 scripts/soak.sh  # (apt install libjemalloc2)
#
# Writes soak-<timestamp>/rss.csv (seconds, rss_kib, files_done) and prints the RSS at each
# tenth of the run, so growth shows without a plot (gnuplot, if installed, draws rss.png).
set -euo pipefail
count=${1:-3000} interval=${2:-5}
cd "$(dirname "$0")/.."
repo=$PWD
[[ -x .build/release/darkroom ]] || swift build -c release
# ImageMagick 6 by its own name: a `convert` earlier on the PATH may be something else.
convert=$(command -v convert-im6.q16 || command -v convert) || { echo "soak: needs ImageMagick (scripts/install-deps.sh)" >&2; exit 1; }
work=$repo/soak-$(date +%Y%m%d-%H%M%S)
mkdir -p "$work/src" "$work/inbox"

# A few distinct large photos (sizes and formats mixed), copied under new names as the run goes.
echo "soak: making source photos in $work/src" >&2
"$convert" -size 6000x4000 plasma:fractal -quality 90 "$work/src/a.jpg"
"$convert" -size 4000x6000 gradient:navy-orange -attenuate 0.3 +noise gaussian -quality 85 "$work/src/b.jpg"
"$convert" -size 5000x3300 plasma:red-blue "$work/src/c.png"
"$convert" -size 3000x2000 plasma:fractal -quality 95 "$work/src/d.jpg"
sources=("$work"/src/*)

cat > "$work/config.yaml" <<CONFIG
workers: 2
queue_capacity: 64
state_file: $work/status.json
watches:
  - name: soak
    path: $work/inbox
    on_success: delete
    settle_ms: 100
    failed_dir: $work/failed
    reports_dir: $work/reports
    outputs:
      - path: $work/out/thumbs/{stem}.jpg
        quality: 80
        chain:
          - resize: { width: 720, kernel: lanczos3 }
      - path: $work/out/large/{stem}.jpg
        chain:
          - resize: { width: 2048 }
          - sepia: { intensity: 0.4 }
CONFIG

.build/release/darkroom run --config "$work/config.yaml" 2> "$work/daemon.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
sleep 1
echo "seconds,rss_kib,files_done" > "$work/rss.csv"
start=$(date +%s) dropped=0
while :; do
  # Keep about 20 files waiting: the daemon is always busy, the folder never floods.
  waiting=$(find "$work/inbox" -maxdepth 1 -type f | wc -l)
  while (( waiting < 20 && dropped < count )); do
    src=${sources[dropped % ${#sources[@]}]}
    cp "$src" "$work/inbox/.f$dropped.tmp" && mv "$work/inbox/.f$dropped.tmp" "$work/inbox/f$dropped.${src##*.}"
    dropped=$((dropped + 1)) waiting=$((waiting + 1))
  done
  done_count=$(find "$work/reports" -name '*.json' 2>/dev/null | wc -l)
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
  echo "$(( $(date +%s) - start )),$rss,$done_count" >> "$work/rss.csv"
  (( done_count >= count )) && break
  kill -0 "$pid" || { echo "soak: the daemon died; see $work/daemon.log" >&2; exit 1; }
  sleep "$interval"
done
kill -TERM "$pid"; wait "$pid" || true
peak=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
echo "soak: $count files in $(( $(date +%s) - start )) s; RSS (KiB) at each tenth of the run:"
awk -F, 'NR > 1 { t[NR] = $0 } END { n = NR - 1; for (i = 1; i <= 10; i++) { k = int(n * i / 10) + 1; split(t[k], f, ","); printf "  %3d%%  %6d s  %8d KiB  %5d files\n", i * 10, f[1], f[2], f[3] } }' "$work/rss.csv"
if command -v gnuplot >/dev/null; then
  gnuplot -e "set terminal png size 900,400; set output '$work/rss.png'; set datafile separator ','; set xlabel 'seconds'; set ylabel 'RSS MiB'; plot '$work/rss.csv' every ::1 using 1:(\$2/1024) with lines title 'darkroom RSS'"
  echo "soak: plot in $work/rss.png"
fi
echo "soak: samples in $work/rss.csv"
