#!/usr/bin/env bash
# Installs darkroom's .deb into a real systemd (Debian 12 booted as PID 1 in namespaces by
# ../shared/tools/systemd-sandbox, or $SYSTEMD_SANDBOX) and checks what an operator would: the
# service is active, a photo dropped in becomes a thumbnail and an ok report, `darkroom status`
# and `darkroom report` see it, and the journal holds only darkroom's own lines.
#
# The Debian root is made once with debootstrap, from the mirror this machine's apt uses (with
# the runtime libraries the package depends on) and cached in $DARKROOM_SANDBOX_CACHE (default /var/cache/darkroom-sandbox); each run boots
# a throw-away overlay of it, so runs do not see each other's leftovers.
# Skips (exit 0, saying why) only where it cannot run: not root, or no namespaces/overlayfs.
#   scripts/test-deb.sh path/to/darkroom_VERSION_ARCH.deb
set -euo pipefail
deb=$(realpath "${1:?usage: scripts/test-deb.sh DEB}")
cd "$(dirname "$0")/.."
repo=$PWD
sandbox=${SYSTEMD_SANDBOX:-$repo/../shared/tools/systemd-sandbox}
[[ -x $sandbox ]] || sandbox=/work/shared/tools/systemd-sandbox
cache=${DARKROOM_SANDBOX_CACHE:-/var/cache/darkroom-sandbox}
# The runtime libraries: exactly what the package depends on (build-deb.sh lists them with ldd
# and the SONAMEs the binary dlopens),
# so a new library (libwebp, libheif, libtiff, libpq…) reaches the root without editing this.
libs=$(dpkg-deb -f "$deb" Depends | tr -d ',' | tr -s ' ' | sed 's/^ //; s/ $//')

skip() { echo "SKIP test-deb: $*" >&2; exit 0; }
fail() {
  echo "FAIL test-deb: $*" >&2
  if [[ -n ${merged:-} ]]; then
    "$sandbox" exec "$merged" systemctl status darkroom --no-pager -n 30 >&2 || true
  fi
  exit 1
}

# The Debian mirror this machine's apt already uses (a company mirror or a proxy works as it does
# for apt): $DEBIAN_MIRROR if set, else the URI of the entry for bookworm itself (not -updates or
# -security) in the deb822 files /etc/apt/sources.list.d/*.sources, else in the one-line files
# /etc/apt/sources.list and sources.list.d/*.list (options in brackets skipped). Only when apt
# names none is deb.debian.org tried, and the log says so.
debian_mirror() {
  local uri
  if [[ -n ${DEBIAN_MIRROR:-} ]]; then echo "$DEBIAN_MIRROR"; return; fi
  uri=$(awk 'function flush() { if (deb && suite && uri != "") { print uri; found = 1; exit } deb = suite = 0; uri = "" }
             /^[[:space:]]*$/ { flush(); next }
             /^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
             /^URIs:/ { uri = $2 }
             /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") suite = 1 }
             END { if (!found) flush() }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [[ -n $uri ]] || uri=$(awk '$1 == "deb" { i = 2; if ($i ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++; if ($i ~ /\]$/) i++
                                            if ($(i + 1) == "bookworm") { print $i; exit } }' \
                           /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
  if [[ -z $uri ]]; then
    echo "test-deb: apt names no mirror for bookworm (/etc/apt/sources.list.d/*.sources, /etc/apt/sources.list); trying http://deb.debian.org/debian (set DEBIAN_MIRROR to choose one)" >&2
    uri=http://deb.debian.org/debian
  fi
  echo "$uri"
}

[[ $(id -u) -eq 0 ]] || skip "needs root (namespaces, mounts, debootstrap); run it as root or in CI"
unshare --pid --fork --mount --uts true 2>/dev/null || skip "this machine refuses new PID/mount/UTS namespaces (unshare failed), so systemd cannot be booted here"
[[ -x $sandbox ]] || fail "no systemd-sandbox at $sandbox (set SYSTEMD_SANDBOX)"

# The cached Debian root: debootstrap once (a few minutes), then reused while the libraries
# it was made with are still the ones the package needs.
if [[ ! -x $cache/root/lib/systemd/systemd || "$(cat "$cache/libs" 2>/dev/null)" != "$libs" ]]; then
  echo "test-deb: making the Debian 12 root in $cache/root once (debootstrap)…" >&2
  rm -rf "$cache/root"
  mkdir -p "$cache"
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
  mirror=$(debian_mirror)
  echo "test-deb: debootstrap from $mirror" >&2
  debootstrap --variant=minbase --include="systemd,systemd-sysv,dbus,procps,${libs// /,}" bookworm "$cache/root" \
    "$mirror" > "$cache/debootstrap.log" 2>&1 || { tail -20 "$cache/debootstrap.log" >&2; fail "debootstrap from $mirror failed"; }
  echo sandbox > "$cache/root/etc/hostname"
  echo "$libs" > "$cache/libs"
fi

work=$(mktemp -d /var/tmp/darkroom-test-deb.XXXXXX)
merged=$work/root
mkdir -p "$work/upper" "$work/work" "$merged"
mount -t overlay overlay -o "lowerdir=$cache/root,upperdir=$work/upper,workdir=$work/work" "$merged" 2>/dev/null \
  || { rmdir "$merged" "$work/upper" "$work/work" "$work"; skip "overlayfs is not available to keep the cached root pristine"; }
cleanup() {
  "$sandbox" down "$merged" >/dev/null 2>&1 || true
  for _ in 1 2 3 4 5; do umount "$merged" 2>/dev/null && break; sleep 0.5; done
  rm -rf "$work"
}
trap cleanup EXIT
in_sandbox() { "$sandbox" exec "$merged" "$@"; }

"$sandbox" up "$merged" >/dev/null || fail "systemd did not boot; see $merged.console.log"
cp "$deb" "$merged/root/darkroom.deb"
in_sandbox dpkg -i /root/darkroom.deb > "$work/dpkg.log" 2>&1 || fail "dpkg -i refused the package (missing dependencies? the cached root has: $libs): $(cat "$work/dpkg.log")"

# The package's description names every format the installed binary reads (it is made from
# `darkroom formats --json` when the package is built).
description=$(in_sandbox dpkg-query -W -f '${Description}' darkroom | tr -s ' \n' ' ')
for format in $(in_sandbox darkroom formats --json | /usr/bin/python3 -c 'import json, sys; print("\n".join(f["format"].replace(" ", "_") for f in json.load(sys.stdin)["formats"]))'); do
  [[ $description == *"${format//_/ }"* ]] || fail "the package's description does not name $format: $description"
done

# The unit's PrivateUsers=yes needs a user namespace inside this one; where the machine forbids
# nested user namespaces the service fails with 217/USER. Only then, say so and drop it here.
# (`systemctl status` exits 3 for a unit that is not running: read it whole, then grep.)
unit_status() { in_sandbox systemctl status darkroom --no-pager 2>&1 || true; }
wait_active() {
  for _ in $(seq 100); do
    state=$(in_sandbox systemctl is-active darkroom || true)
    [[ $state == active || $state == failed ]] && break
    # Restart=on-failure shows a failed start as "activating (auto-restart)".
    grep -q "status=" <<<"$(unit_status)" && break
    sleep 0.2
  done
  echo "$state"
}
state=$(wait_active)
if [[ $state != active ]] && grep -q "217/USER" <<<"$(unit_status)"; then
  echo "NOTE test-deb: this machine forbids nested user namespaces, so PrivateUsers=yes fails (217/USER); testing with a PrivateUsers=no drop-in" >&2
  mkdir -p "$merged/etc/systemd/system/darkroom.service.d"
  printf '[Service]\nPrivateUsers=no\n' > "$merged/etc/systemd/system/darkroom.service.d/test-no-private-users.conf"
  in_sandbox systemctl daemon-reload
  in_sandbox systemctl reset-failed darkroom
  in_sandbox systemctl restart darkroom || true
  state=$(wait_active)
fi
[[ $state == active ]] || fail "the service is $state after installing the package"

in_sandbox test -f /run/darkroom/status.json || sleep 2
in_sandbox darkroom status > "$work/status.txt" || fail "darkroom status says the service is not running: $(cat "$work/status.txt")"
grep -q "is running" "$work/status.txt" || fail "unexpected status: $(cat "$work/status.txt")"

cp "$repo/Tests/DarkroomCodecsTests/Fixtures/noise.jpg" "$merged/root/photo.jpg"
in_sandbox cp /root/photo.jpg /var/lib/darkroom/inbox/photos/photo.jpg
report=/var/lib/darkroom/reports/photos/photo.jpg.json
for _ in $(seq 150); do in_sandbox test -f /var/lib/darkroom/done/photos/photo.jpg && break; sleep 0.2; done
in_sandbox test -f "$report" || fail "no report at $report"
in_sandbox grep -q '"status" : "ok"' "$report" || fail "the report is not ok: $(in_sandbox cat "$report")"
in_sandbox test -s /var/lib/darkroom/outbox/thumbs/photo.jpg || fail "no thumbnail"
in_sandbox test -f /var/lib/darkroom/done/photos/photo.jpg || fail "the photo was not moved to done/"

# cairo, Pango and librsvg, and libpq, are opened with dlopen (no ldd, no dpkg-shlibdeps): the
# package's Depends alone must bring them. A chain that draws with all three, and a cluster
# command that gets as far as libpq's connection refused, in this root that has nothing else.
cp "$repo/logo.svg" "$merged/root/logo.svg"
in_sandbox darkroom process --chain 'linear_gradient | draw_text text=deb | overlay_image image=/root/logo.svg width=64' \
  /root/photo.jpg -o /root/drawn.png > "$work/draw.txt" 2>&1 || fail "a drawing chain failed: $(cat "$work/draw.txt")"
in_sandbox test -s /root/drawn.png || fail "the drawing chain wrote nothing"
printf 'cluster: { database: "host=127.0.0.1 port=1 dbname=none", node: sandbox }\nwatches:\n  - name: p\n    path: /root/in\n    outputs: [{ path: "/root/out/{stem}.jpg", chain: [{ resize: { width: 24 } }] }]\n' \
  > "$merged/root/cluster.yaml"
in_sandbox darkroom cluster status --config /root/cluster.yaml > "$work/cluster.txt" 2>&1 && fail "no database, yet cluster status succeeded"
grep -q "Connection refused" "$work/cluster.txt" || fail "libpq did not get as far as connecting: $(cat "$work/cluster.txt")"
in_sandbox darkroom report --config /etc/darkroom/config.yaml > "$work/report.txt"
grep -Eq "^  ok +1$" "$work/report.txt" || fail "darkroom report: $(cat "$work/report.txt")"
for _ in $(seq 20); do in_sandbox darkroom status | grep -q "last hour: 1 done" && break; sleep 0.5; done
in_sandbox darkroom status | grep -q "last hour: 1 done, 0 failed" || fail "darkroom status: $(in_sandbox darkroom status)"

# Only darkroom's own lines: nothing from libdispatch (see LimitNICE= in the unit).
journal=$(in_sandbox journalctl -u darkroom --no-pager -o cat)
if grep -q "Failed to set thread priority" <<<"$journal"; then fail "libdispatch still complains in the journal:
$journal"; fi
grep -q "photo.jpg → " <<<"$journal" || fail "no log line for the photo in the journal:
$journal"
# Both man pages, as files in the package and installed (the minimal root has no man-db, so the
# page is rendered here, from the installed file, with the host's groff).
# The listing is read whole first: grep -q leaving early would kill dpkg-deb's tar with SIGPIPE,
# which pipefail reports as a failure.
listing=$(dpkg-deb -c "$deb")
for page in usr/share/man/man1/darkroom.1.gz usr/share/man/man5/darkroom.yaml.5.gz; do
  grep -q " \./$page\$" <<<"$listing" || fail "the package holds no $page"
  in_sandbox test -f "/$page" || fail "no /$page installed"
done
if command -v groff >/dev/null; then
  warnings=$(zcat "$merged/usr/share/man/man5/darkroom.yaml.5.gz" | groff -man -Tutf8 -ww 2>&1 >/dev/null)
  [[ -z $warnings ]] || fail "darkroom.yaml(5) renders with warnings: $warnings"
fi
in_sandbox test -f /usr/share/bash-completion/completions/darkroom || fail "no bash completion installed"

in_sandbox systemctl stop darkroom
echo "test-deb: ok — $(basename "$deb") installed, service active, photo processed, status and report agree, journal clean"
