"""Shared fixtures and settings for the whole suite."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.fixtures.redis"]

# The daily scheduler prepares eight days of challenges with the solvers: real work a test server does
# not need. Servers the suite starts (in process or as `arena serve` children) run without it unless a
# test turns it on (the daily tests do).
os.environ.setdefault("ARENA_SCHEDULER", "0")
# Every server the suite starts shares the session's Redis, and with it the archiver's index: they share
# one archive too, as a deployment's processes must (one ARENA_ARCHIVE_URL), so a game one of them moved
# (a test clock days ahead) reads through on every other.
# The folder is the session's: removed when the suite's process ends (each run used to leave one in /tmp).
if "ARENA_ARCHIVE_URL" not in os.environ:
    _ARCHIVE = tempfile.TemporaryDirectory(prefix="arena-suite-archive-")
    os.environ["ARENA_ARCHIVE_URL"] = Path(_ARCHIVE.name).as_uri()

settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", parent=settings.get_profile("default"), max_examples=60, derandomize=True)
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


def pytest_configure(config):
    """ARENA_GAME_MODULES=tests.support.tiny_pairs adds games before collection, as `arena serve`
    does at start-up: every suite parametrized from the registry then runs them too."""
    from engine.registry import load_game_module

    for name in filter(None, (part.strip() for part in os.environ.get("ARENA_GAME_MODULES", "").split(","))):
        load_game_module(name)
