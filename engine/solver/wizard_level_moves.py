"""The Solitaire Wizard solver's moves over levels (see wizard_levels): no shift is searched, and a
move that needs a covered card free brings the shifts that free it.

Each move is yielded as (rank, plan, make): `plan` the shifts to play first, `make(board)` the
move's step on the board after them (pile numbers may only be read then). Per card going onto the
tableau one parent is tried, the first that can be freed (free ones first): which one takes it
does not change the key. The ranks are those of the concrete search (wizard.py), less 5 (shifts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..cards import KING, WIZARD, Card
from ..events import CardsMoved, LuckPicked, SpellCast, StockDealt, WasteRecycled
from ..games.wizard_moves import FOUNDATION_NAMES, WizardBoard
from ..intents import CastIntent, DealIntent, LuckIntent, MoveIntent, RecycleIntent
from .wizard_levels import Levels, Shift, Step, _locate, _run_move, run_start

Make = Callable[[WizardBoard], Step]  # the step of a move, made on the board its plan's shifts leave
Chooser = Callable[[WizardBoard], str]  # the pile a card goes to, named on that board


def _slots(board: WizardBoard) -> Callable[[Card], str | None]:
    """The foundation slot a card goes to (or None), the same as trying `fits_foundation` on each
    slot in turn, read off one table per board: each suit has at most one slot (its Wizard's), and a
    Wizard takes the first empty one."""
    wanted: dict[tuple[str, int], str] = {}
    first_empty: str | None = None
    for index, slot in enumerate(board.foundations):
        top = slot.top
        if top is not None:
            wanted[top.suit, top.rank + 1] = FOUNDATION_NAMES[index]
        elif first_empty is None:
            first_empty = FOUNDATION_NAMES[index]
    return lambda card: first_empty if card.rank == WIZARD else wanted.get((card.suit, card.rank))


def _single(src: str, dst: str, card: Card) -> Step:
    return MoveIntent(src, dst, 1), CardsMoved(src=src, dst=dst, cards=(card.id,))


def _onto(levels: Levels, card: Card, empty: int | None) -> tuple[list[Shift], Chooser] | None:
    """Where `card` can go on the tableau: (plan, pile chooser) or None. A King goes to the first
    empty pile; any other card onto the first parent of another suit that can be freed."""
    if card.rank == KING:
        return None if empty is None else ([], lambda board: f"t{empty}")
    for parent, plan in levels.homes(card):
        return plan, lambda board, parent=parent: f"t{_locate(board, parent)[0]}"
    return None


# A move's step is made on the board its plan's shifts leave, so a pile is named on that board.

def _fixed(step: Step) -> Make:
    return lambda board: step


def _from_tableau(card: Card, home: str) -> Make:
    return lambda board: _single(f"t{_locate(board, card)[0]}", home, card)


def _run_onto(base: Card, choose: Chooser) -> Make:
    return lambda board: _run_move(board, base, choose(board))


def _chosen(src: str, card: Card, choose: Chooser) -> Make:
    return lambda board: _single(src, choose(board), card)


def _luck_chosen(card: Card, choose: Chooser) -> Make:
    def make(board: WizardBoard) -> Step:
        dst = choose(board)
        return LuckIntent(card.id, dst), LuckPicked(card=card.id, dst=dst)
    return make


def level_moves(board: WizardBoard, after_cycle: bool, complete: bool, redeals: int | None
                ) -> Iterator[tuple[int, list[Shift], Make]]:
    levels = Levels(board)
    home_of = _slots(board)
    tableau = board.tableau
    empty = next((i for i, pile in enumerate(tableau) if not pile.cards), None)
    if not after_cycle:  # table moves (see CYCLE_STEPS in wizard.py)
        for pile in tableau:
            start = run_start(pile)
            for card in pile.cards[start:]:  # run cards home, freed first if they must be
                home = home_of(card)
                if home is None:
                    continue
                plan = levels.free_plan(card) if card.rank > 1 else []
                if plan is not None:
                    yield 0, plan, _from_tableau(card, home)
            if start < len(pile.cards) and (start > 0 or pile.cards[start].rank != KING):
                base = pile.cards[start]  # the whole run moves: turns a card or empties the pile
                if base.rank == WIZARD:
                    continue
                where = _onto(levels, base, empty)
                if where is not None:
                    plan, choose = where
                    yield 1, plan, _run_onto(base, choose)
    if board.waste:
        card = board.waste[-1]
        home = home_of(card)
        if home is not None:
            yield 2, [], _fixed(_single("waste", home, card))
        where = _onto(levels, card, empty)
        if where is not None:
            plan, choose = where
            yield 3, plan, _chosen("waste", card, choose)
    if board.luck_open:
        for card in reversed(board.stock):
            home = home_of(card)
            if home is not None:
                yield 4, [], _fixed((LuckIntent(card.id, home), LuckPicked(card=card.id, dst=home)))
            where = _onto(levels, card, empty)
            if where is not None:
                plan, choose = where
                yield 6, plan, _luck_chosen(card, choose)
    if board.cast_open:
        yield 7, [], _fixed((CastIntent(), SpellCast()))
    if board.stock:
        drawn = board.stock[-(1 if board.cast_active else 3) :]
        yield 8, [], _fixed((DealIntent(), StockDealt(cards=tuple(c.id for c in reversed(drawn)))))
    elif board.waste and (redeals is None or board.redeals_used < redeals):
        yield 9, [], _fixed((RecycleIntent(), WasteRecycled()))
    if complete and not after_cycle:
        for f, slot in enumerate(board.foundations):
            top = slot.top
            if top is None or top.rank == WIZARD:
                continue
            where = _onto(levels, top, empty)
            if where is not None:
                plan, choose = where
                yield 10, plan, _chosen(FOUNDATION_NAMES[f], top, choose)
