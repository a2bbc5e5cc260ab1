"""Browser tests: a real `arena serve` subprocess and Debian's Chromium driven by Playwright.

Without /usr/bin/chromium the tests skip with the reason, except under CI=true where that is a
failure. E2E_BASE_URL=http://host:port runs them against a server that is already running
(the server-restart test then skips: it needs a server of its own). E2E_CHROMIUM names another
Chromium binary. Screenshots go to test-artifacts/screenshots/ (git-ignored), or to E2E_SCREENSHOTS.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pytest

from .server import ArenaServer

CHROMIUM = Path(os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"))  # Debian's chromium package
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
REPO = Path(__file__).resolve().parents[2]
# Screenshots are kept as artifacts (git-ignored); E2E_SCREENSHOTS names another folder, e.g. CI's.
SCREENSHOTS = Path(os.environ.get("E2E_SCREENSHOTS", REPO / "test-artifacts" / "screenshots"))


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)
    return str(CHROMIUM)


@pytest.fixture(scope="module")
def browser(chromium_path):
    """Per module, not per session: Playwright's sync API holds an event loop while it is open, and
    the suite's asyncio tests (pytest-asyncio) cannot start theirs until it is closed again."""
    if os.environ.get("CI") == "true":  # as for Chromium: under CI a missing Playwright fails, never skips
        import playwright.sync_api as sync_api
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def arena(tmp_path_factory, chromium_path):
    """The server under test (started after the Chromium check, so a skip costs nothing)."""
    external = os.environ.get("E2E_BASE_URL")
    if external:
        yield ArenaServer.existing(external)
        return
    server = ArenaServer(tmp_path_factory.mktemp("arena-data"))
    server.start()
    yield server
    server.stop()


class ConsoleErrors:
    """Console errors and uncaught exceptions of a page; a test may allow a known pattern."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


@contextlib.contextmanager
def watched_page(browser, base_url: str, console_errors: ConsoleErrors, width: int = 1280, height: int = 860):
    """A page in a context of its own whose console errors and uncaught exceptions fail the test at the end."""
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("console", lambda msg: msg.type == "error" and console_errors.errors.append(msg.text))
    page.on("pageerror", lambda exc: console_errors.errors.append(f"uncaught: {exc}"))
    yield page
    context.close()
    assert console_errors.unexpected() == [], "the page logged errors"


@pytest.fixture
def page(browser, arena, console_errors):
    with watched_page(browser, arena.url, console_errors) as page:
        yield page


def save_screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
