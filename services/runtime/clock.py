"""The server's clock: the wall clock, or (for tests that cross a day's close) a clock read from a file.

Every time that counts is the server's. A test that must cross midnight UTC, a challenge's close and
its hour of grace against real server processes cannot wait a day: with ARENA_TEST_CLOCK_FILE set,
every process reads "now" (Unix ms) from that file, which the test rewrites. Never set in production.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def file_clock(path: Path) -> Callable[[], int]:
    def now() -> int:
        try:
            return int(path.read_text().strip())
        except (OSError, ValueError):
            return wall_clock_ms()  # a test writing the file right now: the wall clock for this read
    return now


def server_clock(test_clock_file: Path | None) -> Callable[[], int]:
    return file_clock(test_clock_file) if test_clock_file else wall_clock_ms
