# Two commands are the whole set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
HTMX := static/vendor/htmx.min.js
CHROMIUM := /usr/bin/chromium

.PHONY: setup run test test-fast bench lint browser screenshots

setup: $(INSTALLED) $(HTMX)

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

$(HTMX): node_modules/.package-lock.json
	mkdir -p $(dir $@)
	cp node_modules/htmx.org/dist/htmx.min.js $@

# Debian's Chromium drives the browser tests; Playwright's own browser download is not used.
browser:
	@test -x $(CHROMIUM) || { apt-get update -qq && apt-get install -y -qq chromium; }

run: setup
	$(VENV)/bin/uvicorn app.main:app --host 127.0.0.1 --port 8000

test: setup browser
	$(PY) -m pytest

test-fast: setup
	$(PY) -m pytest -m "not browser and not slow"

lint: setup
	$(VENV)/bin/ruff check .
	$(PY) tests/i18n/catalog_check.py

bench: setup
	$(PY) -m bench

# The README's pictures: the browser tests take them; this refreshes docs/screenshots from them.
screenshots: setup browser
	$(PY) -m pytest -m browser -q
	cp test-results/screenshots/*.png docs/screenshots/
