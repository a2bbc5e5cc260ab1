"""Solitaire Wizard: a Klondike-like patience with the 98-card Wizard deck.

Seven tableau piles of 1..7 cards (top face up), 70 in the stock, seven foundation slots that any
Wizard may start. Draws turn three cards (one after a cast); Spells and Potions open a cast, three
Luck draws in a row open a luck pick. Variant ``redeals``: recycles of the waste allowed (None =
unlimited). The placement rules live in wizard_moves, loss detection in wizard_search. See
docs/rules/solitaire-wizard.md for every choice made here.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..cards import WIZARD, Card, wizard_deck
from ..errors import ILLEGAL_MOVE, NO_SUCH_PILE, NOT_SUPPORTED, RuleError, rule_error
from ..events import AnyEvent, CardsMoved, LuckPicked, SpellCast, StockDealt, WasteRecycled
from ..intents import AnyIntent, CastIntent, DealIntent, LuckIntent, MoveIntent, RecycleIntent
from ..piles import Pile, deal_rows, replace
from ..rules import GameRules
from ..shuffle import deal_key, shuffled
from ..state import IN_PROGRESS, LOST, WON, GameState, PileView
from ..variants import preset
from .wizard_moves import (
    DECK_SIZE, FOUNDATIONS, PILE_NAMES, TABLEAU_PILES, WizardBoard, draw_flags, fits_foundation,
    fits_tableau, is_run, plays,
)
from .wizard_board import WizardVariant as WizardVariant  # re-exported
from .wizard_search import play_reachable
from .wizard_status import FINISH_RULE, finishing_line, status_notes


class WizardRules(GameRules[WizardBoard, WizardVariant]):
    game_id = "wizard"
    title = "Solitaire Wizard"
    has_solver = True
    solver = "wizard"
    blurb = "Seven magic suits. Wizards open the foundations; Spells, Potions and Luck bend the draw."
    variant_type = WizardVariant
    presets = (
        preset("Unlimited redeals", WizardVariant(None)), preset("3 redeals", WizardVariant(3)),
        preset("1 redeal", WizardVariant(1)), preset("No redeal", WizardVariant(0)),
    )
    actions = ("deal", "recycle", "cast")
    daily_eligible = True
    race_eligible = True

    def deal(self, variant: WizardVariant, seed: int) -> WizardBoard:
        # Dealt like a person deals Klondike: row r gives pile r its face-up card and piles r+1..6
        # a face-down card each; the rest of the shuffled sequence is the stock, its front on top.
        cards = shuffled(wizard_deck(), deal_key(self.game_id, self.variant_text(variant), seed))
        sizes = tuple(range(1, TABLEAU_PILES + 1))
        rows = deal_rows(cards, sizes)
        tableau = tuple(Pile(tuple(row), len(row) - 1) for row in rows)
        stock = tuple(reversed(cards[sum(sizes) :]))
        return WizardBoard(tableau, (Pile(),) * FOUNDATIONS, stock)

    # Deciding ------------------------------------------------------------------------------

    def decide(self, intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
        board: WizardBoard = state.board
        if isinstance(intent, MoveIntent):
            return _decide_move(intent, board)
        if isinstance(intent, DealIntent):
            if not board.stock:
                return rule_error(ILLEGAL_MOVE, "the stock is empty: recycle the waste to draw again")
            drawn = board.stock[-(1 if board.cast_active else 3) :]
            return [StockDealt(cards=tuple(card.id for card in reversed(drawn)))]
        if isinstance(intent, RecycleIntent):
            problem = _recycle_problem(board, state.variant)
            return rule_error(ILLEGAL_MOVE, problem) if problem else [WasteRecycled()]
        if isinstance(intent, CastIntent):
            if not board.cast_open:
                return rule_error(ILLEGAL_MOVE, "no cast is open: a draw must show Spells or Potions on top")
            return [SpellCast()]
        if isinstance(intent, LuckIntent):
            return _decide_luck(intent, board)
        return rule_error(
            NOT_SUPPORTED,
            f"{self.title} has moves, draws, recycles, casts and luck picks, not {type(intent).__name__}",
        )

    def apply(self, board: WizardBoard, event: AnyEvent, variant: WizardVariant) -> WizardBoard:
        if isinstance(event, CardsMoved):
            board, cards = _take(board, event.src, len(event.cards))
            return _put(board, event.dst, cards)
        if isinstance(event, StockDealt):
            count = len(event.cards)
            waste = board.waste + tuple(reversed(board.stock[-count:]))
            cast_open, luck_open, streak = draw_flags(board.luck_streak, waste[-1])
            return msgspec.structs.replace(
                board, stock=board.stock[:-count], waste=waste, cast_open=cast_open,
                cast_active=False, luck_open=luck_open, luck_streak=streak,
            )
        if isinstance(event, WasteRecycled):
            return msgspec.structs.replace(
                board, stock=tuple(reversed(board.waste)), waste=(), redeals_used=board.redeals_used + 1
            )
        if isinstance(event, SpellCast):
            return msgspec.structs.replace(board, cast_open=False, cast_active=True)
        if isinstance(event, LuckPicked):
            card = next(card for card in board.stock if card.id == event.card)
            stock = tuple(c for c in board.stock if c.id != event.card)
            board = msgspec.structs.replace(board, stock=stock, luck_open=False)
            return _put(board, event.dst, (card,))
        raise TypeError(f"not a Solitaire Wizard event: {event!r}")

    # Reading the board ---------------------------------------------------------------------

    def legal_moves(self, state: GameState) -> list[AnyIntent]:
        board: WizardBoard = state.board
        moves = list(plays(board))
        if board.stock:
            moves.append(DealIntent())
        elif _recycle_problem(board, state.variant) is None:
            moves.append(RecycleIntent())
        return moves

    def outcome(self, board: WizardBoard, variant: WizardVariant) -> str:
        if sum(len(slot) for slot in board.foundations) == DECK_SIZE:
            return WON
        if next(plays(board), None) is not None or play_reachable(board, variant.redeals):
            return IN_PROGRESS
        return LOST

    def piles(self, state: GameState) -> tuple[PileView, ...]:
        board: WizardBoard = state.board
        views = [PileView(f"t{i}", "tableau", p.down, p.face_up) for i, p in enumerate(board.tableau)]
        views += [PileView(f"f{i}", "foundation", 0, p.cards) for i, p in enumerate(board.foundations)]
        views.append(PileView("waste", "waste", 0, board.waste))
        if board.luck_open:  # the player may look through the stock (next card to draw last)
            views.append(PileView("stock", "stock", 0, board.stock))
        else:
            views.append(PileView("stock", "stock", len(board.stock), ()))
        return tuple(views)

    def info(self, state: GameState) -> dict[str, Any]:  # Any: the game's own JSON counters
        board: WizardBoard = state.board
        redeals = state.variant.redeals
        return {
            "cast_open": board.cast_open,
            "cast_active": board.cast_active,
            "luck_open": board.luck_open,
            "luck_streak": board.luck_streak,
            "redeals_used": board.redeals_used,
            "redeals_left": None if redeals is None else max(redeals - board.redeals_used, 0),
            "stock_count": len(board.stock),
            "foundation_count": sum(len(slot) for slot in board.foundations),
        }

    def notes(self, state: GameState) -> tuple[str, ...]:
        return status_notes(state.board, state.variant.redeals)

    finish_rule = FINISH_RULE

    def finish_line(self, board: WizardBoard, variant: WizardVariant) -> list[AnyIntent] | None:
        return finishing_line(board)

    def hidden_cards(self, board: WizardBoard) -> frozenset[int]:
        hidden = {card.id for pile in board.tableau for card in pile.cards[: pile.down]}
        if not board.luck_open:
            hidden.update(card.id for card in board.stock)
        return frozenset(hidden)

    def revealed_piles(self, board: WizardBoard) -> tuple[PileView, ...]:
        views = [PileView(f"t{i}", "tableau", 0, p.cards) for i, p in enumerate(board.tableau)]
        views += [PileView(f"f{i}", "foundation", 0, p.cards) for i, p in enumerate(board.foundations)]
        views.append(PileView("waste", "waste", 0, board.waste))
        views.append(PileView("stock", "stock", 0, board.stock))  # already bottom to top: draws take the end
        return tuple(views)


def _recycle_problem(board: WizardBoard, variant: WizardVariant) -> str | None:
    if board.stock:
        return "the stock still has cards: recycle only when it is empty"
    if not board.waste:
        return "the waste is empty: there is nothing to recycle"
    if variant.redeals is not None and board.redeals_used >= variant.redeals:
        return f"no recycle left: this game allows {variant.redeals}"
    return None


def _decide_move(intent: MoveIntent, board: WizardBoard) -> list[AnyEvent] | RuleError:
    src, dst, count = intent.src, intent.dst, intent.count
    for name in (src, dst):
        if name not in PILE_NAMES:
            return rule_error(NO_SUCH_PILE, f"no pile {name!r}: piles are t0-t6, f0-f6, waste and stock")
    (src_kind, src_i), (dst_kind, dst_i) = PILE_NAMES[src], PILE_NAMES[dst]
    if src_kind == "stock":
        return rule_error(ILLEGAL_MOVE, "the stock only deals: draw with a deal (or pick while luck is open)")
    if dst_kind not in ("tableau", "foundation"):
        return rule_error(ILLEGAL_MOVE, "cards go only onto tableau piles and foundations")
    if src == dst:
        return rule_error(ILLEGAL_MOVE, "a card cannot move onto its own pile")
    if count < 1:
        return rule_error(ILLEGAL_MOVE, f"count must be 1 or more, not {count}")
    if count > 1 and (src_kind != "tableau" or dst_kind != "tableau"):
        return rule_error(ILLEGAL_MOVE, "only a run from a tableau pile to a tableau pile moves as a unit")
    if src_kind == "tableau":
        pile = board.tableau[src_i]
        if count > len(pile.face_up):
            return rule_error(ILLEGAL_MOVE, f"{src} has {len(pile.face_up)} face-up card(s), not {count}")
        cards = pile.cards[-count:]
        if not is_run(cards):
            return rule_error(ILLEGAL_MOVE, f"the top {count} cards of {src} are not a run built down by suit")
    elif src_kind == "waste":
        if not board.waste:
            return rule_error(ILLEGAL_MOVE, "the waste is empty")
        cards = board.waste[-1:]
    else:
        slot = board.foundations[src_i]
        if not slot.cards:
            return rule_error(ILLEGAL_MOVE, f"{src} is empty")
        if slot.cards[-1].rank == WIZARD:
            return rule_error(ILLEGAL_MOVE, "a Wizard never leaves its foundation")
        if dst_kind != "tableau":
            return rule_error(ILLEGAL_MOVE, "a foundation card may only go back to a tableau pile")
        cards = slot.cards[-1:]
    problem = _placement_problem(cards[0], board, dst_kind, dst_i, dst)
    if problem:
        return rule_error(ILLEGAL_MOVE, problem)
    return [CardsMoved(src=src, dst=dst, cards=tuple(card.id for card in cards))]


def _decide_luck(intent: LuckIntent, board: WizardBoard) -> list[AnyEvent] | RuleError:
    if not board.luck_open:
        return rule_error(ILLEGAL_MOVE, "no luck pick is open: three draws in a row must show Luck")
    if intent.dst not in PILE_NAMES:
        return rule_error(NO_SUCH_PILE, f"no pile {intent.dst!r}: piles are t0-t6, f0-f6, waste and stock")
    dst_kind, dst_i = PILE_NAMES[intent.dst]
    if dst_kind not in ("tableau", "foundation"):
        return rule_error(ILLEGAL_MOVE, "a luck pick goes onto a tableau pile or a foundation")
    card = next((card for card in board.stock if card.id == intent.card), None)
    if card is None:
        return rule_error(ILLEGAL_MOVE, f"card {intent.card} is not in the stock")
    problem = _placement_problem(card, board, dst_kind, dst_i, intent.dst)
    if problem:
        return rule_error(ILLEGAL_MOVE, problem)
    return [LuckPicked(card=card.id, dst=intent.dst)]


def _placement_problem(card: Card, board: WizardBoard, kind: str, index: int, name: str) -> str | None:
    if kind == "foundation":
        if fits_foundation(card, board.foundations[index]):
            return None
        if card.rank == WIZARD:
            return f"the {card.label()} starts an empty foundation; {name} is not empty"
        return f"the {card.label()} does not follow the top of {name} (same suit, one higher)"
    if fits_tableau(card, board.tableau[index]):
        return None
    if card.rank == WIZARD:
        return "a Wizard never goes to the tableau"
    if not board.tableau[index].cards:
        return f"only a King (or a run headed by one) fills the empty pile {name}"
    return f"the {card.label()} does not go on {name}: it needs one lower and a different suit"


def _take(board: WizardBoard, name: str, count: int) -> tuple[WizardBoard, tuple[Card, ...]]:
    kind, index = PILE_NAMES[name]
    if kind == "waste":
        return msgspec.structs.replace(board, waste=board.waste[:-count]), board.waste[-count:]
    field = "tableau" if kind == "tableau" else "foundations"
    piles = getattr(board, field)
    pile, cards = piles[index].take(count)
    return msgspec.structs.replace(board, **{field: replace(piles, {index: pile})}), cards


def _put(board: WizardBoard, name: str, cards: tuple[Card, ...]) -> WizardBoard:
    kind, index = PILE_NAMES[name]
    field = "tableau" if kind == "tableau" else "foundations"
    piles = getattr(board, field)
    return msgspec.structs.replace(board, **{field: replace(piles, {index: piles[index].put(cards)})})


RULES = WizardRules()
