#!/usr/bin/env bash
# Installs the Debian packages darkroom builds against (and, with --bench, the tools the benchmark
# compares with). Idempotent: installs only what is missing. Needs root or sudo.
set -euo pipefail

packages=(libpng-dev libjpeg-dev libyaml-dev libinotifytools0-dev libssl-dev pkg-config
          liblcms2-dev  # colour management: ICC profiles, CMYK
          libvips-tools imagemagick    # vips and ImageMagick are the tests' reference implementations
          pngcheck             # checks the PNGs written with image data deflated in segments
          python3 python3-prometheus-client util-linux  # the operations tests: Prometheus parser, `script` for a pty
          liblcms2-utils       # jpgicc: Little CMS's own rendering-intent reference
          libjpeg-turbo-progs  # jpegtran makes the many-scan JPEG of the scan-limit test
          libexif-dev          # EXIF editing (orientation, size, GPS, thumbnail) of the metadata carried to outputs
          libtiff-dev libwebp-dev libheif-dev  # TIFF, WebP, HEIF/AVIF in and out (libheif brings libde265, libaom, x265)
          libdeflate-dev       # deflate TIFF strips compressed on the render threads (libtiff uses it too)
          libde265-dev         # HEVC decoding on every core (a libheif decoder plugin, heif_hevc.c)
          libavif-dev          # 10-bit AVIF out (libavif drives libaom where libheif 1.15 aborts)
          libgif-dev libcgif-dev libimagequant-dev  # GIF in (giflib), GIF out (cgif, libimagequant palettes)
          libraw-dev libraw-bin  # camera RAW in (libraw); dcraw_emu is the RAW tests' reference
          gifsicle             # gifsicle --info: the animated GIF tests' reference (frames, delays, loop count)
          libjxl-dev libjxl-tools  # JPEG XL in and out (libjxl); cjxl/djxl: the JPEG XL tests' and benchmark's reference
          libavif-bin          # avifdec --info: the 10-bit AVIF tests' reference
          libtiff-tools webp libheif-examples  # tiffcp/tiffinfo, cwebp/dwebp/img2webp, heif-enc/heif-convert: the tests' references
          libimage-exiftool-perl  # exiftool reads back the metadata the tests write
          libcairo2-dev libpango1.0-dev librsvg2-dev fonts-dejavu-core  # drawing: shapes and gradients, text, SVG; DejaVu is the default font
          librsvg2-bin         # rsvg-convert: the SVG reference the shape, path, gradient and overlay tests compare with
          libpoppler-glib-dev  # PDF inputs: poppler's pages drawn on cairo (opened with dlopen, like cairo and librsvg)
          poppler-utils python3-cairo  # pdftoppm/pdftocairo: the PDF references; python3-cairo draws the tests' PDFs
          libpq-dev            # cluster mode talks to PostgreSQL through libpq
          mount                # the lazy-library test hides libcairo/libpq by bind-mounting over them (its own mount namespace)
          postgresql           # the cluster tests start their own server (initdb, pg_ctl) in a temporary folder
          groff-base man-db    # darkroom.yaml(5) is rendered by groff and man in the tests
          python3-scipy        # PchipInterpolator: the reference for the curves filter
          chromium chromium-driver  # the browser tests (preview page, contact sheet): headless Chromium under Selenium
          iproute2             # ss -ltn: the preview test checks it listens on loopback only
          libcurl4-openssl-dev # make dist links Foundation statically, and FlyingFox (preview's server) pulls in FoundationNetworking, which needs -lcurl
          python3-pip)         # Selenium comes from PyPI (below)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(libvips-dev graphicsmagick time inotify-tools python3-pil)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Selenium (PyPI) drives chromium in the browser tests (Tests/EndToEndTests/Browser). Installed for
# the python3 on PATH, which the tests run; Debian's own python3 refuses a plain `pip install`
# (PEP 668), hence --break-system-packages there (pip of Debian 12 knows the flag).
if ! python3 -c 'import selenium' 2>/dev/null; then
  echo "installing: selenium (PyPI) for $(command -v python3)" >&2
  python3 -m pip install --quiet 'selenium>=4.11' 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages 'selenium>=4.11'
fi
# tifffile (PyPI, with numpy) writes the DNGs the camera RAW tests and the RAW benchmark make
# (scripts/make-dng.py): a known picture mosaiced into a Bayer pattern.
if ! python3 -c 'import tifffile' 2>/dev/null; then
  echo "installing: tifffile (PyPI) for $(command -v python3)" >&2
  python3 -m pip install --quiet 'tifffile>=2023.7' 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages 'tifffile>=2023.7'
fi
command -v swift >/dev/null || { echo "swift is not on PATH: install Swift 6 (https://swift.org/install) first" >&2; exit 1; }
