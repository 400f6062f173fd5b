#!/usr/bin/env bash
# Builds darkroom_VERSION_ARCH.deb with dpkg-deb from a release build (see `make deb`).
# The package creates no user (the unit's DynamicUser= does) and depends on the Debian packages
# that hold the shared libraries the binaries (darkroom and darkroom-preview) link or open
# (found with ldd, the SONAMEs they dlopen and dpkg -S, so the list follows the build). Prints the .deb's path.
#   scripts/build-deb.sh BINARY MANPAGE OUTDIR
set -euo pipefail
binary=$1 manpage=$2 out=$3
cd "$(dirname "$0")/.."
version=$("$binary" --version)
arch=$(dpkg --print-architecture)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

scripts/stage-install.sh "$binary" "$manpage" "$root" /usr /lib/systemd/system

# The libraries opened with dlopen (cairo, Pango, GLib, librsvg when a chain draws; libpq in
# cluster mode) are not in ldd's list (nor dpkg-shlibdeps'): their SONAMEs are whole string
# literals in the binary (Sources/CDarkroomDraw/libraries.c, Sources/CPostgres/libpq.c), found
# here and resolved with ldconfig in the binary's own library folder (its libc's).
libraries() {
  local binary
  for binary in "$@"; do
    binary_libraries "$binary"
  done
}
binary_libraries() {
  local binary=$1
  ldd "$binary" | awk '/=> \// { print $3 }'
  local multiarch
  multiarch=$(ldd "$binary" | awk '$1 ~ /^libc\.so/ { print $3 }' | xargs dirname | xargs basename)
  LC_ALL=C grep -aoE 'lib[a-z0-9_+-]+(\.[a-z0-9_+-]+)*\.so(\.[0-9]+)+' "$binary" | sort -u | while read -r soname; do
    # awk reads ldconfig's whole list (an early exit would kill ldconfig with SIGPIPE, which
    # pipefail reports as not found: a spurious FAIL).
    ldconfig -p | awk -v s="$soname" -v d="/$multiarch/" '!found && $1 == s && index($NF, d) { print $NF; found = 1 } END { exit !found }' \
      || { echo "build-deb: $binary opens $soname, which is not installed here" >&2; echo FAIL; }
  done
}
depends=$(libraries "$binary" "$(dirname "$binary")/darkroom-preview" | sort -u | while read -r lib; do
            # FAIL is passed on as it is: `dpkg -S FAIL` would find EXIT_FAILURE's man page.
            [[ $lib != FAIL ]] || { echo FAIL; continue; }
            dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null \
              || { echo "build-deb: $binary links $lib, which no Debian package holds (build with --static-swift-stdlib: make dist)" >&2; echo FAIL; }
          done | cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')
[[ -n $depends && $depends != *FAIL* ]] || { echo "build-deb: cannot list the packages the binaries need (ldd $binary and darkroom-preview)" >&2; exit 1; }
# Not a linked library: draw_text's default font (Pango finds it through fontconfig).
depends="$depends, fonts-dejavu-core"

# The formats as the binary names them (`darkroom formats --json`), folded as a control field's
# continuation lines.
formats=$("$binary" formats --json | /usr/bin/python3 -c 'import json, sys; print(", ".join(f["format"] for f in json.load(sys.stdin)["formats"]))')
[[ -n $formats ]] || { echo "build-deb: $binary formats --json listed no format" >&2; exit 1; }
description=$(fold -s -w 74 <<<"A daemon that watches folders (inotify), runs each new image ($formats) through filter chains, and writes the outputs and a JSON report per input. Runs as a systemd service with a dynamic user; darkroom status, darkroom report and a Prometheus metrics file show what it does." | sed 's/ *$//; s/^/ /')

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: darkroom
Version: $version
Architecture: $arch
Maintainer: darkroom maintainers <darkroom@localhost>
Depends: $depends
Section: graphics
Priority: optional
Installed-Size: $(du -sk "$root" | cut -f1)
Description: watched folders turned into image pipelines
$description
CONTROL
echo /etc/darkroom/config.yaml > "$root/DEBIAN/conffiles"
cat > "$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
# Enabled and started like any Debian service; no user is created (DynamicUser=yes). A service
# that fails to start does not fail the installation (as debhelper's snippets): its reason is
# in `systemctl status darkroom`, and the package is there to fix it with.
if [ "$1" = configure ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable darkroom.service
  systemctl restart darkroom.service || true
fi
SCRIPT
cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
  systemctl disable --now darkroom.service || true
fi
SCRIPT
cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
SCRIPT
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
mkdir -p "$out"
deb="$out/darkroom_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null
echo "$deb"
