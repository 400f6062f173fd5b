#!/usr/bin/env bash
# PDF and SVG inputs (issue 25) against libvips, in one run, taking turns (see bench_lib.sh):
#   pdf proof — the first page of a 20-page A4 PDF (text, a gradient and 400 paths a page, drawn
#               by cairo) to a 720-px wide JPEG Q80: `vips thumbnail` (pdfload at the thumbnail's
#               scale, poppler on cairo, as darkroom; --height 100000 so that 720 is the width, not
#               the longer side) against darkroom drawing the page at 720 px
#   svg icon  — a 600×600 SVG (2000 paths, a blur filter) to a 720-px wide PNG: `vips thumbnail`
#               (svgload) against darkroom drawing it at 720 px
# Prints medians, darkroom's ratios and the output files' sizes. RUNS (default 3) runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
source Benchmarks/bench_lib.sh  # $work, $darkroom, $im; bench

pdf=$work/proof-20-pages.pdf
svg=$work/icon-2000-paths.svg
if [[ ! -f $pdf || ! -f $svg ]]; then
  /usr/bin/python3 - "$pdf" "$svg" <<'PY'
import cairo, random, sys
random.seed(7)
s = cairo.PDFSurface(sys.argv[1], 595, 842)
for page in range(20):
    c = cairo.Context(s)
    g = cairo.LinearGradient(0, 0, 595, 842)
    g.add_color_stop_rgb(0, 0.95, 0.9, 0.8); g.add_color_stop_rgb(1, 0.6, 0.75, 0.9)
    c.set_source(g); c.paint()
    for _ in range(400):
        c.set_source_rgba(random.random(), random.random(), random.random(), 0.7)
        c.move_to(random.uniform(0, 595), random.uniform(0, 842))
        for _ in range(3):
            c.curve_to(*[random.uniform(0, 595) if i % 2 == 0 else random.uniform(0, 842) for i in range(6)])
        c.close_path(); c.fill()
    c.set_source_rgb(0, 0, 0); c.set_font_size(36)
    c.move_to(60, 100); c.show_text("Proof page %d" % (page + 1))
    c.set_font_size(11)
    for line in range(50):
        c.move_to(60, 140 + 13 * line); c.show_text("The quick brown fox jumps over the lazy dog %d. " % line * 2)
    s.show_page()
s.finish()
paths = []
for _ in range(2000):
    x, y = random.uniform(0, 600), random.uniform(0, 600)
    paths.append('<path d="M%.1f %.1f q%.1f %.1f %.1f %.1f t%.1f %.1f z" fill="#%06x" fill-opacity="0.6"/>' % (
        x, y, random.uniform(-60, 60), random.uniform(-60, 60), random.uniform(-60, 60), random.uniform(-60, 60),
        random.uniform(-60, 60), random.uniform(-60, 60), random.randrange(1 << 24)))
open(sys.argv[2], "w").write('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">'
    '<defs><filter id="b"><feGaussianBlur stdDeviation="2"/></filter></defs><g filter="url(#b)">'
    + "".join(paths[:200]) + '</g>' + "".join(paths[200:]) + '</svg>')
PY
fi

SIZE_OF_darkroom=$work/proof-darkroom.jpg SIZE_OF_libvips=$work/proof-vips.jpg \
bench "pdf proof: page 1 of a 20-page A4 PDF → 720 px wide JPEG, Q80" \
  "darkroom=$darkroom process --chain 'resize width=720' --quality 80 $pdf -o $work/proof-darkroom.jpg" \
  "libvips=vips thumbnail $pdf '$work/proof-vips.jpg[Q=80]' 720 --height 100000"

SIZE_OF_darkroom=$work/icon-darkroom.png SIZE_OF_libvips=$work/icon-vips.png \
bench "svg icon: 600×600, 2000 paths and a blur → 720 px wide PNG" \
  "darkroom=$darkroom process --chain 'resize width=720' $svg -o $work/icon-darkroom.png" \
  "libvips=vips thumbnail $svg $work/icon-vips.png 720"
