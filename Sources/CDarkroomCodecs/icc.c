/*
 * Colour management through Little CMS (lcms2): what an embedded ICC profile is, and the
 * row conversion of a reader's samples from that profile to sRGB.
 *
 * Every transform is made in a context of its own (cmsCreateContext), so jobs converting on
 * several threads at once share no lcms state; a reader's transform is used by one thread at a
 * time, like the reader. lcms reports errors through a per-context handler, never by longjmp.
 */
#include "internal.h"

#include <lcms2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dr_color_converter {
    cmsContext context;
    cmsHTRANSFORM transform; /* RGB and CMYK: samples through lcms */
    int kind;                /* DR_SPACE_* of the profile */
    int bytes_per_sample;
    int channels;            /* of the rows converted in place (3 or 4) */
    /* Grey: R = G = B on input (the reader expands grey), so a table of every grey level's sRGB
     * colour converts a row exactly as lcms would, alpha untouched. */
    uint16_t *grey_table;    /* 3 entries per level: 256 or 65536 levels */
};

/* lcms errors arrive here; the first is kept for the message the caller shows. */
static void on_lcms_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    char *problem = cmsGetContextUserData(context);
    if (problem != NULL && problem[0] == 0) snprintf(problem, 160, "%s", text);
}

static int space_of(cmsHPROFILE profile) {
    switch (cmsGetColorSpace(profile)) {
    case cmsSigGrayData: return DR_SPACE_GRAY;
    case cmsSigRgbData: return DR_SPACE_RGB;
    case cmsSigCmykData: return DR_SPACE_CMYK;
    default: return 0;
    }
}

static cmsUInt32Number intent_of(int intent) {
    return intent == DR_INTENT_RELATIVE ? INTENT_RELATIVE_COLORIMETRIC : INTENT_PERCEPTUAL;
}

/* The profile's 8-bit input format, by colour space; 0 for spaces darkroom cannot read. */
static cmsUInt32Number format8(int kind) {
    switch (kind) {
    case DR_SPACE_GRAY: return TYPE_GRAY_8;
    case DR_SPACE_RGB: return TYPE_RGB_8;
    case DR_SPACE_CMYK: return TYPE_CMYK_8;
    default: return 0;
    }
}

/* Whether a transform to sRGB moves no 8-bit sample of a 9-step grid and of the 256 grey levels
 * by more than one level: such a profile is sRGB in all but its bytes, and converting through
 * it would only add rounding. */
static int maps_onto_itself(cmsHTRANSFORM transform, int kind) {
    enum { STEPS = 9, GRID = STEPS * STEPS * STEPS };
    unsigned char in[(GRID + 256) * 3], out[(GRID + 256) * 3];
    size_t count = 0;
    for (int v = 0; v < 256; v++, count++) {
        if (kind == DR_SPACE_GRAY) in[count] = (unsigned char)v;
        else in[3 * count] = in[3 * count + 1] = in[3 * count + 2] = (unsigned char)v;
    }
    if (kind != DR_SPACE_GRAY) {
        for (int i = 0; i < GRID; i++, count++)
            for (int c = 0; c < 3; c++) {
                int step = c == 0 ? i / (STEPS * STEPS) : c == 1 ? i / STEPS % STEPS : i % STEPS;
                in[3 * count + c] = (unsigned char)(step == STEPS - 1 ? 255 : 32 * step);
            }
    }
    cmsDoTransform(transform, in, out, (cmsUInt32Number)count);
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < 3; c++) {
            int expected = kind == DR_SPACE_GRAY ? in[i] : in[3 * i + c];
            int d = out[3 * i + c] - expected;
            if (d > 1 || d < -1) return 0;
        }
    return 1;
}

/* Opens `bytes` in a fresh context; on failure `problem` says why. */
static cmsHPROFILE open_profile(const unsigned char *bytes, size_t length, cmsContext *context, char *problem) {
    problem[0] = 0;
    *context = cmsCreateContext(NULL, problem);
    if (*context == NULL) { snprintf(problem, 160, "out of memory"); return NULL; }
    cmsSetLogErrorHandlerTHR(*context, on_lcms_error);
    cmsHPROFILE profile = length > 0 ? cmsOpenProfileFromMemTHR(*context, bytes, (cmsUInt32Number)length) : NULL;
    if (profile == NULL && problem[0] == 0) snprintf(problem, 160, "not a readable ICC profile");
    return profile;
}

void dr_icc_inspect(const unsigned char *bytes, size_t length, int intent, dr_icc_summary *out) {
    memset(out, 0, sizeof *out);
    cmsContext context;
    cmsHPROFILE profile = open_profile(bytes, length, &context, out->problem);
    if (profile != NULL) {
        cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", out->description, sizeof out->description);
        out->color_space = space_of(profile);
        cmsUInt32Number in = format8(out->color_space);
        if (in == 0) {
            snprintf(out->problem, sizeof out->problem, "a profile for neither grey, RGB nor CMYK data");
        } else {
            cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
            cmsHTRANSFORM t = srgb == NULL ? NULL
                : cmsCreateTransformTHR(context, profile, in, srgb, TYPE_RGB_8, intent_of(intent),
                                        /* a probe, not a conversion: no optimised tables (tens
                                         * of milliseconds for a CMYK profile) */
                                        cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE);
            if (t != NULL) {
                out->usable = 1;
                out->is_srgb = out->color_space != DR_SPACE_CMYK && maps_onto_itself(t, out->color_space);
                cmsDeleteTransform(t);
            } else if (out->problem[0] == 0) {
                snprintf(out->problem, sizeof out->problem, "Little CMS cannot convert from it");
            }
            if (srgb != NULL) cmsCloseProfile(srgb);
        }
        cmsCloseProfile(profile);
    }
    if (context != NULL) cmsDeleteContext(context);
}

dr_color_converter *dr_color_converter_make(const unsigned char *bytes, size_t length, int intent,
                                            int image_space, int channels, int bytes_per_sample,
                                            int inverted_cmyk, char *problem) {
    dr_color_converter *c = calloc(1, sizeof *c);
    if (c == NULL) { snprintf(problem, 160, "out of memory"); return NULL; }
    cmsHPROFILE profile = open_profile(bytes, length, &c->context, problem);
    cmsHPROFILE srgb = profile != NULL ? cmsCreate_sRGBProfileTHR(c->context) : NULL;
    c->kind = profile != NULL ? space_of(profile) : 0;
    c->channels = channels;
    c->bytes_per_sample = bytes_per_sample;
    int ok = 0;
    if (srgb == NULL) {
        /* problem already set */
    } else if (c->kind != image_space) {
        snprintf(problem, 160, "a %s profile on %s data",
                 c->kind == DR_SPACE_GRAY ? "grey" : c->kind == DR_SPACE_RGB ? "RGB" : c->kind == DR_SPACE_CMYK ? "CMYK" : "non-grey/RGB/CMYK",
                 image_space == DR_SPACE_GRAY ? "grey" : image_space == DR_SPACE_RGB ? "RGB" : "CMYK");
    } else if (c->kind == DR_SPACE_GRAY) {
        /* Every level once, through lcms, into the table. */
        size_t levels = bytes_per_sample == 2 ? 65536 : 256;
        c->grey_table = malloc(levels * 3 * sizeof(uint16_t));
        uint16_t *in = malloc(levels * sizeof(uint16_t));
        cmsHTRANSFORM t = cmsCreateTransformTHR(c->context, profile, TYPE_GRAY_16, srgb, TYPE_RGB_16,
                                                intent_of(intent), 0);
        if (c->grey_table != NULL && in != NULL && t != NULL) {
            for (size_t v = 0; v < levels; v++) in[v] = (uint16_t)(levels == 256 ? v * 257 : v);
            cmsDoTransform(t, in, c->grey_table, (cmsUInt32Number)levels);
            if (levels == 256)
                for (size_t i = 0; i < 3 * levels; i++) c->grey_table[i] = (uint16_t)((c->grey_table[i] + 128) / 257);
            ok = 1;
        }
        if (t != NULL) cmsDeleteTransform(t);
        free(in);
    } else {
        cmsUInt32Number in, out, flags = 0;
        int sixteen = bytes_per_sample == 2;
        if (c->kind == DR_SPACE_CMYK) {
            /* 16-bit CMYK (TIFF) keeps its precision: 16-bit RGB out. */
            in = sixteen ? (inverted_cmyk ? TYPE_CMYK_16_REV : TYPE_CMYK_16) : inverted_cmyk ? TYPE_CMYK_8_REV : TYPE_CMYK_8;
            out = sixteen ? TYPE_RGB_16 : TYPE_RGB_8;
        } else if (channels == 4) {
            in = out = sixteen ? TYPE_RGBA_16 : TYPE_RGBA_8;
            flags = cmsFLAGS_COPY_ALPHA;
        } else {
            in = out = sixteen ? TYPE_RGB_16 : TYPE_RGB_8;
        }
        c->transform = cmsCreateTransformTHR(c->context, profile, in, srgb, out, intent_of(intent), flags);
        ok = c->transform != NULL;
    }
    if (!ok && problem[0] == 0) snprintf(problem, 160, "Little CMS cannot convert from it");
    if (srgb != NULL) cmsCloseProfile(srgb);
    if (profile != NULL) cmsCloseProfile(profile);
    if (!ok) { dr_color_converter_free(c); return NULL; }
    return c;
}

void dr_color_converter_rows(const dr_color_converter *c, unsigned char *row, size_t pixels) {
    if (c->transform != NULL) {
        cmsDoTransform(c->transform, row, row, (cmsUInt32Number)pixels);
        return;
    }
    const uint16_t *t = c->grey_table;
    if (c->bytes_per_sample == 2) {
        uint16_t *p = (uint16_t *)(void *)row;
        for (size_t i = 0; i < pixels; i++, p += c->channels) {
            const uint16_t *rgb = t + 3 * (size_t)p[0];
            p[0] = rgb[0]; p[1] = rgb[1]; p[2] = rgb[2];
        }
    } else {
        unsigned char *p = row;
        for (size_t i = 0; i < pixels; i++, p += c->channels) {
            const uint16_t *rgb = t + 3 * (size_t)p[0];
            p[0] = (unsigned char)rgb[0]; p[1] = (unsigned char)rgb[1]; p[2] = (unsigned char)rgb[2];
        }
    }
}

void dr_color_converter_cmyk(const dr_color_converter *c, const unsigned char *cmyk, unsigned char *rgb,
                             size_t pixels) {
    cmsDoTransform(c->transform, cmyk, rgb, (cmsUInt32Number)pixels);
}

void dr_color_converter_free(dr_color_converter *c) {
    if (c == NULL) return;
    if (c->transform != NULL) cmsDeleteTransform(c->transform);
    free(c->grey_table);
    if (c->context != NULL) cmsDeleteContext(c->context);
    free(c);
}

/* ---- the sRGB profile outputs are tagged with ---- */

static unsigned char *srgb_bytes;
static cmsUInt32Number srgb_length;
static pthread_once_t srgb_once = PTHREAD_ONCE_INIT;

/* The profile's bytes in a fresh block (left NULL when it cannot be saved). */
static void save_profile(cmsHPROFILE p, unsigned char **bytes, cmsUInt32Number *length) {
    cmsUInt32Number n = 0;
    if (p != NULL && cmsSaveProfileToMem(p, NULL, &n) && n > 0 && (*bytes = malloc(n)) != NULL &&
        cmsSaveProfileToMem(p, *bytes, &n))
        *length = n;
}

static void make_srgb(void) {
    cmsContext context = cmsCreateContext(NULL, NULL);
    cmsHPROFILE p = context != NULL ? cmsCreate_sRGBProfileTHR(context) : NULL;
    save_profile(p, &srgb_bytes, &srgb_length);
    if (p != NULL) cmsCloseProfile(p);
    if (context != NULL) cmsDeleteContext(context);
}

const unsigned char *dr_icc_srgb(size_t *length) {
    pthread_once(&srgb_once, make_srgb);
    *length = srgb_length;
    return srgb_length > 0 ? srgb_bytes : NULL;
}

/* ---- its grey counterpart, for one-channel outputs ---- */

static unsigned char *grey_bytes;
static cmsUInt32Number grey_length;
static pthread_once_t grey_once = PTHREAD_ONCE_INIT;

/* A grey profile with sRGB's tone curve and D50 white (the PCS's, as for sRGB's own): grey
 * samples mean what the same R = G = B would in sRGB. */
static void make_srgb_grey(void) {
    cmsContext context = cmsCreateContext(NULL, NULL);
    /* IEC 61966-2-1: Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below. */
    const cmsFloat64Number srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = context != NULL ? cmsBuildParametricToneCurve(context, 4, srgb) : NULL;
    cmsHPROFILE p = curve != NULL ? cmsCreateGrayProfileTHR(context, cmsD50_xyY(), curve) : NULL;
    cmsMLU *description = p != NULL ? cmsMLUalloc(context, 1) : NULL;
    if (description != NULL && cmsMLUsetASCII(description, "en", "US", "Grey with the sRGB tone curve"))
        cmsWriteTag(p, cmsSigProfileDescriptionTag, description);
    save_profile(p, &grey_bytes, &grey_length);
    if (description != NULL) cmsMLUfree(description);
    if (p != NULL) cmsCloseProfile(p);
    if (curve != NULL) cmsFreeToneCurve(curve);
    if (context != NULL) cmsDeleteContext(context);
}

const unsigned char *dr_icc_srgb_grey(size_t *length) {
    pthread_once(&grey_once, make_srgb_grey);
    *length = grey_length;
    return grey_length > 0 ? grey_bytes : NULL;
}
