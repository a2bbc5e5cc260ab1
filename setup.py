"""Compiles the engine's hot path and the Spider solver to C extensions with mypyc, when this machine can.

Everything else about the package is in pyproject.toml; this file only adds the extensions.
The hot path is what every move runs: the shared decider (decide, evolve, the legal list, the
player's view) and the games' rules (Spider's: about 0.7x the CPU compiled; docs/operations.md). A Spider solve
spends nearly all its time in the solver's four modules (search nodes: tuples of bytes, dicts, a
heap), and compiled they run the very same search, node for node, in about 0.6x the CPU
(docs/solvers.md, "Compiled with mypyc"). A compiled module defines no msgspec Struct (msgspec
reads field types from class annotations, which a compiled class body does not keep): a game's
Structs live in a module of their own, run as source. The modules stay plain Python: without a C
compiler, or with ARENA_PURE_PYTHON=1, nothing is compiled and they run as source, slower but
alike in every answer. Each extension is `optional`, so a failed compile warns and the rest installs.

A compiled module loads in place of its source, so after a change to one of them it must be built
again: `make` does (its stamp depends on them), and the build records each source's SHA-256 beside
the engine package (engine/compiled-sources.json) so that tests/engine/test_compiled.py fails when an
extension no longer matches its source.
"""

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules engine.compiled.COMPILED_MODULES names (a test keeps the two alike).
COMPILED = [
    "engine/decider.py",
    "engine/games/spider.py",
    "engine/games/pairing.py",
    "engine/games/wading_pool.py",
    "engine/games/wizard.py",
    "engine/games/wizard_moves.py",
    "engine/games/wizard_status.py",
    "engine/games/wizard_search.py",
    "engine/solver/spider_board.py",
    "engine/solver/spider.py",
    "engine/solver/spider_best.py",
    "engine/solver/spider_restarts.py",
]
DIGESTS = "compiled-sources.json"


class BuildRecordingSources(build_ext):
    """build_ext, then the digest of every source whose extension was built, beside it."""

    def run(self) -> None:
        super().run()
        digests, folder = {}, None
        for extension in self.extensions:
            built = Path(self.get_ext_fullpath(extension.name))
            source = Path(*extension.name.split(".")).with_suffix(".py")
            if built.exists() and source.as_posix() in COMPILED:
                digests[extension.name] = hashlib.sha256(source.read_bytes()).hexdigest()
                folder = built.parents[extension.name.count(".") - 1]  # the engine package's folder
        if folder is not None:
            (folder / DIGESTS).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


def compiled_extensions() -> list:
    if os.environ.get("ARENA_PURE_PYTHON") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # the build requirements were left out (pip --no-build-isolation)
        return []
    # The build runs in pip's own environment, without the project's dependencies: the modules
    # these import are read for their types only, and what those import in turn (msgspec) is Any.
    # msgspec is then Any, so pyproject.toml's strict checks of the engine (no Any returned, no needless
    # ignore: `make test` runs them with msgspec there) would fail this build: it reads no config file.
    flags = ["--config-file=", "--follow-imports=silent", "--ignore-missing-imports"]
    extensions = mypycify([*flags, *COMPILED], opt_level="3", group_name="arena_engine")
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildRecordingSources})
