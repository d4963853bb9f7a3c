# The README's two commands: `make run` and `make test`. Both start with `make setup`.
PY      ?= python3.11
VENV    := .venv
VPY     := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup run test db nlu asr tts bench-asr bench bench-ingest clean browser screenshots bench-ui

# Install once; re-install only when pyproject.toml changes. Then build what is missing or stale.
setup: $(STAMP) db nlu asr

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

# Speech: Debian's espeak-ng and flite speak the training questions; the fine-tuned speech model is built on
# first setup (about 57 minutes on 2 cores without bfloat16 instructions, less with them; with progress), then
# cached in models/asr/build/current.
tts:
	@command -v espeak-ng >/dev/null && command -v flite >/dev/null || { echo "installing espeak-ng, flite (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng flite >/dev/null; }

asr: db tts
	$(VENV)/bin/hpcask retrain --asr --if-missing

# The web UI on http://127.0.0.1:$(PORT) (Ctrl-C stops it).
PORT    ?= 8501
run: setup
	$(VENV)/bin/hpcask db stats
	$(VENV)/bin/hpcask ui --port $(PORT)

# Debian's Chromium drives the browser test (Playwright's own browser builds cannot be downloaded here).
browser:
	@test -x /usr/bin/chromium || { echo "installing chromium (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

test: setup browser
	$(VPY) -m pytest -q

# Benchmarks are run on purpose, not by the tests; each rewrites its section of bench/RESULTS.md.
bench: bench-ingest

bench-ingest: setup
	$(VPY) -m pip install -q -e '.[test,bench]'
	$(VPY) bench/ingest.py

# README screenshots of the web UI (docs/img/), and the UI's start-up and answer times.
screenshots: setup browser
	$(VPY) bench/screenshots.py

bench-ui: setup browser
	$(VPY) bench/ui.py

# Spoken evaluation also uses festival, an engine never used for training (independent voices).
bench-asr: setup
	@command -v text2wave >/dev/null && test -d /usr/share/festival/voices/us/cmu_us_slt_arctic_hts || { \
	  echo "installing festival voices (apt-get)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts >/dev/null; }
	$(VPY) bench/asr.py

clean:
	rm -rf var
