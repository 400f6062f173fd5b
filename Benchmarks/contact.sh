#!/usr/bin/env bash
# The contact sheet (issue 24): `darkroom report --html` over N reports (default 1,000) of
# 2725×2225 JPEG photos, each with a 720-px JPEG output, written by the daemon of daemon.sh (the
# set-up bench_lib.sh shares), with sepia's intensity drawn at random. Measures the sheet's
# generation time (median of RUNS, default 3) and peak memory from the daemon's thumbnails (the
# first sheet, docs/contact-sheet.md); with DECODED=1 also with the daemon's thumbnails moved away,
# every thumbnail decoded and decoded again with the thumbnails kept (the cache); its size, and in headless
# Chromium (Selenium) the time to first contentful paint, to the first thumbnail shown and to
# the end of the parse, median of RUNS page loads. Target: 1,000 reports in ≤ 10 s on 2 cores.
# Needs a release build (make bench); DARKROOM= times another build.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom, median; the daemon's set-up (daemon_config …)
work=$work/contact
# 20 distinct photos (photos.sh keeps them between runs), copied to N names: every file is
# decoded on its own, nothing is cached. The reports are kept between runs.
Benchmarks/photos.sh "$work/src" 20
if [[ $(find "$work/dr/reports" -name '*.json' 2>/dev/null | wc -l) -ne $N || ! -d $work/dr/thumbnails ]]; then
  rm -rf "$work/in"; mkdir -p "$work/in"
  for ((i = 0; i < N; i++)); do cp "$work/src/p$((i % 20)).jpg" "$work/in/photo$i.jpg"; done
  echo "the daemon processes $N photos for their reports…" >&2
  daemon_config "$work/dr" '[ { resize: { width: 720 } }, { sepia: { intensity: random } } ]'
  daemon_start "$work/dr"
  daemon_drop "$work/dr" "$work/in"
  daemon_wait "$work/dr" "$N"
  daemon_stop
  rm -rf "$work/in"
fi

# sheet KIND ARGS…: RUNS sheets with ARGS added; prints KIND's median wall and CPU time and peak memory.
sheet() {
  local kind=$1 walls=() mems=() cpus=() t m u s; shift
  for ((r = 0; r < RUNS; r++)); do
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$darkroom" report --html "$work/sheet.html" --config "$work/dr/config.yaml" \
      "$@" "$work/dr/reports" >/dev/null
    read -r t m u s <"$work/time.txt"; walls+=("$t"); mems+=("$m"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
  done
  printf '%-34s %6.2f s wall, %6.2f s CPU, peak %3.0f MiB\n' "$kind" "$(median <<<"${walls[*]}")" "$(median <<<"${cpus[*]}")" \
    "$(awk -v k="$(median <<<"${mems[*]}")" 'BEGIN {print k / 1024}')"
}
printf '\ncontact sheet of %d reports (%d cores; median of %d runs)\n' "$N" "$(nproc)" "$RUNS"
sheet "first sheet (daemon's thumbnails)" --no-thumbnail-cache
if [[ -n ${DECODED:-} ]]; then
  # Without the daemon's thumbnails (reports of an older daemon, or thumbnails: false): every
  # file decoded, then made again with the thumbnails kept by the first.
  mv "$work/dr/thumbnails" "$work/dr/thumbnails.away"
  trap 'mv "$work/dr/thumbnails.away" "$work/dr/thumbnails"' EXIT
  sheet "every thumbnail decoded" --no-thumbnail-cache
  rm -rf "$work/cache"
  "$darkroom" report --html "$work/sheet.html" --config "$work/dr/config.yaml" --thumbnail-cache "$work/cache" "$work/dr/reports" >/dev/null
  sheet "decoded again (thumbnails kept)" --thumbnail-cache "$work/cache"
  mv "$work/dr/thumbnails.away" "$work/dr/thumbnails"; trap - EXIT
  "$darkroom" report --html "$work/sheet.html" --config "$work/dr/config.yaml" --no-thumbnail-cache "$work/dr/reports" >/dev/null
fi
printf 'file %.1f MB\n' "$(awk -v b="$(stat -c %s "$work/sheet.html")" 'BEGIN {print b / 1e6}')"

# First paint: fresh browser per load, so nothing is cached between them.
python3 - "$work/sheet.html" "$RUNS" <<'PY'
import statistics, sys
sys.path.insert(0, "Tests/EndToEndTests/Browser")
import browser
page, runs = sys.argv[1], int(sys.argv[2])
keys = ["first-contentful-paint", "first-thumbnail", "dom-content-loaded", "load"]
seen = {k: [] for k in keys}
for _ in range(runs):
    d = browser.start(1280, 1000)
    try:
        d.get("file://" + page)
        browser.wait_for(d, lambda d: d.execute_script(
            "return document.readyState == 'complete' && performance.getEntriesByName('first-thumbnail').length > 0"), timeout=120)
        t = d.execute_script("""
            const n = performance.getEntriesByType('navigation')[0];
            const p = performance.getEntriesByName('first-contentful-paint')[0];
            return {'first-contentful-paint': p ? p.startTime : null,
                    'first-thumbnail': performance.getEntriesByName('first-thumbnail')[0].startTime,
                    'dom-content-loaded': n.domContentLoadedEventEnd, 'load': n.loadEventEnd};""")
        for k in keys:
            seen[k].append(t[k])
    finally:
        browser.stop(d)
for k in keys:
    got = [v for v in seen[k] if v is not None]  # headless Chromium may report no contentful paint
    print("%-24s %s (median of %d loads)" % (k, "%7.0f ms" % statistics.median(got) if got else "    n/a", len(got)))
PY
