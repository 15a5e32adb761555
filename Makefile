# Two commands on a fresh machine: `make run` serves the app, `make test` runs every test.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
CATALOGUES := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGUES:.po=.mo)

.PHONY: install run test lint messages bench

install: $(VENV)/.installed $(COMPILED)

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

%.mo: %.po $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -i $< -o $@

run: install
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/flask --app scorekeeper run --host 127.0.0.1 --port 5000

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check scorekeeper tests
	$(BIN)/ruff format --check scorekeeper tests
	$(BIN)/mypy scorekeeper/engine

# Extract the interface's strings and merge them into the three catalogues.
messages: install
	$(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations

bench: install
	$(BIN)/python -m pytest tests/engine/test_benchmark.py tests/test_benchmark_request.py \
		--benchmark-enable --benchmark-only --benchmark-columns=min,median,mean,rounds
