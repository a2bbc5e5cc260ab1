"""The Spider solver compiled by mypyc (setup.py) against its Python source.

A compiled module loads in place of its source, so a stale extension would run code that is no
longer in the tree: these tests fail when an extension does not match its source, when a compiler
is there but nothing was compiled, and when the compiled search differs from the source's in any
verdict, node count or line.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.solver import solve_deal
from engine.solver.compiled import COMPILED_MODULES, compiled_modules

ROOT = Path(__file__).resolve().parents[2]
SOLVER = ROOT / "engine" / "solver"

# Deals of each suit count, and budgets, that reach every search the first pass runs: the one- and
# two-suit depth-first pass and best-first settings, the four-suit jittered pair, a win and an unknown.
CASES = [(1, 101, 5_000), (1, 2532, 3_000), (2, 101, 20_000), (4, 101, 30_000), (4, 102, 8_000)]

_SOLVE = """
import hashlib, json, sys
from engine.solver import solve_deal
from engine.solver.compiled import compiled_modules
rows = []
for suits, seed, budget in json.loads(sys.argv[1]):
    verdict = solve_deal("spider", {"suits": suits}, seed, budget)
    rows.append([verdict.result, verdict.nodes, hashlib.sha256(repr(verdict.line).encode()).hexdigest()])
print(json.dumps({"compiled": list(compiled_modules()), "rows": rows}))
"""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_setup_py_compiles_the_modules_the_engine_names():
    text = (ROOT / "setup.py").read_text()
    for name in COMPILED_MODULES:
        assert f'"engine/solver/{name}.py"' in text
        assert f"engine/solver/{name}.py" in (ROOT / "Makefile").read_text()


def test_the_solver_is_compiled_where_a_compiler_is():
    if os.environ.get("ARENA_PURE_PYTHON") == "1":
        pytest.skip("ARENA_PURE_PYTHON=1: the install compiled nothing on purpose")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler on this machine: the solver runs as Python source by design")
    assert compiled_modules() == COMPILED_MODULES, "reinstall (make, or pip install -e .) to compile them"


def test_every_extension_matches_its_source():
    built = compiled_modules()
    if not built:
        pytest.skip("nothing compiled: every module runs from its source")
    recorded = json.loads((SOLVER / "compiled-sources.json").read_text())
    for name in built:
        assert recorded.get(f"engine.solver.{name}") == _digest(SOLVER / f"{name}.py"), (
            f"engine/solver/{name}.py changed since it was compiled: run make (or pip install -e .) again")


def test_the_compiled_search_is_the_source_search_node_for_node(tmp_path):
    """The source runs in a copy of the engine without the extensions, in its own process."""
    if not compiled_modules():
        pytest.skip("nothing compiled: the two would be the same code")
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    done = subprocess.run([sys.executable, "-c", _SOLVE, json.dumps(CASES)], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=300, check=True)
    source = json.loads(done.stdout)
    assert source["compiled"] == []  # the copy really ran from source
    here = []
    for suits, seed, budget in CASES:
        verdict = solve_deal("spider", {"suits": suits}, seed, budget)
        here.append([verdict.result, verdict.nodes, hashlib.sha256(repr(verdict.line).encode()).hexdigest()])
    assert here == source["rows"]
    assert {row[0] for row in here} == {"winnable", "unknown"}
