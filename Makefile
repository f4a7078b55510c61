# The two commands of the README: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test check setup bench clean compiled

# Stamps: what the environment has.  The developer tools (`dev`) include what the server needs.
DEV_STAMP := $(VENV)/.installed-dev
PLAY_STAMP := $(VENV)/.installed-play

# pardon needs Python 3.11 or newer: said at once, not after pip has searched for a while.
NEED_PYTHON := import sys; sys.exit(sys.version_info < (3, 11))
WRONG_PYTHON := echo "pardon needs Python 3.11 or newer: give one, e.g. make play PYTHON=python3.11" >&2; exit 1

$(DEV_STAMP): pyproject.toml
	@$(PYTHON) -c '$(NEED_PYTHON)' || { $(WRONG_PYTHON); }
	@test ! -x $(BIN)/python || $(BIN)/python -c '$(NEED_PYTHON)' || { echo "$(VENV) holds an older Python: remove it (rm -r $(VENV))" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP) $(PLAY_STAMP)

setup: $(DEV_STAMP)

# Playing needs the server (and the printable sheets it offers) and the terminal game: no developer tools.
$(PLAY_STAMP): pyproject.toml
	@$(PYTHON) -c '$(NEED_PYTHON)' || { $(WRONG_PYTHON); }
	@test ! -x $(BIN)/python || $(BIN)/python -c '$(NEED_PYTHON)' || { echo "$(VENV) holds an older Python: remove it (rm -r $(VENV))" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[web,print,tui]'
	touch $(PLAY_STAMP)

# The browser client: the server prints the address to open; Ctrl+C stops it (the games are kept,
# and its status, 130, is no failure).
# `make play PORT=8001` serves on another port, `HOST=0.0.0.0` to friends on the network too,
# `DB=FILE` from another database file (a second server needs its own).  The terminal game: $(BIN)/pardon tui
PORT ?= 8000
HOST ?= 127.0.0.1
DB ?=
play: $(PLAY_STAMP)
	$(BIN)/pardon serve --host $(HOST) --port $(PORT)$(if $(DB), --db $(DB)) || test $$? -eq 130

# The tests run on every core at once and one worker more (pytest-xdist: each worker its own
# servers and browser; a browser test spends much of its time waiting on the page, so one worker
# a core leaves a core idle), and name the slowest (the suite's time is watched).
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: setup
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/ruff format --check src tests benchmarks scripts examples
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal --durations=25

# The quick loop for daily work: lint, types, and every test not marked slow (CI runs them all).
check: setup
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/mypy
	$(BIN)/python -m pytest -m "not slow" -x -n $(WORKERS) --dist worksteal

bench: setup
	bash benchmarks/setup_peer_env.sh
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .venv-compiled build .peer-venv .mypy_cache .pytest_cache .ruff_cache

# Optional: the rules core compiled with mypyc, in its own environment (.venv-compiled), for
# simulations and search; the pure-Python package stays the one tested.
compiled:
	$(PYTHON) -m venv .venv-compiled
	.venv-compiled/bin/python -m pip install --quiet --upgrade pip 'setuptools>=77' wheel 'mypy>=1.10,<3'
	PARDON_MYPYC=1 .venv-compiled/bin/python -m pip install --quiet --no-build-isolation '.[web,sim]'
	.venv-compiled/bin/python -c "import pardon.core.kernel as k; print('compiled:', k.__file__)"
