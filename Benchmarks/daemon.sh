#!/usr/bin/env bash
# The daemon benchmark (DESIGN.md §6): N photos of 2725×2225 dropped at once into a watched
# folder; measures files per second, the latency from the drop to each file's output, and
# darkroom's peak RSS (2 workers), against the script people write today: inotifywait piped into
# `xargs -P2 vipsthumbnail` (two at a time, as darkroom's two workers).
# Both make a 720-px-wide JPEG thumbnail (Q80) of each file, in ROUNDS (default 3) paired rounds.
# Needs a release build (make bench); DARKROOM= times another build.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200}
ROUNDS=${ROUNDS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom; the daemon's set-up (daemon_config …)
work=$work/daemon
# The generated photos are kept between runs (regenerated when N changes); the rest is new.
Benchmarks/photos.sh "$work/src" "$N"

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

# One round of darkroom: prints "files/s p50 p95 peak-RSS-MiB".
run_darkroom() {
  daemon_config "$work/dr"
  daemon_start "$work/dr"
  daemon_drop "$work/dr" "$work/src"
  local result; result=$(measure "$work/dr/reports" "$N" "$dropped" '*.json')
  echo "$result $(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$daemon_pid/status)"
  daemon_stop
}

# One round of inotifywait | xargs -P2 vipsthumbnail, one process per file (the incron-style
# script): prints "files/s p50 p95".
run_script() {
  rm -rf "$work/vt"; mkdir -p "$work/vt/inbox" "$work/vt/out"
  ( inotifywait -q -m -e close_write,moved_to --format '%w%f' "$work/vt/inbox" \
      | xargs -P2 -n1 vipsthumbnail --size 720x -o "$work/vt/out/%s.jpg[Q=80]" ) & local wpid=$!
  sleep 1
  cp -r "$work/src" "$work/vt/staging"; local t0; t0=$(now); mv "$work/vt/staging"/* "$work/vt/inbox/"
  measure "$work/vt/out" "$N" "$t0" '*.jpg'
  pkill -P $wpid inotifywait 2>/dev/null || true; kill $wpid 2>/dev/null || true
  wait $wpid 2>/dev/null || true
}

# ROUNDS pairs, darkroom then the script, so that a machine whose speed drifts slows both alike;
# the ratio is taken pair by pair and its median printed.
: > "$work/rounds"
for ((r = 1; r <= ROUNDS; r++)); do
  read -r dr_fps dr_p50 dr_p95 dr_rss < <(run_darkroom)
  read -r vt_fps vt_p50 vt_p95 < <(run_script)
  echo "$dr_fps $dr_p50 $dr_p95 $dr_rss $vt_fps $vt_p50 $vt_p95" >> "$work/rounds"
  printf 'round %d: darkroom %s files/s, script %s files/s\n' "$r" "$dr_fps" "$vt_fps" >&2
done

# Median of column $1 of the rounds (the ratio dr/vt when $1 is "ratio").
median() {
  awk -v c="$1" '{ print (c == "ratio") ? $1 / $5 : $c }' "$work/rounds" | sort -g |
    awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '\n%d files of 2725×2225 dropped at once → 720-px JPEG thumbnails, Q80 (medians of %d paired rounds)\n' "$N" "$ROUNDS"
printf '%-38s %9s %10s %10s\n' pipeline "files/s" "p50 lat s" "p95 lat s"
printf '%-38s %9s %10s %10s   (peak RSS %s MiB)\n' "darkroom run (2 workers)" "$(median 1)" "$(median 2)" "$(median 3)" "$(median 4)"
printf '%-38s %9s %10s %10s\n' "inotifywait | xargs -P2 vipsthumbnail" "$(median 5)" "$(median 6)" "$(median 7)"
printf 'darkroom throughput ÷ script throughput, median of the pairs: %s (above 1 = darkroom better)\n' "$(median ratio)"
