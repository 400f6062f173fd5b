#!/usr/bin/python3
"""pages.pdf, shapes.svg and shapes.svgz: the PDF and SVG inputs' fixtures (see README.md).
Debian's python3-cairo; run here to regenerate them."""
import cairo, gzip

# Two pages of different sizes (points), each with a filled shape, a stroke and a gradient.
surface = cairo.PDFSurface("pages.pdf", 144, 108)
for number, (w, h) in enumerate([(144, 108), (108, 144)], start=1):
    surface.set_size(w, h)
    c = cairo.Context(surface)
    c.set_source_rgb(0.9, 0.3, 0.1)
    c.rectangle(10, 10, w / 2, h / 3)
    c.fill()
    g = cairo.LinearGradient(0, 0, w, 0)
    g.add_color_stop_rgb(0, 0.1, 0.2, 0.8)
    g.add_color_stop_rgb(1, 0.2, 0.9, 0.3)
    c.set_source(g)
    c.arc(w * 0.6, h * 0.65, min(w, h) / 4, 0, 6.2832)
    c.fill()
    c.set_source_rgb(0, 0, 0)
    c.set_line_width(3 * number)
    c.move_to(5, h - 5)
    c.line_to(w - 5, 5)
    c.stroke()
    surface.show_page()
surface.finish()

svg = b"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- A fixture for the SVG input: a prolog, a comment and a doctype before the root. -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48" viewBox="0 0 96 48">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#1a3"/><stop offset="1" stop-color="#e52"/></linearGradient></defs>
  <rect x="4" y="4" width="56" height="28" fill="url(#g)"/>
  <circle cx="70" cy="28" r="16" fill="#2050d0" fill-opacity="0.6"/>
  <path d="M2 46 L94 2" stroke="#000" stroke-width="2"/>
</svg>
"""
open("shapes.svg", "wb").write(svg)
open("shapes.svgz", "wb").write(gzip.compress(svg, mtime=0))
