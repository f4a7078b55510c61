# The two commands of the README: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test check setup bench clean

$(BIN)/pardon: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(BIN)/pardon

setup: $(BIN)/pardon

# The browser client: the server prints the address to open (Ctrl+C stops it).
# The terminal game stays one command away: $(BIN)/pardon play
play: setup
	$(BIN)/pardon serve

test: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The quick loop for daily work: lint, types, and every test not marked slow (CI runs them all).
check: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest -m "not slow" -x

bench: setup
	bash benchmarks/setup_peer_env.sh
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .peer-venv .mypy_cache .pytest_cache .ruff_cache
