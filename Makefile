# Two commands a newcomer needs (see README):
#   make app    set up .venv if missing, install ranklens, serve the app on the bundled demo data
#   make test   set up .venv with the test extra (and Debian chromium and postgresql), lint,
#               type-check, run all tests
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: app test lint typecheck pytest bench demo-data chromium postgresql

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.app-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.app-installed

app: $(VENV)/.app-installed
	$(BIN)/streamlit run app.py --server.port $(PORT)

# The browser tests drive Debian's chromium (a browser download is not possible here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	  else echo "chromium is missing: run 'sudo apt-get install chromium' (Debian/Ubuntu) for the browser tests" >&2; exit 1; fi; }

# The PostgreSQL store's tests start their own server from Debian's postgresql package
# (initdb/pg_ctl; Debian keeps them in /usr/lib/postgresql/<version>/bin, off PATH).
postgresql:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
	  else echo "PostgreSQL is missing: run 'sudo apt-get install postgresql' (Debian/Ubuntu) for the store tests" >&2; exit 1; fi; }

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

pytest: $(VENV)/.test-installed chromium postgresql
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(VENV)/.test-installed
	$(BIN)/python -m pip install -q -e '.[bench]'
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

demo-data: $(VENV)/.app-installed
	$(BIN)/python -m ranklens.demo.generate
