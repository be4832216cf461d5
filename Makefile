# Evidenz: `make run` serves the embedded default, `make test` runs every test.
# Both set up everything on a fresh machine: the virtualenv, the default library, Chromium for browser tests.

VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app app
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2
THREADS ?= 4
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run dev test install library chromium clean-library

run: install library
	FLASK_LOAD_ON_START=true $(VENV)/bin/gunicorn --preload --worker-class gthread \
		--workers $(WORKERS) --threads $(THREADS) --timeout 120 \
		--bind $(HOST):$(PORT) 'app:create_app()'

dev: install library
	$(FLASK) run --host $(HOST) --port $(PORT) --debug

test: install chromium
	$(PY) -m pytest

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install -r requirements.txt
	touch $@

library: install
	@[ -f data/library/library.sqlite3 ] || $(FLASK) ingest-default

chromium:
	@(command -v chromium >/dev/null && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]) || \
		($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium fonts-dejavu-core)

clean-library:
	rm -rf data/library data/downloads
