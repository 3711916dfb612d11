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
    """One headless Chromium for the session (its tests share an xdist group, so one worker)."""
    why = B.why_unavailable()
    if why:
        pytest.skip(f"browser tests skipped: {why}")
    driver = B.start(browser_downloads)
    yield driver
    driver.quit()
