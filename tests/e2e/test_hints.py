"""Hints in the web client: a practice Wish (a chosen deal) won by clicking Hint and playing the cards
it marks, the game marked Assisted; a casual game shows no Hint button; a lost cause says so."""

from __future__ import annotations

import pytest

from .board import Board
from .conftest import save_screenshot

pytestmark = pytest.mark.browser

WINNABLE_SEED, UNWINNABLE_SEED = 3, 0  # The Wish, standard: the solver's verdicts from the deal


def click_hint(page, board: Board) -> dict:
    version = board.version()
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function(f"window.arena.state.hint && window.arena.state.hint.version === {version}"
                           " && !window.arena.state.hintPending")
    return page.evaluate("JSON.parse(JSON.stringify(window.arena.state.hint))")


def marked(page) -> dict[str, list[int]]:
    """The piles the board marks as hinted, and the cards it marks in each."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#board .pile.hinted')]
        .map((pile) => [pile.dataset.pile, [...pile.querySelectorAll('.card.hinted')].map((c) => Number(c.dataset.cardId))]))""")


def test_a_practice_wish_is_won_on_hints_and_marked_assisted(page):
    board = Board(page)
    board.new_game("wish", seed=WINNABLE_SEED)
    assert page.locator("[data-status=assisted]").is_hidden(), "no hint taken yet"
    first = True
    while board.view()["status"] == "in_progress":
        hint = click_hint(page, board)
        move = hint["move"]
        assert hint["result"] == "winnable" and move in board.legal()
        tops = {pile["id"]: pile["cards"][-1]["id"] for pile in board.view()["piles"] if pile["cards"]}
        assert marked(page) == {f"t{move['a']}": [tops[f"t{move['a']}"]], f"t{move['b']}": [tops[f"t{move['b']}"]]}
        line = page.locator("[data-hint-text]")
        assert line.is_visible() and line.inner_text().startswith("Hint: pair ")
        assert page.locator("[data-status=assisted]").is_visible()
        if first:
            save_screenshot(page, "wish-hint")
            first = False
        board.play(move)
        assert marked(page) == {} and page.locator("[data-hint-text]").is_hidden(), "a hint is for one position"
    assert "You won" in board.end_dialog().inner_text()
    game_id = page.evaluate("window.arena.state.gameId")
    page.reload()
    board.wait_ready()
    assert page.locator("[data-status=assisted]").is_visible(), "assisted for good, as the server says"
    summary = page.evaluate(f"""async () => {{
        const {{ token }} = JSON.parse(localStorage.getItem('arena.guest'));
        const response = await fetch('/api/games/{game_id}', {{ headers: {{ Authorization: `Bearer ${{token}}` }} }});
        return response.json();
    }}""")
    assert summary["assisted"] is True and summary["kind"] == "practice" and summary["ranked"] is False


def test_no_winning_line_is_said_and_a_casual_game_has_no_hint_button(page):
    board = Board(page)
    board.new_game("wish", seed=UNWINNABLE_SEED)
    hint = click_hint(page, board)
    assert (hint["result"], hint["move"]) == ("unwinnable", None)
    assert page.locator("[data-hint-text]").inner_text() == "No winning line from here."
    assert marked(page) == {}
    board.new_game("wish")  # a fresh random deal: casual
    assert page.locator("button[data-hint]").is_hidden()
    assert page.locator("[data-status=assisted]").is_hidden()
    page.keyboard.press("h")  # the shortcut asks nothing either: no error, no hint
    assert page.evaluate("window.arena.state.hint ?? null") is None
