"""The start page, watching another player's game, a refused move, and the locally ticking clock."""

from __future__ import annotations

import re

import pytest

from .board import Board
from .conftest import save_screenshot
from .deals import winnable_pairing_deal

pytestmark = pytest.mark.browser


def test_start_page_lists_my_games_newest_first(page):
    board = Board(page)
    first = board.new_game("wading-pool", seed=3)
    second = board.new_game("patient-pairs", seed=4, preset="8 piles")
    assert board.view()["variant"] == {"piles": 8}
    assert len([p for p in board.view()["piles"] if p["kind"] == "tableau"]) == 8
    page.goto("/#/")
    links = page.locator("#my-games-list a[data-game-link]")
    links.first.wait_for()
    ids = links.evaluate_all("els => els.map(e => e.dataset.gameLink)")
    assert ids.index(second) < ids.index(first)
    save_screenshot(page, "start-page")
    page.locator(f'a[data-game-link="{first}"]').click()
    board.wait_ready(0)
    assert page.evaluate("window.arena.state.gameId") == first
    assert page.locator(".game-title").inner_text() == "Wading Pool"


def test_another_player_watches_read_only(page, browser, arena):
    seed, line = winnable_pairing_deal("wish", (("mode", "standard"),))
    board = Board(page)
    game_id = board.new_game("wish", seed=seed)
    watcher_context = browser.new_context(base_url=arena.url)  # its own storage: another guest
    try:
        watcher = watcher_context.new_page()
        watcher.goto(f"/#/play/{game_id}")
        watching = Board(watcher)
        watching.wait_ready(0)
        assert watcher.evaluate("window.arena.state.role") == "spectator"
        assert "Watching" in watcher.locator(".status").inner_text()
        assert watcher.locator(".actions button:not([hidden])").count() == 0
        board.play_line(line[:2])
        watching.wait_ready(2)
        assert watching.view()["piles"] == board.view()["piles"]
        watching.source_card(f"t{line[2]['a']}", 1).click()
        assert watcher.evaluate("window.arena.state.selection") is None, "a spectator selects nothing"
    finally:
        watcher_context.close()


def test_a_refused_move_is_explained_and_changes_nothing(page):
    board = Board(page)
    board.new_game("wish", seed=5)
    shown = board.view()
    # The UI only offers legal moves; send an illegal one the way a stale or broken client would.
    page.evaluate("window.arena.link.sendMove({type: 'pair', a: 0, b: 0})")
    toast = page.locator("#toast:not([hidden])")
    toast.wait_for()
    assert toast.get_attribute("data-kind") == "error"
    assert "two different piles" in toast.inner_text(), "the engine's own reason reaches the player"
    board.wait_ready(0)
    assert board.view() == shown and board.version() == 0


def test_the_clock_ticks_between_server_messages(page):
    board = Board(page)
    board.new_game("wish", seed=6)
    clock = page.locator("[data-status=time]")
    first = clock.inner_text()
    page.wait_for_function(f"document.querySelector('[data-status=time]').textContent !== '{first}'", timeout=5000)
    assert re.fullmatch(r"\d+:\d\d", clock.inner_text())


def test_an_unknown_game_says_so(page, console_errors):
    console_errors.allow(r"Failed to load resource: .*404")
    page.goto("/#/play/no-such-game")
    page.get_by_role("heading", name="Game not found").wait_for()
    assert page.locator(".reason").inner_text().strip() != ""
    page.get_by_role("link", name="Back to the start page").click()
    page.wait_for_selector("#new-game")


def test_server_text_is_shown_as_text_never_as_markup(page):
    """A card from a newer server (an unknown suit, a rank the client has no mark for) is drawn with
    its text escaped: markup in it creates no element."""
    page.goto("/#/")
    page.wait_for_selector("#new-game")
    drawn = page.evaluate("""async () => {
        const { faceElement } = await import("/js/cards.js");
        const el = faceElement({ id: 1, rank: "<b>7</b>", suit: "<img src=x onerror=alert(1)>" });
        return { tags: [...el.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()),
                 text: el.querySelector(".pip").textContent, rank: el.querySelector(".rank").textContent };
    }""")
    assert "img" not in drawn["tags"] and "b" not in drawn["tags"], drawn["tags"]
    assert (drawn["text"], drawn["rank"]) == ("<i", "<b>7</b>")
