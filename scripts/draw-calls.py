#!/usr/bin/env python3
"""Routes the drawing shims' calls to cairo, Pango, GLib and librsvg through their dlsym table.

Nothing links those libraries: Sources/CDarkroomDraw/libraries.h lists every function the shims
call, one X(name) line each, and the shims call them as DR(name)(...). Code written against the
linked libraries (a plain `cairo_foo(cr)`) fails the link. This rewrites such calls in
Sources/CDarkroomDraw/*.c as `DR(cairo_foo)(cr)` and adds every function not yet listed to its
library's list in libraries.h (chosen by its prefix). Run it after merging such code, then build:

    scripts/draw-calls.py

A lowercase GLib macro (g_clear_object, g_new…) is not a function dlsym can find: the compile
says so at its DR(); call the function it stands for instead.
"""
import pathlib
import re
import sys

folder = pathlib.Path(__file__).resolve().parent.parent / "Sources" / "CDarkroomDraw"
header = folder / "libraries.h"
text = header.read_text()
listed = set(re.findall(r"X\((\w+)\)", text))

# The list a function goes to, by prefix: the most specific first.
lists = [("pango_cairo_", "DR_PANGOCAIRO_FUNCTIONS"), ("pango_", "DR_PANGO_FUNCTIONS"),
         ("cairo_", "DR_CAIRO_FUNCTIONS"), ("rsvg_", "DR_RSVG_FUNCTIONS"),
         ("g_object_", "DR_GOBJECT_FUNCTIONS"), ("g_type_", "DR_GOBJECT_FUNCTIONS"),
         ("g_signal_", "DR_GOBJECT_FUNCTIONS"), ("g_value_", "DR_GOBJECT_FUNCTIONS"), ("g_", "DR_GLIB_FUNCTIONS")]
call = re.compile(r"(?<![\w.>])((?:cairo|pango|rsvg|g)_\w+)\s*\(")

found = set()
for source in sorted(folder.glob("*.c")):
    if source.name == "libraries.c":
        continue
    before = source.read_text()
    after = call.sub(lambda m: (found.add(m.group(1)), f"DR({m.group(1)})(")[1], before)
    if after != before:
        source.write_text(after)
        print(f"{source.name}: calls rewritten as DR(name)(…)")

for name in sorted(found - listed):
    macro = next(m for prefix, m in lists if name.startswith(prefix))
    define = re.search(rf"#define {macro}\(X\)[ \t]*\\\n", text)
    if define is None:
        sys.exit(f"libraries.h has no {macro}")
    line = define.group(0)
    text = text.replace(line, f"{line}    X({name}) \\\n", 1)
    print(f"libraries.h: X({name}) added to {macro}")
header.write_text(text)
