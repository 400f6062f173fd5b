#!/usr/bin/env bash
# The daemon benchmark (DESIGN.md §6): N photos of 2725×2225 dropped at once into a watched
# folder; measures files per second, the latency from the drop to each file's output, and
# darkroom's peak RSS (2 workers), against the script people write today: inotifywait piped into
# `xargs -P2 vipsthumbnail` (two at a time, as darkroom's two workers).
# Both make a 720-px-wide JPEG thumbnail (Q80) of each file. Needs a release build (make bench).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200}
work=${BENCH_DIR:-/tmp/darkroom-bench}/daemon
darkroom=${DARKROOM:-$PWD/.build/release/darkroom}
[[ -x $darkroom ]] || { echo "build first: swift build -c release" >&2; exit 1; }
# The generated photos are kept between runs (regenerated when N changes); the rest is new.
rm -rf "$work/dr" "$work/vt"
[[ $(find "$work/src" -name '*.jpg' 2>/dev/null | wc -l) -eq $N ]] || { rm -rf "$work/src"; mkdir -p "$work/src"; }

im=$(command -v convert-im6.q16 || command -v convert)
# N distinct 2725×2225 JPEGs (distinct content, so nothing is cached or deduplicated).
if [[ ! -f $work/src/p$((N - 1)).jpg ]]; then
"$im" -seed 7 -size 545x445 plasma:fractal -resize 2725x2225! \
  \( -size 2725x2225 xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite -quality 90 "$work/base.jpg"
for ((i = 0; i < N; i++)); do
  "$im" "$work/base.jpg" -roll +$((i * 7))+$((i * 3)) -quality 90 "$work/src/p$i.jpg"
done
fi

now() { date +%s.%N; }

# Waits until $2 files exist under $1, then prints "files/s p50 p95" given the drop time $3.
measure() {
  local dir=$1 want=$2 t0=$3
  until [[ $(find "$dir" -type f -name "$4" | wc -l) -ge $want ]]; do sleep 0.05; done
  local t1; t1=$(now)
  find "$dir" -type f -name "$4" -printf '%T@\n' | sort -n | awk -v t0="$t0" -v t1="$t1" -v n="$want" '
    { lat[NR] = $1 - t0 }
    END { printf "%.1f %.2f %.2f\n", n / (t1 - t0), lat[int(NR * 0.5)], lat[int(NR * 0.95)] }'
}

# darkroom
mkdir -p "$work/dr/inbox"
cat > "$work/dr/config.yaml" <<YAML
workers: 2
log: { level: warning }
watches:
  - path: ./inbox
    settle_ms: 50
    on_success: keep
    reports_dir: ./reports
    done_dir: ./done
    failed_dir: ./failed
    outputs:
      - path: ./out/{stem}.jpg
        quality: 80
        chain: [ { resize: { width: 720, kernel: lanczos3 } } ]
YAML
"$darkroom" run --config "$work/dr/config.yaml" 2>"$work/dr/log" & pid=$!
sleep 1
cp -r "$work/src" "$work/dr/staging"; t0=$(now); mv "$work/dr/staging"/* "$work/dr/inbox/"
read -r dr_fps dr_p50 dr_p95 < <(measure "$work/dr/reports" "$N" "$t0" '*.json')
dr_rss=$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$pid/status)
kill -TERM $pid; wait $pid || true

# inotifywait | xargs -P2 vipsthumbnail, one process per file (the incron-style script)
mkdir -p "$work/vt/inbox" "$work/vt/out"
( inotifywait -q -m -e close_write,moved_to --format '%w%f' "$work/vt/inbox" \
    | xargs -P2 -n1 vipsthumbnail --size 720x -o "$work/vt/out/%s.jpg[Q=80]" ) & wpid=$!
sleep 1
cp -r "$work/src" "$work/vt/staging"; t0=$(now); mv "$work/vt/staging"/* "$work/vt/inbox/"
read -r vt_fps vt_p50 vt_p95 < <(measure "$work/vt/out" "$N" "$t0" '*.jpg')
pkill -P $wpid inotifywait 2>/dev/null || true; kill $wpid 2>/dev/null || true

printf '\n%d files of 2725×2225 dropped at once → 720-px JPEG thumbnails, Q80\n' "$N"
printf '%-34s %9s %10s %10s\n' pipeline "files/s" "p50 lat s" "p95 lat s"
printf '%-34s %9s %10s %10s   (peak RSS %s MiB)\n' "darkroom run (2 workers)" "$dr_fps" "$dr_p50" "$dr_p95" "$dr_rss"
printf '%-34s %9s %10s %10s\n' "inotifywait | xargs -P2 vipsthumbnail" "$vt_fps" "$vt_p50" "$vt_p95"
awk -v a="$dr_fps" -v b="$vt_fps" 'BEGIN { printf "darkroom throughput ÷ script throughput: %.2f (above 1 = darkroom better)\n", a / b }'
