#!/usr/bin/env bash
# The contact sheet (issue 24): `darkroom report --html` over N reports (default 1,000) of
# 2725×2225 JPEG photos, each with a 720-px JPEG output, as daemon.sh makes them (here with
# `darkroom process --jobs 2 --reports`, which writes the same reports). Measures the sheet's
# generation time (median of RUNS, default 3) and peak memory, its size, and in headless
# Chromium (Selenium) the time to first contentful paint, to the first thumbnail shown and to
# the end of the parse, median of RUNS page loads. Target: 1,000 reports in ≤ 10 s on 2 cores.
# Needs a release build (make bench); DARKROOM= times another build.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
RUNS=${RUNS:-3}
work=${BENCH_DIR:-/tmp/darkroom-bench}/contact
darkroom=${DARKROOM:-$PWD/.build/release/darkroom}
[[ -x $darkroom ]] || { echo "build first: swift build -c release" >&2; exit 1; }
# 20 distinct photos (photos.sh keeps them between runs), copied to N names: every file is
# decoded on its own, nothing is cached.
Benchmarks/photos.sh "$work/src" 20
if [[ $(find "$work/reports" -name '*.json' 2>/dev/null | wc -l) -ne $N ]]; then
  rm -rf "$work/in" "$work/out" "$work/reports"; mkdir -p "$work/in"
  for ((i = 0; i < N; i++)); do cp "$work/src/p$((i % 20)).jpg" "$work/in/photo$i.jpg"; done
  echo "processing $N photos for their reports…" >&2
  "$darkroom" process --jobs 2 --chain 'resize width=720 | sepia intensity=random' --quality 80 \
    --reports "$work/reports" -o "$work/out/" "$work/in"/*.jpg >/dev/null
fi

walls=() mems=() cpus=()
for ((r = 0; r < RUNS; r++)); do
  /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$darkroom" report --html "$work/sheet.html" "$work/reports" >/dev/null
  read -r t m u s <"$work/time.txt"; walls+=("$t"); mems+=("$m"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
printf '\ncontact sheet of %d reports (%d cores; median of %d runs)\n' "$N" "$(nproc)" "$RUNS"
printf 'generation   %.2f s wall, %.2f s CPU, peak %.0f MiB; file %.1f MB\n' "$(median "${walls[@]}")" "$(median "${cpus[@]}")" \
  "$(awk -v k="$(median "${mems[@]}")" 'BEGIN {print k / 1024}')" "$(awk -v b="$(stat -c %s "$work/sheet.html")" 'BEGIN {print b / 1e6}')"

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
