# Shared by the benchmark scripts (sourced from the repository's root, after RUNS is set).
# Sets $work (BENCH_DIR, default /tmp/darkroom-bench), $darkroom (the release build, or DARKROOM)
# (DARKROOM_BEFORE: see bench below)
# and $im (ImageMagick 6 by its own name: a `convert` earlier on the PATH may be something else).
work=${BENCH_DIR:-/tmp/darkroom-bench}
mkdir -p "$work"
darkroom=${DARKROOM:-$PWD/.build/release/darkroom}
[[ -x $darkroom ]] || { echo "build first: swift build -c release" >&2; exit 1; }
im=$(command -v convert-im6.q16 || command -v convert)

# bench TITLE NAME=COMMAND… : runs every command RUNS times in turn (A B C A B C …, so a machine
# whose speed drifts slows them alike), prints the median wall time and peak memory (max RSS) of
# each and darkroom's ratios against it. A command's output file may be named in SIZE_OF_<name>
# (e.g. SIZE_OF_libvips=/tmp/x.webp) to print its size too.
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

bench() {
  local title=$1; shift
  local names=() cmds=()
  for spec in "$@"; do [[ -n $spec ]] || continue; names+=("${spec%%=*}"); cmds+=("${spec#*=}"); done
  # DARKROOM_BEFORE=another build: its darkroom command takes turns with the others as `before`,
  # so a change is measured paired, in the same runs as the references.
  if [[ -n ${DARKROOM_BEFORE:-} ]]; then
    for i in "${!names[@]}"; do
      [[ ${names[$i]} == darkroom ]] && { names+=(before); cmds+=("${cmds[$i]//$darkroom/$DARKROOM_BEFORE}"); break; }
    done
  fi
  local -A walls mems
  for ((run = 0; run < RUNS; run++)); do
    for i in "${!names[@]}"; do
      /usr/bin/time -f '%e %M' -o "$work/time.txt" bash -c "exec ${cmds[$i]}" >/dev/null 2>"$work/stderr.txt" \
        || { echo "${names[$i]} failed:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
      read -r t m <"$work/time.txt"
      walls[${names[$i]}]+="$t "; mems[${names[$i]}]+="$m "
    done
  done
  printf '\n%s (median of %d runs)\n' "$title" "$RUNS"
  printf '%-15s %9s %10s %13s %13s %12s\n' tool "wall s" "peak MiB" "darkroom ×t" "darkroom ×mem" "file bytes"
  local dt dm
  dt=$(median <<<"${walls[darkroom]}"); dm=$(median <<<"${mems[darkroom]}")
  for name in "${names[@]}"; do
    local t m size_var="SIZE_OF_$name" size=""
    t=$(median <<<"${walls[$name]}"); m=$(median <<<"${mems[$name]}")
    [[ -n ${!size_var:-} && -f ${!size_var} ]] && size=$(stat -c %s "${!size_var}")
    awk -v n="$name" -v t="$t" -v m="$m" -v dt="$dt" -v dm="$dm" -v s="$size" \
      'BEGIN { printf "%-15s %9.3f %10.1f %13.2f %13.2f %12s\n", n, t, m / 1024, dt / t, dm / m, s }'
  done
}

# photo_jpeg WIDTH HEIGHT PATH [SEED]: a q90 test JPEG, made once with ImageMagick ($im): smooth
# fractal noise (a plasma at a quarter of the size, enlarged) plus fine grain, photo-like
# frequency content, so JPEG sizes and codec times are realistic.
photo_jpeg() {
  [[ -f $3 ]] && return 0
  echo "generating $3 ($1×$2 JPEG, q90)…" >&2
  "$im" -seed "${4:-42}" -size "$(($1 / 4))x$(($2 / 4))" plasma:fractal -resize "$1x$2!" \
    \( -size "$1x$2" xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite \
    -quality 90 "$3"
}

# big_jpeg PATH: the 5000×5000 test JPEG.
big_jpeg() { photo_jpeg 5000 5000 "$1"; }

# daemon_watches [CHAIN]: the watches: block of the hot-folder daemon of daemon.sh, contact.sh and
# cluster.sh, relative to its config's folder: ./inbox watched, outputs in ./out (a 720-px-wide
# JPEG, Q80; CHAIN, the chain's YAML list, default a lanczos3 resize), reports in ./reports.
daemon_watches() {
  local chain=${1:-}
  [[ -n $chain ]] || chain='[ { resize: { width: 720, kernel: lanczos3 } } ]'
  cat <<YAML
watches:
  - name: photos
    path: ./inbox
    settle_ms: 50
    on_success: keep
    reports_dir: ./reports
    done_dir: ./done
    failed_dir: ./failed
    outputs:
      - path: ./out/{stem}.jpg
        quality: 80
        chain: $chain
YAML
}

# daemon_config DIR [CHAIN]: DIR made anew with that daemon's config (2 workers) and its inbox.
daemon_config() {
  rm -rf "$1"; mkdir -p "$1/inbox"
  { echo "workers: 2"; echo "log: { level: warning }"; daemon_watches "${2:-}"; } >"$1/config.yaml"
}

# daemon_start DIR: runs `darkroom run` on DIR's config in the background (its pid in
# $daemon_pid, its log in DIR/log) and returns once it watches the inbox.
daemon_start() {
  "$darkroom" run --config "$1/config.yaml" 2>"$1/log" &
  daemon_pid=$!
  sleep 1
  kill -0 "$daemon_pid" 2>/dev/null || { echo "darkroom run did not start:" >&2; cat "$1/log" >&2; exit 1; }
}

# daemon_drop DIR SRC: copies SRC's files beside the inbox, then moves them in at once (the time
# of the move in $dropped).
daemon_drop() {
  cp -r "$2" "$1/staging"; dropped=$(date +%s.%N); mv "$1/staging"/* "$1/inbox/"
}

# daemon_wait DIR N: waits until DIR holds N reports.
daemon_wait() {
  until [[ $(find "$1/reports" -type f -name '*.json' 2>/dev/null | wc -l) -ge $2 ]]; do
    kill -0 "$daemon_pid" 2>/dev/null || { echo "darkroom run stopped:" >&2; cat "$1/log" >&2; exit 1; }
    sleep 0.05
  done
}

# daemon_stop: stops the daemon daemon_start began (SIGTERM: it finishes its jobs).
daemon_stop() { kill -TERM "$daemon_pid"; wait "$daemon_pid" || true; }
