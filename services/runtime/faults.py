"""Fault injection for the kill tests: a process that dies (SIGKILL, no clean-up) at a named point.

The one way to prove "a win whose submission was lost is still found" is to kill a gateway exactly
between the winning append and the submission. With ARENA_TEST_FAULT=<point> the process kills
itself there. Never set in production.
"""

from __future__ import annotations

import os
import signal

BEFORE_SUBMISSION = "before-submission"  # the winning move is stored; the validator was not told yet


def crash_point(name: str) -> None:
    if os.environ.get("ARENA_TEST_FAULT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
