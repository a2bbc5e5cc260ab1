"""Every card and pile is named for a screen reader, and a whole game plays from the keyboard."""

from __future__ import annotations

import re

import pytest

from .board import Board
from .conftest import save_screenshot
from .deals import winnable_pairing_deal, wish_losing_line, wizard_luck_deal

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


# axe-core (shipped inside axe-playwright-python, so no network) on every page of the site, on a phone in
# the dark theme and on a tablet in the light one; a screenshot of each page at each size is kept.
LOOKS = {"phone-dark": ({"width": 360, "height": 740}, "dark"), "tablet-light": ({"width": 1280, "height": 800}, "light")}
GAME_PAGES = [("wish", None), ("patient-pairs", None), ("spider", "4 suits"), ("wizard", None), ("wading-pool", None)]


def serious_violations(page) -> list[str]:
    """axe's serious and critical findings. The felt is a gradient, whose colour axe cannot tell (it would
    leave every contrast check "incomplete"), so each page is checked twice, on a plain felt of each end of
    the gradient: text that passes on both passes everywhere between."""
    from axe_playwright_python.sync_playwright import Axe

    found = []
    for end in ("--felt", "--felt-dark"):
        page.evaluate("""(end) => {
          document.getElementById('axe-felt')?.remove();
          document.head.insertAdjacentHTML('beforeend',
            `<style id="axe-felt">html, body { background: var(${end}) !important; }</style>`);
        }""", end)
        results = Axe().run(page)
        found += [f"{v['id']} ({v['impact']}, on {end}): {[n['target'] for n in v['nodes']][:4]}"
                  for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    page.evaluate("document.getElementById('axe-felt')?.remove()")
    return found


@pytest.mark.parametrize("look", LOOKS)
def test_every_page_passes_axe(browser, arena, look):
    viewport, scheme = LOOKS[look]
    context = browser.new_context(base_url=arena.url, viewport=viewport, color_scheme=scheme)
    found: dict[str, list[str]] = {}
    sideways: dict[str, int] = {}

    def check(name: str) -> None:
        page.wait_for_load_state("networkidle")
        found[name] = serious_violations(page)
        sideways[name] = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        save_screenshot(page, f"{name}-{look}")

    try:
        page = context.new_page()
        board = Board(page)
        page.goto("/#/")
        page.wait_for_selector("#my-games-list li")
        check("start")
        page.goto("/leaderboard.html?challenge=2026-01-01/wish/mode=standard")  # (no daily today on this server)
        check("leaderboard")
        for game, preset in GAME_PAGES:
            board.new_game(game, seed=11, preset=preset)
            page.locator(".how-to-play summary").click()
            page.wait_for_selector(".how-to-play [data-how-to-play] p")
            check(f"play-{game}")
        board.play({"type": "resign"})
        board.end_dialog()
        check("end-dialog")
        # The end states' words on the felt ("Won", "No moves left"), the dialog closed.
        seed, line = wish_losing_line()
        board.new_game("wish", seed=seed)
        board.play_line(line)
        board.end_dialog().get_by_role("button", name="Look at the board").click()
        check("play-lost")
        seed, line = winnable_pairing_deal("wish", (("mode", "standard"),))
        board.new_game("wish", seed=seed)
        board.play_line(line)
        board.end_dialog().get_by_role("button", name="Look at the board").click()
        assert page.locator(".status[data-state=won]").count() == 1
        check("play-won")
        page.goto("/#/")
        page.locator("a.replay-link").first.click()
        page.wait_for_selector(".move-list, .problem")
        check("replay")
        page.goto("/stats.html")
        check("stats")
        page.goto("/race.html")
        page.wait_for_selector("main form")
        check("race")
        page.goto("/rules.html")
        page.wait_for_selector(".rules-index li")
        check("rules")
        for game, _ in GAME_PAGES:
            page.goto(f"/rules.html?game={game}")
            page.wait_for_selector(".rules-text section")
            check(f"rules-{game}")
        page.goto("/no/such/page")
        check("not-found")
    finally:
        context.close()
    assert {name: v for name, v in found.items() if v} == {}, "axe found serious or critical violations"
    assert {name: px for name, px in sideways.items() if px > 0} == {}, "pages that scroll sideways"
