"""Headless Chromium driven by selenium, for the viewer's browser tests.

Chromium and its driver come from the distribution (``apt-get install chromium chromium-driver``;
``make test`` installs them where it can); without them the browser tests skip and say why.
Chromium starts with a fresh profile and without its background connections, which a closed
network refuses.
"""

from __future__ import annotations

import os
import shutil
import tempfile

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1000",
    "--force-device-scale-factor=1",
)


def find(name: str, env: str) -> str | None:
    path = os.environ.get(env) or shutil.which(name) or f"/usr/bin/{name}"
    return path if os.path.exists(path) else None


def why_unavailable() -> str | None:
    """None when a browser can be started, else what is missing and how to install it."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (it is in the dev extra: pip install -e '.[dev]')"
    if find("chromium", "CHROMIUM") is None or find("chromedriver", "CHROMEDRIVER") is None:
        return (
            "chromium and chromium-driver are not installed (apt-get install -y chromium "
            "chromium-driver; `make test` does it where apt-get may run)"
        )
    return None


def start(download_dir: str):
    """A headless Chromium whose downloads go to ``download_dir``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = find("chromium", "CHROMIUM")
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='deckzoo-chromium-')}")
    options.add_experimental_option(
        "prefs", {"download.default_directory": download_dir, "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(
        service=Service(find("chromedriver", "CHROMEDRIVER")), options=options
    )
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir}
    )
    driver.set_script_timeout(30)
    return driver


def screenshot(driver, path, max_height: int = 2400) -> None:
    """The whole page (up to ``max_height`` pixels), not just the window, as a PNG."""
    import base64

    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {
        "x": 0,
        "y": 0,
        "width": size["width"],
        "height": min(size["height"], max_height),
        "scale": 1,
    }
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
