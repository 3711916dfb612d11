from __future__ import annotations

import shutil
import tempfile

import pytest

from . import browser as B


@pytest.fixture(scope="session")
def browser_downloads():
    path = tempfile.mkdtemp(prefix="deckzoo-downloads-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def browser(browser_downloads):
    """One headless Chromium per test process. The browser tests share an xdist group so that
    one worker runs them all; pytest-xdist 3.8 under pytest 9.2 ignores groups
    (pytest-dev/pytest-xdist#1386), so each of the two workers may start its own."""
    why = B.why_unavailable()
    if why:
        pytest.skip(f"browser tests skipped: {why}")
    driver = B.start(browser_downloads)
    yield driver
    driver.quit()
