#ifndef DARKROOM_DRAW_H
#define DARKROOM_DRAW_H
/* darkroom's drawing shims over cairo, Pango and librsvg. Swift sees only these plain-C
   functions and structs: no GObject, no GError, no cairo_t lifetimes across the boundary. */
#include <stddef.h>
#include <stdint.h>


/* What a drawing needs loaded: cairo (shapes, gradients, scaled images), Pango (text, with
   cairo and GLib), librsvg (SVG, with cairo and GLib), poppler-glib (PDF, with cairo and GLib). */
enum { DR_NEEDS_CAIRO = 1, DR_NEEDS_PANGO = 2, DR_NEEDS_RSVG = 4, DR_NEEDS_POPPLER = 8 };

/* Loads the libraries `needs` names, with dlopen, once per process: nothing links them, so a
   process that never draws never maps them (libraries.h). 0, or -1 with a message naming the
   library that is missing and the Debian package that holds it (never printed). Drawing
   filters call it when they are made, so a missing library fails the config, not a job; every
   shim below calls it too and fails (never crashes) when it cannot load. */
int dr_draw_load(int needs, char *msg, size_t msg_size);

/* The cairo version string, e.g. "1.16.0", of the cairo it loads; NULL when cairo cannot load. */
const char *dr_draw_cairo_version(void);

/* cairo's own compositing: `source` painted onto `backdrop` (both `count` ARGB32 pixels, the
   pixel format below) with the operator `op` (a cairo_operator_t). The reference BlendMode's
   formulas are held to. 0, or -1 when cairo cannot load or failed. */
int dr_cairo_composite(int op, const uint32_t *source, uint32_t *backdrop, int32_t count);

/* One element of a path, in image pixel coordinates (y down, pixel (i, j) covers
   [i, i+1) × [j, j+1)). A curve is a cubic Bézier from the current point through the two
   control points p[0], p[1] to p[2]; move and line use p[0]; close uses none. */
enum dr_path_op { DR_PATH_MOVE = 0, DR_PATH_LINE = 1, DR_PATH_CURVE = 2, DR_PATH_CLOSE = 3 };

typedef struct {
    int32_t op;
    double x[3], y[3];
} dr_path_element;

enum dr_fill_rule { DR_FILL_NONZERO = 0, DR_FILL_EVEN_ODD = 1 };
enum dr_line_join { DR_JOIN_MITER = 0, DR_JOIN_ROUND = 1, DR_JOIN_BEVEL = 2 };
enum dr_line_cap { DR_CAP_BUTT = 0, DR_CAP_ROUND = 1, DR_CAP_SQUARE = 2 };

/* How a path is stroked (cairo's stroke parameters, which are Quartz's and SVG's). */
typedef struct {
    double width;
    int32_t join;
    double miter_limit;
    int32_t cap;
    const double *dash; /* on/off lengths, or NULL */
    int32_t dash_count;
    double dash_offset;
} dr_stroke_style;

/* The bounding box of the filled path (stroke NULL) or of its stroke, in image coordinates, as
   cairo computes it (fill_extents / stroke_extents, so joins, caps and miters are included). */
void dr_path_extents(const dr_path_element *path, int32_t count, const dr_stroke_style *stroke,
                     double *x0, double *y0, double *x1, double *y1);

/* A reusable A8 surface over one rectangle of the image, for the many coverages one strip
   needs (every shape that reaches it): created once per strip instead of once per shape. */
typedef struct dr_canvas dr_canvas;

/* A canvas over x0, y0, width × height (image coordinates); NULL when out of memory. */
dr_canvas *dr_canvas_create(int32_t x0, int32_t y0, int32_t width, int32_t height);
void dr_canvas_destroy(dr_canvas *canvas);
/* Coverage bytes: pixel (x0 + col, y0 + row) at data[row * stride + col]. */
const uint8_t *dr_canvas_data(const dr_canvas *canvas);
int32_t dr_canvas_stride(const dr_canvas *canvas);

/* Clears the canvas's part `ax, ay, aw × ah` (image coordinates, inside the canvas) and
   rasterises the path's fill (stroke NULL) or stroke coverage there, and nowhere else.
   Returns 0, or -1 with a message in `error`. */
int dr_canvas_coverage(dr_canvas *canvas, const dr_path_element *path, int32_t count, int32_t fill_rule,
                       const dr_stroke_style *stroke, int32_t ax, int32_t ay, int32_t aw, int32_t ah,
                       char *error, size_t error_size);
/* What full coverage of one colour makes of each 8-bit sample (dr_paint_rgb8_table): `lut`, R's
   256 results then G's and B's; and, when `linear`, the same results as trunc(v × k + c[channel])
   in float, checked value by value, which the vector loop computes 16 pixels at a time. */
typedef struct {
    uint8_t lut[768];
    float k, c[3];
    int32_t linear;
} dr_paint_table;

/* `color` (premultiplied float RGBA) painted source-over through `coverage` (0…255, one byte a
   pixel) onto `count` opaque 8-bit RGB pixels, in place: each covered pixel becomes
   round(clamp(s + d × (1 − s.alpha)) × 255), s = color × coverage / 255, d = the pixel / 255,
   computed in float as `draw` does on float pixels; uncovered pixels are not touched. Fully
   covered pixels take `table`'s results, filled for `color` by dr_paint_rgb8_table (the same
   arithmetic, done once per colour for the 256 values of each channel).
   (Not cairo: pure arithmetic, callable from any thread.) */
void dr_paint_rgb8_table(const float color[4], dr_paint_table *table);
void dr_paint_rgb8_over(uint8_t *rgb, const uint8_t *coverage, int32_t count, const float color[4],
                        const dr_paint_table *table);

/* Pixels exchanged with the shims are cairo's ARGB32: premultiplied, one native-endian
   uint32_t per pixel (alpha in the top byte), rows `width` pixels apart. */

/* One gradient stop: offset 0…1 and a straight (unpremultiplied) colour. */
typedef struct {
    double at, r, g, b, a;
} dr_stop;

enum { DR_EXTEND_NONE = 0, DR_EXTEND_PAD = 1, DR_EXTEND_REPEAT = 2, DR_EXTEND_REFLECT = 3 };
enum { DR_PAINT_LINEAR = 0, DR_PAINT_RADIAL = 1, DR_PAINT_IMAGE = 2 };

/* What to paint, in the image's pixel coordinates (y down).
   - linear: from (x0, y0) to (x1, y1); radial: from the circle (x0, y0, r0) to (x1, y1, r1);
     both with `stops` (sorted by offset) and `extend`.
   - image: `pixels` (width × height) drawn into the rectangle (dest_x, dest_y, dest_w, dest_h)
     (scaled; smooth filtering), repeated beyond it as `extend` says.
   A clip rectangle (clip_w > 0) limits the paint. */
typedef struct {
    int kind;
    double x0, y0, r0, x1, y1, r1;
    const dr_stop *stops;
    int stop_count;
    const uint32_t *pixels;
    int width, height;
    double dest_x, dest_y, dest_w, dest_h;
    int extend;
    double clip_x, clip_y, clip_w, clip_h;
} dr_paint;

/* Paints `paint` onto a transparent buffer holding the image's rectangle (x, y, w, h): `out`
   has w × h pixels. Only that rectangle is rasterised. 0, or -1 when cairo failed. */
int dr_paint_rect(const dr_paint *paint, int x, int y, int w, int h, uint32_t *out);

/* An SVG document's intrinsic size in px (width and height, else its viewBox). 0 when it
   parses; -1 with a message in `msg` (never printed) when it does not. A size of 0 means the
   document does not say. */
int dr_svg_size(const uint8_t *data, size_t length, double *width, double *height, char *msg, size_t msg_size);

/* Renders the SVG document into a w × h viewport (its preserveAspectRatio applies) onto the
   transparent buffer `out` (w × h pixels). 0, or -1 with a message. */
int dr_svg_render(const uint8_t *data, size_t length, int w, int h, uint32_t *out, char *msg, size_t msg_size);

enum { DR_ALIGN_LEFT = 0, DR_ALIGN_CENTER = 1, DR_ALIGN_RIGHT = 2 };

/* A block of text laid out by Pango: UTF-8 `text` (plain, not markup), a Pango font
   description (`font`, "DejaVu Sans Bold"), its size in px, wrapped at `max_width` px when
   positive, lines aligned by `align`; drawn in `color`, outlined in `stroke` `stroke_width` px
   wide when positive, over a `background` box with `padding` px around the text. Colours are
   straight RGBA 0…1. */
typedef struct {
    const char *text;
    const char *font;
    double size;
    double max_width;
    int align;
    double color[4];
    double stroke[4];
    double stroke_width;
    double background[4];
    double padding;
} dr_text;

/* The size in px of the box the text is drawn in (text, outline and padding); 0×0 when the text
   has nothing to draw (it is empty). 0 or -1. */
int dr_text_measure(const dr_text *text, int *w, int *h, char *msg, size_t msg_size);

/* Draws the text's box onto the transparent buffer `out` of w × h pixels (from dr_text_measure). */
int dr_text_render(const dr_text *text, int w, int h, uint32_t *out, char *msg, size_t msg_size);

/* A PDF page (poppler-glib) or an SVG document (librsvg) rendered a band of rows at a time
   (vector_document.c), for the codecs' PDF and SVG readers. The document keeps its own copy of
   a PDF's bytes; an SVG is parsed when opened. librsvg is given no base file, so it loads no
   image, stylesheet or entity outside the document (data: URLs only). */
typedef struct dr_vector_document dr_vector_document;

enum { DR_VECTOR_PDF = 1, DR_VECTOR_SVG = 2 };

/* Why dr_vector_open failed. */
enum {
    DR_VECTOR_NO_LIBRARY = 1, /* poppler-glib or librsvg cannot be loaded */
    DR_VECTOR_DAMAGED = 2,    /* the library refused the document */
    DR_VECTOR_ENCRYPTED = 3,  /* a PDF that needs a password */
    DR_VECTOR_NO_SIZE = 4,    /* an SVG that states no width, height or viewBox */
    DR_VECTOR_NO_MEMORY = 5
};

/* 0, or one of the reasons above with a message. */
int dr_vector_open(int kind, const uint8_t *data, size_t length, dr_vector_document **document, char *msg,
                   size_t msg_size);
void dr_vector_close(dr_vector_document *document);

/* Pages of a PDF; 1 for an SVG. */
int dr_vector_page_count(const dr_vector_document *document);

/* The size of page `page` (1-based) in points, 1/72 inch, as displayed (a PDF's /Rotate
   applied); an SVG's intrinsic size, its user units taken at 96 per inch. 0, or -1. */
int dr_vector_page_size(dr_vector_document *document, int page, double *width, double *height, char *msg,
                        size_t msg_size);

/* Renders rows `y0` ..< `y0 + rows` of page `page` drawn `width` × `height` pixels (the page
   scaled to fill it) into `out`: cairo ARGB32 pixels (premultiplied, native-endian words),
   `stride` bytes a row, `width` a row. A PDF page is painted on white first, as paper; an SVG's
   background stays transparent. Only the band is rasterised (cairo clips to it). 0, or -1. */
int dr_vector_render_band(dr_vector_document *document, int page, int width, int height, int y0, int rows,
                          uint32_t *out, size_t stride, char *msg, size_t msg_size);

#endif
