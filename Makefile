# `make demo` and `make test` each bootstrap .venv from nothing (torch's CPU wheel first, then
# the project with its extras), so a fresh clone needs nothing but python3.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TORCH := torch==2.13.0

.PHONY: demo test test-fast lint playthroughs bench bench-peers clean-venv

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(TORCH)
	$(PY) -m pip install -q -e ".[train,dev,ray]"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/deckzoo demo

test: $(STAMP)
	$(PY) -m pytest -q -n 2 --dist loadgroup

test-fast: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check envs agents training benchmarks tests

playthroughs: $(STAMP)
	$(PY) -m deckzoo.envs.core.playthrough

bench: $(STAMP)
	$(PY) benchmarks/throughput.py

# The peers (OpenSpiel, rlcard for PettingZoo's classic card envs) come from the [bench] extra.
bench-peers: $(STAMP)
	$(PY) -m pip install -q -e ".[bench]"
	$(PY) benchmarks/peers.py

clean-venv:
	rm -rf $(VENV)
