#!/usr/bin/env python3
"""Retakes the README's two screenshots, docs/images/preview.png and docs/images/contact-sheet.png.

    scripts/screenshots.py [--darkroom BIN] [--samples DIR]

Runs the real programs in headless Chromium (the browser tests' Tests/EndToEndTests/Browser/browser.py):
the daemon over the sample photos (plus a text file named .jpg and a truncated JPEG, so the sheet
shows its failures first), `darkroom report --html` over its reports, and `darkroom preview` on one
photo with a three-step chain. BIN defaults to the release build (`swift build -c release`); the
photos to ../shared/samples beside the repository, else the test fixtures. Take them on a quiet
machine: the preview page shows its render time.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "EndToEndTests", "Browser"))
import browser  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PHOTOS = ["rocket.jpg", "chelsea.png", "coffee.png", "astronaut.png", "hubble_deep_field.jpg", "retina.jpg"]
SCANS = ["logo.png"]


def wait_until(condition, what, timeout=300):
    """Polls `condition` every 50 ms (an event check, not a fixed wait) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"screenshots: gave up waiting for {what}")
        time.sleep(0.05)


def drop(source, inbox, name=None, data=None):
    """Writes a file into a watched folder the way a careful uploader does: a hidden name, then a rename."""
    target = os.path.join(inbox, name or os.path.basename(source))
    hidden = os.path.join(inbox, "." + os.path.basename(target) + ".part")
    if data is None:
        shutil.copyfile(source, hidden)
    else:
        with open(hidden, "wb") as f:
            f.write(data)
    os.rename(hidden, target)


def contact_sheet(darkroom, samples, work, out):
    folders = {k: os.path.join(work, k) for k in ("photos", "scans", "done", "failed", "reports", "out")}
    for path in folders.values():
        os.makedirs(path, exist_ok=True)
    config = os.path.join(work, "config.yaml")
    with open(config, "w") as f:
        f.write(f"""watches:
  - name: photos
    path: {folders['photos']}
    done_dir: {folders['done']}/photos
    failed_dir: {folders['failed']}/photos
    reports_dir: {folders['reports']}/photos
    outputs:
      - path: {folders['out']}/thumbs/{{stem}}.jpg
        chain:
          - resize: {{ width: 640 }}
      - path: {folders['out']}/postcards/{{stem}}.jpg
        chain:
          - resize: {{ width: 900 }}
          - sepia: {{ intensity: random }}
          - vignette: {{}}
  - name: scans
    path: {folders['scans']}
    done_dir: {folders['done']}/scans
    failed_dir: {folders['failed']}/scans
    reports_dir: {folders['reports']}/scans
    outputs:
      - path: {folders['out']}/scans/{{stem}}.png
        chain:
          - grayscale: {{}}
          - resize: {{ width: 400 }}
""")
    daemon = subprocess.Popen([darkroom, "run", "--config", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        photos = [p for p in PHOTOS if os.path.exists(os.path.join(samples, p))]
        scans = [p for p in SCANS if os.path.exists(os.path.join(samples, p))]
        for name in photos:
            drop(os.path.join(samples, name), folders["photos"])
        for name in scans:
            drop(os.path.join(samples, name), folders["scans"])
        drop(None, folders["photos"], "notes.jpg", b"a shopping list, not a picture\n")
        with open(os.path.join(samples, photos[0]), "rb") as f:
            drop(None, folders["photos"], "cut-" + photos[0], f.read()[: os.path.getsize(os.path.join(samples, photos[0])) // 3])
        expected = len(photos) + len(scans) + 2

        def reports():
            return sum(len([n for n in files if n.endswith(".json")]) for _, _, files in os.walk(folders["reports"]))
        wait_until(lambda: reports() >= expected, f"{expected} reports")
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=120)
    sheet = os.path.join(work, "sheet.html")
    subprocess.run([darkroom, "report", "--html", sheet, "--no-thumbnail-cache", "--config", config], check=True)
    web = browser.start(width=1200, height=1360)
    try:
        web.get("file://" + sheet)
        browser.wait_for(web, lambda d: all(i.get_attribute("complete") == "true" and int(i.get_attribute("naturalWidth") or 0) > 0
                                            for i in d.find_elements(By.CSS_SELECTOR, "img")[:6]),
                         message="the first thumbnails never loaded")
        browser.screenshot(web, out)
    finally:
        browser.stop(web)


def preview(darkroom, samples, work, out):
    image = os.path.join(samples, "chelsea.png")
    if not os.path.exists(image):
        image = os.path.join(samples, sorted(os.listdir(samples))[0])
    server = subprocess.Popen([darkroom, "preview", image], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = ""
        while "token=" not in url:
            line = server.stdout.readline()
            if not line:
                sys.exit("screenshots: darkroom preview printed no URL")
            url = next((w for w in line.split() if w.startswith("http://")), "")
        web = browser.start(width=1500, height=810)
        try:
            web.get(url)
            browser.wait_for(web, lambda d: d.find_elements(By.CSS_SELECTOR, ".filter"), message="the catalogue never appeared")
            for name in ("color_controls", "sepia", "vignette"):
                web.find_element(By.CSS_SELECTOR, f'button[aria-label="add {name}"]').click()
            # Adding scrolled the catalogue: back to its top (its scrolling box is an ancestor).
            web.execute_script("let e = document.getElementById('categories');"
                               "while (e && e.scrollHeight <= e.clientHeight) e = e.parentElement;"
                               "if (e) e.scrollTop = 0;")
            settings = [(0, "saturation", "1.3"), (1, "intensity", "0.35"), (2, "intensity", "0.6")]
            for step, name, value in settings:
                field = web.find_element(By.CSS_SELECTOR, f'[data-step="{step}"] [aria-label="{name}"][type="number"]')
                field.clear()
                field.send_keys(value, Keys.ENTER)

            def settled(d):
                body = d.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "idle"
                return body and "intensity=0.6" in d.find_element(By.ID, "syntax").text and d.find_element(By.ID, "output").get_attribute("data-render-id")
            browser.wait_for(web, settled, timeout=300, message="the exact picture never came")
            web.find_element(By.ID, "output").click()
            browser.wait_for(web, lambda d: "url(" in d.find_element(By.ID, "loupe-output").get_attribute("style"))
            browser.screenshot(web, out)
        finally:
            browser.stop(web)
    finally:
        server.terminate()
        server.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--darkroom", default=os.path.join(ROOT, ".build", "release", "darkroom"))
    shared = os.path.join(os.path.dirname(ROOT), "shared", "samples")
    parser.add_argument("--samples", default=shared if os.path.isdir(shared) else os.path.join(ROOT, "Tests", "DarkroomCodecsTests", "Fixtures"))
    a = parser.parse_args()
    if not os.access(a.darkroom, os.X_OK):
        sys.exit(f"screenshots: {a.darkroom} not found: build it with `swift build -c release` or pass --darkroom")
    images = os.path.join(ROOT, "docs", "images")
    # A short folder name: the sheet prints the paths.
    with tempfile.TemporaryDirectory(prefix="dr-") as work:
        contact_sheet(a.darkroom, a.samples, work, os.path.join(images, "contact-sheet.png"))
        preview(a.darkroom, a.samples, work, os.path.join(images, "preview.png"))
    print(f"screenshots: wrote {images}/contact-sheet.png and {images}/preview.png")


if __name__ == "__main__":
    main()
