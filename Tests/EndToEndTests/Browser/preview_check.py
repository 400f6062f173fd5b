"""Drives a running `darkroom preview` in headless Chromium (one scenario per run).

Run by Tests/EndToEndTests/PreviewBrowserTests.swift, which starts the server and prepares
the files; exits 0 when the scenario holds, else prints what a user would have seen and exits 1.

  python3 preview_check.py SCENARIO --url URL --darkroom BIN [--image FILE] [--config FILE]
                                    [--scratch DIR] [--screenshot PNG]
"""
import argparse
import hashlib
import http.client
import json
import os
import re
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def request(url, path, host=None, token=True, method="GET", body=None):
    """(status, bytes) of one request to the server, Host and token as given."""
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    if token is True:
        token = query["token"]
    target = path
    if token:
        target += ("&" if "?" in path else "?") + "token=" + urllib.parse.quote(token)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    connection.putrequest(method, target, skip_host=True)
    connection.putheader("Host", host or parts.netloc)
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(data)))
    connection.endheaders(data)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, payload


def darkroom(args, binary):
    return subprocess.run([binary] + args, capture_output=True, text=True, timeout=300)


def rendered_id(web):
    return web.find_element(By.ID, "output").get_attribute("data-render-id") or ""


def wait_for_new_render(web, previous):
    """Waits for an exact picture other than `previous` and the page idle; returns its id."""
    def ready(d):
        rid = rendered_id(d)
        return rid if rid and rid != previous and d.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "idle" else False
    return browser.wait_for(web, ready, timeout=120, message="no new exact picture")


def picture_bytes(web, url):
    src = web.find_element(By.ID, "output").get_attribute("src")
    path = urllib.parse.urlsplit(src)
    status, data = request(url, path.path + "?" + path.query, token=None)
    check(status == 200, f"the picture {src} answered {status}")
    return data


def open_page(url):
    web = browser.start()
    web.get(url)
    browser.wait_for(web, lambda d: d.find_elements(By.CSS_SELECTOR, ".filter"), message="the catalogue never appeared")
    return web


def add(web, name):
    web.find_element(By.CSS_SELECTOR, f'button[aria-label="add {name}"]').click()


def control(web, step, name, kind=None):
    """The control named `name` (its accessible name) in chain step `step` (0-based)."""
    selector = f'[data-step="{step}"] [aria-label="{name}"]' + (f'[type="{kind}"]' if kind else "")
    return web.find_element(By.CSS_SELECTOR, selector)


def scenario_catalogue(a):
    registered = {f["name"] for f in json.loads(darkroom(["filters", "--json"], a.darkroom).stdout)}
    web = open_page(a.url)
    try:
        shown = {e.get_attribute("data-filter") for e in web.find_elements(By.CSS_SELECTOR, "#categories .filter")}
        check(shown == registered, f"the page lists {sorted(shown ^ registered)} differently from `darkroom filters`")
        search = web.find_element(By.CSS_SELECTOR, '[aria-label="search filters"]')
        search.send_keys("sepia")
        visible = [e.get_attribute("data-filter") for e in web.find_elements(By.CSS_SELECTOR, "#categories .filter") if e.is_displayed()]
        check("sepia" in visible and len(visible) < len(registered), f"searching 'sepia' shows {visible}")
    finally:
        browser.stop(web)


def scenario_sepia(a):
    web = open_page(a.url)
    try:
        add(web, "sepia")
        first = wait_for_new_render(web, "")
        before = picture_bytes(web, a.url)
        slider = control(web, 0, "intensity", "range")
        check(slider.get_attribute("aria-label") == "intensity", "the slider's accessible name is not the parameter's")
        slider.click()
        for _ in range(200):
            slider.send_keys(Keys.LEFT)
        second = wait_for_new_render(web, first)
        after = picture_bytes(web, a.url)
        check(after != before, "moving intensity did not change the picture")
        # The copied process syntax, run by `darkroom process` with the page's seed, gives the
        # picture byte for byte.
        web.find_element(By.ID, "copy-syntax").click()
        copied = web.execute_async_script("navigator.clipboard.readText().then(arguments[0], e => arguments[0]('ERROR ' + e))")
        shown = web.find_element(By.ID, "syntax").text
        check(copied == shown and copied.startswith("sepia intensity="), f"the copy button copied {copied!r}, the page shows {shown!r}")
        seed = web.find_element(By.ID, "output").get_attribute("data-seed")
        out = os.path.join(a.scratch, "process.png")
        result = darkroom(["process", "--chain", copied, "--seed", seed, a.image, "-o", out], a.darkroom)
        check(result.returncode == 0, result.stderr)
        with open(out, "rb") as f:
            check(f.read() == after, "`darkroom process` with the copied chain and seed wrote other bytes than the page shows")
        # The copied YAML is a chain `check` accepts.
        web.find_element(By.ID, "copy-yaml").click()
        yaml = web.execute_async_script("navigator.clipboard.readText().then(arguments[0], e => arguments[0]('ERROR ' + e))")
        check(yaml.startswith("chain:\n  - sepia: { intensity: "), f"copied YAML: {yaml!r}")
        config = os.path.join(a.scratch, "copied.yaml")
        os.makedirs(os.path.join(a.scratch, "copied-in"), exist_ok=True)
        with open(config, "w") as f:
            f.write("watches:\n  - path: ./copied-in\n    outputs:\n      - path: ./copied-out/{stem}.png\n"
                    + "".join("        " + line + "\n" for line in yaml.splitlines()))
        result = darkroom(["check", config], a.darkroom)
        check(result.returncode == 0, f"check refuses the copied YAML: {result.stderr}")
        check(second != first, "no second render")
        if a.screenshot:
            web.find_element(By.ID, "output").click()
            browser.wait_for(web, lambda d: "url(" in d.find_element(By.ID, "loupe-output").get_attribute("style"))
            browser.screenshot(web, a.screenshot)
    finally:
        browser.stop(web)


def check_message(a, value):
    """What `darkroom check` says of sepia intensity=`value`, without file:line:column."""
    config = os.path.join(a.scratch, "range.yaml")
    os.makedirs(os.path.join(a.scratch, "range-in"), exist_ok=True)
    with open(config, "w") as f:
        f.write("watches:\n  - path: ./range-in\n    outputs:\n      - path: ./range-out/{stem}.png\n"
                f"        chain:\n          - sepia: {{ intensity: {value} }}\n")
    result = darkroom(["check", config], a.darkroom)
    check(result.returncode == 1, "check accepted an intensity out of range")
    return re.sub(r"^[^:]*:\d+:\d+: ", "", result.stderr.strip().splitlines()[0])


def scenario_range(a):
    expected = check_message(a, 5)
    web = open_page(a.url)
    try:
        add(web, "sepia")
        wait_for_new_render(web, "")
        number = control(web, 0, "intensity", "number")
        number.clear()
        number.send_keys("5")
        error = f'[data-step="0"] [data-error-for="intensity"]'
        shown = browser.wait_for(web, lambda d: d.find_element(By.CSS_SELECTOR, error).text, message="no error at the intensity control")
        check(shown == expected, f"the page says {shown!r}, check says {expected!r}")
    finally:
        browser.stop(web)


def open_chain_and_add_sepia(a):
    """The page with the chain the server opened (--watch, --output: watches[0].outputs[1]) and
    sepia added to it, rendered; returns the config's text before and the page."""
    with open(a.config) as f:
        old = f.read()
    web = open_page(a.url)
    browser.wait_for(web, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-step="0"][data-filter="resize"]'), message="the chain was not opened")
    add(web, "sepia")
    wait_for_new_render(web, "")
    return old, web


def scenario_save(a):
    old, web = open_chain_and_add_sepia(a)
    try:
        web.find_element(By.ID, "save").click()
        said = browser.wait_for(web, lambda d: d.find_element(By.ID, "saved").text.startswith("saved") and d.find_element(By.ID, "saved").text)
        check("systemctl reload darkroom" in said, f"the page does not say how to reload: {said!r}")
    finally:
        browser.stop(web)
    result = darkroom(["check", a.config], a.darkroom)
    check(result.returncode == 0, f"check refuses the saved config: {result.stderr}")
    with open(a.config) as f:
        new = f.read()
    with open(a.config + "~") as f:
        check(f.read() == old, "FILE~ is not the previous file")
    # Only the chain changed: the new step after the old one, every other line (comments too) as it was.
    old_lines, new_lines = old.splitlines(), new.splitlines()
    at = old_lines.index("          - resize: { width: 120, fit: inside }")
    expected = old_lines[:at + 1] + ["          - sepia"] + old_lines[at + 1:]
    check(new_lines == expected, "the saved config differs in more than the chain:\n" + "\n".join(new_lines))


def scenario_safety(a):
    parts = urllib.parse.urlsplit(a.url)
    status, _ = request(a.url, "/", token=False)
    check(status == 403, f"without the token: {status}")
    status, _ = request(a.url, "/api/filters", token="0" * 64)
    check(status == 403, f"with a wrong token: {status}")
    status, body = request(a.url, "/", host=f"attacker.example:{parts.port}")
    check(status == 403 and b"refused" in body, f"with another Host: {status} {body[:80]!r}")
    status, _ = request(a.url, "/")
    check(status == 200, f"with the token and Host: {status}")
    for path, why in (("../secret.png", "../"), ("link.png", "a symbolic link out"), (os.path.join(a.scratch, "secret.png"), "an absolute path")):
        status, body = request(a.url, "/api/original?root=watch:photos&path=" + urllib.parse.quote(path))
        check(status == 403, f"{why}: {status} {body[:120]!r}")
    status, body = request(a.url, "/api/render", method="POST", body={
        "page": "p", "sequence": 1, "root": "watch:photos", "path": "../secret.png", "seed": "1",
        "chain": {"steps": [{"name": "invert", "enabled": True, "parameters": []}]}})
    check(status == 403, f"render of ../: {status}")
    listening = subprocess.run(["ss", "-Hltn"], capture_output=True, text=True, check=True).stdout
    sockets = [line.split()[3] for line in listening.splitlines() if line.split()[3].endswith(f":{parts.port}")]
    check(sockets and all(s in (f"127.0.0.1:{parts.port}", f"[::1]:{parts.port}") for s in sockets), f"listening on {sockets}")


def process_bytes(a, chain, seed, name):
    """What `darkroom process --chain CHAIN --seed SEED` writes for the image, as PNG."""
    out = os.path.join(a.scratch, name)
    result = darkroom(["process", "--chain", chain, "--seed", str(seed), a.image, "-o", out], a.darkroom)
    check(result.returncode == 0, f"darkroom process --chain {chain!r}: {result.stderr}")
    with open(out, "rb") as f:
        return f.read()


def set_seed(web, seed):
    field = web.find_element(By.ID, "seed")
    field.clear()
    field.send_keys(str(seed), Keys.TAB)


def scenario_random(a):
    """`random` per parameter and per step, drawn from the seed on the page, as `process --seed` draws them."""
    vignette = next(f for f in json.loads(darkroom(["filters", "--json"], a.darkroom).stdout) if f["name"] == "vignette")
    drawn = [p["name"] for p in vignette["parameters"] if "slider_minimum" in p or "slider_maximum" in p]
    check(drawn, "vignette has no parameter with a slider range")
    expected = "sepia intensity=random | vignette " + " ".join(f"{n}=random" for n in drawn)
    web = open_page(a.url)
    try:
        rid = ""
        set_seed(web, 12345)
        add(web, "sepia")
        rid = wait_for_new_render(web, rid)
        control(web, 0, "intensity random", "checkbox").click()
        rid = wait_for_new_render(web, rid)
        add(web, "vignette")
        rid = wait_for_new_render(web, rid)
        web.find_element(By.CSS_SELECTOR, 'button[aria-label="random step 2"]').click()
        rid = wait_for_new_render(web, rid)
        shown = web.find_element(By.ID, "syntax").text
        check(shown == expected, f"the page's chain is {shown!r}, expected {expected!r}")
        check(web.find_element(By.ID, "output").get_attribute("data-seed") == "12345", "the picture was not rendered with the seed set")
        first = picture_bytes(web, a.url)
        check(first == process_bytes(a, expected, 12345, "random-12345.png"),
              "`darkroom process --seed 12345` draws other values than the page with seed 12345")
        set_seed(web, 777)
        rid = wait_for_new_render(web, rid)
        second = picture_bytes(web, a.url)
        check(second != first, "another seed gave the same picture: nothing was drawn from it")
        check(second == process_bytes(a, expected, 777, "random-777.png"), "seed 777: the page and `darkroom process` differ")
    finally:
        browser.stop(web)


def step_filters(web):
    return [e.get_attribute("data-filter") for e in web.find_elements(By.CSS_SELECTOR, "#chain [data-step]")]


def scenario_reorder(a):
    """Moving a step and switching one off change the chain and the picture as `process` says."""
    web = open_page(a.url)
    try:
        add(web, "sepia")
        rid = wait_for_new_render(web, "")
        add(web, "invert")
        rid = wait_for_new_render(web, rid)
        check(web.find_element(By.ID, "syntax").text == "sepia | invert", "the chain is not sepia | invert")
        seed = web.find_element(By.ID, "output").get_attribute("data-seed")
        sepia_invert = picture_bytes(web, a.url)
        check(sepia_invert == process_bytes(a, "sepia | invert", seed, "si.png"), "sepia | invert: the page and process differ")

        web.find_element(By.CSS_SELECTOR, 'button[aria-label="move step 2 up"]').click()
        rid = wait_for_new_render(web, rid)
        check(step_filters(web) == ["invert", "sepia"], f"after moving invert up the steps are {step_filters(web)}")
        check(web.find_element(By.ID, "syntax").text == "invert | sepia", "the chain did not follow the move")
        invert_sepia = picture_bytes(web, a.url)
        check(invert_sepia != sepia_invert, "the order changed, the picture did not")
        check(invert_sepia == process_bytes(a, "invert | sepia", seed, "is.png"), "invert | sepia: the page and process differ")

        web.find_element(By.CSS_SELECTOR, '[aria-label="step 1 on"]').click()
        rid = wait_for_new_render(web, rid)
        check(step_filters(web) == ["invert", "sepia"], "a step switched off left the page")
        check("off" in web.find_element(By.CSS_SELECTOR, '[data-step="0"]').get_attribute("class").split(), "the step switched off is not shown as off")
        check(web.find_element(By.ID, "syntax").text == "sepia", "the step switched off is still in the chain")
        check("invert" not in web.find_element(By.ID, "yaml").text, "the step switched off is still in the YAML")
        sepia_only = picture_bytes(web, a.url)
        check(sepia_only == process_bytes(a, "sepia", seed, "s.png"), "with invert off: the page and `process sepia` differ")

        web.find_element(By.CSS_SELECTOR, '[aria-label="step 1 on"]').click()
        rid = wait_for_new_render(web, rid)
        check(picture_bytes(web, a.url) == invert_sepia, "switched on again, the picture is not invert | sepia")
        web.find_element(By.CSS_SELECTOR, 'button[aria-label="remove step 1"]').click()
        rid = wait_for_new_render(web, rid)
        check(step_filters(web) == ["sepia"] and picture_bytes(web, a.url) == sepia_only, "removing invert did not leave sepia alone")
    finally:
        browser.stop(web)


# The blue of what the screen shows at fractions `xs` across the middle of `element`: the
# element's screenshot decoded by the browser itself (no imaging library needed here).
SAMPLE = """
const [b64, xs, done] = arguments;
const img = new Image();
img.onload = () => {
  const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  done(xs.map(x => g.getImageData(Math.floor(x * img.width), Math.floor(img.height * 0.4), 1, 1).data[2]));
};
img.onerror = () => done('ERROR');
img.src = 'data:image/png;base64,' + b64;
"""


def blues(web, element, xs):
    return web.execute_async_script(SAMPLE, element.screenshot_as_base64, xs)


def scenario_split(a):
    """Split view: the output over the original, cut where the divider is."""
    web = open_page(a.url)
    try:
        add(web, "invert")
        wait_for_new_render(web, "")
        pictures = web.find_element(By.ID, "pictures")
        # The test image's blue is 0.4 everywhere (102); inverted, 0.6 (153).
        side = blues(web, web.find_element(By.ID, "original"), [0.5]) + blues(web, web.find_element(By.ID, "output"), [0.5])
        check(abs(side[0] - 102) <= 3 and abs(side[1] - 153) <= 3, f"side by side, the blues are {side}")
        check(not web.find_element(By.ID, "splitpos").is_displayed(), "the divider shows before split view is on")
        web.find_element(By.CSS_SELECTOR, '[aria-label="split view"]').click()
        divider = web.find_element(By.CSS_SELECTOR, '[aria-label="split position"]')
        browser.wait_for(web, lambda d: divider.is_displayed(), message="no divider in split view")
        picture = web.find_element(By.ID, "original")
        browser.wait_for(web, lambda d: abs(web.find_element(By.ID, "output").rect["x"] - picture.rect["x"]) < 1,
                         message="the output is not laid over the original")
        at = blues(web, pictures, [0.25, 0.75])
        check(abs(at[0] - 102) <= 3 and abs(at[1] - 153) <= 3, f"divider at 50 %: original left, output right expected, blues {at}")
        divider.send_keys(Keys.END)
        for _ in range(10):
            divider.send_keys(Keys.LEFT)
        check(divider.get_attribute("value") == "90", f"the divider is at {divider.get_attribute('value')}")
        at = blues(web, pictures, [0.25, 0.75, 0.95])
        check(abs(at[0] - 102) <= 3 and abs(at[1] - 102) <= 3 and abs(at[2] - 153) <= 3,
              f"divider at 90 %: original up to it, output after, blues {at}")
        web.find_element(By.CSS_SELECTOR, '[aria-label="split view"]').click()
        browser.wait_for(web, lambda d: not divider.is_displayed(), message="split view does not switch off")
        check(web.find_element(By.ID, "output").rect["x"] > picture.rect["x"] + picture.rect["width"] - 1, "side by side again: the output is not beside the original")
    finally:
        browser.stop(web)


def scenario_conflict(a):
    """A config changed on disk since its chain was opened is not saved over; saving again is a decision."""
    old, web = open_chain_and_add_sepia(a)
    try:
        edited = old + "# added by someone else while the page was open\n"
        with open(a.config, "w") as f:
            f.write(edited)
        web.find_element(By.ID, "save").click()
        said = browser.wait_for(web, lambda d: d.find_element(By.ID, "saved").text.startswith("not saved") and d.find_element(By.ID, "saved").text)
        check("changed on disk" in said, f"the page says {said!r}")
        with open(a.config) as f:
            check(f.read() == edited, "the config was written over although it changed on disk")
        check(not os.path.exists(a.config + "~"), "a backup was written although nothing was saved")
        check(step_filters(web) == ["resize", "sepia"], "the page lost its chain")
        # Through the API: the answer is 409, whatever the page does with it.
        status, body = request(a.url, "/api/config/chain", method="POST", body={
            "watch": 0, "output": 1, "sha256": hashlib.sha256(old.encode()).hexdigest(),
            "chain": {"steps": [{"name": "invert", "enabled": True, "parameters": []}]}})
        check(status == 409, f"saving over a changed file answered {status} {body[:120]!r}")
        # Saving again writes the chain into the file as it is now: the other change stays.
        web.find_element(By.ID, "save").click()
        said = browser.wait_for(web, lambda d: d.find_element(By.ID, "saved").text.startswith("saved") and d.find_element(By.ID, "saved").text,
                                message="the second save did not save")
    finally:
        browser.stop(web)
    with open(a.config) as f:
        new = f.read()
    check(new.endswith("# added by someone else while the page was open\n"), "the other change was lost")
    check("          - sepia" in new.splitlines(), "the chain was not saved")
    with open(a.config + "~") as f:
        check(f.read() == edited, "FILE~ is not the file as it was before the save")


def scenario_assets(a):
    """The file picker offers only files the preview may read; any other path is refused at its control."""
    web = open_page(a.url)
    try:
        add(web, "overlay_image")
        picker = control(web, 0, "image")
        offered = [o.get_attribute("value") for o in picker.find_elements(By.TAG_NAME, "option")]
        check("photo.png" in offered and "inbox/in.png" in offered, f"the picker offers {offered}")
        check("outlink.png" not in offered, f"the picker offers a link that leads outside: {offered}")
        check(not any(o.startswith("/") or ".." in o for o in offered), f"the picker offers paths outside: {offered}")
        from selenium.webdriver.support.ui import Select
        Select(picker).select_by_value("photo.png")
        wait_for_new_render(web, "")
        check(web.find_element(By.CSS_SELECTOR, '[data-step="0"] [data-error-for="image"]').text == "", "photo.png was refused")
    finally:
        browser.stop(web)
    outside = os.path.join(a.outside, "logo.png")
    for path, words in (("../" + os.path.basename(a.outside) + "/logo.png", '".." is refused'),
                        (outside, "absolute paths are refused"),
                        ("outlink.png", "leads outside")):
        chain = {"steps": [{"name": "overlay_image", "enabled": True, "parameters": [{"name": "image", "value": path}]}]}
        status, body = request(a.url, "/api/check", method="POST", body={"chain": chain})
        problems = json.loads(body)["problems"] if status == 200 else []
        check(any(p.get("parameter") == "image" and words in p["message"] for p in problems),
              f"{path}: expected a refusal ({words}) at the image control, got {status} {body[:200]!r}")
        status, body = request(a.url, "/api/render", method="POST", body={
            "page": "assets", "sequence": 1, "root": "images", "path": "0", "seed": "1", "chain": chain})
        answer = json.loads(body) if status == 200 else {}
        check(answer.get("id") is None and any(words in p["message"] for p in answer.get("problems", [])),
              f"{path}: the render was not refused: {status} {body[:200]!r}")


def scenario_cancel(a):
    """A newer edit cancels the render of an older one inside its step; the newer picture is returned.

    Image 0 is big.png (2000×1500, in --scratch); edit 1 runs slow filters on it. Once its first
    output strip is written (/api/progress), edit 2 asks for sepia: edit 1 must end superseded
    with fewer strips written than its total, and edit 2's picture must be what `process` writes.
    """
    import threading
    page = "cancel"
    big = os.path.join(a.scratch, "big.png")
    slow = {"steps": [{"name": "median", "enabled": True, "parameters": [{"name": "radius", "value": "10"}]},
                      {"name": "gaussian_blur", "enabled": True, "parameters": [{"name": "radius", "value": "40"}]},
                      {"name": "median", "enabled": True, "parameters": [{"name": "radius", "value": "10"}]}]}
    fast = {"steps": [{"name": "sepia", "enabled": True, "parameters": [{"name": "intensity", "value": "0.5"}]}]}
    answers = {}

    def post(sequence, chain):
        status, body = request(a.url, "/api/render", method="POST", body={
            "page": page, "sequence": sequence, "root": "images", "path": "0", "seed": "7", "chain": chain})
        answers[sequence] = (status, body)

    older = threading.Thread(target=post, args=(1, slow))
    older.start()

    def strips_written():
        check(older.is_alive(), f"the slow render ended before it reported a strip: {answers.get(1)}")
        status, body = request(a.url, f"/api/progress?page={page}")
        check(status == 200, f"/api/progress answered {status} {body[:200]!r}")
        progress = json.loads(body)
        return progress if progress.get("sequence") == 1 and progress.get("strips", 0) >= 1 else None
    started = wait_until(strips_written, "the slow render never reported a strip written")
    post(2, fast)
    older.join(timeout=600)
    check(not older.is_alive(), "the older render did not end")
    status, body = answers[1]
    answer = json.loads(body) if status == 200 else {}
    stopped = answer.get("stopped") or {}
    check(answer.get("superseded") is True and answer.get("id") is None and not answer.get("problems"),
          f"the older render should end superseded, without a picture or an error: {status} {body[:300]!r}")
    check(stopped.get("of") == started["of"] and started["strips"] <= stopped.get("strips", -1) < stopped["of"],
          f"the older render should stop part-way (it had written {started}): stopped {stopped}")
    status, body = answers[2]
    newer = json.loads(body) if status == 200 else {}
    check(newer.get("id") == 2 and not newer.get("superseded"), f"the newer edit's render: {status} {body[:300]!r}")
    status, png = request(a.url, f"/api/picture?page={page}&id=2")
    check(status == 200, f"the newer picture answered {status}")
    result = darkroom(["process", "--chain", "sepia intensity=0.5", "--seed", "7", big, "-o", os.path.join(a.scratch, "cancel-process.png")], a.darkroom)
    check(result.returncode == 0, f"darkroom process: {result.stderr}")
    with open(os.path.join(a.scratch, "cancel-process.png"), "rb") as f:
        check(png == f.read(), "the newer picture differs from what `darkroom process` writes")
    status, _ = request(a.url, f"/api/picture?page={page}&id=1")
    check(status == 404, f"the cancelled render left a picture: {status}")


def png_size(data):
    """(width, height) from a PNG's IHDR."""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"not a PNG: {data[:16]!r}")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def scenario_approximate(a):
    """The exact render of an edit waits for the edit's approximate render, which both requests share.

    Image 0 is big.png (2000×1500, in --scratch). The exact request alone, with approximateFirst,
    must leave the approximate picture of its edit (screen size, 1024×768) rendered before the
    exact render started; the approximate request sent afterwards must answer with that same
    render (the same report), not render again; and the exact picture is what `process` writes.
    """
    page = "approximate"
    big = os.path.join(a.scratch, "big.png")
    chain = {"steps": [{"name": "sepia", "enabled": True, "parameters": [{"name": "intensity", "value": "0.7"}]}]}
    body = {"page": page, "sequence": 1, "root": "images", "path": "0", "seed": "3", "chain": chain}
    status, raw = request(a.url, "/api/render", method="POST", body=dict(body, approximateFirst=True))
    exact = json.loads(raw) if status == 200 else {}
    check(exact.get("id") == 1 and not exact.get("approximate") and not exact.get("superseded"),
          f"the exact render: {status} {raw[:300]!r}")
    status, png = request(a.url, f"/api/picture?page={page}~approximate&id=1")
    check(status == 200, f"the exact request left no approximate picture of its edit: {status}")
    check(png_size(png) == (1024, 768), f"the approximate picture is {png_size(png)}, not the screen copy's 1024×768")
    status, raw = request(a.url, "/api/render", method="POST", body=dict(body, approximate=True))
    quick = json.loads(raw) if status == 200 else {}
    check(quick.get("id") == 1 and quick.get("approximate") is True, f"the approximate request: {status} {raw[:300]!r}")
    status, raw = request(a.url, "/api/render", method="POST", body=dict(body, approximate=True))
    again = json.loads(raw) if status == 200 else {}
    check(json.loads(again.get("report") or "{}") == json.loads(quick["report"]),
          "asked twice, the approximate render ran twice (the reports differ)")
    quick_timings, exact_timings = json.loads(quick["report"])["timings"], json.loads(exact["report"])["timings"]
    # Reports write UTC times with milliseconds in one form: as strings they sort as times do.
    check(quick_timings["finished"] <= exact_timings["started"],
          f"the approximate render ({quick_timings}) did not end before the exact one started ({exact_timings})")
    status, png = request(a.url, f"/api/picture?page={page}&id=1")
    check(status == 200 and png_size(png) == (2000, 1500), f"the exact picture: {status}")
    out = os.path.join(a.scratch, "approximate-process.png")
    result = darkroom(["process", "--chain", "sepia intensity=0.7", "--seed", "3", big, "-o", out], a.darkroom)
    check(result.returncode == 0, f"darkroom process: {result.stderr}")
    with open(out, "rb") as f:
        check(png == f.read(), "the exact picture differs from what `darkroom process` writes")


def wait_until(condition, message, timeout=300):
    """Asks `condition()` until it gives something truthy (polling, no fixed wait); returns it."""
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise Failure(message)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("--url", required=True)
    parser.add_argument("--darkroom", required=True)
    parser.add_argument("--image")
    parser.add_argument("--config")
    parser.add_argument("--scratch")
    parser.add_argument("--screenshot")
    parser.add_argument("--outside")
    a = parser.parse_args()
    try:
        globals()["scenario_" + a.scenario](a)
    except Failure as failure:
        print(f"FAIL {a.scenario}: {failure}")
        sys.exit(1)
    print(f"ok {a.scenario}")


if __name__ == "__main__":
    main()
