"""Headless Debian Chromium under Selenium, shared by the browser tests (preview page, contact sheet).

Uses Debian's `chromium` and `chromium-driver` (scripts/install-deps.sh installs them, and Selenium
from PyPI) by their paths, so Selenium Manager never goes to the network. Environment:
  DARKROOM_CHROMIUM        the browser binary   (default /usr/bin/chromium)
  DARKROOM_CHROMEDRIVER    the driver binary    (default /usr/bin/chromedriver)
"""
import os
import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def chromium_paths():
    """The browser and driver binaries; raises with the package to install when one is missing."""
    browser = os.environ.get("DARKROOM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    driver = os.environ.get("DARKROOM_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
    for path, package in ((browser, "chromium"), (driver, "chromium-driver")):
        if not os.access(path, os.X_OK):
            raise RuntimeError(f"{path} not found: install Debian's {package} (scripts/install-deps.sh)")
    return browser, driver


def start(width=1400, height=1000, downloads=None):
    """A headless Chromium with a fresh profile, `width`×`height` CSS pixels at scale 1.

    The profile folder is removed by `stop`. Clipboard reads are allowed (copy buttons can be
    checked). Returns the WebDriver.
    """
    browser, driver = chromium_paths()
    profile = tempfile.mkdtemp(prefix="darkroom-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update",
                "--force-device-scale-factor=1", f"--window-size={width},{height}",
                f"--user-data-dir={profile}"):
        options.add_argument(arg)
    prefs = {"profile.content_settings.exceptions.clipboard": {"*": {"setting": 1}}}
    if downloads:
        prefs["download.default_directory"] = downloads
    options.add_experimental_option("prefs", prefs)
    web = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    web._darkroom_profile = profile
    return web


def stop(web):
    """Quits the browser and removes its profile folder."""
    profile = getattr(web, "_darkroom_profile", None)
    try:
        web.quit()
    finally:
        if profile:
            shutil.rmtree(profile, ignore_errors=True)


def wait_for(web, condition, timeout=60, message=""):
    """Waits until `condition(web)` is truthy (event-driven polling, no fixed sleep); returns it."""
    return WebDriverWait(web, timeout, poll_frequency=0.05).until(condition, message)


def screenshot(web, path):
    """Saves the viewport as PNG at `path`."""
    if not web.save_screenshot(path):
        raise RuntimeError(f"chromium could not write the screenshot {path}")
