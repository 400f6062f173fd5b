/* The watermark job through libvips' C API, as `vips composite2` and `vips text` would do it in
 * one pipeline: load IN, draw LOGO (an RGBA PNG) at its natural size at the bottom right, 20 px
 * from the edges, at opacity 0.5, and CAPTION in DejaVu Sans at SIZE px, black, 40 px from the
 * bottom left; save OUT (JPEG Q90, alpha dropped). */
#include <stdlib.h>
#include <vips/vips.h>

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0]) || argc != 6) vips_error_exit("usage: vips_compose IN LOGO CAPTION SIZE OUT");
    VipsImage *in = vips_image_new_from_file(argv[1], "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    VipsImage *logo = vips_image_new_from_file(argv[2], NULL);
    if (!in || !logo) vips_error_exit(NULL);
    double a[4] = {1, 1, 1, 0.5}, b[4] = {0, 0, 0, 0};
    char font[64];
    snprintf(font, sizeof font, "DejaVu Sans %s", argv[4]);
    VipsImage *faded, *text, *stamped, *captioned, *rgb;
    if (vips_linear(logo, &faded, a, b, 4, NULL) ||
        vips_text(&text, argv[3], "font", font, "dpi", 72, "rgba", TRUE, NULL) ||
        vips_composite2(in, faded, &stamped, VIPS_BLEND_MODE_OVER,
                        "x", in->Xsize - logo->Xsize - 20, "y", in->Ysize - logo->Ysize - 20, NULL) ||
        vips_composite2(stamped, text, &captioned, VIPS_BLEND_MODE_OVER,
                        "x", 40, "y", in->Ysize - text->Ysize - 40, NULL) ||
        vips_extract_band(captioned, &rgb, 0, "n", 3, NULL) ||
        vips_image_write_to_file(rgb, argv[5], "Q", 90, NULL))
        vips_error_exit(NULL);
    return 0;
}
