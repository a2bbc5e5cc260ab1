"""Compiles the Spider solver's modules to C extensions with mypyc, when this machine can.

Everything else about the package is in pyproject.toml; this file only adds the extensions.
A Spider solve spends nearly all its time in these four modules (search nodes: tuples of bytes,
dicts, a heap), and compiled by mypyc they run the very same search, node for node, in about 0.6x
the CPU (docs/solvers.md, "Compiled with mypyc"). The modules stay plain Python: without a C
compiler, or with ARENA_PURE_PYTHON=1, nothing is compiled and they run as source, slower but
alike in every answer. Each extension is `optional`, so a failed compile warns and the rest installs.

A compiled module loads in place of its source, so after a change to one of them it must be built
again: `make` does (its stamp depends on them), and the build records each source's SHA-256 beside
the extensions (compiled-sources.json) so that tests/engine/test_solver_compiled.py fails when an
extension no longer matches its source.
"""

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules engine.solver.compiled.COMPILED_MODULES names (a test keeps the two alike).
COMPILED = [
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
                folder = built.parent
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
    flags = ["--follow-imports=silent", "--ignore-missing-imports"]
    extensions = mypycify([*flags, *COMPILED], opt_level="3", group_name="arena_solver")
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildRecordingSources})
