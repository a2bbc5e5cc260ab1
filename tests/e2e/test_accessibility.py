"""Every card and pile is named for a screen reader, and a whole game plays from the keyboard."""

from __future__ import annotations

import re

import pytest

from .board import Board
from .deals import winnable_pairing_deal, wizard_luck_deal

CARD_NAME = re.compile(r"^(Wizard|Ace|[2-9]|10|Jack|Queen|King) of [a-z]+$")

pytestmark = pytest.mark.browser


def test_cards_and_piles_have_labels(page):
    seed, draws = wizard_luck_deal()
    board = Board(page)
    board.new_game("wizard", seed=seed)
    board.play_line(draws[:4])
    labels = page.eval_on_selector_all("#board .card.face", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(CARD_NAME.match(label) for label in labels), labels
    piles = page.eval_on_selector_all("#board .pile", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(piles) == len(board.view()["piles"]) and all(piles)
    assert any(label.startswith("pile 2, 1 face-down card, ") for label in piles), piles
    assert any(re.match(r"waste, .* on top, \d+ cards$", label) for label in piles), piles
    assert any(re.match(r"stock, \d+ cards$", label) for label in piles), piles
    assert page.locator(".card.back[aria-hidden=true]").count() > 0, "backs are decoration, the pile says how many"


def test_the_wish_is_won_from_the_keyboard_alone(page):
    seed, line = winnable_pairing_deal("wish", (("mode", "standard"),))
    board = Board(page)
    board.new_game("wish", seed=seed)
    assert "Enter" in page.locator(".help").text_content(), "the shortcuts are documented on the page"
    page.locator('[data-pile="t0"]').focus()
    at = 0
    for pair in line:
        before = board.version()
        for target in (pair["a"], pair["b"]):
            key = "ArrowRight" if target > at else "ArrowLeft"
            for _ in range(abs(target - at)):
                page.keyboard.press(key)
            at = target
            assert page.evaluate("document.activeElement.dataset.pile") == f"t{target}"
            page.keyboard.press("Enter")
        board.wait_ready(before + 1)
    assert board.end_dialog().get_attribute("data-outcome") == "won"


def test_keyboard_shortcut_draws_and_escape_clears_a_selection(page):
    seed, draws = wizard_luck_deal()
    board = Board(page)
    board.new_game("wizard", seed=seed)
    page.locator("#board").click(position={"x": 2, "y": 2})
    page.keyboard.press("d")
    board.wait_ready(1)
    assert board.view()["moves"] == 1
    source = next(i for i in board.legal() if i["type"] == "move")
    board.pile(source["src"]).focus()
    page.keyboard.press("Enter")
    assert page.evaluate("window.arena.state.selection.pile") == source["src"]
    target = page.locator(f'#board .pile.target[data-pile="{source["dst"]}"]')
    assert target.count() == 1
    assert target.get_attribute("aria-label").endswith("press Enter to move here")
    assert board.pile(source["src"]).get_attribute("aria-label").endswith(", selected")
    page.keyboard.press("Escape")
    assert page.evaluate("window.arena.state.selection") is None
    assert page.locator("#board .pile.target").count() == 0
