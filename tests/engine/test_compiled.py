"""The engine's compiled modules (setup.py, mypyc) against their Python source.

A compiled module loads in place of its source, so a stale extension would run code that is no
longer in the tree: these tests fail when an extension does not match its source, when a compiler
is there but nothing was compiled, when the compiled hot path answers any move, refusal or view
differently from the source, when the compiled Spider search differs in any verdict, node count
or line, and when the engine's golden and property suites fail on the source.

The source runs in a copy of the engine without the extensions, in its own process.
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

from engine.compiled import COMPILED_MODULES, compiled_modules
from tests.engine.compiled_trace import TRACE_CASES, trace_digest
from engine.solver import solve_deal

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

# Deals of each suit count, and budgets, that reach every search the first pass runs: the one- and
# two-suit depth-first pass and best-first settings, the four-suit jittered pair, a win and an unknown.
SOLVER_CASES = [(1, 101, 5_000), (1, 2532, 3_000), (2, 101, 20_000), (4, 101, 30_000), (4, 102, 8_000)]

# The suites that pin the rules: golden logs, properties of every game, the decider's life cycle.
SOURCE_SUITES = [
    "tests/engine/test_core.py", "tests/engine/test_play_flow.py", "tests/engine/test_legal_life_cycle.py",
    "tests/engine/test_properties.py", "tests/engine/test_spider_golden.py", "tests/engine/test_spider_rules.py",
    "tests/engine/test_spider_properties.py", "tests/engine/test_golden_pairing.py",
    "tests/engine/test_wizard_golden.py", "tests/engine/test_wading_pool_golden.py",
]

_RUN_FROM_SOURCE = """
import hashlib, json, sys
from engine.compiled import compiled_modules
assert compiled_modules() == (), compiled_modules()  # the copy really runs from source
from engine.solver import solve_deal
from tests.engine.compiled_trace import TRACE_CASES, trace_digest
rows = []
for suits, seed, budget in json.loads(sys.argv[1]):
    verdict = solve_deal("spider", {"suits": suits}, seed, budget)
    rows.append([verdict.result, verdict.nodes, hashlib.sha256(repr(verdict.line).encode()).hexdigest()])
print(json.dumps({"solver": rows, "traces": [trace_digest(*case) for case in TRACE_CASES]}))
"""

_PYTEST_FROM_SOURCE = """
import sys, pytest
from engine.compiled import compiled_modules
assert compiled_modules() == (), compiled_modules()
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--import-mode=append", *sys.argv[1:]]))
"""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _source_copy(tmp_path: Path) -> Path:
    """The engine without its extensions, and the tests beside it, in a folder that comes first on
    the path of the process run there."""
    shutil.copytree(ENGINE, tmp_path / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copytree(ROOT / "tests", tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _run_in(folder: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(folder)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=folder, env=env,
                          timeout=timeout)


def test_setup_py_and_make_compile_the_modules_the_engine_names():
    setup, make = (ROOT / "setup.py").read_text(), (ROOT / "Makefile").read_text()
    for name in COMPILED_MODULES:
        path = name.replace(".", "/") + ".py"
        assert f'"{path}"' in setup
        assert path in make


def test_the_engine_is_compiled_where_a_compiler_is():
    if os.environ.get("ARENA_PURE_PYTHON") == "1":
        pytest.skip("ARENA_PURE_PYTHON=1: the install compiled nothing on purpose")
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler on this machine: the engine runs as Python source by design")
    assert compiled_modules() == COMPILED_MODULES, "reinstall (make, or pip install -e .) to compile them"


def test_every_extension_matches_its_source():
    built = compiled_modules()
    if not built:
        pytest.skip("nothing compiled: every module runs from its source")
    recorded = json.loads((ENGINE / "compiled-sources.json").read_text())
    for name in built:
        source = ROOT / (name.replace(".", "/") + ".py")
        assert recorded.get(name) == _digest(source), (
            f"{source.relative_to(ROOT)} changed since it was compiled: run make (or pip install -e .) again")


def test_a_compiled_module_defines_no_struct():
    """msgspec reads a Struct's field types from its class annotations, which a compiled class body
    does not keep: a Struct defined in a compiled module would decode and check the wrong types."""
    for name in COMPILED_MODULES:
        text = (ROOT / (name.replace(".", "/") + ".py")).read_text()
        assert "(Struct" not in text and "msgspec.Struct)" not in text, name


def test_the_compiled_engine_answers_as_its_source(tmp_path):
    """Every move, refusal, view and hidden set of seeded games of every game, and the Spider search
    node for node: the same digests from the compiled modules and from the source."""
    if not compiled_modules():
        pytest.skip("nothing compiled: the two would be the same code")
    done = _run_in(_source_copy(tmp_path), "-c", _RUN_FROM_SOURCE, json.dumps(SOLVER_CASES))
    assert done.returncode == 0, done.stderr
    source = json.loads(done.stdout)
    assert [trace_digest(*case) for case in TRACE_CASES] == source["traces"]
    here = []
    for suits, seed, budget in SOLVER_CASES:
        verdict = solve_deal("spider", {"suits": suits}, seed, budget)
        here.append([verdict.result, verdict.nodes, hashlib.sha256(repr(verdict.line).encode()).hexdigest()])
    assert here == source["solver"]
    assert {row[0] for row in here} == {"winnable", "unknown"}


def test_the_golden_and_property_suites_pass_on_the_source(tmp_path):
    """This run's suite tests the compiled modules; these suites run again on the source."""
    if not compiled_modules():
        pytest.skip("nothing compiled: the suite already runs on the source")
    done = _run_in(_source_copy(tmp_path), "-c", _PYTEST_FROM_SOURCE, *SOURCE_SUITES, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout
