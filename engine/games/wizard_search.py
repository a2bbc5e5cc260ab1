"""Loss detection for Solitaire Wizard: can any play still be reached by cycling the stock?

While the player only draws, recycles and casts, the tableau and the foundations do not change,
so the set of cards that could be played is fixed, and so is the order of the stock and waste
taken together: reading the waste bottom to top and then the stock from its next card down gives
one sequence ("the cycle") that a draw or a recycle never reorders. A draw moves the split point
forward by three (or one after a cast); a recycle moves it back to zero. A stock-cycling state is
therefore just (split, luck streak, cast open, cast active, luck open, recycles used), a few
thousand states at most, and an exhaustive search over them is exact and cheap. With unlimited
recycles the count of recycles is irrelevant, so cycling repeats states and the search stops.

A play is reachable when some state shows a playable card on top of the waste, or has a luck pick
open while a playable card is in the stock (a pick with nothing to place offers no play).
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import Card
from .wizard_moves import CAST_SUITS, LUCK_SUIT, WizardBoard, playable_cards


def play_reachable(board: WizardBoard, redeals: int | None) -> bool:
    """True when draws, recycles and casts can lead to a play (a card move or a useful luck pick)."""
    args = search_args(board, redeals)
    return args is not None and _search(*args)


SearchArgs = tuple[tuple[tuple[bool, bool], ...], int, int, int, bool, bool, bool, int | None]  # _search's


def search_args(board: WizardBoard, redeals: int | None) -> SearchArgs | None:
    """The search's hashable inputs for this board, or None when no stock or waste card could ever
    play wherever it lay (no search needed). `_search.__wrapped__(*args)` is the uncached search."""
    cycle = board.waste + tuple(reversed(board.stock))
    can_play = playable_cards(board)
    playable = 0
    for index, card in enumerate(cycle):
        if can_play(card):
            playable |= 1 << index
    if not playable:
        return None
    recycles_left = None if redeals is None else max(redeals - board.redeals_used, 0)
    return (
        _cycle_key(cycle),
        playable,
        len(board.waste),
        board.luck_streak,
        board.cast_open,
        board.cast_active,
        board.luck_open,
        recycles_left,
    )


def _cycle_key(cycle: tuple[Card, ...]) -> tuple[tuple[bool, bool], ...]:
    """Only what matters to the search about each card: does it open a cast, is it Luck."""
    return tuple((card.suit in CAST_SUITS, card.suit == LUCK_SUIT) for card in cycle)


@lru_cache(maxsize=4096)
def _search(
    cycle: tuple[tuple[bool, bool], ...],
    playable: int,
    split: int,
    streak: int,
    cast_open: bool,
    cast_active: bool,
    luck_open: bool,
    recycles_left: int | None,
) -> bool:
    """Depth-first search over stock-cycling states; memoised per position (replays repeat them)."""
    n = len(cycle)
    unlimited = recycles_left is None
    start = (split, streak, cast_open, cast_active, luck_open, 0 if recycles_left is None else recycles_left)
    seen = {start}
    stack = [start]
    while stack:
        k, streak, c_open, c_active, l_open, left = stack.pop()
        if k and playable >> (k - 1) & 1:
            return True  # a playable card lies on top of the waste
        if l_open and playable >> k:
            return True  # a luck pick is open and a playable card is in the stock
        successors = []
        if k < n:
            k2 = min(n, k + (1 if c_active else 3))
            # The same flags wizard_moves.draw_flags gives a real draw, inlined: this loop is hot.
            opens_cast, is_luck = cycle[k2 - 1]
            if is_luck:
                streak2 = streak + 1
                l_open2 = streak2 == 3
                streak2 = 0 if l_open2 else streak2
            else:
                streak2, l_open2 = 0, False
            successors.append((k2, streak2, opens_cast, False, l_open2, left))
        elif n and (unlimited or left > 0):
            successors.append((0, streak, c_open, c_active, l_open, left if unlimited else left - 1))
        if c_open:
            successors.append((k, streak, False, True, l_open, left))
        for state in successors:
            if state not in seen:
                seen.add(state)
                stack.append(state)
    return False
