"""Every game fits a 360 px phone and a 1280 px landscape tablet or laptop: no horizontal scrolling of
the page, every board and every pile inside the window. A screenshot of each is kept as an artifact."""

from __future__ import annotations

import pytest

from .board import Board
from .conftest import save_screenshot

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "tablet": {"width": 1280, "height": 800}}
# Every game and every form of it whose board differs in width (Patient Pairs' widest is 13 piles).
GAMES = [("wish", None), ("patient-pairs", "13 piles"), ("spider", "1 suit"), ("spider", "2 suits"),
         ("spider", "4 suits"), ("wizard", None), ("wading-pool", None)]

MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const boxes = [...document.querySelectorAll('.board, #board .pile, #board .card, .play-head, .topbar')]
    .filter((el) => el.getClientRects().length)
    .map((el) => { const r = el.getBoundingClientRect();
      return { what: el.className + ' ' + (el.dataset.pile || ''), left: r.left, right: r.right }; });
  // For the failure message: the elements that reach past the window's right edge.
  const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 0.5)
    .slice(0, 6).map((el) => el.tagName + '.' + el.className);
  return { width, scroll: document.documentElement.scrollWidth, wide,
    outside: boxes.filter((b) => b.left < -0.5 || b.right > width + 0.5),
    cardWidth: document.querySelector('#board .card')?.getBoundingClientRect().width ?? 0 };
}"""


def fits(page) -> dict:
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= measured["width"], f"the page scrolls sideways: {measured}"
    assert measured["outside"] == [], f"outside the window: {measured['outside'][:5]}"
    return measured


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_every_game_fits_the_window(browser, arena, game, preset, size):
    context = browser.new_context(base_url=arena.url, viewport=SIZES[size], has_touch=size == "phone")
    try:
        page = context.new_page()
        board = Board(page)
        board.new_game(game, seed=7, preset=preset)
        page.wait_for_selector("#board .pile")
        measured = fits(page)
        # The cards stay big enough to read: a third of a phone's width shared by ten or thirteen piles.
        assert measured["cardWidth"] >= (30 if size == "phone" else 60), measured
        save_screenshot(page, f"play-{game}{'-' + preset.split()[0] if preset else ''}-{size}")
    finally:
        context.close()


OVERLAPS = """() => {
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  for (const badge of document.querySelectorAll('#board .count')) {
    const box = badge.getBoundingClientRect();
    for (const card of document.querySelectorAll('#board .card')) {
      if (meet(box, card.getBoundingClientRect())) out.push(badge.parentElement.dataset.pile);
    }
  }
  return { badges: document.querySelectorAll('#board .count').length, covered: out };
}"""


@pytest.mark.parametrize("size", SIZES)
def test_count_badges_never_cover_a_card(browser, arena, size):
    context = browser.new_context(base_url=arena.url, viewport=SIZES[size])
    try:
        page = context.new_page()
        board = Board(page)
        board.new_game("wizard", seed=7)
        board.play({"type": "deal"})
        board.play({"type": "deal"})  # a waste of six, fanned three, and a stock: each with its count
        found = page.evaluate(OVERLAPS)
        assert found["badges"] >= 2 and found["covered"] == [], found
    finally:
        context.close()
