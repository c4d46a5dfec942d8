# Two commands for a fresh machine: `make run` and `make test`.
# Another Python (3.11 to 3.13): `make run PYTHON=python3.13` (a new one: `make clean` first).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider
# Test processes (pytest-xdist). The suite waits far more than it computes (about 6 CPU
# minutes in a 17-minute serial run), so it runs more processes than this machine's 2 cores.
# `make test JOBS=0` runs everything in one process. `make test` hands tests out one at a
# time (--maxschedchunk 1): in xdist's default chunks the first worker got the first 155
# tests, every slow and browser test (tests/conftest.py runs them first), and the run waited
# minutes at its end for two workers still in the browser matrix. `make check` has no long
# test: it keeps the default chunks, where a module's tests share one worker and so its
# module-scoped fixtures (a game played once for a whole file) are made once, not per worker.
JOBS ?= 4
XDIST = -n $(JOBS)
# Bytecode caches on even where the shell turns them off (PYTHONDONTWRITEBYTECODE=1): without
# them pytest rewrites the asserts of every test module in the main process and in each
# worker, every run (7.2 CPU-s apiece here, 2.2 s with the cache).
CACHED = env -u PYTHONDONTWRITEBYTECODE
# The shell scripts shellcheck lints (-x: it follows what each sources, as install.sh's parts in
# deploy/install.d/, which it also lints one by one). `make test` installs shellcheck where it
# can (root: Debian's package) and fails on any finding; `make check` lints when it is there.
SHELL_SCRIPTS := $(wildcard deploy/*.sh deploy/install.d/*.sh tools/*.sh tools/pibox/*.sh)
SHELLCHECK = shellcheck -x $(SHELL_SCRIPTS)

.PHONY: run test check lint jscheck bench pi-check pi-shim-check pico-check clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# What running needs: the project and its dependencies (no test tools, no browser).
$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# Everything: the project with the test extra (pytest, ruff, Playwright, ...).
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(RUN_STAMP)

## Set up and start the service on the virtual board (open http://localhost:8080).
run: $(RUN_STAMP)
	$(BIN)/riskboard serve --sim $(if $(SETUP),--setup $(SETUP))

# The pages' JavaScript (pi_app/web/static, issue 32.7): ESLint, pinned in tools/jscheck's
# package-lock.json and installed by `npm ci` there (as the Pico box's is), and the unit
# tests in tests/js, run by node's own test runner (no package). Node 20.
JSCHECK := tools/jscheck
JS_STAMP := $(JSCHECK)/node_modules/.package-lock.json
$(JS_STAMP): $(JSCHECK)/package-lock.json
	bash tools/ensure-node.sh
	cd $(JSCHECK) && npm ci --no-audit --no-fund --loglevel=error
jscheck: $(JS_STAMP)
	$(JSCHECK)/node_modules/.bin/eslint -c $(JSCHECK)/eslint.config.js pi_app/web/static tests/js $(JSCHECK)/eslint.config.js
	node --test tests/js/

## Set up and run the whole test suite (lint and types included), on every core.
test: $(STAMP) jscheck
	bash tools/ensure-browser.sh
	bash tools/ensure-shellcheck.sh
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(SHELLCHECK)
	$(CACHED) $(PYTEST) $(XDIST) --maxschedchunk 1

## While working: lint, types and the fast tests (not the long games, no browser), on every core.
check: $(STAMP) jscheck
	$(BIN)/ruff check .
	$(BIN)/mypy
	@if command -v shellcheck >/dev/null; then $(SHELLCHECK); else \
		echo "note: no shellcheck here, the shell scripts were not linted (make test does: sudo apt-get install -y shellcheck)"; fi
	$(CACHED) $(PYTEST) $(XDIST) -m "not slow and not browser"

lint: $(STAMP) jscheck
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(SHELLCHECK)

bench: $(STAMP)
	$(BIN)/python -m bench

## The real firmware on real MicroPython on an emulated RP2040 (rp2040js), driven by the
## Pi's own link over a pseudo-terminal: tests/picobox (tools/picobox says how; ~10 min).
## The UF2 and bootrom come from ../shared/pico-box/ (or RISKBOARD_PICO_UF2/_BOOTROM).
PICO_STAMP := $(VENV)/.installed-picobox
PICO_NODE := tools/picobox/node_modules/.package-lock.json
$(PICO_STAMP): $(STAMP) tools/picobox/requirements.txt
	$(BIN)/python -m pip install --quiet -r tools/picobox/requirements.txt
	touch $(PICO_STAMP)
$(PICO_NODE): tools/picobox/package-lock.json
	bash tools/ensure-node.sh
	cd tools/picobox && npm ci --no-audit --no-fund --loglevel=error
pico-check: $(PICO_STAMP) $(PICO_NODE)
	$(PYTEST) -m picobox tests/picobox

## As root: install and run riskboard on an emulated arm64 Raspberry Pi (Bookworm) the way
## a maker does, its Pico the real firmware on the emulated RP2040 (the Pico box's, above),
## and check it (tools/pibox/pi-check.sh says how; ~25 minutes when cold).
pi-check: $(STAMP) $(PICO_STAMP) $(PICO_NODE)
	bash tools/pibox/pi-check.sh

## As root: the real rpi-ws281x (SPI) and lgpio in an arm64 root against the Pi devices an
## LD_PRELOAD shim fakes (tools/pibox/shim/README.md; ~20 s, ~7 minutes the first time).
pi-shim-check:
	bash tools/pibox/shim-check.sh

clean:
	rm -rf $(VENV) build *.egg-info
