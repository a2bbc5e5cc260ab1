"""Which engine modules run compiled and which as Python source.

setup.py compiles two sets of modules with mypyc where a C compiler is found; elsewhere (or with
ARENA_PURE_PYTHON=1 at install) they run as source:
- the hot path: the shared decider (decide, evolve, the legal list and the player's view) and the
  games' rules, whose Structs live in modules of their own (engine/games/*_board.py): The Wish and
  Patient Pairs are pairing.py's rules with a variant, and stay source;
- the Spider solver's search.
Compiled or not, they are the same code: every event, view, verdict, node count and line is the
same either way (tests/engine/test_compiled.py runs both and compares them, and fails on an
extension built from an older source); only the time differs, so figures of time say which it was.
"""

from __future__ import annotations

import importlib

# Full module names; setup.py's COMPILED lists the same files (a test keeps the two alike).
HOT_PATH_MODULES = (
    "engine.decider", "engine.games.spider", "engine.games.pairing", "engine.games.wading_pool", "engine.games.wizard",
    "engine.games.wizard_moves", "engine.games.wizard_status", "engine.games.wizard_search",
)
SOLVER_MODULES = (
    "engine.solver.spider_board", "engine.solver.spider", "engine.solver.spider_best", "engine.solver.spider_restarts",
)
COMPILED_MODULES = HOT_PATH_MODULES + SOLVER_MODULES


def compiled_modules(names: tuple[str, ...] = COMPILED_MODULES) -> tuple[str, ...]:
    """Those of `names` that were loaded from an extension, not from source."""
    loaded = (importlib.import_module(name) for name in names)
    return tuple(module.__name__ for module in loaded if not (module.__file__ or "").endswith(".py"))


def describe_set(what: str, names: tuple[str, ...]) -> str:
    found = compiled_modules(names)
    if len(found) == len(names):
        return f"{what}: compiled (mypyc)"
    if not found:
        return f"{what}: Python source (not compiled: no C compiler, or ARENA_PURE_PYTHON=1)"
    return f"{what}: partly compiled ({', '.join(found)}); the rest Python source"


def describe() -> str:
    """One line for figures of time: how the engine's hot path and the Spider solver run here."""
    return f"{describe_set('engine hot path', HOT_PATH_MODULES)}; {describe_set('Spider solver', SOLVER_MODULES)}"
