"""A deal of each of the five games played through the UI against a real `arena serve`."""

from __future__ import annotations

import re

import msgspec
import pytest

import engine

from .board import Board
from .conftest import save_screenshot
from .deals import spider_group_line, winnable_pairing_deal, wish_losing_line, wizard_cast_deal, wizard_luck_deal

pytestmark = pytest.mark.browser


def engine_piles(game: str, variant: dict, seed: int) -> list[dict]:
    state = engine.initial_state(game, variant, seed)
    return msgspec.json.decode(msgspec.json.encode(engine.player_view(state)))["piles"]


def some_moves(board: Board, count: int) -> int:
    """Play up to `count` moves chosen from view.legal, never straight back where a group came from."""
    last = None
    played = 0
    for _ in range(count):
        legal = [i for i in board.legal() if i["type"] not in ("resign", "undo")]
        moves = [i for i in legal if i["type"] != "move" or (i["dst"], i["src"]) != last]
        to_foundation = [i for i in moves if i["type"] == "move" and i["dst"].startswith("f")]
        choice = (to_foundation or [i for i in moves if i["type"] != "deal"] or moves or [None])[0]
        if choice is None:
            break
        board.play(choice)
        last = (choice["src"], choice["dst"]) if choice["type"] == "move" else None
        played += 1
    return played


def test_the_wish_is_won_through_the_ui(page):
    seed, line = winnable_pairing_deal("wish", (("mode", "standard"),))
    board = Board(page)
    board.new_game("wish", seed=seed)
    assert board.view()["piles"] == engine_piles("wish", {"mode": "standard"}, seed), "the page shows the server's deal"
    board.play_line(line)
    dialog = board.end_dialog()
    assert "You won" in dialog.inner_text()
    assert board.view()["status"] == "won"
    assert page.locator('.status[data-state="won"]').is_visible()
    assert re.search(rf"\b{len(line)} moves\b", page.locator(".status").inner_text())
    page.wait_for_function(f"document.querySelector('.status').textContent.includes('deal number {seed}')")
    page.get_by_role("button", name="Look at the board").click()
    deal = page.locator("details.deal")
    deal.locator("summary").click()
    revealed = deal.locator(".deal-board .pile")
    assert revealed.count() == 8, "drawn by the board renderer, pile for pile"
    assert deal.locator(".card.back").count() == 0, "every card face up"
    shown = [revealed.nth(i).locator(".card.face").evaluate_all("els => els.map(e => Number(e.dataset.cardId))")
             for i in range(8)]
    dealt = engine.initial_state("wish", {"mode": "standard"}, seed).board
    assert shown == [[card.id for card in pile.cards] for pile in dealt.piles], "the deal as dealt"
    assert page.locator("#board .pile").count() == 8, "the game's own board is still there, apart"
    save_screenshot(page, "wish")


def test_patient_pairs_is_won_through_the_ui(page):
    seed, line = winnable_pairing_deal("patient-pairs")
    board = Board(page)
    board.new_game("patient-pairs", seed=seed)
    board.play_line(line[:6])
    save_screenshot(page, "patient-pairs")
    board.play_line(line[6:])
    dialog = board.end_dialog()
    assert "You won" in dialog.inner_text()
    assert board.view()["moves"] == len(line)
    finished = page.evaluate("window.arena.state.gameId")
    dialog.get_by_role("button", name="New game").click()
    page.wait_for_function(f"window.arena && window.arena.state.gameId !== '{finished}'")
    board.wait_ready(0)
    assert board.view()["variant"] == {"piles": 13} and board.view()["moves"] == 0


def enabled_actions(page) -> set[str]:
    buttons = page.locator(".actions button[data-action]:not([hidden]):enabled")
    return set(buttons.evaluate_all("els => els.map(e => e.dataset.action)"))


def listed_actions(board: Board) -> set[str]:
    return {i["type"] for i in board.legal()} & {"deal", "recycle", "cast", "undo", "resign"}


def test_spider_moves_deal_undo_and_resign(page):
    board = Board(page)
    board.new_game("spider", seed=7, preset="2 suits")
    assert board.view()["variant"] == {"suits": 2}
    assert enabled_actions(page) == listed_actions(board) == {"deal", "resign"}, "nothing to undo yet"
    assert some_moves(board, 6) == 6
    assert enabled_actions(page) == listed_actions(board) == {"deal", "undo", "resign"}
    save_screenshot(page, "spider")
    board.play({"type": "deal"})
    stock = next(p for p in board.view()["piles"] if p["id"] == "stock")
    assert stock["down"] == 40, "one deal of ten cards left the stock"
    board.play({"type": "undo"})
    view = board.view()
    assert (view["moves"], view["undos"]) == (6, 1)
    assert next(p for p in view["piles"] if p["id"] == "stock")["down"] == 50
    board.play({"type": "resign"})
    assert "resigned" in board.end_dialog().inner_text().lower()
    assert board.view()["status"] == "abandoned"
    assert enabled_actions(page) == set() and board.legal() == []
    # The deal as dealt, drawn by the board renderer: ten columns face up, the stock listed in order.
    page.get_by_role("button", name="Look at the board").click()
    deal = page.locator("details.deal")
    deal.locator("summary").click()
    dealt = engine.initial_state("spider", {"suits": 2}, 7).board

    def ids(locator):
        return locator.evaluate_all("els => els.map(e => Number(e.dataset.cardId))")

    columns = [ids(deal.locator(f'.pile[data-pile="t{i}"] .card.face')) for i in range(10)]
    assert columns == [[card.id for card in column.cards] for column in dealt.columns]
    stock = ids(deal.locator(".stock-tray .card.face"))
    assert stock == [card.id for card in reversed(dealt.stock)], "bottom to top: the next card dealt last"
    assert deal.locator(".card.back").count() == 0
    deal.scroll_into_view_if_needed()
    save_screenshot(page, "spider-deal")


def test_spider_moves_a_group_by_keyboard_and_by_clicking_its_first_card(page):
    seed, line, group = spider_group_line()
    board = Board(page)
    board.new_game("spider", seed=seed)
    board.play_line(line)

    def faces(pile_id):
        return [c["id"] for p in board.view()["piles"] if p["id"] == pile_id for c in p["cards"]]

    src, dst, count = group["src"], group["dst"], group["count"]
    moving = faces(src)[-count:]
    board.pile(src).focus()
    page.keyboard.press("Enter")
    assert page.evaluate("window.arena.state.selection.count") == count, "Enter takes the largest group"
    page.keyboard.press("ArrowDown")  # the deal lets this pile move one card fewer too
    assert page.evaluate("window.arena.state.selection.count") == count - 1
    assert board.pile(src).locator(".card.face.selected").count() == count - 1
    page.keyboard.press("ArrowUp")
    assert board.pile(src).locator(".card.face.selected").count() == count
    board.pile(dst).focus()
    page.keyboard.press("Enter")
    board.wait_ready(len(line) + 1)
    assert faces(dst)[-count:] == moving
    board.play({"type": "undo"})
    assert faces(src)[-count:] == moving
    board.play(group)  # by mouse: a click on the group's first card, then on the target
    assert faces(dst)[-count:] == moving and board.view()["undos"] == 1


def test_solitaire_wizard_draws_and_picks_from_the_stock_by_luck(page):
    seed, draws = wizard_luck_deal()
    board = Board(page)
    board.new_game("wizard", seed=seed)
    for i, step in enumerate(draws):
        if i % 2 and step["type"] == "deal":  # half of the draws by clicking the stock itself
            before = board.version()
            board.pile("stock").click(position={"x": 10, "y": 10})
            board.wait_ready(before + 1)
        else:
            board.play(step)
    view = board.view()
    assert view["info"]["luck_open"] is True
    stock = next(p for p in view["piles"] if p["id"] == "stock")
    tray = page.locator(".luck-tray .card")
    assert tray.count() == len(stock["cards"]) > 0, "every stock card is shown to pick from"
    save_screenshot(page, "wizard")
    luck = next(i for i in board.legal() if i["type"] == "luck")
    board.play(luck)
    after = board.view()
    assert after["info"]["luck_open"] is False
    assert page.locator(".luck-tray").count() == 0
    assert luck["card"] in [c["id"] for p in after["piles"] if p["id"] == luck["dst"] for c in p["cards"]]


def test_a_lost_wish_shows_the_lost_dialog(page):
    seed, line = wish_losing_line()
    board = Board(page)
    board.new_game("wish", seed=seed)
    board.play_line(line)
    dialog = board.end_dialog()
    assert dialog.get_attribute("data-outcome") == "lost"
    assert "No moves left" in dialog.inner_text()
    assert dialog.locator("[data-end-action=undo]").is_visible(), "practice undo: the game was dealt from a chosen number"
    assert board.legal() == [{"type": "undo"}] and enabled_actions(page) == {"undo"}, "a lost game stays lost: no resign"
    assert page.locator("button[data-action=resign]").is_disabled()
    dialog.get_by_role("button", name="Start page").click()
    page.wait_for_selector("#new-game")


def test_solitaire_wizard_cast_turns_one_card(page):
    seed, draws = wizard_cast_deal()
    board = Board(page)
    board.new_game("wizard", seed=seed)
    board.play_line(draws)
    cast = page.locator("button[data-action=cast]")
    assert cast.is_enabled()
    board.play({"type": "cast"})
    piles = {p["id"]: p for p in board.view()["piles"]}
    waste, stock = len(piles["waste"]["cards"]), piles["stock"]["down"]
    page.keyboard.press("d")  # the shortcut for deal / draw
    board.wait_ready(len(draws) + 2)
    piles = {p["id"]: p for p in board.view()["piles"]}
    assert (len(piles["waste"]["cards"]), piles["stock"]["down"]) == (waste + 1, stock - 1)


def test_double_click_sends_a_card_to_a_foundation(page):
    def to_foundation(state):
        return [i for i in engine.legal_moves(state) if getattr(i, "dst", "").startswith("f")]

    seed = next(s for s in range(1, 100) if to_foundation(engine.initial_state("wizard", None, s)))
    board = Board(page)
    board.new_game("wizard", seed=seed)
    move = next(i for i in board.legal() if i["type"] == "move" and i["dst"].startswith("f"))
    card = board.source_card(move["src"], 1)
    card_id = int(card.get_attribute("data-card-id"))
    card.dblclick()
    board.wait_ready(1)
    foundations = [p for p in board.view()["piles"] if p["kind"] == "foundation"]
    assert [c["id"] for p in foundations for c in p["cards"]] == [card_id]


def test_wading_pool_by_drag_and_drop(page):
    board = Board(page)
    seed = next(s for s in range(1, 200) if engine.legal_moves(engine.initial_state("wading-pool", None, s)))
    board.new_game("wading-pool", seed=seed)
    for _ in range(3):
        move = next((i for i in board.legal() if i["type"] == "move"), None)
        if move is None:
            break
        before = board.version()
        board.source_card(move["src"], move["count"]).drag_to(board.pile(move["dst"]), target_position={"x": 12, "y": 12})
        board.wait_ready(before + 1)
        assert board.view()["moves"] == before + 1
    if board.view()["status"] == "lost":  # a short deal: the lost dialog offers a look at the board
        dialog = board.end_dialog()
        assert "No moves left" in dialog.inner_text()
        dialog.get_by_role("button", name="Look at the board").click()
        save_screenshot(page, "wading-pool")
        assert page.locator("button[data-action=resign]").is_disabled(), "a lost game is not resigned"
        return
    save_screenshot(page, "wading-pool")
    assert enabled_actions(page) == {"undo", "resign"}, "practice undo: the game was dealt from a chosen number"
    board.play({"type": "resign"})
    assert board.end_dialog().get_attribute("data-outcome") == "abandoned"
