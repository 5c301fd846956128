# Two commands are the whole set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# Serving needs only the project's dependencies; the tests add the `dev` extra.
INSTALLED := $(VENV)/.installed
DEV_INSTALLED := $(VENV)/.installed-dev
HTMX := static/vendor/htmx.min.js
SWAGGER_UI := $(addprefix static/vendor/swagger-ui/,swagger-ui-bundle.js swagger-ui.css)
CHROMIUM := /usr/bin/chromium-headless-shell

.PHONY: setup setup-dev run test test-fast bench lint browser screenshots

setup: $(INSTALLED) $(HTMX) $(SWAGGER_UI)
setup-dev: setup $(DEV_INSTALLED)

# setup.py builds the Hard bot's C core (app/bots/_search.c) in place; a change to it rebuilds.
# The Dockerfile installs the same way (`pip install -e .`; tests/ops checks it).
$(INSTALLED): pyproject.toml setup.py app/bots/_search.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e .
	touch $@

# The test tools come in through uv, pinned here: it installs them in about 15 s where pip
# took 36 s, which CI pays on every clean clone. uv compiles their bytecode as pip does.
UV := uv==0.13.9
$(DEV_INSTALLED): $(INSTALLED)
	$(PY) -m pip install --quiet $(UV)
	$(VENV)/bin/uv pip install --quiet --python $(PY) --compile-bytecode -e '.[dev]'
	touch $@

# --ignore-scripts: the packages are plain files; swagger-ui-dist's dependency would otherwise
# run an install script that reports the download.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts

$(HTMX): node_modules/.package-lock.json
	mkdir -p $(dir $@)
	cp node_modules/htmx.org/dist/htmx.min.js $@

static/vendor/swagger-ui/%: node_modules/.package-lock.json
	mkdir -p $(dir $@)
	cp node_modules/swagger-ui-dist/$* $@

# Debian's Chromium headless shell drives the browser tests; Playwright's own browser download
# is not used.
browser:
	@test -x $(CHROMIUM) || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell; }

run: setup
	$(VENV)/bin/uvicorn app.main:app --host 127.0.0.1 --port 8000

# Four pytest-xdist workers, twice CI's two cores: most of a test's time is spent waiting (for a
# browser's animations, a server's answer), not computing (three workers were slower).
XDIST := -n 4
# The tests keep their bytecode (and pytest its rewritten asserts) even where the environment
# says not to: otherwise each of the four workers, and every server and search process a test
# starts, compiles the same modules again.
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

test: setup-dev browser
	$(VENV)/bin/mypy
	$(PYTEST) $(XDIST)

test-fast: setup-dev
	$(PYTEST) $(XDIST) -m "not browser and not slow"

lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(PY) tests/i18n/catalog_check.py

bench: setup-dev
	$(PY) -m bench

# The README's pictures: the browser tests take them when CARDROOM_SCREENSHOTS=1 (`make test`
# does not: a picture costs the browser a capture and a PNG); this refreshes docs/screenshots.
screenshots: setup-dev browser
	CARDROOM_SCREENSHOTS=1 $(PY) -m pytest -m browser -q
	cp test-results/screenshots/*.png docs/screenshots/
