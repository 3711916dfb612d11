# `make demo` and `make test` each bootstrap .venv from nothing (torch's CPU wheel first, then
# the project with its extras), so a fresh clone needs nothing but python3.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH := torch==2.13.0

.PHONY: demo test test-fast lint playthroughs layout-tables bench bench-peers clean-venv browser screenshots \
	docs docs-serve format

$(STAMP): pyproject.toml setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(TORCH)
	$(PY) -m pip install -q -e ".[train,dev,ray,docs,openspiel]"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/deckzoo demo

test: $(STAMP) browser
	$(VENV)/bin/ruff check envs agents training benchmarks tests mkdocs_hooks.py
	$(VENV)/bin/ruff format --check envs agents training benchmarks tests mkdocs_hooks.py
	$(PY) -m pytest -q -n 2 --dist loadgroup

# The viewer's browser tests (tests/viewer/test_browser.py) drive the distribution's Chromium;
# install it when it is missing and apt-get may run (as root or through sudo without a password).
# Where it cannot be installed, those tests skip and say why.
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=no; fi; \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$SUDO" != no ]; then \
	    ($$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive \
	      apt-get install -y -q chromium chromium-driver) \
	    || echo "could not install chromium: the browser tests will skip"; \
	  else echo "chromium is missing and apt-get cannot run here: the browser tests will skip"; fi; \
	fi

# Refresh the pictures of docs/viewer.md (the replay page of each game, from the browser test).
screenshots: $(STAMP) browser
	DECKZOO_SCREENSHOTS=docs/viewer $(PY) -m pytest -q tests/viewer/test_browser.py -k replay_page

# The documentation site (mkdocs.yml) in site/: warnings are errors, so a broken link or anchor, a
# page left out of the nav or an API object that does not exist fails the build.
# tests/core/test_docs_site.py builds it too, so `make test` checks it.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

docs-serve: $(STAMP)
	$(VENV)/bin/mkdocs serve --strict

test-fast: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check envs agents training benchmarks tests mkdocs_hooks.py
	$(VENV)/bin/ruff format --check envs agents training benchmarks tests mkdocs_hooks.py

# One style: ruff's formatter (`make test` fails on a file it would change).
format: $(STAMP)
	$(VENV)/bin/ruff format envs agents training benchmarks tests mkdocs_hooks.py

playthroughs: $(STAMP)
	$(PY) -m deckzoo.envs.playthrough

# The observation and global-state tables of docs/rules/<game>.md, printed from the layouts.
layout-tables: $(STAMP)
	$(PY) -m deckzoo.envs.layout_docs

bench: $(STAMP)
	$(PY) benchmarks/throughput.py

# The peers (OpenSpiel, rlcard for PettingZoo's classic card envs) come from the [bench] extra.
bench-peers: $(STAMP)
	$(PY) -m pip install -q -e ".[bench]"
	$(PY) benchmarks/peers.py

clean-venv:
	rm -rf $(VENV)
