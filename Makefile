# `make run` and `make test` are the two commands a fresh machine needs.
# Each creates .venv and installs the project into it when missing (or when pyproject.toml changed).
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
STAMP  := $(VENV)/.installed

.PHONY: run test proof bench soak bundle lock lint clean postgres-server qt-libraries xvfb screenshots floor \
	floor-screenshots chromium

# System packages: installed with apt-get when missing and we may (root); otherwise say which.
postgres-server:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	    else echo "make: the tests need the PostgreSQL server: install the 'postgresql' package"; exit 1; fi; }

# The pit floor's browser tests drive Debian's Chromium through its driver (selenium).
chromium:
	@{ command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; } || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	        chromium chromium-driver; \
	    else echo "make: the floor's browser tests need Chromium and its driver: install the" \
	      "'chromium' and 'chromium-driver' packages"; exit 1; fi; }

# Qt's X11 window needs system libraries the PySide6 wheel does not carry (libxcb-icccm4 and
# friends): app/ui/qtlibs.py asks `ldd` of Qt's X11 plugin which are missing, installs their
# packages with apt-get when it may (root), else names them in one line.
qt-libraries: $(STAMP)
	@$(BIN)/python -m app.ui.qtlibs --install

# The X server the screenshots are taken in.
xvfb:
	@command -v Xvfb >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb; \
	    else echo "make: screenshots need the X server Xvfb: sudo apt-get install xvfb"; exit 1; fi; }

# The window at each stage of a round, in a real X server as large as the largest station
# screen, at 1024x768, 1280x800, 1366x768, 1920x1080 and 2560x1440: each size into its own
# folder docs/screenshots/WIDTHxHEIGHT/. It fails (after writing them all) when a text is cut
# or a developer's word shows at any size. Only a few of 1024x768 and 1280x800 are committed
# (docs/screenshots/.gitignore): look at the others, do not commit them.
screenshots: $(STAMP) qt-libraries xvfb
	@Xvfb :97 -screen 0 2560x1440x24 -nolisten tcp >/dev/null 2>&1 & echo $$! > .xvfb.pid; sleep 1; \
	  DISPLAY=:97 $(BIN)/python -m app.ui.screenshots docs/screenshots; rc=$$?; \
	  kill $$(cat .xvfb.pid); rm -f .xvfb.pid; exit $$rc

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[station,floor,analysis,test,bench,installer]'
	$(BIN)/python -m app.cache
	touch $(STAMP)

run: $(STAMP) qt-libraries
	$(BIN)/paigow-dealer --demo

# The pit floor on a demo floor: four simulated tables on a fresh SQLite ledger; it prints
# the address and the demo user's password.
floor: $(STAMP)
	$(BIN)/paigow-floor --demo

# The floor's pages as the browser test sees them, into docs/floor/.
floor-screenshots: $(STAMP) postgres-server chromium
	PAIGOW_FLOOR_SCREENSHOTS=docs/floor $(BIN)/python -m pytest -q tests/floor/test_browser.py \
	  tests/floor/test_browser_progressive.py

# Tests run off screen, so missing window libraries are a warning here (the tests that need
# them say so); `make run` stops on them. lint-imports checks the import contracts of
# pyproject.toml (the layers, no circle: docs/session.md). One test process a core and one
# more (pytest-xdist; TEST_WORKERS): a test spends a third of its time waiting on the station
# processes, PostgreSQL and the browser it starts, and the extra process runs meanwhile (on
# the 2-core machine, 3 processes against 2: the cores idle 28 core-seconds of a run, not
# 95; pytest 359 s against 389-391 s, the same hour). Each is given whole files (a module's
# fixtures are made once; xdist's loadgroup groups nothing under pytest 9.2, pytest-xdist
# issue 1386), in the order tests/conftest.py puts them in: the files with slow tests first. Python keeps its compiled modules (PYTHONDONTWRITEBYTECODE unset): each
# worker and each station process the tests start would otherwise compile every module, and
# pytest rewrite every test, again. A worker that crashes ends the run at once, naming its
# test (--max-worker-restart=0): with loadfile, xdist's replacement is given no work and the
# run waits forever (pytest-xdist issue 784; seen here after a segmentation fault).
test: $(STAMP) postgres-server chromium
	@$(BIN)/python -m app.ui.qtlibs --install --warn
	$(BIN)/ruff check app drivers tests
	$(BIN)/mypy
	$(BIN)/lint-imports
	QT_QPA_PLATFORM=offscreen PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q \
	  -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --max-worker-restart=0 \
	  --durations=15 -m "not proof"

# The checks over every hand or of minutes by nature (marked `proof`), which `make test`
# leaves out to stay within 5 minutes: every card over all 154,143,080 hands (the rows each
# fires, none fouls, the Trump Plaza file the same as its Python card), the 52-card deck's
# hand classes and each House Way pattern's hands, the second and third exact counts of the
# bonus and the odds, the larger decks counted hand by hand, Trump Plaza's
# published figures over a million rounds, advice against a card file's dealer (the file's
# House Way table is built), twenty stations killed and six restarted mid-deal (the fault
# suite), the dealer's screen at the three sizes between the smallest and the largest, the
# window in all 64 device states, five stations writing one ledger at once, and the
# station's bundle built and started. CI (.ci/run) runs
# `make test` and then this.
proof: $(STAMP)
	@$(BIN)/python -m app.ui.qtlibs --install --warn
	QT_QPA_PLATFORM=offscreen PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto \
	  --dist loadfile --no-loadscope-reorder --max-worker-restart=0 --durations=15 -m proof

bench: $(STAMP)
	$(BIN)/python -m tests.bench

# The fault suite's long form (its short form runs in `make test`): 100 kill -9s, 20
# restarts mid-deal, every fault of the shoe's line 10 times, PostgreSQL restarted under
# four writers, the disk full, 3000 fuzzed inputs per parser; the counts as a table.
soak: $(STAMP) postgres-server
	$(BIN)/python -m tests.faults --soak

lint: $(STAMP)
	$(BIN)/ruff check app drivers tests

# The station as a one-folder bundle in dist/ (installer/install.sh puts it on a station).
bundle: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH installer/build.sh

# The station bundle's exact versions, with their hashes (pip-tools): the bundle is built
# from installer/station.lock; run this after a dependency changes in pyproject.toml.
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --extra station --extra installer --generate-hashes \
		--strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links \
		-o installer/station.lock pyproject.toml

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
