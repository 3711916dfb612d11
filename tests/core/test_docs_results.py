"""What the documentation site promises its reader, beyond building strictly (test_docs_site.py).

* Search works with ``site/index.html`` opened from disk (README.md says to open it so).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

yaml = pytest.importorskip("yaml")


def _mkdocs_config() -> dict:
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text())


def _plugin_names(config: dict) -> list[str]:
    return [p if isinstance(p, str) else next(iter(p)) for p in config.get("plugins", [])]


def test_search_works_from_disk():
    """From ``file://`` Material shows its search box only when the index comes as a script
    (the ``offline`` plugin writes ``search/search_index.js``) and a Web Worker can start, which
    needs the iframe-worker shim; the plugin would load that from unpkg.com, which a reader
    without a network cannot reach, so the site carries its own copy."""
    config = _mkdocs_config()
    plugins = _plugin_names(config)
    assert "search" in plugins and "offline" in plugins, (
        "mkdocs.yml: search from disk needs Material's offline plugin beside search"
    )
    assert config.get("use_directory_urls") is False, "pages must be files (rules/gobig.html)"
    shims = [p for p in config.get("extra", {}).get("polyfills", []) if "iframe-worker" in p]
    assert shims, "mkdocs.yml: extra.polyfills lists no iframe-worker shim (unpkg.com is used)"
    for shim in shims:
        assert "://" not in shim, f"the shim {shim} is loaded from the network"
        assert (ROOT / "docs" / shim).is_file(), f"docs/{shim} is missing"
