"""The flow of play in the browser: disabled buttons say why, resign is disabled on a lost game,
practice undo, Finish, and "Play this deal again" (with the deal number shown for casual play)."""

from __future__ import annotations

import re

import pytest

from .board import Board
from .deals import pairing_finish_line, spider_empty_column_line, wish_losing_line

pytestmark = pytest.mark.browser


def reason_of(page, action: str) -> tuple[bool, str, str]:
    """A button's state as a player meets it: disabled or not, its tooltip, and the text a screen
    reader reads as its description (through aria-describedby)."""
    button = page.locator(f".actions button[data-action={action}]")
    described = button.get_attribute("aria-describedby")
    spoken = page.locator(f"#{described}").text_content() if described else ""
    return button.is_disabled(), button.get_attribute("title") or "", spoken or ""


def server_reason(board: Board, action: str) -> str:
    return next(a for a in board.view()["actions"] if a["type"] == action)["reason"]


def test_a_lost_game_disables_resign_with_its_reason_and_undo_brings_it_back(page):
    seed, line = wish_losing_line()
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line)
    dialog = board.end_dialog()
    assert dialog.get_attribute("data-outcome") == "lost"
    dialog.get_by_role("button", name="Look at the board").click()
    disabled, title, spoken = reason_of(page, "resign")
    assert disabled and "stays lost" in title and title == server_reason(board, "resign")
    assert spoken == f"Not available: {title}", "the same reason for a screen reader"
    page.click("button[data-action=undo]")  # practice undo: a chosen deal is a practice game
    board.wait_ready(len(line) + 1)
    view = board.view()
    assert (view["status"], view["undos"], view["moves"]) == ("in_progress", 1, len(line) - 1)
    assert not reason_of(page, "resign")[0], "back in play: resign is possible again"
    assert page.locator(".status").inner_text().count(f"deal number {seed}") == 1


def test_play_this_deal_again_after_a_casual_game_deals_it_as_practice(page):
    board = Board(page)
    # casual: a short deal number, shown at once (Spider: a random Wish deal is, rarely, lost as it is dealt)
    first = board.new_game("spider")
    number = page.evaluate("window.arena.state.dealNumber")
    assert 1 <= number <= 10**9
    page.wait_for_function(f"document.querySelector('.status').textContent.includes('deal number {number}')")
    dealt = board.view()["piles"]
    board.play({"type": "resign"})
    board.end_dialog().get_by_role("button", name="Play this deal again").click()
    page.wait_for_function(f"window.arena && window.arena.state.gameId !== '{first}' && window.arena.state.view")
    board.wait_ready(0)
    assert page.evaluate("window.arena.state.dealNumber") == number
    assert board.view()["piles"] == dealt and board.view()["status"] == "in_progress"
    summary = page.evaluate("fetch('/api/games/' + window.arena.state.gameId, {headers: {Authorization: "
                            "'Bearer ' + JSON.parse(localStorage.getItem('arena.guest')).token}}).then(r => r.json())")
    assert summary["kind"] == "practice" and summary["chosen_deal"]


def test_finish_plays_the_rest_in_one_click(page):
    seed, line, rest = pairing_finish_line()
    board = Board(page)
    board.new_game("wish", seed=seed, preset="Open (all face up)")
    disabled, title, _ = reason_of(page, "finish")
    assert disabled and title.startswith("the rest still needs choices")
    board.play_line(line)
    assert not reason_of(page, "finish")[0], "offered once the rest needs no choice"
    page.click("button[data-action=finish]")
    dialog = board.end_dialog()
    assert "You won" in dialog.inner_text()
    view = board.view()
    assert view["status"] == "won" and view["moves"] == len(line) + rest, "each finishing move is a move"
    assert re.search(rf"\b{len(line) + rest} moves\b", page.locator(".status").inner_text())


def test_disabled_controls_say_why_in_the_engines_words(page):
    board = Board(page)
    board.new_game("wizard", seed=3)
    for action in ("recycle", "cast", "finish"):
        disabled, title, spoken = reason_of(page, action)
        assert disabled and title and title == server_reason(board, action), action
        assert spoken == f"Not available: {title}", action
    assert "stock still has cards" in reason_of(page, "recycle")[1]
    assert "no cast is open" in reason_of(page, "cast")[1]
    status = page.locator(".status").inner_text()
    assert "cards in the stock" in status and "luck streak" not in status, "words, not engine keys"

    seed, line = spider_empty_column_line()
    board.new_game("spider", seed=seed, preset="1 suit")
    board.play_line(line)
    disabled, title, spoken = reason_of(page, "deal")
    assert disabled and "column is empty" in title and spoken == f"Not available: {title}"
    empty = next(p["id"] for p in board.view()["piles"] if p["kind"] == "tableau" and not p["cards"] and not p["down"])
    assert empty in title, "the reason names the column to fill"
