/* The libvips "speed and memory use" chain, through libvips' C API (as in the libvips
 * benchmark's vips.c): load, crop 100 px from each edge, shrink by 10 % with a bilinear kernel,
 * sharpen with [-1 -1 -1; -1 16 -1; -1 -1 -1] / 8, save: the saver and its options come from
 * OUT's suffix, as vips' command line does ("out.jpg[Q=90]", "out.webp[Q=80]", "out.avif[Q=50]"). */
#include <vips/vips.h>

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0]) || argc != 3) vips_error_exit("usage: vips_chain IN OUT");
    VipsImage *in = vips_image_new_from_file(argv[1], "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!in) vips_error_exit(NULL);
    VipsImage *cropped, *shrunk, *sharpened;
    if (vips_crop(in, &cropped, 100, 100, in->Xsize - 200, in->Ysize - 200, NULL) ||
        vips_resize(cropped, &shrunk, 0.9, "kernel", VIPS_KERNEL_LINEAR, NULL))
        vips_error_exit(NULL);
    VipsImage *mask = vips_image_new_matrixv(3, 3, -1.0, -1.0, -1.0, -1.0, 16.0, -1.0, -1.0, -1.0, -1.0);
    vips_image_set_double(mask, "scale", 8);
    if (vips_conv(shrunk, &sharpened, mask, "precision", VIPS_PRECISION_INTEGER, NULL) ||
        vips_image_write_to_file(sharpened, argv[2], NULL))
        vips_error_exit(NULL);
    return 0;
}
