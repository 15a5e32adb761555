# Two commands on a fresh machine: `make run` serves the app, `make test` runs every test;
# `make serve` is the production server (gunicorn, scorekeeper/gunicorn_conf.py).
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
CATALOGUES := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGUES:.po=.mo)

.PHONY: install install-test run serve worker test lint messages bench versions fuzz

# Generated cases for each API operation and each HTML form (tests/system/test_fuzz.py): 100 in
# `make test`, which CI runs on SQLite and on PostgreSQL (at 200 they were a fifth of CI's time,
# tests/README.md); `make fuzz` runs many more and kills the server more often
# (tests/system/test_crash.py), and checks the solver on all 100 deals of its golden file
# (tests/engine/test_golden.py; 6 in `make test`).
FUZZ_EXAMPLES ?= 100
FUZZ_MORE ?= 2000
CRASH_MORE ?= 30

# What serving needs (`make run`, `make serve`); the test and bench tools come with `make test`.
install: $(VENV)/.installed $(COMPILED)
install-test: $(VENV)/.installed-test $(COMPILED)

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $@

%.mo: %.po $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -i $< -o $@

# The development server with the analyses' consumer beside it (scorekeeper/background/beside.py).
run: install
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/python -m scorekeeper.background.beside $(BIN)/flask --app scorekeeper run --host 127.0.0.1 --port 5000

# Production: HOST (127.0.0.1), PORT (8000) and WEB_CONCURRENCY (2 workers) from the environment,
# behind a reverse proxy (deploy/nginx.conf); PROXY_COUNT=1 trusts its forwarded headers.
# ANALYSIS_WORKER=1 (the default here) runs the analyses' consumer beside the web workers;
# ANALYSIS_WORKER=0 when `make worker` runs elsewhere (several servers on one Redis queue).
ANALYSIS_WORKER ?= 1
serve: install
	$(BIN)/flask --app scorekeeper db upgrade
	ANALYSIS_WORKER=$(ANALYSIS_WORKER) $(BIN)/gunicorn --config python:scorekeeper.gunicorn_conf 'scorekeeper:create_app()'

# The analyses' consumer alone (huey, scorekeeper/background/): ANALYSIS_WORKERS at once (1), on
# the queue of ANALYSIS_QUEUE_URL (unset: instance/analysis-queue.sqlite3).
worker: install
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/python -m scorekeeper.background.consumer

# The suite on TEST_WORKERS processes (pytest-xdist; 3 on the 2-core machines it was measured
# on, tests/README.md), each with its own databases, servers and ports; PYTEST_ARGS adds to it.
TEST_WORKERS ?= 3
PYTEST_ARGS ?=
test: install-test
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal \
		--durations=10 $(PYTEST_ARGS)

fuzz: install-test
	FUZZ_EXAMPLES=$(FUZZ_MORE) CRASH_CYCLES=$(CRASH_MORE) GOLDEN_DEALS=100 $(BIN)/python -m pytest \
		tests/system/test_fuzz.py tests/system/test_crash.py tests/system/test_two_phones.py \
		tests/engine/test_golden.py

lint: install-test
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/ruff format --check scorekeeper tests bench
	$(BIN)/mypy scorekeeper
	$(BIN)/lint-imports

# Extract the interface's strings and merge them into the three catalogues.
messages: install
	$(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations

# The figures of docs/performance.md, each against a reference measured in the same run; prints
# the table, writes bench/results.json and fails when a budget is missed. Needs wrk (Debian's
# package: apt-get install wrk), Chromium, as the browser tests do, and nginx with openssl (the
# floods of bench/floods.py go through the documented nginx, .ci/proxy).
bench: install-test
	@command -v wrk >/dev/null || { echo "make bench needs wrk: apt-get install wrk"; exit 2; }
	$(BIN)/python -m bench

# This checkout against BASELINE (a git revision or another checkout's folder), the rubber page
# and the hand POST in alternate rounds of one run (bench/versions.py). BASELINE is the last main
# an issue landed on: each closing note of a change to the request path gives these two ratios.
BASELINE ?= 648126f
VERSIONS_ROUNDS ?= 8
versions: install-test
	@command -v wrk >/dev/null || { echo "make versions needs wrk: apt-get install wrk"; exit 2; }
	$(BIN)/python -m bench.versions $(BASELINE) $(VERSIONS_ROUNDS)
