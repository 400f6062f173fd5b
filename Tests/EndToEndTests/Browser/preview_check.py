"""Drives a running `darkroom preview` in headless Chromium (one scenario per run).

Run by Tests/EndToEndTests/PreviewBrowserTests.swift, which starts the server and prepares
the files; exits 0 when the scenario holds, else prints what a user would have seen and exits 1.

  python3 preview_check.py SCENARIO --url URL --darkroom BIN [--image FILE] [--config FILE]
                                    [--scratch DIR] [--screenshot PNG]
"""
import argparse
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


def scenario_save(a):
    with open(a.config) as f:
        old = f.read()
    web = open_page(a.url)
    try:
        # The server opened watches[0].outputs[1] (--watch, --output): its chain is on the page.
        browser.wait_for(web, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-step="0"][data-filter="resize"]'), message="the chain was not opened")
        add(web, "sepia")
        wait_for_new_render(web, "")
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("--url", required=True)
    parser.add_argument("--darkroom", required=True)
    parser.add_argument("--image")
    parser.add_argument("--config")
    parser.add_argument("--scratch")
    parser.add_argument("--screenshot")
    a = parser.parse_args()
    try:
        globals()["scenario_" + a.scenario](a)
    except Failure as failure:
        print(f"FAIL {a.scenario}: {failure}")
        sys.exit(1)
    print(f"ok {a.scenario}")


if __name__ == "__main__":
    main()
