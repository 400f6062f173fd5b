#!/usr/bin/env python3
"""Makes a DNG from a known picture, for the camera RAW tests and benchmark.

The picture (an 8-bit binary PPM, or --synthetic WxH for a generated one) is taken as sRGB,
linearised, multiplied by the "light" of --gains (a colour cast the camera's white balance must
take out), mosaiced into an RGGB Bayer pattern and stored as 16-bit CFA samples between
--black and --white. The camera's colour space is linear sRGB itself (ColorMatrix1 is the
XYZ→linear sRGB matrix), so a RAW developer that applies the DNG's white balance (AsShotNeutral)
and colour matrix and writes sRGB gives the picture back, up to demosaicing.

  make-dng.py in.ppm out.dng [--gains 0.5,1,0.7] [--preview preview.jpg] [--orientation 6]
              [--make darkroom --model "Test DNG"] [--datetime "2024:05:06 07:08:09"]
  make-dng.py --synthetic 6000x4000 out.dng

tifffile (PyPI) writes the file; scripts/install-deps.sh installs it.
"""
import argparse
import numpy as np
import tifffile

# XYZ (D65) → linear sRGB (IEC 61966-2-1).
XYZ_TO_SRGB = [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]


def read_ppm(path):
    data = open(path, "rb").read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at) + 1
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    at += 1
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise SystemExit("make-dng: an 8-bit binary PPM (P6) is expected")
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(data, np.uint8, width * height * 3, at).reshape(height, width, 3)


def synthetic(width, height):
    """Smooth gradients, colour bars and a white patch (so that libraw's auto-brightness, which
    clips the brightest 1 %, leaves the picture as it is)."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    rgb = np.empty((height, width, 3), np.float32)
    rgb[..., 0] = x / max(width - 1, 1)
    rgb[..., 1] = y / max(height - 1, 1)
    rgb[..., 2] = 0.5 + 0.4 * np.sin(x / 37.0) * np.cos(y / 53.0)
    rgb[: height // 10, : width // 10] = 1.0
    return np.round(np.clip(rgb, 0, 1) * 255).astype(np.uint8)


def srgb_to_linear(v):
    v = v.astype(np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def rationals(values, denominator=10000):
    out = []
    for v in values:
        out += [int(round(v * denominator)), denominator]
    return tuple(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", nargs="?")
    p.add_argument("output")
    p.add_argument("--synthetic", help="WxH: a generated picture instead of a PPM")
    p.add_argument("--gains", default="1,1,1", help="the light's R,G,B (largest 1): the cast to take out")
    p.add_argument("--black", type=int, default=256)
    p.add_argument("--white", type=int, default=16383)
    p.add_argument("--preview", help="a baseline JPEG stored as the DNG's preview (a reduced-resolution IFD)")
    p.add_argument("--orientation", type=int, default=1)
    p.add_argument("--make", default="darkroom")
    p.add_argument("--model", default="Test DNG")
    p.add_argument("--datetime", default="2024:05:06 07:08:09")
    a = p.parse_args()
    if a.synthetic:
        w, h = (int(n) for n in a.synthetic.lower().split("x"))
        rgb = synthetic(w, h)
    else:
        rgb = read_ppm(a.input)
    height, width = rgb.shape[0] // 2 * 2, rgb.shape[1] // 2 * 2
    gains = [float(g) for g in a.gains.split(",")]
    linear = srgb_to_linear(rgb[:height, :width]) * np.array(gains)
    scaled = a.black + linear * (a.white - a.black)
    cfa = np.empty((height, width), np.float64)
    cfa[0::2, 0::2] = scaled[0::2, 0::2, 0]  # R G
    cfa[0::2, 1::2] = scaled[0::2, 1::2, 1]  # G B
    cfa[1::2, 0::2] = scaled[1::2, 0::2, 1]
    cfa[1::2, 1::2] = scaled[1::2, 1::2, 2]
    cfa = np.round(cfa).clip(0, 65535).astype(np.uint16)
    neutral = [g / max(gains) for g in gains]
    tags = [
        (50706, "B", 4, (1, 4, 0, 0), True),       # DNGVersion
        (50707, "B", 4, (1, 1, 0, 0), True),       # DNGBackwardVersion
        (50708, "s", 0, f"{a.make} {a.model}", True),  # UniqueCameraModel
        (271, "s", 0, a.make, True),               # Make
        (272, "s", 0, a.model, True),              # Model
        (274, "H", 1, a.orientation, True),        # Orientation
        (306, "s", 0, a.datetime, True),           # DateTime
        (33421, "H", 2, (2, 2), True),             # CFARepeatPatternDim
        (33422, "B", 4, (0, 1, 1, 2), True),       # CFAPattern: RGGB
        (50714, "H", 1, a.black, True),            # BlackLevel
        (50717, "H", 1, a.white, True),            # WhiteLevel
        (50721, "2i", 9, rationals(sum(XYZ_TO_SRGB, [])), True),  # ColorMatrix1 (SRATIONAL)
        (50778, "H", 1, 21, True),                 # CalibrationIlluminant1: D65
        (50728, "2I", 3, rationals(neutral), True),  # AsShotNeutral
    ]
    with tifffile.TiffWriter(a.output) as dng:
        dng.write(cfa, photometric=32803, extratags=tags, metadata=None, rowsperstrip=64)
        if a.preview:
            jpeg = open(a.preview, "rb").read()
            # tifffile writes already-encoded strips as they are, but looks its JPEG codec up
            # first, which lives in the optional imagecodecs package: a stand-in that is never called.
            tifffile.TIFF.COMPRESSORS._codecs[7] = None
            pw, ph = jpeg_size(jpeg)
            dng.write(iter([jpeg]), shape=(ph, pw, 3), dtype="uint8", compression=7, photometric="ycbcr",
                      subfiletype=1, metadata=None)


def jpeg_size(jpeg):
    """Width and height from a JPEG's SOF marker."""
    at = 2
    while at + 9 < len(jpeg):
        if jpeg[at] != 0xFF:
            raise SystemExit("make-dng: the preview is not a JPEG")
        marker, length = jpeg[at + 1], int.from_bytes(jpeg[at + 2:at + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(jpeg[at + 7:at + 9], "big"), int.from_bytes(jpeg[at + 5:at + 7], "big")
        at += 2 + length
    raise SystemExit("make-dng: the preview JPEG has no frame header")


if __name__ == "__main__":
    main()
