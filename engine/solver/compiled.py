"""Which of the solver's modules run compiled and which as Python source.

setup.py compiles the Spider solver's modules with mypyc where a C compiler is found; elsewhere
they run as source. Both search the same nodes in the same order, so every verdict, node count
and line is the same either way (tests/engine/test_solver_compiled.py compares them); only the
time differs, so figures of time say which it was.
"""

from __future__ import annotations

import importlib

# The modules setup.py's COMPILED lists, by name in this package.
COMPILED_MODULES = ("spider_board", "spider", "spider_best", "spider_restarts")


def compiled_modules() -> tuple[str, ...]:
    """The modules of COMPILED_MODULES that were loaded from an extension, not from source."""
    loaded = (importlib.import_module(f"{__package__}.{name}") for name in COMPILED_MODULES)
    return tuple(module.__name__.rsplit(".", 1)[1] for module in loaded
                 if not (module.__file__ or "").endswith(".py"))


def describe() -> str:
    """One line for figures of time: how the Spider solver runs in this process."""
    found = compiled_modules()
    if len(found) == len(COMPILED_MODULES):
        return "Spider solver: compiled (mypyc)"
    if not found:
        return "Spider solver: Python source (not compiled: no C compiler, or ARENA_PURE_PYTHON=1)"
    return f"Spider solver: partly compiled ({', '.join(found)}); the rest Python source"
