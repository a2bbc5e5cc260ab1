"""The replay page in Chromium against a real `arena serve`: a won Wish stepped, scrubbed and played
at 4x to its end, a ?move=N link, the point of no return of a lost Wish, links from "My games",
a game not public yet, and a 360 px phone."""

from __future__ import annotations

import json
import re

import httpx
import pytest

import engine
from engine.solver import solve
from engine.solver.advice import point_of_no_return
from tests.support.play import lost_wish_line

from .api_play import ApiPlayer
from .conftest import save_screenshot

pytestmark = pytest.mark.browser

STANDARD = {"mode": "standard"}


def winnable_standard_wish() -> tuple[int, list]:
    for seed in range(1, 200):
        verdict = solve(engine.initial_state("wish", STANDARD, seed))
        if verdict.winnable:
            return seed, list(verdict.line)
    raise LookupError("no winnable standard Wish among seeds 1..199")


@pytest.fixture(scope="module")
def won(arena):
    """A standard Wish won with the solver's line over the API: (game id, seed, line)."""
    seed, line = winnable_standard_wish()
    return ApiPlayer(arena.url).game("wish", STANDARD, seed, line), seed, line


@pytest.fixture(scope="module")
def lost(arena):
    seed, line = lost_wish_line()
    return ApiPlayer(arena.url).game("wish", STANDARD, seed, line), seed, line


def open_replay(page, game_id: str, query: str = "") -> dict:
    page.goto(f"/replay.html?game={game_id}{query}")
    page.wait_for_function("window.replay && document.querySelector('#board .pile')")
    return page.evaluate("window.replay.data")


def shown_step(page) -> int:
    return page.evaluate("window.replay.player.step")


def board_ids(page) -> list[list[int]]:
    """The card ids the board draws, pile by pile, in the page's order."""
    return page.locator("#board .pile").evaluate_all(
        "piles => piles.map(p => [...p.querySelectorAll('.card.face')].map(c => Number(c.dataset.cardId)))")


def engine_ids(seed: int, line: list, step: int) -> list[list[int]]:
    state = engine.initial_state("wish", STANDARD, seed)
    for intent in line[:step]:
        state, _ = engine.play(intent, state)
    return [[card.id for card in pile.cards] for pile in state.board.piles]


def test_a_won_wish_steps_scrubs_and_plays_at_4x_to_the_end(page, won):
    game_id, seed, line = won
    data = open_replay(page, game_id)
    last = len(line)
    assert len(data["steps"]) == last + 1 and page.locator("#board .card.back").count() == 0, "every card face up"
    assert board_ids(page) == engine_ids(seed, line, 0), "the deal, as the engine dealt it"
    assert page.locator("#board .card.unseen").count() == 24, "the cards the player could not see yet are marked"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert shown_step(page) == 2 and board_ids(page) == engine_ids(seed, line, 2)
    page.click("[data-control=back]")
    assert shown_step(page) == 1 and board_ids(page) == engine_ids(seed, line, 1)
    page.keyboard.press("End")
    assert shown_step(page) == last and board_ids(page) == engine_ids(seed, line, last) == [[]] * 8
    page.keyboard.press("Home")
    assert shown_step(page) == 0
    box = page.locator(".scrub").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)  # the scrub bar's middle
    middle = shown_step(page)
    assert 0 < middle < last and page.locator(".scrub").input_value() == str(middle)
    assert board_ids(page) == engine_ids(seed, line, middle)
    assert page.locator('.move-list li[aria-current="step"]').get_attribute("data-step") == str(middle)

    page.keyboard.press("Home")
    page.select_option("select[name=speed]", "4")
    page.evaluate("""() => { const p = window.replay.player, shown = p.onChange;
      window.stepsShown = []; p.onChange = (x) => { window.stepsShown.push(x.step); shown(x); }; }""")
    page.locator(".scrub").focus()
    page.keyboard.press(" ")  # Space plays
    assert page.evaluate("window.replay.player.playing && window.replay.player.speed") == 4
    assert page.locator("[data-control=play]").inner_text().endswith("Pause")
    page.wait_for_function("!window.replay.player.playing")
    assert shown_step(page) == last and page.locator("[data-control=play]").inner_text().endswith("Play")
    seen = page.evaluate("window.stepsShown")
    assert seen == list(range(0, last + 1)), "from the deal, every move in turn, then a pause at the end"
    assert page.locator(".status").inner_text().startswith("Won")
    page.locator('.move-list li[data-step="6"] button').click()
    save_screenshot(page, "replay-won")


def test_the_move_list_shows_each_moves_server_time_and_the_review(page, won, arena):
    game_id, _, line = won
    open_replay(page, game_id)
    file = httpx.get(f"{arena.url}/api/games/{game_id}/replay").raise_for_status().json()
    shown = next(e["entry"]["at_ms"] for e in file["entries"] if e["entry"]["type"] == "game_shown")
    moved = [e["at_ms"] for e in file["entries"] if e["entry"]["type"] == "pair_removed"]
    items = page.locator(".move-list li")
    assert items.count() == len(line) + 1
    for k, at in enumerate(moved, start=1):
        elapsed = (at - shown) // 1000
        assert items.nth(k).locator(".when").inner_text().startswith(f"{elapsed // 60}:{elapsed % 60:02d}")
        assert items.nth(k).locator(".when").get_attribute("datetime").startswith("20")
    assert page.locator(".strip .cell").count() == len(line) + 1
    assert page.locator(".strip .cell.v-winnable").count() == len(line) + 1, "won: winnable at every step"
    summary = page.locator(".summary").inner_text()
    assert f"Won in {len(line)} moves" in summary and "shortest winning line the solver knows: 16 moves" in summary
    href = page.locator("a.download").get_attribute("href")
    assert href == f"/api/games/{game_id}/replay"
    assert json.loads(page.request.get(href).body())["digest"] == file["digest"]
    items.nth(3).locator("button").click()
    assert shown_step(page) == 3 and "move=3" in page.url


def test_a_move_link_opens_the_replay_at_that_move_and_share_copies_it(page, won):
    game_id, seed, line = won
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_replay(page, game_id, "&move=5")
    assert shown_step(page) == 5 and page.locator(".scrub").input_value() == "5"
    assert board_ids(page) == engine_ids(seed, line, 5)
    assert page.locator('.move-list li[aria-current="step"]').get_attribute("data-step") == "5"
    assert page.locator(".strip .cell.current").get_attribute("data-step") == "5"
    page.click("[data-control=forward]")
    assert page.url.endswith(f"?game={game_id}&move=6"), "the address follows the step shown"
    page.focus("[data-control=end]")
    page.keyboard.press(" ")  # Space plays; it does not press the focused button (that would go to the end)
    assert page.evaluate("window.replay.player.playing && window.replay.player.step < window.replay.player.last")
    page.keyboard.press(" ")
    assert not page.evaluate("window.replay.player.playing")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert shown_step(page) == 1
    page.evaluate("delete Navigator.prototype.share")  # a desktop browser with no share sheet: the clipboard
    page.click("button.share")
    page.wait_for_function("document.getElementById('toast').textContent.includes('copied')")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    assert page.url.endswith(f"/replay.html?game={game_id}&move=1")
    open_replay(page, game_id, "&move=999")
    assert shown_step(page) == len(line), "past the end: the last move"
    open_replay(page, game_id, "&move=nonsense")
    assert shown_step(page) == 0


def test_a_lost_wish_shows_its_point_of_no_return(page, lost):
    game_id, seed, line = lost
    advice = point_of_no_return(engine.initial_state("wish", STANDARD, seed), line)
    assert advice.result == "found"
    lost_at = advice.index + 1  # the step after the move that lost it
    open_replay(page, game_id)
    cell = page.locator(".strip .cell.no-return")
    assert cell.count() == 1 and cell.get_attribute("data-step") == str(lost_at)
    assert page.locator(".strip .cell.v-winnable").count() == lost_at
    assert page.locator(".strip .cell.v-unwinnable").count() == len(line) + 1 - lost_at
    assert f"Point of no return: move {lost_at}" in page.locator(".summary").inner_text()
    page.get_by_role("button", name=f"Go to move {lost_at}").click()
    assert shown_step(page) == lost_at
    current = page.locator('.move-list li[aria-current="step"]')
    assert current.locator(".no-return-badge").inner_text() == "point of no return"
    assert "No moves left" in page.locator(".status").inner_text()
    save_screenshot(page, "replay-lost")


def test_my_games_link_to_replays_of_finished_games_only(page, arena):
    page.goto("/#/")
    page.wait_for_selector("#my-games-list li")
    token = page.evaluate("JSON.parse(localStorage.getItem('arena.guest')).token")
    me = ApiPlayer(arena.url, token)  # the browser's own guest
    seed, line = winnable_standard_wish()
    finished = me.game("wish", STANDARD, seed, line)
    running = me.game("wish", STANDARD, seed, line[:2])
    page.reload()
    page.wait_for_selector(f'a[data-game-link="{running}"]')
    assert page.locator(f'a[data-replay-link="{running}"]').count() == 0, "a game in play has no replay yet"
    save_screenshot(page, "start-page-replay-links")
    page.locator(f'a[data-replay-link="{finished}"]').click()
    page.wait_for_function("window.replay && window.replay.data")
    assert page.evaluate("window.replay.data.game_id") == finished
    page.goto(f"/#/play/{running}")
    page.wait_for_function("window.arena && window.arena.state.view")
    page.click("button[data-action=resign]")
    page.click("button[data-action=resign]")  # the second press confirms
    page.locator("#end-dialog[open] .end-replay:not([hidden])").click()
    page.wait_for_function("window.replay && window.replay.data")
    assert page.evaluate("[window.replay.data.game_id, window.replay.data.status]") == [running, "abandoned"]
    assert "Still winnable at the end" in page.locator(".summary").inner_text()


def test_a_game_in_play_has_no_replay_and_shows_no_card(page, arena, console_errors):
    console_errors.allow(r"status of 403")  # the browser logs the refusal the page then explains
    game_id = ApiPlayer(arena.url).create("wish", STANDARD, 7)
    answers = []
    page.on("response", lambda response: "/replay/views" in response.url and answers.append(response))
    page.goto(f"/replay.html?game={game_id}")
    page.wait_for_selector(".problem")
    assert page.locator(".problem h1").inner_text() == "Not public yet"
    assert page.locator(".problem").get_attribute("data-code") == "not_public_yet"
    assert page.locator(".card").count() == 0
    save_screenshot(page, "replay-not-public")
    body = answers[0].text()
    assert answers[0].status == 403 and not re.search(r'"(rank|suit|piles|seed)"', body), "no card was served"
    page.goto("/replay.html")
    assert page.locator(".problem h1").inner_text() == "No game named"


def test_the_replay_fits_a_360_px_phone(browser, arena, won, console_errors):
    game_id, _, line = won
    context = browser.new_context(base_url=arena.url, viewport={"width": 360, "height": 740},
                                  is_mobile=True, has_touch=True)
    try:
        phone = context.new_page()
        phone.on("pageerror", lambda exc: console_errors.errors.append(f"uncaught: {exc}"))
        open_replay(phone, game_id, "&move=4")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, "nothing wider than the screen"
        for control in ("first", "back", "play", "forward", "end"):
            assert phone.locator(f"[data-control={control}]").is_visible()
        assert phone.locator(".strip").is_visible() and phone.locator(".move-list").is_visible()
        phone.locator("[data-control=forward]").tap()
        assert phone.evaluate("window.replay.player.step") == 5
        save_screenshot(phone, "replay-phone")
    finally:
        context.close()
    assert console_errors.unexpected() == []
