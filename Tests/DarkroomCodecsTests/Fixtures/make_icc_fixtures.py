#!/usr/bin/env python3
"""Writes the colour-management fixtures: three small ICC profiles built here from their
published definitions (no profile is copied from anywhere), and the two images the tests
cannot make themselves. Needs Pillow (pip install pillow) for the CMYK JPEG; the rest is the
standard library. See README.md.
"""
import struct
import zlib

from PIL import Image

D50 = (0.9642, 1.0, 0.8249)


def s15(v):
    return struct.pack(">i", round(v * 65536))


def xyz_tag(xyz):
    return b"XYZ " + bytes(4) + b"".join(s15(v) for v in xyz)


def desc_tag(text):
    a = text.encode("ascii") + b"\0"
    return b"desc" + bytes(4) + struct.pack(">I", len(a)) + a + bytes(4 + 4 + 2 + 1 + 67)


def text_tag(text):
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def gamma_curve(gamma):
    return b"curv" + bytes(4) + struct.pack(">IH", 1, round(gamma * 256))


def profile(device_class, space, pcs, tags):
    """An ICC v2.1 profile: header, tag table, tag data (4-byte aligned; equal data shared)."""
    table, data, offsets = [], b"", {}
    start = 128 + 4 + 12 * len(tags)
    for sig, body in tags:
        if body not in offsets:
            offsets[body] = start + len(data)
            data += body + bytes(-len(body) % 4)
        table.append(struct.pack(">4sII", sig, offsets[body], len(body)))
    size = start + len(data)
    header = (struct.pack(">I4sI4s4s4s", size, b"none", 0x02100000, device_class, space, pcs)
              + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + bytes(4) + bytes(4 + 4 + 4 + 8 + 4)
              + b"".join(s15(v) for v in D50) + bytes(4 + 16 + 28))
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + b"".join(table) + data


def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mat_inv(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def xy_to_xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


def rgb_to_xyz_d50(primaries, white):
    """The RGB→XYZ matrix from xy chromaticities, Bradford-adapted to D50 (as ICC requires)."""
    cols = [xy_to_xyz(*p) for p in primaries]
    m = [[cols[j][i] for j in range(3)] for i in range(3)]
    w = xy_to_xyz(*white)
    s = [sum(mat_inv(m)[i][k] * w[k] for k in range(3)) for i in range(3)]
    m = [[m[i][j] * s[j] for j in range(3)] for i in range(3)]
    bradford = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
    src = [sum(bradford[i][k] * w[k] for k in range(3)) for i in range(3)]
    dst = [sum(bradford[i][k] * D50[k] for k in range(3)) for i in range(3)]
    scale = [[dst[i] / src[i] if i == j else 0 for j in range(3)] for i in range(3)]
    adapt = mat_mul(mat_inv(bradford), mat_mul(scale, bradford))
    return mat_mul(adapt, m)


def rgb_profile(name, primaries, white, gamma):
    m = rgb_to_xyz_d50(primaries, white)
    curve = gamma_curve(gamma)
    return profile(b"mntr", b"RGB ", b"XYZ ", [
        (b"desc", desc_tag(name)), (b"cprt", text_tag("No copyright, use freely")),
        (b"wtpt", xyz_tag(D50)),
        (b"rXYZ", xyz_tag([m[i][0] for i in range(3)])), (b"gXYZ", xyz_tag([m[i][1] for i in range(3)])),
        (b"bXYZ", xyz_tag([m[i][2] for i in range(3)])),
        (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)])


# Adobe RGB (1998): primaries, D65 white, gamma 563/256 (Adobe's published specification).
adobe = rgb_profile("darkroom test Adobe RGB (1998)", [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)],
                    (0.3127, 0.3290), 563 / 256)
# ProPhoto RGB (ROMM RGB, ISO 22028-2): primaries, D50 white, gamma 1.8.
prophoto = rgb_profile("darkroom test ProPhoto RGB", [(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)],
                       (0.3457, 0.3585), 1.8)


def srgb_decode(v):
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


SRGB_D50 = rgb_to_xyz_d50([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], (0.3127, 0.3290))


def ink_to_xyz(c, m, y, k):
    """A made-up but smooth press: inks (0…1) with dot gain, multiplied, as sRGB-encoded values."""
    gain = [1 - (1 - v) ** 1.4 for v in (c, m, y, k)]
    rgb = [(1 - gain[i]) * (1 - gain[3]) for i in range(3)]
    lin = [srgb_decode(v) for v in rgb]
    return [sum(SRGB_D50[i][j] * lin[j] for j in range(3)) for i in range(3)]


def cmyk_profile(name, grid):
    """An input-class CMYK→XYZ profile: one lut16 A2B0 table sampled from ink_to_xyz."""
    points = [i / (grid - 1) for i in range(grid)]
    clut = b""
    for c in points:
        for m in points:
            for y in points:
                for k in points:
                    clut += b"".join(struct.pack(">H", min(65535, round(v * 32768))) for v in ink_to_xyz(c, m, y, k))
    identity = b"".join(s15(1.0 if i == j else 0.0) for i in range(3) for j in range(3))
    linear = struct.pack(">2H", 0, 65535)
    lut = (b"mft2" + bytes(4) + struct.pack(">BBBB", 4, 3, grid, 0) + identity + struct.pack(">HH", 2, 2)
           + linear * 4 + clut + linear * 3)
    return profile(b"scnr", b"CMYK", b"XYZ ", [
        (b"desc", desc_tag(name)), (b"cprt", text_tag("No copyright, use freely")),
        (b"wtpt", xyz_tag(D50)), (b"A2B0", lut)])


cmyk = cmyk_profile("darkroom test CMYK press", 5)

# Grey in linear light (gamma 1.0): a scanner's raw grey; mid-grey 128 is far lighter in sRGB.
gray = profile(b"mntr", b"GRAY", b"XYZ ", [
    (b"desc", desc_tag("darkroom test linear grey")), (b"cprt", text_tag("No copyright, use freely")),
    (b"wtpt", xyz_tag(D50)), (b"kTRC", gamma_curve(1.0))])

for file, data in [("adobe_rgb.icc", adobe), ("prophoto.icc", prophoto), ("cmyk_press.icc", cmyk),
                   ("gray_linear.icc", gray)]:
    with open(file, "wb") as f:
        f.write(data)

# A CMYK JPEG tagged with the CMYK profile: 32×32, ink ramps (C across, M down, Y and K from both),
# Adobe-inverted storage as Photoshop writes it (Pillow does the same).
W = 32
img = Image.new("CMYK", (W, W))
img.putdata([(8 * x, 8 * y, (4 * x + 4 * y) % 256, (x * y) % 160) for y in range(W) for x in range(W)])
img.save("cmyk_press.jpg", quality=95, icc_profile=cmyk)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# A 16-bit RGB PNG tagged ProPhoto (iCCP), 64×16: smooth 16-bit ramps (Pillow cannot write it).
W, H = 64, 16
rows = b"".join(b"\x00" + b"".join(struct.pack(">3H", 1000 * x + 7, 4000 * y + 3, 65535 - 800 * x - 500 * y)
                                   for x in range(W)) for y in range(H))
with open("prophoto16.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 2, 0, 0, 0))
            + png_chunk(b"iCCP", b"ProPhoto\0\0" + zlib.compress(prophoto)) + png_chunk(b"IDAT", zlib.compress(rows))
            + png_chunk(b"IEND", b""))

# Grey tagged linear: an 8-bit JPEG (Pillow, quality 95) and a 16-bit PNG (by hand), 64×16 ramps.
ramp = Image.new("L", (W, H))
ramp.putdata([(4 * x + 3 * y) % 256 for y in range(H) for x in range(W)])
ramp.save("gray_linear.jpg", quality=95, icc_profile=gray)
rows = b"".join(b"\x00" + b"".join(struct.pack(">H", 1000 * x + 150 * y) for x in range(W)) for y in range(H))
with open("gray16_linear.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 0, 0, 0, 0))
            + png_chunk(b"iCCP", b"linear\0\0" + zlib.compress(gray)) + png_chunk(b"IDAT", zlib.compress(rows))
            + png_chunk(b"IEND", b""))
