#!/usr/bin/env python3
"""Regenerates the codec test fixtures. Needs Pillow (pip install pillow) and ImageMagick `convert`.

The pixel formulas here are repeated in the tests' expectations (see README.md).
"""
import random
import struct
import subprocess
import zlib

from PIL import Image, ImageCms

W, H = 8, 6


def rgba8(x, y):
    return (30 * x + 5, 40 * y + 10, 255 - 20 * x - 10 * y, 255 - 40 * y - 5 * x)


def rgba16(x, y):
    return (8000 * x + 17, 10000 * y + 3, 65535 - 4000 * x - 1000 * y, 65535 - 9000 * y - 500 * x)


def gray8(x, y):
    return 30 * x + 5 * y


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def raw_png(width, height, bit_depth, color_type, rows, path):
    """Writes a PNG by hand, for depths and layouts Pillow will not write."""
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    data = b"".join(b"\x00" + row for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(data))
                + png_chunk(b"IEND", b""))


def pixels(mode, fn):
    img = Image.new(mode, (W, H))
    img.putdata([fn(x, y) for y in range(H) for x in range(W)])
    return img


# 8-bit PNGs through Pillow.
pixels("L", gray8).save("gray8.png")
pixels("LA", lambda x, y: (gray8(x, y), rgba8(x, y)[3])).save("gray_alpha8.png")
pixels("RGB", lambda x, y: rgba8(x, y)[:3]).save("rgb8.png")
pixels("RGBA", rgba8).save("rgba8.png")
pixels("1", lambda x, y: 255 * ((x + y) % 2)).save("gray1.png")
pixels("L", lambda x, y: 30 * x).save("gray8_trns.png", transparency=60)
pixels("RGB", lambda x, y: rgba8(x, y)[:3]).save("rgb8_trns.png", transparency=rgba8(3, 2)[:3])

pal = Image.new("P", (W, H))
pal.putpalette([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
pal.putdata([(x + y) % 4 for y in range(H) for x in range(W)])
pal.save("palette_trns.png", transparency=bytes([255, 128, 0, 255]))

# 16-bit PNGs by hand (big-endian samples, as PNG stores them).
raw_png(W, H, 16, 6, [b"".join(struct.pack(">4H", *rgba16(x, y)) for x in range(W)) for y in range(H)],
        "rgba16.png")
raw_png(W, H, 16, 2, [b"".join(struct.pack(">3H", *rgba16(x, y)[:3]) for x in range(W)) for y in range(H)],
        "rgb16.png")
raw_png(W, H, 16, 0, [b"".join(struct.pack(">H", rgba16(x, y)[0]) for x in range(W)) for y in range(H)],
        "gray16.png")

# Adam7-interlaced copy of rgba8.png.
subprocess.run(["convert", "rgba8.png", "-strip", "-interlace", "PNG", "PNG32:rgba8_interlaced.png"], check=True)

# A PNG that declares 100000×100000 RGB in a few dozen bytes (one empty row of data).
raw_png(100000, 100000, 8, 2, [b""], "huge_header.png")

# JPEGs: 32×16, left half one colour, right half another, halves aligned to 16×16 MCUs so that
# 4:2:0 subsampling does not blend them.
LEFT, RIGHT = (200, 40, 40), (30, 90, 220)
rgb = Image.new("RGB", (32, 16), LEFT)
rgb.paste(RIGHT, (16, 0, 32, 16))
rgb.save("rgb.jpg", quality=95)
rgb.save("progressive.jpg", quality=95, progressive=True)
gray = Image.new("L", (32, 16), 60)
gray.paste(190, (16, 0, 32, 16))
gray.save("gray.jpg", quality=95)

# CMYK: Pillow writes Adobe-style inverted CMYK with an Adobe APP14 marker.
cmyk = Image.new("CMYK", (32, 16), (0, 200, 200, 0))
cmyk.paste((200, 100, 0, 55), (16, 0, 32, 16))
cmyk.save("cmyk.jpg", quality=95)

exif = Image.Exif()
exif[0x0112] = 6
rgb.save("orientation6.jpg", quality=95, exif=exif.tobytes())

srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
rgb.save("icc.jpg", quality=95, icc_profile=srgb)

# Seeded noise, large enough that the scan data spans a few kilobytes, for truncation/corruption.
rng = random.Random(7)
noise = Image.new("RGB", (64, 64))
noise.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(64 * 64)])
noise.save("noise.jpg", quality=90)
