#!/usr/bin/env bash
# `darkroom preview`: from a slider change to the first approximate picture and to the exact
# picture, through HTTP, as the page does it (both renders asked for at once, each POST
# /api/render then GET of its PNG; the exact request says approximateFirst, so the server runs
# the approximate render before the exact one), p50 and p95 of $CHANGES changes, each with
# another value; against `darkroom process` of the same chain to PNG (median of $RUNS runs).
# Two chains on a 12 MP JPEG (4000×3000): the benchmark chain (run.sh, its crop fitted to the
# picture) with its resize scale moving, and `sepia` alone with its intensity moving. The page
# opens the image first (GET /api/original), as a user does before moving a slider.
# DARKROOM_BEFORE=other/darkroom: a second server of that build takes turns with this one,
# change by change (and its `process` with this one's), so that both see the same load.
# Targets: the approximate picture within 100 ms, the exact picture within 1.2× `process`.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
CHANGES=${CHANGES:-50}
ONLY=${ONLY:-}  # measure only the chains whose title holds this (e.g. ONLY=sepia)
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im

photo=$work/input-12mp.jpg
if [[ ! -f $photo ]]; then
  echo "generating $photo (4000×3000 JPEG, q90)…" >&2
  "$im" -seed 12 -size 1000x750 plasma:fractal -resize 4000x3000! \
    \( -size 4000x3000 xc:gray50 +noise Gaussian -colorspace gray \) -compose overlay -composite \
    -quality 90 "$photo"
fi

servers=() builds=()
trap 'for s in "${servers[@]}"; do kill "$s" 2>/dev/null; wait "$s" 2>/dev/null || true; done' EXIT
# start BINARY NAME: a preview server of BINARY, added to $builds as NAME=BINARY=URL.
start() {
  local log=$work/preview-$2.log
  "$1" preview "$photo" >"$log" 2>&1 &
  servers+=($!)
  for _ in $(seq 200); do grep -q 'token=' "$log" && break; sleep 0.05; done
  builds+=("$2=$1=$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$log")")
}
start "$darkroom" darkroom
if [[ -n ${DARKROOM_BEFORE:-} ]]; then start "$DARKROOM_BEFORE" before; fi

bench_chain='crop x=100 y=100 width=3800 height=2800 | resize scale={v} kernel=bilinear | convolve kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] scale=8'
python3 - "$photo" "$work" "$CHANGES" "$RUNS" "$bench_chain" "$ONLY" "${builds[@]}" <<'PY'
import http.client, json, os, statistics, subprocess, sys, threading, time, urllib.parse
photo, work, changes, runs, bench_chain, only = sys.argv[1:7]
changes, runs = int(changes), int(runs)
builds = [dict(zip(("name", "binary", "url"), b.split("=", 2))) for b in sys.argv[7:]]

def call(build, method, path, body=None):
    parts = urllib.parse.urlsplit(build["url"])
    token = dict(urllib.parse.parse_qsl(parts.query))["token"]
    c = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
    data = json.dumps(body).encode() if body is not None else None
    c.request(method, path, body=data, headers={"X-Darkroom-Token": token, "Content-Type": "application/json"})
    r = c.getresponse(); payload = r.read(); c.close()
    if r.status != 200: raise SystemExit(f"{build['name']} {path}: {r.status} {payload[:200]!r}")
    return payload

def steps(syntax):
    out = []
    for part in syntax.split(" | "):
        name, *args = part.split(" ")
        out.append({"name": name, "enabled": True, "parameters": [{"name": a.split("=", 1)[0], "value": a.split("=", 1)[1]} for a in args]})
    return out

def percentile(values, q):
    values = sorted(values); k = (len(values) - 1) * q; f = int(k)
    return values[f] + (values[min(f + 1, len(values) - 1)] - values[f]) * (k - f)

def change(build, page, i, syntax):
    """One slider change: (seconds to the approximate picture, seconds to the exact picture)."""
    body = {"page": page, "sequence": i + 1, "root": "images", "path": "0", "seed": "1", "chain": {"steps": steps(syntax)}}
    quick, failed = [], []
    def approximate():
        answer = json.loads(call(build, "POST", "/api/render", dict(body, approximate=True)))
        if answer.get("id") is None: return failed.append(answer)
        call(build, "GET", f"/api/picture?page={page}~approximate&id={answer['id']}")
        quick.append(time.perf_counter() - start)
    start = time.perf_counter()
    side = threading.Thread(target=approximate)
    side.start()
    answer = json.loads(call(build, "POST", "/api/render", dict(body, approximateFirst=True)))
    if answer.get("id") is None: raise SystemExit(f"{build['name']}: render failed: {answer}")
    call(build, "GET", f"/api/picture?page={page}&id={answer['id']}")
    exact = time.perf_counter() - start
    side.join()
    if failed: raise SystemExit(f"{build['name']}: approximate render failed: {failed[0]}")
    return quick[0], exact

def load():
    return os.getloadavg()[0]

print(f"\npreview: slider change → approximate and exact picture over HTTP ({changes} changes) vs `darkroom process` to PNG (median of {runs})")
print(f"{'chain':<28} {'build':<9} {'approx p50 ms':>14} {'approx p95 ms':>14} {'exact p50 s':>12} {'exact p95 s':>12} {'process s':>10} {'p50/process':>12} {'load':>10}")
for build in builds: call(build, "GET", "/api/original?root=images&path=0")
# One page per chain: a page's edits are numbered, and a lower number than its last is stale.
for page, (title, template, values) in enumerate((
        ("benchmark chain, 12 MP", bench_chain, [f"{0.85 + 0.1 * i / (changes - 1):.4f}" for i in range(changes)]),
        ("sepia alone, 12 MP", "sepia intensity={v}", [f"{0.2 + 0.8 * i / (changes - 1):.4f}" for i in range(changes)]))):
    if only not in title: continue
    quick = {b["name"]: [] for b in builds}; exact = {b["name"]: [] for b in builds}; process = {b["name"]: [] for b in builds}
    loads = [load()]
    for i, v in enumerate(values):
        # Builds take turns, the first of each change alternating, so that neither always runs just after the other.
        for build in (builds if i % 2 == 0 else builds[::-1]):
            q, e = change(build, f"bench{page}", i, template.replace("{v}", v))
            quick[build["name"]].append(q); exact[build["name"]].append(e)
        loads.append(load())
    for r in range(runs):
        for build in (builds if r % 2 == 0 else builds[::-1]):
            start = time.perf_counter()
            subprocess.run([build["binary"], "process", "--chain", template.replace("{v}", values[len(values) // 2]), "--seed", "1",
                            photo, "-o", f"{work}/preview-process.png"], check=True, capture_output=True)
            process[build["name"]].append(time.perf_counter() - start)
        loads.append(load())
    for build in builds:
        n = build["name"]
        p50, p95, pm = percentile(exact[n], 0.5), percentile(exact[n], 0.95), statistics.median(process[n])
        q50, q95 = percentile(quick[n], 0.5) * 1000, percentile(quick[n], 0.95) * 1000
        print(f"{title:<28} {n:<9} {q50:14.0f} {q95:14.0f} {p50:12.3f} {p95:12.3f} {pm:10.3f} {p50 / pm:12.2f} {min(loads):4.1f}–{max(loads):<4.1f}")
    if len(builds) == 2:
        a, b = (builds[0]["name"], builds[1]["name"])
        ratio = lambda xs, ys: statistics.median(x / y for x, y in zip(xs, ys))
        print(f"{'':<28} {a}/{b} pair by pair (medians): approximate {ratio(quick[a], quick[b]):.2f}, exact {ratio(exact[a], exact[b]):.2f}")
PY
