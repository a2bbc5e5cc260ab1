"""A racer's progress as everyone else may see it: counts only, never a card.

Made from the racer's own view after each move (`progress_of`), so it is a projection of the game's
log like the view is. Nothing in it names a card or a pile's contents: how many moves, how many cards
are still in play and how many are home (on foundations or cleared away), and the game's state.
"""

from __future__ import annotations

from msgspec import Struct

from engine import ABANDONED, IN_PROGRESS, LOST, WON, PlayerView

HOME_PILES = frozenset({"foundation", "cleared"})

# A game's status as a race shows it.
IN_PLAY, STUCK, RESIGNED = "in_play", "stuck", "resigned"
SHOWN_STATUS = {IN_PROGRESS: IN_PLAY, WON: WON, LOST: STUCK, ABANDONED: RESIGNED}


class RacerProgress(Struct, frozen=True):
    player: str
    version: int  # the racer's game version (moves stored): newer replaces older
    status: str  # in_play, won, stuck (no move left), resigned
    moves: int
    cards_left: int  # cards not yet home: in the tableau, the stock, the waste
    cards_home: int  # cards on foundations or cleared away
    elapsed_ms: int | None


def progress_of(player: str, version: int, view: PlayerView, elapsed_ms: int | None) -> RacerProgress:
    left = home = 0
    for pile in view.piles:
        count = pile.down + len(pile.cards)
        if pile.kind in HOME_PILES:
            home += count
        else:
            left += count
    return RacerProgress(player, version, SHOWN_STATUS.get(view.status, view.status), view.moves, left, home, elapsed_ms)
