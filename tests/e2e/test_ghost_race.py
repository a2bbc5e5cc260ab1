"""A ghost race in Chromium, on an `arena serve` of its own with the daily scheduler, a replay validator and a
test clock: a named player wins today's Wish through the API, a move every 0.3 s (the ghost); while the
day runs and in the hour of grace nobody may race it; after the reveal a guest presses "Race the best
replay" on the hub, sees the ghost move at its recorded times beside the board, and plays the deal to a win."""

from __future__ import annotations

import datetime as dt
import threading
import time
from urllib.parse import quote

import httpx
import msgspec
import pytest

import engine
from engine.solver import solve

from .api_play import ApiPlayer
from .board import Board
from .conftest import watched_page
from .daily import Clock, challenge_of, daily_server, get_json, screenshots, seed_from_log, unique_name, wait_for

pytestmark = pytest.mark.browser

DAY = dt.date(2035, 2, 3)
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
KEY = f"{DAY.isoformat()}/wish/mode=standard"
GHOST_PAUSE_S = 0.3  # between the ghost's moves: its game lasts a few seconds of the race


@pytest.fixture(scope="module")
def ghost_arena(tmp_path_factory, chromium_path):
    # The eve: the test's account is made before the day opens, so its attempt is ranked.
    with daily_server(tmp_path_factory, "ghost", OPENS - HOUR, validators=1) as running:
        yield running


@pytest.fixture
def ghost_page(browser, ghost_arena, console_errors):
    with watched_page(browser, ghost_arena[0].url, console_errors, 1280, 800) as page:
        yield page


class Running:
    """The test clock running in step with real time from `start_ms` while in the `with` block (the file
    rewritten every 20 ms): the server then measures a game's time as it would in production."""

    def __init__(self, clock: Clock, start_ms: int) -> None:
        self.clock, self.start_ms, self.stop = clock, start_ms, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        began = time.monotonic()
        while not self.stop.wait(0.02):
            self.clock.set(self.start_ms + int((time.monotonic() - began) * 1000))

    def __enter__(self) -> Running:
        self.clock.set(self.start_ms)
        self.thread.start()
        return self

    def __exit__(self, *_) -> None:
        self.stop.set()
        self.thread.join()


def refused(url: str, token: str) -> None:
    answer = httpx.post(f"{url}/api/dailies/{KEY}/ghost", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert (answer.status_code, answer.json()["code"]) == (409, "not_revealed"), answer.text
    assert set(answer.json()) == {"code", "message"}, "no game, no card"


def get_as(url: str, path: str, token: str) -> dict:
    return httpx.get(f"{url}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10).raise_for_status().json()


def status_of(url: str) -> str:
    return (challenge_of(get_json(url, f"/api/dailies/{DAY.isoformat()}"), KEY) or {}).get("status", "")


def test_race_the_best_replay_of_a_revealed_daily_to_a_win(ghost_page, ghost_arena):
    server, clock = ghost_arena
    page = ghost_page
    wait_for(lambda: status_of(server.url) == "scheduled", "the Wish prepared")
    name = unique_name("gho")
    account = httpx.post(f"{server.url}/api/accounts", json={"name": name, "password": "correct horse battery"},
                         timeout=10).raise_for_status().json()
    clock.set(OPENS + 10 * HOUR)
    wait_for(lambda: status_of(server.url) == "open", "today's Wish")
    best = ApiPlayer(server.url, account["token"])
    attempt = httpx.post(f"{server.url}/api/dailies/{KEY}/attempt", headers={"Authorization": f"Bearer {best.token}"},
                         timeout=10).raise_for_status().json()
    seed = seed_from_log(server.embedded_redis_url(), attempt["id"])
    line = list(solve(engine.initial_state("wish", {"mode": "standard"}, seed)).line)
    with Running(clock, OPENS + 10 * HOUR):
        best.play(attempt["id"], line, pause_s=GHOST_PAUSE_S)
    wait_for(lambda: get_json(server.url, f"/api/dailies/{KEY}/leaderboard")["page"]["rows"], "the win verified")

    # The day runs, then the hour of grace: no ghost race, and no button for one.
    page.goto("/")
    page.wait_for_selector(f'[data-day=today] .daily-card[data-challenge="{KEY}"]')
    guest = page.evaluate("JSON.parse(localStorage.getItem('arena.guest')).token")
    refused(server.url, guest)
    assert page.locator("[data-ghost-race]").count() == 0
    clock.set(OPENS + 24 * HOUR + 1)
    wait_for(lambda: status_of(server.url) == "closed", "the close")
    refused(server.url, guest)
    page.goto(f"/leaderboard.html?challenge={quote(KEY)}")
    page.wait_for_selector("table.leaderboard")
    assert page.locator("[data-ghost-race]").count() == 0 and page.locator("a[data-replay-link]").count() == 0

    with Running(clock, OPENS + 26 * HOUR):
        wait_for(lambda: status_of(server.url) == "final", "the reveal", 90)
        page.reload()
        page.wait_for_selector("[data-ghost-race]")  # the leaderboard offers it too, once final
        assert page.locator("table.leaderboard a[data-replay-link]").get_attribute("href") == \
            f"replay.html?game={attempt['id']}", "and each verified win's replay"
        page.goto("/")
        past = page.locator(f'[data-day=yesterday] .daily-card[data-challenge="{KEY}"]')
        past.get_by_role("button", name="Race the best replay of this challenge (practice, unranked)").click()
        page.wait_for_url("**/#/play/*")
        board = Board(page)
        board.wait_ready(0)
        board.wait_online()
        panel = page.locator("aside.ghost-race")
        panel.locator(".ghost-who strong").wait_for()
        assert panel.locator(".badge").inner_text() == "practice · unranked" and name in panel.inner_text()
        game_id = page.evaluate("window.arena.state.gameId")
        summary = get_as(server.url, f"/api/games/{game_id}", guest)
        assert (summary["kind"], summary["ranked"], summary["ghost"]) == ("practice", False, attempt["id"])
        ghost = get_json(server.url, f"/api/games/{game_id}/ghost")
        points = ghost["points"]

        # The ghost moves on its own recorded times, from the player's first look: partway, then done.
        page.wait_for_function(f"window.ghost.step > 0 && window.ghost.step < {len(points) - 1}")
        step, t = page.evaluate("[window.ghost.step, window.ghost.t]")
        assert step == max(k for k, p in enumerate(points) if p["elapsed_ms"] <= t), "the ghost's step for the clock"
        assert panel.get_attribute("data-ghost-step") == str(step)
        assert panel.locator("[data-lane=ghost] .figures").inner_text().startswith(f"{points[step]['moves']} move")
        screenshots(page, "ghost-race")
        page.wait_for_function(f"window.ghost.step === {len(points) - 1}")
        assert "The ghost finished" in panel.locator(".ghost-verdict").inner_text()
        assert panel.locator("[data-lane=ghost] .figures").inner_text().endswith("0 cards left · won")

        board.play_line([msgspec.to_builtins(intent) for intent in line])
        assert "You won" in board.end_dialog().inner_text()
        mine = page.evaluate("window.arena.state.elapsedMs")
        page.wait_for_function("/^(You beat|The ghost was faster|A dead heat)/.test("
                               "document.querySelector('.ghost-verdict').textContent)")  # at the panel's next tick
        verdict = panel.locator(".ghost-verdict").inner_text()
        expected = "You beat the ghost by" if mine < ghost["time_ms"] else "The ghost was faster by"
        assert verdict.startswith(expected) or (mine == ghost["time_ms"] and verdict.startswith("A dead heat"))
        assert panel.locator("[data-lane=you] .figures").inner_text() == f"{len(line)} moves · 0 cards left"
        assert get_as(server.url, f"/api/games/{game_id}", guest)["status"] == "won"
    board_rows = get_json(server.url, f"/api/dailies/{KEY}/leaderboard")["page"]["rows"]
    assert [r["entry"]["game_id"] for r in board_rows] == [attempt["id"]], "a ghost race is never ranked"
