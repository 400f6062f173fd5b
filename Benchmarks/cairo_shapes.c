/* The reference for `draw` in Benchmarks/shapes.sh: decodes a JPEG with libjpeg into one cairo
   image surface, draws every shape of a shapes file on the whole image at once, and encodes the
   result with libjpeg. What a program that keeps the image whole in cairo does.
   Shapes file, one a line:  rect|ellipse|line  a b c d  R G B A  line_width  fill(0/1)
     rect: x y w h; ellipse: cx cy rx ry; line: x1 y1 x2 y2. Colours 0…1.
   Usage: cairo_shapes in.jpg shapes.txt out.jpg quality [group_alpha]
   With group_alpha, the shapes are drawn into a group (cairo_push_group: a transparency layer)
   painted once at that alpha, as `group` does in Benchmarks/group.sh. */
#include <cairo.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) { fprintf(stderr, "usage: %s in.jpg shapes.txt out.jpg quality [group_alpha]\n", argv[0]); return 2; }
    FILE *in = fopen(argv[1], "rb");
    if (!in) { perror(argv[1]); return 1; }
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr err;
    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_stdio_src(&d, in);
    jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_EXT_BGRX; /* cairo's RGB24 on little-endian machines */
    jpeg_start_decompress(&d);
    int w = d.output_width, h = d.output_height;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    while (d.output_scanline < d.output_height) {
        JSAMPROW row = data + (size_t)d.output_scanline * stride;
        jpeg_read_scanlines(&d, &row, 1);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    fclose(in);
    cairo_surface_mark_dirty(surface);

    cairo_t *cr = cairo_create(surface);
    if (argc == 6) cairo_push_group(cr);
    FILE *shapes = fopen(argv[2], "r");
    if (!shapes) { perror(argv[2]); return 1; }
    char kind[16];
    double a, b, c, e, r, g, bl, al, lw;
    int fill;
    while (fscanf(shapes, "%15s %lf %lf %lf %lf %lf %lf %lf %lf %lf %d", kind, &a, &b, &c, &e, &r, &g, &bl, &al, &lw, &fill) == 11) {
        cairo_new_path(cr);
        if (kind[0] == 'r') cairo_rectangle(cr, a, b, c, e);
        else if (kind[0] == 'e') {
            cairo_save(cr);
            cairo_translate(cr, a, b);
            cairo_scale(cr, c, e);
            cairo_arc(cr, 0, 0, 1, 0, 2 * M_PI);
            cairo_restore(cr);
        } else { cairo_move_to(cr, a, b); cairo_line_to(cr, c, e); }
        cairo_set_source_rgba(cr, r, g, bl, al);
        if (fill) cairo_fill(cr);
        else { cairo_set_line_width(cr, lw); cairo_stroke(cr); }
    }
    fclose(shapes);
    if (argc == 6) { cairo_pop_group_to_source(cr); cairo_paint_with_alpha(cr, atof(argv[5])); }
    cairo_destroy(cr);
    cairo_surface_flush(surface);

    FILE *out = fopen(argv[3], "wb");
    if (!out) { perror(argv[3]); return 1; }
    struct jpeg_compress_struct cj;
    cj.err = jpeg_std_error(&err);
    jpeg_create_compress(&cj);
    jpeg_stdio_dest(&cj, out);
    cj.image_width = w;
    cj.image_height = h;
    cj.input_components = 4;
    cj.in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(&cj);
    jpeg_set_quality(&cj, atoi(argv[4]), TRUE);
    /* Full-resolution chroma (4:4:4) from quality 90, as darkroom, libvips and ImageMagick write
       it there (libjpeg's own default is 4:2:0 at any quality: half the chroma blocks to code). */
    if (atoi(argv[4]) >= 90) cj.comp_info[0].h_samp_factor = cj.comp_info[0].v_samp_factor = 1;
    jpeg_start_compress(&cj, TRUE);
    while (cj.next_scanline < cj.image_height) {
        JSAMPROW row = data + (size_t)cj.next_scanline * stride;
        jpeg_write_scanlines(&cj, &row, 1);
    }
    jpeg_finish_compress(&cj);
    jpeg_destroy_compress(&cj);
    fclose(out);
    cairo_surface_destroy(surface);
    return 0;
}
