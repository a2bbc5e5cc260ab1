"""Shared fixtures and settings for the whole suite."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.fixtures.redis"]

settings.register_profile(
    "default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", parent=settings.get_profile("default"), max_examples=60, derandomize=True)
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))
