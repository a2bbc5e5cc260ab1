"""Solitaire Wizard in players' words, and its Finish: the status line's phrases and the line of
moves that ends a game whose rest needs no choice (docs/rules/solitaire-wizard.md says when)."""

from __future__ import annotations

from ..intents import AnyIntent, MoveIntent
from ..piles import replace
from .wizard_moves import DECK_SIZE, WizardBoard, fits_foundation, is_run

FINISH_RULE = "Finish comes once the stock and the waste are empty and every tableau card is face up"


def status_notes(board: WizardBoard, redeals: int | None) -> tuple[str, ...]:
    """What the counters and flags mean for the player, one phrase each; a flag only while it holds."""
    home = sum(len(slot) for slot in board.foundations)
    notes = [f"{len(board.stock)} cards in the stock", f"{home} of {DECK_SIZE} home"]
    if redeals is None:
        notes.append("redeals: no limit")
    else:
        left = max(redeals - board.redeals_used, 0)
        notes.append("no redeal left" if not left else f"{left} redeal{'' if left == 1 else 's'} left")
    if board.cast_open:
        notes.append("a spell is ready: Cast makes the next draw one card")
    if board.cast_active:
        notes.append("spell cast: the next draw turns one card")
    if board.luck_open:
        notes.append("luck! pick any card from the stock")
    elif board.luck_streak:
        notes.append(f"luck {board.luck_streak} of 3 in a row")
    return tuple(notes)


def finishing_line(board: WizardBoard) -> list[AnyIntent] | None:
    """Stock and waste empty, every tableau card face up (each pile then a run built down): the
    lowest card left is always a top card (whatever lies on it would be lower), and every lower
    card of its suit is home, so it goes home; any order of such plays wins. None otherwise."""
    if board.stock or board.waste or any(pile.down or not is_run(pile.cards) for pile in board.tableau):
        return None
    tableau, foundations = board.tableau, board.foundations
    line: list[AnyIntent] = []
    while any(pile.cards for pile in tableau):
        index = min((i for i, pile in enumerate(tableau) if pile.cards), key=lambda i: tableau[i].cards[-1].rank)
        rest, cards = tableau[index].take(1)
        slot = next((k for k, found in enumerate(foundations) if fits_foundation(cards[0], found)), None)
        if slot is None:
            return None  # not reachable by the argument above; refusing is the safe answer
        line.append(MoveIntent(f"t{index}", f"f{slot}", 1))
        tableau = replace(tableau, {index: rest})
        foundations = replace(foundations, {slot: foundations[slot].put(cards)})
    return line or None
