# The two set-up commands of README.md: `make serve` and `make test`.
# Each creates .venv (if missing) and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test bench engine clean

# setup.py compiles these with mypyc (engine.compiled lists them): an install after they change builds them again.
NATIVE_SOURCES := engine/decider.py engine/games/spider.py engine/games/pairing.py engine/games/wading_pool.py \
	engine/games/wizard.py engine/games/wizard_moves.py engine/games/wizard_status.py engine/games/wizard_search.py \
	engine/solver/spider_board.py engine/solver/spider.py engine/solver/spider_best.py \
	engine/solver/spider_restarts.py

$(STAMP): pyproject.toml setup.py $(NATIVE_SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/arena serve

# The linter and the type checker first (pyproject.toml configures both): a new finding fails the run.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

engine: $(STAMP)
	$(BIN)/arena engine

clean:  # also the compiled solver (setup.py builds it in place, where it loads before its source)
	rm -rf $(VENV) .pytest_cache .hypothesis build
	rm -f engine/*.so engine/*/*.so engine/compiled-sources.json arena_*__mypyc*.so
