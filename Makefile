# Two commands a newcomer needs (see README):
#   make app    set up .venv if missing, install ranklens, serve the app on the bundled demo data
#               (`ranklens app`, the command an installed wheel gives)
#   make test   set up .venv with the test and spark extras (and Debian chromium, postgresql
#               and Java 17), lint, type-check, run all tests
#   make test-fast   the edit loop: lint and the tests that are neither slow nor in a browser
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: app test test-fast lint typecheck pytest bench demo-data chromium postgresql java

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.app-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,spark]'
	touch $@ $(VENV)/.app-installed

app: $(VENV)/.app-installed
	$(BIN)/ranklens app --port $(PORT)

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

# The Spark engine tests (ranklens[spark]) need Java 17+: Debian's headless JRE when missing.
# An older java on PATH counts as missing (pyspark 4 needs 17), as in .ci/run.
JAVA_MAJOR = java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1
java:
	@[ "$$($(JAVA_MAJOR))" -ge 17 ] 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless; \
	  else echo "java 17 or newer is missing: run 'sudo apt-get install openjdk-17-jre-headless' (Debian/Ubuntu) for the Spark tests" >&2; exit 1; fi; }

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

# Parallel over the machine's cores (pytest-xdist); each worker starts its own app server.
# --dist loadgroup keeps the Spark tests (xdist_group "spark") on one worker: one Spark session.
PYTEST_WORKERS ?= auto
# Some environments set PYTHONDONTWRITEBYTECODE: then every CLI and app-server process the
# tests start compiles ranklens from source again, and pytest rewrites every test module in
# each worker. The tests may cache bytecode (__pycache__ is ignored by git).
unexport PYTHONDONTWRITEBYTECODE

pytest: $(VENV)/.test-installed chromium postgresql java
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup --durations=25

# mypy (single-threaded, ~25 s on a fresh clone) runs beside pytest rather than before it. The
# Debian packages come first, one after another: two apt-get at once would fight over dpkg's lock.
test: lint chromium postgresql java
	$(MAKE) --no-print-directory -j2 typecheck pytest

# The edit loop: no browser tests, no simulations marked slow.
test-fast: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup -m "not slow and not browser"

bench: $(VENV)/.test-installed
	$(BIN)/python -m pip install -q -e '.[bench]'
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

demo-data: $(VENV)/.app-installed
	$(BIN)/python -m ranklens.demo.generate
