"""Wading Pool: 52 cards face up in 8 piles (7, 7, 7, 7, 6, 6, 6, 6), built down in suit.

A card goes onto the card of its own suit one rank higher; a same-suit descending run at the top
of a pile moves as a unit; any card or run fills an empty pile. Won when each suit lies as one
complete King-to-Ace run in a pile of its own (four such piles, the other four empty); lost when
no legal move exists. There is no variant. See docs/rules/wading-pool.md for the choices made.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


from ..cards import ACE, KING, Card, standard_deck
from ..finishing import merge_runs_line
from ..errors import ILLEGAL_MOVE, NO_SUCH_PILE, NOT_SUPPORTED, RuleError, rule_error
from ..events import AnyEvent, CardsMoved
from ..intents import AnyIntent, MoveIntent
from ..piles import Pile, deal_rows, replace, suit_run
from ..rules import GameRules
from ..shuffle import deal_key, shuffled
from ..state import IN_PROGRESS, LOST, WON, GameState, PileView
from .wading_pool_board import WadingPoolBoard as WadingPoolBoard, WadingPoolVariant as WadingPoolVariant  # re-exported

PILE_SIZES = (7, 7, 7, 7, 6, 6, 6, 6)
PILE_NAMES = tuple(f"t{i}" for i in range(len(PILE_SIZES)))
_PILE_INDEX = {name: i for i, name in enumerate(PILE_NAMES)}
FULL_RUN = KING - ACE + 1


def complete_suits(piles: tuple[Pile, ...]) -> int:
    """Suits lying as one complete King-to-Ace run at the top of a pile (a 13-card run is one).

    Four of them hold all 52 cards, so four means won and the other four piles are empty.
    """
    return sum(1 for pile in piles if suit_run(pile) == FULL_RUN)


def moves_on(piles: tuple[Pile, ...]) -> Iterator[tuple[int, int, int]]:
    """Every legal (src, dst, count), src-major then dst then count, so the order is stable.

    Onto a card: only the one count whose head card is one rank below that card, in its suit.
    Into an empty pile: every count of the top run, the whole pile included (legal if pointless).
    """
    runs = [suit_run(pile) for pile in piles]
    for src, pile in enumerate(piles):
        if not pile.cards:
            continue
        top = pile.cards[-1]
        for dst, target in enumerate(piles):
            if dst == src:
                continue
            if not target.cards:
                for count in range(1, runs[src] + 1):
                    yield src, dst, count
                continue
            under = target.cards[-1]
            count = under.rank - top.rank  # the head card must be rank under.rank - 1
            if under.suit == top.suit and 1 <= count <= runs[src]:
                yield src, dst, count


class WadingPoolRules(GameRules[WadingPoolBoard, WadingPoolVariant]):
    game_id = "wading-pool"
    title = "Wading Pool"
    has_solver = True
    solver = "wading-pool"
    blurb = "52 cards face up in 8 piles. Sort each suit into one King-to-Ace run."
    variant_type = WadingPoolVariant
    # No deal is known to be winnable under the rules as written, so no daily challenge or race
    # may use it (daily_eligible and race_eligible stay False); it stays open for casual play.

    def deal(self, variant: WadingPoolVariant, seed: int) -> WadingPoolBoard:
        cards = shuffled(standard_deck(), deal_key(self.game_id, self.variant_text(variant), seed))
        return WadingPoolBoard(tuple(Pile(tuple(row), 0) for row in deal_rows(cards, PILE_SIZES)))

    def decide(self, intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
        if not isinstance(intent, MoveIntent):
            return rule_error(
                NOT_SUPPORTED,
                f"{self.title} has only moves between piles, like "
                '{"type": "move", "src": "t0", "dst": "t1", "count": 1}',
            )
        piles: tuple[Pile, ...] = state.board.piles
        for name in (intent.src, intent.dst):
            if name not in _PILE_INDEX:
                return rule_error(NO_SUCH_PILE, f"pile {name!r} does not exist: piles are t0 to t7")
        src, dst, count = _PILE_INDEX[intent.src], _PILE_INDEX[intent.dst], intent.count
        if src == dst:
            return rule_error(ILLEGAL_MOVE, "a move needs two different piles")
        source = piles[src]
        if not source.cards:
            return rule_error(ILLEGAL_MOVE, f"pile {intent.src} is empty")
        if not 1 <= count <= len(source.cards):
            return rule_error(
                ILLEGAL_MOVE, f"count must be 1 to {len(source.cards)} for pile {intent.src}, not {count}"
            )
        if count > suit_run(source):
            return rule_error(
                ILLEGAL_MOVE,
                f"the top {count} cards of {intent.src} are not one suit in descending order, "
                "so they cannot move as a group",
            )
        moving = source.cards[-count:]
        target = piles[dst].top
        if target is not None and (target.suit != moving[0].suit or target.rank != moving[0].rank + 1):
            return rule_error(
                ILLEGAL_MOVE,
                f"{moving[0].label()} cannot go onto {target.label()}: "
                "build down by one rank in the same suit",
            )
        return [CardsMoved(src=intent.src, dst=intent.dst, cards=tuple(card.id for card in moving))]

    def apply(self, board: WadingPoolBoard, event: AnyEvent, variant: WadingPoolVariant) -> WadingPoolBoard:
        assert isinstance(event, CardsMoved)
        src, dst = _PILE_INDEX[event.src], _PILE_INDEX[event.dst]
        rest, moving = board.piles[src].take(len(event.cards))
        return WadingPoolBoard(replace(board.piles, {src: rest, dst: board.piles[dst].put(moving)}))

    def legal_moves(self, state: GameState) -> list[AnyIntent]:
        return [MoveIntent(PILE_NAMES[s], PILE_NAMES[d], n) for s, d, n in moves_on(state.board.piles)]

    def outcome(self, board: WadingPoolBoard, variant: WadingPoolVariant) -> str:
        if complete_suits(board.piles) == 4:
            return WON
        return IN_PROGRESS if next(moves_on(board.piles), None) else LOST

    def piles(self, state: GameState) -> tuple[PileView, ...]:
        return self.revealed_piles(state.board)  # nothing is ever hidden: the view is the whole board

    def info(self, state: GameState) -> dict[str, Any]:  # Any: the game's own JSON counters
        return {"complete_suits": complete_suits(state.board.piles)}

    def notes(self, state: GameState) -> tuple[str, ...]:
        done = complete_suits(state.board.piles)
        return (f"{done} of 4 suits complete",)

    finish_rule = "Finish comes once every pile is a single run of one suit, King or not at its foot"

    def finish_line(self, board: WadingPoolBoard, variant: WadingPoolVariant) -> list[AnyIntent] | None:
        return merge_runs_line(board.piles, PILE_NAMES)

    def hidden_cards(self, board: WadingPoolBoard) -> frozenset[int]:
        return frozenset()  # every card is dealt face up and stays face up

    def revealed_piles(self, board: WadingPoolBoard) -> tuple[PileView, ...]:
        return tuple(PileView(PILE_NAMES[i], "tableau", 0, pile.cards) for i, pile in enumerate(board.piles))


def board_of(rows: list[list[Card]]) -> WadingPoolBoard:
    """A board from piles of cards, bottom to top (for tests and tools that build positions)."""
    return WadingPoolBoard(tuple(Pile(tuple(row), 0) for row in rows))


RULES = WadingPoolRules()
