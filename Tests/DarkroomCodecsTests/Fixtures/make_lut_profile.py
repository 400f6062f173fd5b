#!/usr/bin/env python3
"""Writes an RGB ICC profile whose perceptual and relative colorimetric tables differ.

Run by ColorManagementTests at test time: matrix-shaper profiles (the committed fixtures) give
the same result for every intent, so they cannot tell whether the intent reaches Little CMS.
Built with Little CMS itself (liblcms2 through ctypes): sRGB primaries and tone curve, then an
A2B1 (relative colorimetric) table that is sRGB's own RGB -> Lab, and an A2B0 (perceptual)
table that gives the same lightness with the chroma halved and the hue turned by 40 degrees.

usage: make_lut_profile.py OUT.icc
"""
import ctypes, ctypes.util, math, sys

lcms = ctypes.CDLL(ctypes.util.find_library("lcms2") or "liblcms2.so.2")
lcms.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateLab4Profile.restype = ctypes.c_void_p
lcms.cmsCreateTransform.restype = ctypes.c_void_p
lcms.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32]
lcms.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsPipelineAlloc.restype = ctypes.c_void_p
lcms.cmsPipelineAlloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32]
lcms.cmsStageAllocCLut16bit.restype = ctypes.c_void_p
lcms.cmsStageAllocCLut16bit.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint16)]
lcms.cmsStageAllocToneCurves.restype = ctypes.c_void_p
lcms.cmsStageAllocToneCurves.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsPipelineInsertStage.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
lcms.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsSetPCS.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
lcms.cmsMLUalloc.restype = ctypes.c_void_p
lcms.cmsMLUalloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]

def sig(s):
    return int.from_bytes(s.encode(), "big")

TYPE_RGB_16 = 0x4001A   # COLORSPACE_SH(PT_RGB)|CHANNELS_SH(3)|BYTES_SH(2)
TYPE_Lab_16 = 0xA001A   # COLORSPACE_SH(PT_Lab)|CHANNELS_SH(3)|BYTES_SH(2)
GRID = 17

srgb = lcms.cmsCreate_sRGBProfile()
lab = lcms.cmsCreateLab4Profile(None)
to_lab = lcms.cmsCreateTransform(srgb, TYPE_RGB_16, lab, TYPE_Lab_16, 1, 0)  # relative colorimetric

n = GRID ** 3
rgb = (ctypes.c_uint16 * (3 * n))()
i = 0
for r in range(GRID):          # lcms CLUT order: the first channel varies slowest
    for g in range(GRID):
        for b in range(GRID):
            for v in (r, g, b):
                rgb[i] = round(v * 65535 / (GRID - 1)); i += 1
relative = (ctypes.c_uint16 * (3 * n))()
lcms.cmsDoTransform(to_lab, rgb, relative, n)

perceptual = (ctypes.c_uint16 * (3 * n))()
turn = math.radians(40)
for k in range(n):  # v4 Lab encoding: L 0..100 -> 0..65535, a/b -128..127 -> 0..65535 (257 per unit)
    L, a, b = relative[3 * k], relative[3 * k + 1] / 257 - 128, relative[3 * k + 2] / 257 - 128
    a2 = 0.5 * (a * math.cos(turn) - b * math.sin(turn))
    b2 = 0.5 * (a * math.sin(turn) + b * math.cos(turn))
    perceptual[3 * k] = L
    perceptual[3 * k + 1] = max(0, min(65535, round((a2 + 128) * 257)))
    perceptual[3 * k + 2] = max(0, min(65535, round((b2 + 128) * 257)))

profile = lcms.cmsCreate_sRGBProfile()
lcms.cmsSetPCS(profile, sig("Lab "))
for tag, table in (("A2B0", perceptual), ("A2B1", relative)):
    # An lutAtoBType holds A curves, a CLUT and B curves (identity curves here): 1 appends.
    pipeline = lcms.cmsPipelineAlloc(None, 3, 3)
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 3, None))
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocCLut16bit(None, GRID, 3, 3, table))
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 3, None))
    lcms.cmsWriteTag(profile, sig(tag), pipeline)
desc = lcms.cmsMLUalloc(None, 1)
lcms.cmsMLUsetASCII(desc, b"en", b"US", b"darkroom test LUT intents")
lcms.cmsWriteTag(profile, sig("desc"), desc)
if not lcms.cmsSaveProfileToFile(profile, sys.argv[1].encode()):
    sys.exit("cannot write " + sys.argv[1])
