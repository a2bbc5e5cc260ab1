"""A deal number is 64 bits, more than a JavaScript number holds exactly (2^53): typed into the New game
form it deals that very deal, and once the game is over the page shows it digit for digit. (Rounded, it
would deal another deal, and a revealed daily seed typed in would not replay the day's deal.)"""

from __future__ import annotations

import pytest

from .board import Board
from .test_play_games import engine_piles

pytestmark = pytest.mark.browser

SEED = 2**63 + 12_345  # 9223372036854788153: rounded to a double it would read 9223372036854788096


def test_a_64_bit_deal_number_is_dealt_and_shown_digit_for_digit(page):
    assert float(SEED) != SEED
    board = Board(page)
    board.new_game("wish", seed=SEED)
    assert board.view()["piles"] == engine_piles("wish", {"mode": "standard"}, SEED)
    board.play({"type": "resign"})
    page.wait_for_function("window.arena.state.seed !== null")
    assert page.evaluate("window.arena.state.seed") == str(SEED)
    assert f"deal number {SEED}" in page.locator(".status").inner_text()
