#!/usr/bin/env bash
# Storms (issue 6): how long N small files renamed into the inbox at once take with a small
# and a large queue (rescans used to cost O(files²) with a small one), and the daemon's peak
# RSS while WAIT files wait in the folder. Figures only; the tests never time anything.
# Needs a build: release by default (make bench), BUILD=debug for a quick look.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3000}
WAIT=${WAIT:-10000}
work=${BENCH_DIR:-/tmp/darkroom-bench}/storm
darkroom=$PWD/.build/${BUILD:-release}/darkroom
[[ -x $darkroom ]] || { echo "build first: swift build -c ${BUILD:-release}" >&2; exit 1; }
rm -rf "$work"; mkdir -p "$work"
convert -size 6x6 xc:'#336699' "$work/tiny.png"

# Prints the seconds from the drop of $1 files until the last report, and the peak RSS in MiB.
storm() {
  local files=$1 queue=$2 dir="$work/q$2-$1"
  mkdir -p "$dir/inbox" "$dir/staging"
  cat > "$dir/config.yaml" <<YAML
queue_capacity: $queue
log: { level: warning }
watches:
  - path: ./inbox
    settle_ms: 50
    reports_dir: ./reports
    done_dir: ./done
    failed_dir: ./failed
    outputs:
      - path: ./out/{stem}.png
        chain: [ { resize: { width: 4 } } ]
YAML
  for ((i = 0; i < files; i++)); do cp "$work/tiny.png" "$dir/staging/f$i.png"; done
  "$darkroom" run --config "$dir/config.yaml" 2>"$dir/log" & local pid=$!
  sleep 1
  local t0; t0=$(date +%s.%N)
  find "$dir/staging" -name '*.png' -exec mv -t "$dir/inbox" {} +
  until [[ $(find "$dir/reports" -name '*.json' 2>/dev/null | wc -l) -ge $files ]]; do sleep 0.1; done
  local t1; t1=$(date +%s.%N)
  local rss; rss=$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$pid/status)
  kill -TERM $pid; wait $pid || true
  awk -v a="$t0" -v b="$t1" -v r="$rss" 'BEGIN { printf "%.1f %s\n", b - a, r }'
}

read -r s16 r16 < <(storm "$N" 16)
read -r s512 r512 < <(storm "$N" 512)
printf '\n%d files of 6×6 renamed into the inbox at once\n' "$N"
printf '%-18s %10s %14s\n' queue_capacity seconds "peak RSS MiB"
printf '%-18s %10s %14s\n' 16 "$s16" "$r16"
printf '%-18s %10s %14s\n' 512 "$s512" "$r512"

# RSS while WAIT files wait: one worker on a slow chain, so nearly all of them sit in the folder.
dir="$work/wait"; mkdir -p "$dir/inbox"
for ((i = 0; i < WAIT; i++)); do cp "$work/tiny.png" "$dir/inbox/w$i.png"; done
cat > "$dir/config.yaml" <<YAML
workers: 1
log: { level: warning }
watches:
  - path: ./inbox
    reports_dir: ./reports
    done_dir: ./done
    failed_dir: ./failed
    outputs:
      - path: ./out/{stem}.png
        chain: [ { resize: { width: 4 } } ]
YAML
"$darkroom" run --config "$dir/config.yaml" 2>"$dir/log" & pid=$!
sleep 5
rss=$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$pid/status)
left=$(find "$dir/inbox" -name '*.png' | wc -l)
kill -TERM $pid; wait $pid || true
printf '\npeak RSS with %d files present at start-up (%d still waiting after 5 s): %s MiB\n' "$WAIT" "$left" "$rss"
