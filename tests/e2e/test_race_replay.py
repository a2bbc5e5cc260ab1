"""The race replay in Chromium against a real `arena serve`: three guests race a Wish through the server's
API (two win, the second later; the third resigns), then the page shows them in finishing order, each
board at its own step for one shared clock: stepped, scrubbed, played to the end, linked at a moment.
A race still running is refused with no card."""

from __future__ import annotations

import re

import pytest

import engine
from engine.intents import ResignIntent

from .conftest import save_screenshot
from .races import WISH, StartedRace

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def race(arena):
    """A finished race of three: first and second won (in that order), third resigned after three moves."""
    race = StartedRace(arena.url, arena.embedded_redis_url(), 3)
    race.play(0, race.line)
    race.play(1, race.line)
    race.play(2, [*race.line[:3], ResignIntent()])
    race.ended()
    return race


def open_race(page, race_id: str, query: str = "") -> dict:
    page.goto(f"/replay.html?race={race_id}{query}")
    page.wait_for_function("window.raceReplay && document.querySelectorAll('.racer .board .pile').length")
    return page.evaluate("window.raceReplay.data")


def clock_t(page) -> int:
    return page.evaluate("window.raceReplay.clock.t")


def shown_steps(page) -> list[int]:
    return [int(s) for s in page.locator("article.racer").evaluate_all("els => els.map(e => e.dataset.step)")]


def board_ids(page, index: int) -> list[list[int]]:
    return page.locator("article.racer").nth(index).locator(".board .pile").evaluate_all(
        "piles => piles.map(p => [...p.querySelectorAll('.card.face')].map(c => Number(c.dataset.cardId)))")


def engine_ids(seed: int, moves: list, step: int) -> list[list[int]]:
    state = engine.initial_state("wish", WISH["variant"], seed)
    for intent in moves[:step]:
        state, _ = engine.play(intent, state)
    return [[card.id for card in pile.cards] for pile in state.board.piles]


def expected_steps(data: dict, t: int) -> list[int]:
    """Each racer's last step at or before time t, from the data the server sent."""
    return [max(k for k, s in enumerate(r["steps"]) if s["elapsed_ms"] <= t) for r in data["racers"]]


def test_three_racers_side_by_side_in_finishing_order_on_one_clock(page, race):
    data = open_race(page, race.race_id)
    moves = [race.line, race.line, [*race.line[:3], ResignIntent()]]
    order = page.locator(".race-order li")
    assert order.count() == 3
    assert [order.nth(i).get_attribute("data-player") for i in range(3)] == race.players, "finishing order"
    assert [order.nth(i).locator(".place").inner_text() for i in range(3)] == ["1", "2", "3"]
    guests = [f"Guest {player.removeprefix('g_')[:6]}" for player in race.players]  # as the race pages name them
    assert [order.nth(i).locator(".who").inner_text() for i in range(3)] == guests
    assert order.nth(0).locator(".result").inner_text().startswith(f"Won · {len(race.line)} moves")
    assert order.nth(2).locator(".result").inner_text().startswith("Resigned · 3 moves")
    assert order.nth(1).locator("a").get_attribute("href") == f"replay.html?game={race.games[race.players[1]]}"
    assert page.locator("article.racer").count() == 3 and page.locator(".racer .card.back").count() == 0
    assert shown_steps(page) == [0, 0, 0] and clock_t(page) == 0
    for i in range(3):
        assert board_ids(page, i) == engine_ids(race.seed, moves[i], 0), "every racer's deal, as the engine dealt it"

    page.keyboard.press("ArrowRight")  # the first move of any racer: the winner's
    first = min(r["steps"][1]["elapsed_ms"] for r in data["racers"])
    assert clock_t(page) == first and shown_steps(page) == expected_steps(data, first)
    assert shown_steps(page)[0] >= 1 and shown_steps(page)[1:] == [0, 0], "the others had not moved yet"
    page.keyboard.press("End")
    assert clock_t(page) == data["duration_ms"]
    assert shown_steps(page) == [len(m) for m in moves]
    for i in range(3):
        assert board_ids(page, i) == engine_ids(race.seed, moves[i], len(moves[i]))
    assert page.locator("article.racer").nth(0).get_attribute("data-state") == "won"
    assert page.locator("article.racer").nth(2).get_attribute("data-state") == "abandoned"

    page.keyboard.press("Home")
    box = page.locator(".scrub").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)  # the bar's middle
    middle = clock_t(page)
    assert 0 < middle < data["duration_ms"] and shown_steps(page) == expected_steps(data, middle)
    for i, step in enumerate(shown_steps(page)):
        assert board_ids(page, i) == engine_ids(race.seed, moves[i], step)

    page.keyboard.press("Home")
    page.select_option("select[name=speed]", "4")
    page.evaluate("""() => { const c = window.raceReplay.clock, shown = c.onChange;
      window.timesShown = []; c.onChange = (x) => { window.timesShown.push(x.t); shown(x); }; }""")
    page.click("[data-control=play]")
    assert page.locator("[data-control=play]").inner_text().endswith("Pause")
    page.wait_for_function("!window.raceReplay.clock.playing")
    seen = page.evaluate("window.timesShown")
    assert seen == sorted(seen) and seen[-1] == data["duration_ms"], "forward in time, to the end"
    assert shown_steps(page) == [len(m) for m in moves]
    assert page.locator("[data-control=play]").inner_text().endswith("Play")
    save_screenshot(page, "race-replay")


def test_a_moment_link_opens_the_race_at_that_time(page, race):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    data = open_race(page, race.race_id)
    t = data["racers"][1]["steps"][5]["elapsed_ms"]  # the second racer's fifth move
    data = open_race(page, race.race_id, f"&t={t}")
    assert clock_t(page) == t and shown_steps(page) == expected_steps(data, t) and shown_steps(page)[1] >= 5
    page.keyboard.press("ArrowLeft")
    assert clock_t(page) < t and page.url.endswith(f"?race={race.race_id}&t={clock_t(page)}")
    page.evaluate("delete Navigator.prototype.share")  # no share sheet: the clipboard
    page.click("button.share")
    page.wait_for_function("document.getElementById('toast').textContent.includes('copied')")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    page.set_viewport_size({"width": 360, "height": 740})  # a phone: one board under the other
    page.wait_for_function("[...document.querySelectorAll('article.racer .board')]"
                           ".every(b => b.scrollWidth <= b.clientWidth)")  # each board drawn again to fit
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "nothing wider than the screen"
    boxes = [page.locator("article.racer").nth(i).bounding_box() for i in range(3)]
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]
    page.evaluate("document.getElementById('toast').hidden = true")  # the passing notice would cover a board
    save_screenshot(page, "race-replay-phone")


def test_a_race_still_running_is_refused_with_no_card(page, arena, console_errors):
    console_errors.allow(r"status of 409")  # the browser logs the refusal the page then explains
    running = StartedRace(arena.url, arena.embedded_redis_url(), 2)
    running.play(0, running.line[:2])
    answers = []
    page.on("response", lambda response: "/api/races/" in response.url and answers.append(response))
    page.goto(f"/replay.html?race={running.race_id}")
    page.wait_for_selector(".problem")
    assert page.locator(".problem h1").inner_text() == "The race is not over"
    assert page.locator(".problem").get_attribute("data-code") == "race_not_over"
    assert page.locator(".card").count() == 0
    body = answers[0].text()
    assert answers[0].status == 409 and not re.search(r'"(rank|suit|piles|seed|steps)"', body), "no card was served"
