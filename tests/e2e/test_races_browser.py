"""A live race of The Wish in Chromium against a real `arena serve`: three guests (three browser contexts,
the third on a 360 px phone) create and join one race by its code and its join link, ready up, see the
countdown, each play their own board to a win with clicks, and all see the results in finishing order
with their rating changes and replay links; a spectator watches the progress and never a card.

The race's deal is the server's secret: the test reads each racer's seed from that racer's game log in
the server's Redis once the game has started (as tests/gateway/test_races.py does), never from the page.
"""

from __future__ import annotations

import json
import time

import msgspec
import pytest

import engine
from engine.solver import solve
from tests.races.client import card_keys_in

from .board import Board
from .conftest import save_screenshot
from .daily import seed_from_log
from .test_accessibility import serious_violations

pytestmark = pytest.mark.browser

STANDARD = {"mode": "standard"}
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}


class Guest:
    """One browser context (its own storage: its own guest) with one page, console errors kept."""

    def __init__(self, browser, arena, viewport: dict, name: str) -> None:
        self.name = name
        self.context = browser.new_context(base_url=arena.url, viewport=viewport)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.frames: list[str] = []  # every websocket frame the page received, in order
        self.sockets: list[str] = []  # every websocket address the page opened
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        self.page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        self.page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        self.sockets.append(ws.url)
        ws.on("framereceived", lambda payload: self.frames.append(payload if isinstance(payload, str) else payload.decode()))

    @property
    def player_id(self) -> str:
        return self.page.evaluate("JSON.parse(localStorage.getItem('arena.guest')).player_id")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def guests(browser, arena):
    if not arena.owned:
        pytest.skip("the test reads the race's seeds from the server's own Redis")
    made: list[Guest] = []

    def make(name: str, viewport: dict = DESKTOP) -> Guest:
        made.append(Guest(browser, arena, viewport, name))
        return made[-1]

    yield make
    errors = {g.name: g.errors for g in made if g.errors}
    for guest in made:
        guest.close()
    assert errors == {}, "a page logged errors"


def winning_line(arena, game_id: str) -> list[dict]:
    verdict = solve(engine.initial_state("wish", STANDARD, seed_from_log(arena.embedded_redis_url(), game_id)))
    assert verdict.winnable, "a race deal is proven winnable"
    return [msgspec.to_builtins(intent) for intent in verdict.line]


def cards_outside_my_board(page) -> int:
    return page.locator(".card").count() - page.locator("#board .card").count()


def test_three_guests_race_the_wish_to_the_results_and_a_spectator_sees_no_card(guests, arena):
    host, second, third = guests("host"), guests("second"), guests("third", PHONE)
    racers = [host, second, third]
    # The host creates a race of The Wish with three seats.
    host.page.goto("/")
    host.page.click("nav a[href='race.html']")
    host.page.select_option("#create-race select[name=entry]", label="The Wish")
    host.page.select_option("#create-race select[name=seats]", "3")
    host.page.click("#create-race button[type=submit]")
    host.page.wait_for_url("**/race.html#/r/*")
    code = host.page.locator(".race-lobby .race-code").inner_text()
    assert len(code) == 6
    race_id = host.page.evaluate("window.race.state.race.race_id")
    join_path = host.page.locator(".race-lobby .join-link").get_attribute("href")
    # The second follows the join link (the server sends it to the race page); the third types the code.
    second.page.goto(join_path)
    second.page.wait_for_url(f"**/race.html#/r/{race_id}")
    # The second racer takes a named account (the guest keeps its id and its seat): shown by that name,
    # also on the host's page, which had learnt the second as a guest before (it asks again after 30 s).
    host.page.wait_for_function(
        "(id) => document.querySelector(`.race-seats .seat[data-player='${id}'] .racer-name`)"
        "?.textContent.startsWith('Guest ')", arg=second.player_id)
    token = second.page.evaluate("JSON.parse(localStorage.getItem('arena.guest')).token")
    named = f"sec{str(time.time_ns())[-8:]}"
    signed = second.page.request.post("/api/accounts", data={"name": named, "password": "correct horse battery"},
                                      headers={"Authorization": f"Bearer {token}"})
    assert signed.status == 201, signed.text()
    host.page.evaluate("window.realNow = Date.now; Date.now = () => window.realNow() + 31_000")  # 31 s on
    third.page.goto("/race.html")
    third.page.wait_for_selector("#create-race select[name=entry] option", state="attached")
    third.page.wait_for_selector(".race-boards[data-board]")
    assert third.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    save_screenshot(third.page, "race-start-360")
    third.page.fill("#join-race input[name=code]", code.lower())
    third.page.click("#join-race button[type=submit]")
    third.page.wait_for_url(f"**/race.html#/r/{race_id}")
    spectator = guests("spectator")
    spectator.page.goto(host.page.locator(".race-lobby .watch-link").get_attribute("href"))
    spectator.page.wait_for_function("window.race?.state.role === 'spectator'")
    ids = [g.player_id for g in racers]
    for guest in (host, spectator):
        guest.page.wait_for_function("document.querySelectorAll('.race-seats .seat[data-player]').length === 3")
    assert spectator.page.locator("[data-lobby=ready]").is_hidden()
    # Racers by name: an account's name, a guest's short form; "You" on one's own page.
    def name_on(guest, page):
        return page.locator(f".race-seats .seat[data-player='{guest.player_id}'] .racer-name")

    spectator.page.wait_for_function(
        "(id) => document.querySelector(`.race-seats .seat[data-player='${id}'] .racer-name`)?.textContent !== ''"
        " && !document.querySelector(`.race-seats .seat[data-player='${id}'] .racer-name`).textContent.startsWith('Player')",
        arg=second.player_id)
    assert name_on(second, spectator.page).inner_text() == named
    host.page.wait_for_function(
        "([id, name]) => document.querySelector(`.race-seats .seat[data-player='${id}'] .racer-name`)"
        "?.textContent === name", arg=[second.player_id, named])
    host.page.evaluate("Date.now = window.realNow")
    assert name_on(host, spectator.page).inner_text().startswith("Guest ")
    assert name_on(host, host.page).inner_text() == "You"
    save_screenshot(third.page, "race-lobby-360")
    assert serious_violations(third.page) == [], "the lobby, on a phone"
    # Everyone ready: the countdown, then the start signal and each racer's own board.
    for guest in racers:
        guest.page.click("[data-lobby=ready]")
        guest.page.wait_for_selector(f".seat[data-player='{guest.player_id}'][data-ready='true'], .race-countdown:not([hidden])")
    for guest in racers + [spectator]:
        guest.page.wait_for_selector(".race-countdown:not([hidden])")
        assert guest.page.locator("[data-countdown]").inner_text().strip() != ""
    for guest in racers:
        Board(guest.page).wait_ready(0)
        guest.page.wait_for_selector("#board .pile")
    spectator.page.wait_for_selector(".race-live .race-progress .racer")
    assert spectator.page.locator(".race-live #board").count() == 0
    save_screenshot(third.page, "race-board-360")
    # axe on the race in play: a racer's board on a phone, and the spectator's live view.
    assert serious_violations(third.page) == [], "the race board, on a phone"
    assert serious_violations(spectator.page) == [], "the spectator's view of the race"
    assert third.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A racer who reloads (a dropped connection, a closed tab) finds the same game again, its clock running.
    game_of_second = second.page.evaluate("window.arena.state.gameId")
    second.page.reload()
    Board(second.page).wait_ready(0)
    assert second.page.evaluate("window.arena.state.gameId") == game_of_second
    # Each plays their board to a win, one after another: the finishing order is host, second, third.
    for number, guest in enumerate(racers):
        line = winning_line(arena, guest.page.evaluate("window.arena.state.gameId"))
        board = Board(guest.page)
        board.play_line(line[:-1])
        assert cards_outside_my_board(guest.page) == 0, "a racer's page shows no card of anyone else"
        last = line[-1]
        assert last in board.legal() and last["type"] == "pair"
        if number < 2:
            board.play(last)
            assert guest.page.evaluate("window.arena.state.view.status") == "won"
        else:  # the last win ends the race: the page turns to the results at once, the board gone
            board.source_card(f"t{last['a']}", 1).click()
            board.pile(f"t{last['b']}").click()
        me = guest.player_id
        # (after the last win, in the results' folded "last progress")
        spectator.page.wait_for_selector(f".racer[data-player='{me}'][data-status='won']", state="attached")
        if number < 2:  # the race runs on: every rival's progress shows on the racer pages, counts only
            rival = racers[number + 1]
            rival.page.wait_for_selector(f".race-live .racer[data-player='{me}'][data-status='won']")
            assert spectator.page.locator(".card").count() == 0, "a spectator sees no card before the end"
    # The results, on every page: the finishing order, each rating change, each racer's replay.
    for guest in racers + [spectator]:
        guest.page.wait_for_selector(".race-results[data-final='true'][data-rated='true']", timeout=40_000)
        rows = guest.page.locator(".race-standings tr.standing")
        assert [rows.nth(i).get_attribute("data-player") for i in range(3)] == ids
        assert [rows.nth(i).get_attribute("data-place") for i in range(3)] == ["1", "2", "3"]
        changes = [float(rows.nth(i).locator("[data-rating-change]").get_attribute("data-rating-change")) for i in range(3)]
        assert changes[0] > changes[2], "the winner gains more than the last"
        assert rows.locator(".replay-link").count() == 3
    assert all(not g.page.locator("[data-results=rematch]").is_hidden() for g in racers)
    assert spectator.page.locator("[data-results=rematch]").is_hidden()
    save_screenshot(third.page, "race-results-360")
    assert serious_violations(third.page) == [], "the results, on a phone"
    save_screenshot(host.page, "race-results")
    assert third.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The spectator's frames: the race socket only, and until the end no card key and no seed in any.
    seed = str(host.page.evaluate("window.race.state.race.seed"))
    assert all("/ws/races/" in url for url in spectator.sockets)
    frames = [json.loads(text) for text in spectator.frames]
    assert any(f["type"] == "s2c.race_progress" for f in frames)
    ended = next(i for i, f in enumerate(frames) if f.get("race", {}).get("status") in ("ended", "final"))
    assert all(not card_keys_in(f) for f in frames)
    assert not [f for f in spectator.frames[:ended] if seed in f]
    # The rematch: one click, the same three seats, a new lobby; the others are offered the way there.
    host.page.click("[data-results=rematch]")
    host.page.wait_for_function(f"window.race?.state.race?.rematch_of === '{race_id}'")
    again = host.page.evaluate("window.race.state.race.race_id")
    assert host.page.locator(".race-lobby .race-seats .seat[data-player]").count() == 3
    second.page.wait_for_selector(f".rematch-link[href$='{again}']")
    # A replay link opens the race game's replay, public now that the race is over.
    spectator.page.locator(".race-standings tr.standing").first.locator(".replay-link").click()
    spectator.page.wait_for_url("**/replay.html?game=*")
    spectator.page.wait_for_function("window.replay?.data != null")
    # The race replay, linked from the results: every racer's board side by side, in finishing order.
    spectator.page.go_back()
    spectator.page.wait_for_selector(".race-results[data-final='true'] [data-race-replay]:not([hidden])")
    spectator.page.click("[data-race-replay]")
    spectator.page.wait_for_url(f"**/replay.html?race={race_id}*")
    spectator.page.wait_for_function("window.raceReplay && document.querySelectorAll('article.racer .board').length === 3")
    assert [r["player"] for r in spectator.page.evaluate("window.raceReplay.data.racers")] == ids
    # The race start page's rating board of The Wish ranks the three as they finished (a first race each).
    spectator.page.goto("/race.html")
    spectator.page.wait_for_selector(".race-boards[data-board='wish/mode=standard']")
    board_order = spectator.page.eval_on_selector_all(".race-ratings tbody tr[data-player]", "rows => rows.map(r => r.dataset.player)")
    assert [player for player in board_order if player in ids] == ids
