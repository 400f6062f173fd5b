#!/usr/bin/env bash
# Every registered filter (from `darkroom filters --json`, so a new filter is swept without anyone
# listing it) on a 6 MP JPEG (3000×2000, q90), written as JPEG q90, twice: at its defaults, and
# with every numeric parameter at its slider maximum. Prints wall and CPU seconds and peak memory,
# and those of the libvips (or ImageMagick) counterpart where one is mapped below, slowest first.
#
# A filter that needs parameters (a kernel, shapes, an image) takes the first of its
# descriptor's `examples` (the samples the conformance suite builds it from); the assets those
# examples name (stamp.png, warm.cube, …) are made here. A setting
# darkroom refuses (e.g. resize's width, height and scale all at once) falls back to the sample
# with only its own numeric parameters at their maxima; what still fails is printed as refused.
#
# RUNS (default 1) runs each command and prints the median; ONLY=WORD sweeps only the filters
# whose name holds WORD; TIMEOUT (default 120) bounds one command in seconds; DRY=1 prints the
# commands without running them.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-1}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; photo_jpeg
input=$work/input-6mp.jpg
photo_jpeg 3000 2000 "$input"

# The assets the conformance samples name, as files (the tests make them in memory).
assets=$work/sweep-assets
mkdir -p "$assets"
[[ -f $assets/stamp.png ]] || "$im" -size 90x70 gradient:'#ff8000-#0040ff' \
  \( -size 90x70 radial-gradient:white-black \) -alpha off -compose copy_opacity -composite "$assets/stamp.png"
[[ -f $assets/grey.png ]] || "$im" -size 64x48 gradient:gray20-gray80 -colorspace gray "$assets/grey.png"
[[ -f $assets/wide.png ]] || "$im" -size 300x40 gradient:red-blue "PNG32:$assets/wide.png"
cp logo.svg "$assets/logo.svg"
cube() { # NAME SIZE AWK-EXPRESSION-FOR-R-G-B: a 3-D .cube LUT
  [[ -f $assets/$1 ]] && return 0
  awk -v n="$2" "BEGIN { print \"LUT_3D_SIZE \" n
    for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
      x = r / (n - 1); y = g / (n - 1); z = b / (n - 1); print $3 } }" >"$assets/$1"
}
cube warm.cube 5 'x * 0.9 + 0.1, y, z * 0.8'
[[ -f $assets/curve1d.cube ]] || awk 'BEGIN { print "LUT_1D_SIZE 16"; for (i = 0; i < 16; i++) { v = (i / 15) ^ 0.8; print v, v, v } }' >"$assets/curve1d.cube"
[[ -f $assets/channels1d.cube ]] || awk 'BEGIN { print "LUT_1D_SIZE 8"; for (i = 0; i < 8; i++) { v = i / 7; print v, v * v, sqrt(v) } }' >"$assets/channels1d.cube"

"$darkroom" filters --json >"$work/filters.json"
DARKROOM_BIN=$darkroom IM=$im INPUT=$input ASSETS=$assets WORK=$work RUNS=$RUNS ONLY=${ONLY:-} DRY=${DRY:-} TIMEOUT=${TIMEOUT:-120} \
  exec /usr/bin/python3 - "$work/filters.json" <<'PY'
import json, math, os, re, statistics, subprocess, sys

filters = json.load(open(sys.argv[1]))
env = os.environ
darkroom, im, src, assets, work = env["DARKROOM_BIN"], env["IM"], env["INPUT"], env["ASSETS"], env["WORK"]
runs, only, timeout = int(env["RUNS"]), env["ONLY"], float(env["TIMEOUT"])
W, H = 3000, 2000

def matrix_file(name, rows, scale=1, offset=0):
    path = f"{work}/sweep-{name}.mat"
    with open(path, "w") as f:
        f.write(f"{len(rows[0])} {len(rows)} {scale} {offset}\n")
        for r in rows:
            f.write(" ".join(str(v) for v in r) + "\n")
    return path

def px(v, total):
    """A length (px or % of `total`) in pixels."""
    return round(float(v[:-1]) * total / 100) if isinstance(v, str) and v.endswith("%") else int(float(v))

def degrees(v):
    v = str(v)
    return float(v[:-3]) if v.endswith("deg") else math.degrees(float(v))

def rotation(p):
    d = round(degrees(p.get("angle", p.get("rotate", 0))), 6) % 360
    return f"vips rot {{in}} {{out}} d{int(d)}" if d % 90 == 0 else f"vips rotate {{in}} {{out}} {d}"

def kernel(p):
    k = json.loads(p["kernel"])
    if not isinstance(k[0], list):
        n = int(math.isqrt(len(k)))
        k = [k[i * n:(i + 1) * n] for i in range(n)]
    return matrix_file("kernel", k, p.get("scale", 1), p.get("offset", 0))

# The counterpart of each filter: a command with {in} and {out}, made from the values the chain
# gives (p: the descriptor's defaults overlaid by the chain's own). Where the semantics differ a
# little (vips sharpen works on L*), the counterpart is the nearest operation a user would use.
SEPIA = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
COUNTERPART = {
    "gaussian_blur": lambda p: f"vips gaussblur {{in}} {{out}} {p['radius']}",
    # A box is separable: vips convsep runs the row mask, then its transpose (a 2-D mask of
    # radius 100 is refused as "too complex").
    "box_blur": lambda p: "vips convsep {in} {out} %s --precision integer"
        % matrix_file("box", [[1] * (2 * round(p["radius"]) + 1)], 2 * round(p["radius"]) + 1),
    "median": lambda p: "vips rank {in} {out} %d %d %d" % ((2 * int(p["radius"]) + 1,) * 2 + ((2 * int(p["radius"]) + 1) ** 2 // 2,)),
    "unsharp_mask": lambda p: f"{im} {{in}} -unsharp 0x{p['radius']}+{p['intensity']}+{p['threshold'] / 2} -quality 90 {{out}}",
    "sharpen": lambda p: f"vips sharpen {{in}} {{out}} --sigma {p['radius']}",
    "convolve": lambda p: f"vips conv {{in}} {{out}} {kernel(p)}",
    "emboss": lambda p: f"vips conv {{in}} {{out}} %s" % matrix_file("emboss", [[-2 * p['strength'], -p['strength'], 0], [-p['strength'], 1, p['strength']], [0, p['strength'], 2 * p['strength']]]),
    "edges": lambda p: "vips sobel {in} {out}",
    "sepia": lambda p: "vips recomb {in} {out} %s" % matrix_file("sepia", SEPIA),
    "color_matrix": lambda p: "vips recomb {in} {out} %s" % matrix_file("recomb", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    "grayscale": lambda p: "vips colourspace {in} {out} b-w",
    "invert": lambda p: "vips invert {in} {out}",
    "gamma": lambda p: f"vips gamma {{in}} {{out}} --exponent {1 / p['power']}",
    "posterize": lambda p: f"{im} {{in}} -posterize {int(p['levels'])} -quality 90 {{out}}",
    "threshold": lambda p: f"{im} {{in}} -threshold {p['threshold'] * 100}% -quality 90 {{out}}",
    "levels": lambda p: f"{im} {{in}} -level {p['black'] * 100}%,{p['white'] * 100}%,{p['gamma']} -quality 90 {{out}}",
    "equalize": lambda p: "vips hist_equal {in} {out}",
    "normalise": lambda p: f"{im} {{in}} -contrast-stretch {p['low']}%x{100 - p['high']}% -quality 90 {{out}}",
    "auto_levels": lambda p: f"{im} {{in}} -channel RGB -contrast-stretch {p['low']}%x{100 - p['high']}% -quality 90 {{out}}",
    "resize": lambda p: f"vips resize {{in}} {{out}} {float(p['width']) / W if 'width' in p else float(p.get('scale', 1))}",
    "crop": lambda p: f"vips crop {{in}} {{out}} {px(p['x'], W)} {px(p['y'], H)} {px(p['width'], W)} {px(p['height'], H)}",
    "flip": lambda p: f"vips flip {{in}} {{out}} {p['direction']}",
    "rotate": rotation,
    "transform": lambda p: rotation(p) if "rotate" in p else None,
    "straighten": lambda p: f"vips rotate {{in}} {{out}} {degrees(p['angle'])}",
    "tile": lambda p: f"vips replicate {{in}} {{out}} {int(p['columns'])} {int(p['rows'])}",
    "pad": lambda p: f"vips embed {{in}} {{out}} {px(p['all'], W)} {px(p['all'], H)} {W + 2 * px(p['all'], W)} {H + 2 * px(p['all'], H)}",
    "trim": lambda p: "vips find_trim {in}",
    "vignette": None, "pixellate": None,
}

def parse_chain(text):
    """The key=value pairs of a one-filter chain, values as written (split on the spaces outside
    brackets, braces and quotes)."""
    tokens, depth, quoted, token = [], 0, False, ""
    for c in text.split(" ", 1)[1] if " " in text else "":
        if c == '"':
            quoted = not quoted
        elif not quoted and c in "[{":
            depth += 1
        elif not quoted and c in "]}":
            depth -= 1
        if c == " " and depth == 0 and not quoted:
            tokens.append(token); token = ""
        else:
            token += c
    tokens.append(token)
    return dict(t.split("=", 1) for t in tokens if "=" in t)

def number(v):
    """A chain value as a number where it is one (else as written, quotes removed)."""
    try:
        return float(v)
    except ValueError:
        return v[1:-1] if v.startswith('"') else v

def value(v):
    return int(v) if isinstance(v, float) and v.is_integer() else v

def settings(f):
    """(label, [chain, fallbacks…]) at the defaults and at every slider maximum."""
    sample = (f.get("examples") or [None])[0]
    sample = f"{f['name']} {sample}" if sample and not sample.startswith(f["name"]) else sample
    required = any(p["required"] for p in f["parameters"])
    base = sample if required or sample and f["name"] in ("color_cube", "draw_text") else f["name"]
    numeric = {p["name"]: value(p["slider_maximum"]) for p in f["parameters"]
               if "slider_maximum" in p and p["kind"] in ("scalar", "integer", "angle", "length")}
    chain = lambda d: " ".join([f["name"]] + [f"{k}={v}" for k, v in d.items()])
    starts = [parse_chain(c) for c in dict.fromkeys(c for c in (base, sample) if c)]
    out = [("defaults", list(dict.fromkeys(c for c in (base, sample) if c)))]
    if numeric:
        maxed = [chain(dict(own, **numeric)) for own in starts]
        maxed += [chain(dict(own, **{k: v for k, v in numeric.items() if k in own})) for own in starts]
        out.append(("max", list(dict.fromkeys(maxed))))
    return out

def timed(cmd, cwd=None):
    """Median wall, CPU and peak MiB of `cmd` over RUNS runs, or the error text."""
    if env["DRY"]:
        print(cmd)
        return 0.0, 0.0, 0.0
    walls, cpus, peaks = [], [], []
    for _ in range(runs):
        try:
            r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", f"{work}/sweep-time.txt", "bash", "-c", f"exec {cmd}"],
                               cwd=cwd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"over {timeout:.0f} s"
        if r.returncode != 0:
            return (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1][:100]
        e, u, s, m = open(f"{work}/sweep-time.txt").read().split()[-4:]
        walls.append(float(e)); cpus.append(float(u) + float(s)); peaks.append(int(m) / 1024)
    return statistics.median(walls), statistics.median(cpus), statistics.median(peaks)

def defaults(f):
    return {p["name"]: p["default"] for p in f["parameters"] if "default" in p}

rows = []
for f in filters:
    if only and only not in f["name"]:
        continue
    for label, chains in settings(f):
        out = f"{work}/sweep-darkroom.jpg"
        for chain in chains:  # the first that darkroom takes
            result = timed(f"{darkroom} process --quality 90 --chain '{chain}' {src} -o {out}", cwd=assets)
            if not isinstance(result, str):
                break
        counterpart, theirs = "", None
        make = COUNTERPART.get(f["name"])
        if make and not isinstance(result, str):
            p = dict(defaults(f), **{k: number(v) for k, v in parse_chain(chain).items()})
            try:
                template = make(p)
            except (KeyError, ValueError, TypeError):
                template = None
            if template:
                counterpart = template.split()[0].rsplit("/", 1)[-1]
                theirs = timed(template.format(**{"in": src, "out": f"{work}/sweep-counterpart.jpg[Q=90]" if template.startswith("vips") else f"{work}/sweep-counterpart.jpg"}))
        rows.append((f["name"], label, chain, result, counterpart, theirs))
        sys.stderr.write(f"  {f['name']} {label}: {result if isinstance(result, str) else '%.2f s' % result[0]}\n")

def fmt(r):
    return ("%7.2f %7.2f %8.0f" % r) if isinstance(r, tuple) else "%24s" % ""
rows.sort(key=lambda r: -(r[3][0] if isinstance(r[3], tuple) else 1e9))
print(f"\nevery filter on a {W}×{H} JPEG → JPEG q90 (median of {runs} run{'s' if runs > 1 else ''}), slowest first")
print("%-16s %-8s %7s %7s %8s  %-10s %7s %7s %8s %7s  %s" % ("filter", "setting", "wall s", "CPU s", "peak MiB",
      "counterpart", "wall s", "CPU s", "peak MiB", "×wall", "chain"))
for name, label, chain, result, counterpart, theirs in rows:
    if isinstance(result, str):
        print("%-16s %-8s %-24s  %s  (refused: %s)" % (name, label, "", "", result))
        continue
    ratio = "%7.2f" % (result[0] / theirs[0]) if isinstance(theirs, tuple) and theirs[0] > 0 else "%7s" % ""
    note = f"  [{counterpart}: {theirs}]" if isinstance(theirs, str) else ""
    print("%-16s %-8s %s  %-10s %s %s  %s%s" % (name, label, fmt(result), counterpart, fmt(theirs), ratio, chain[:90], note))
print("\n×wall: darkroom's wall time divided by the counterpart's (below 1: darkroom faster).")
PY
