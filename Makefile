# The README's two commands: `make run` and `make test`. Both start with `make setup`.
PY      ?= python3.11
VENV    := .venv
VPY     := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup run test db nlu bench bench-ingest clean

# Install once; re-install only when pyproject.toml changes. Then build what is missing or stale.
setup: $(STAMP) db nlu

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VPY) -m pip install -q -e '.[test]'
	touch $(STAMP)

db: $(STAMP)
	$(VENV)/bin/hpcask db build --quiet

# The intent/slot model is trained here on first setup (a few minutes on 2 cores), then cached.
nlu: db
	$(VENV)/bin/hpcask retrain --if-missing

run: setup
	$(VENV)/bin/hpcask db stats

test: setup
	$(VPY) -m pytest -q

# Benchmarks are run on purpose, not by the tests; each rewrites its section of bench/RESULTS.md.
bench: bench-ingest

bench-ingest: setup
	$(VPY) -m pip install -q -e '.[test,bench]'
	$(VPY) bench/ingest.py

clean:
	rm -rf var
