# `make run` and `make test` are the two commands a fresh machine needs.
# Each creates .venv and installs the project into it when missing (or when pyproject.toml changed).
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint clean postgres-server xvfb

# System packages: installed with apt-get when missing and we may (root); otherwise say which.
postgres-server:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	    else echo "make: the tests need the PostgreSQL server: install the 'postgresql' package"; exit 1; fi; }

xvfb:
	@command -v Xvfb >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb; \
	    else echo "make: screenshots need Xvfb: install the 'xvfb' package"; exit 1; fi; }

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[station,test,bench,installer]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/paigow-dealer --demo

test: $(STAMP) postgres-server
	$(BIN)/ruff check app drivers tests
	$(BIN)/mypy
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m tests.bench

lint: $(STAMP)
	$(BIN)/ruff check app drivers tests

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
