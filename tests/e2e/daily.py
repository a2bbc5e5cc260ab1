"""What the daily browser tests need beside the page: the server's clock file, its HTTP answers and its
Redis (the seed of a deal, which no response shows before the reveal), screenshots at two sizes, and
the account dialog driven as a player does."""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request

import pytest

from .conftest import save_screenshot
from .server import ArenaServer

SIZES = {"1280": (1280, 800), "360": (360, 740)}


class Clock:
    """The file every process of the server reads "now" from (ARENA_TEST_CLOCK_FILE)."""

    def __init__(self, path) -> None:
        self.path = path

    def set(self, ms: int) -> None:
        draft = self.path.with_suffix(".draft")
        draft.write_text(str(ms))
        draft.replace(self.path)  # whole, at once: the server never reads half a number


@contextlib.contextmanager
def daily_server(tmp_path_factory, name: str, now_ms: int, validators: int):
    """A server of its own with the daily scheduler on (The Wish only) and a test clock at `now_ms`:
    (server, clock). `validators` 0 leaves a win "checking" until a server with one looks at it."""
    if os.environ.get("E2E_BASE_URL"):
        pytest.skip("needs a server of its own, with the daily scheduler and a test clock")
    clock = Clock(tmp_path_factory.mktemp(f"{name}-clock") / "now")
    clock.set(now_ms)
    env = {"ARENA_SCHEDULER": "1", "ARENA_DAILY_GAMES": "wish", "ARENA_TEST_CLOCK_FILE": str(clock.path),
           "ARENA_VALIDATORS": str(validators)}
    server = ArenaServer(tmp_path_factory.mktemp(f"arena-{name}"), env=env)
    server.start()
    try:
        yield server, clock
    finally:
        server.stop()


def get_json(url: str, path: str) -> dict:
    with urllib.request.urlopen(f"{url}{path}", timeout=10) as response:
        return json.loads(response.read())


def wait_for(check, what: str, seconds: float = 90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def challenge_of(day: dict, key: str) -> dict | None:
    return next((c["challenge"] for c in day["challenges"] if c["challenge"]["challenge"] == key), None)


def seed_from_log(redis_url: str, game_id: str) -> int:
    """The deal's seed as the server stored it in the game log's creation entry (no response shows it)."""
    import redis

    from services.games.record import read_log
    from services.store.envelope import ENTRY_FIELD, decode_event
    from services.store.keys import log_key

    client = redis.Redis.from_url(redis_url)
    try:
        entries = [decode_event(fields[ENTRY_FIELD]) for _, fields in client.xrange(log_key(game_id))]
    finally:
        client.close()
    return read_log(entries).created.seed


def screenshots(page, name: str) -> None:
    """`<name>-1280.png` and `<name>-360.png` (a phone), full page, no passing notice over it."""
    page.evaluate("document.getElementById('toast').hidden = true")  # a passing notice would cover the page
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # let the layout settle at the new width before the picture
        save_screenshot(page, f"{name}-{size}")
    page.set_viewport_size({"width": 1280, "height": 800})


def account_form(page, mode: str):
    page.click(f"#account [data-account-open={mode}]")
    dialog = page.locator("#account-dialog[open]")
    dialog.wait_for()
    return dialog


def submit_account(dialog, name: str, password: str) -> None:
    dialog.locator("input[name=name]").fill(name)
    dialog.locator("input[name=password]").fill(password)
    dialog.locator("[data-account-submit]").click()


def form_error(page, dialog, code: str) -> str:
    page.wait_for_function(f"document.querySelector('#account-dialog form').dataset.errorCode === '{code}'")
    return dialog.locator(".form-error").inner_text()


def stored_identity(page) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('arena.guest'))")


def unique_name(prefix: str) -> str:
    return f"{prefix}{time.time_ns() % 10**9}"
