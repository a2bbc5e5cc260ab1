"""Rules shared by the pairing games (The Wish, Patient Pairs).

Only the top cards of the tableau piles play; two of equal rank on different piles are removed
together, and each pile that lost its top turns its next card face up. Won when every pile is
empty, lost when cards remain and no two top cards share a rank. Empty piles stay empty.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from msgspec import Struct
from mypy_extensions import mypyc_attr

from ..cards import Card
from ..finishing import pairs_line
from ..errors import ILLEGAL_MOVE, NO_SUCH_PILE, NOT_SUPPORTED, RuleError, rule_error
from ..events import AnyEvent, PairRemoved
from ..intents import AnyIntent, PairIntent
from ..piles import Pile, deal_rows
from ..rules import GameRules
from ..shuffle import deal_key, shuffled
from ..state import IN_PROGRESS, LOST, WON, GameState, PileView
from .pairing_board import PairsBoard as PairsBoard  # re-exported: the games' users import it from here


V = TypeVar("V", bound=Struct)  # the pairing game's own variant


# Compiled (setup.py), a class takes subclasses written in Python only when it says so: The Wish's,
# Patient Pairs' and any new pairing game's rules are such subclasses.
@mypyc_attr(allow_interpreted_subclasses=True)
class PairingRules(GameRules[PairsBoard, V]):
    """A pairing game is its deck, its pile sizes and how many cards of each pile start face down."""

    def deck(self) -> tuple[Card, ...]:
        raise NotImplementedError

    def pile_sizes(self, variant: V) -> tuple[int, ...]:
        raise NotImplementedError

    def face_down(self, variant: V) -> bool:
        return False

    def deal(self, variant: V, seed: int) -> PairsBoard:
        cards = shuffled(self.deck(), deal_key(self.game_id, self.variant_text(variant), seed))
        rows = deal_rows(cards, self.pile_sizes(variant))
        hide = self.face_down(variant)
        return PairsBoard(tuple(Pile(tuple(row), len(row) - 1 if hide else 0) for row in rows))

    def decide(self, intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
        if not isinstance(intent, PairIntent):
            return rule_error(
                NOT_SUPPORTED,
                f"{self.title} has only pair moves, like {{\"type\": \"pair\", \"a\": 0, \"b\": 1}}",
            )
        piles: tuple[Pile, ...] = state.board.piles
        a, b = intent.a, intent.b
        for index in (a, b):
            if not 0 <= index < len(piles):
                return rule_error(NO_SUCH_PILE, f"pile {index} does not exist: piles are 0 to {len(piles) - 1}")
            if not piles[index].cards:
                return rule_error(ILLEGAL_MOVE, f"pile {index} is empty")
        if a == b:
            return rule_error(ILLEGAL_MOVE, "a pair needs two different piles")
        top_a, top_b = piles[a].top, piles[b].top
        assert top_a is not None and top_b is not None
        if top_a.rank != top_b.rank:
            return rule_error(
                ILLEGAL_MOVE,
                f"the tops of piles {a} and {b} ({top_a.label()}, {top_b.label()}) are not the same rank",
            )
        if a > b:  # one canonical form in the log: the lower pile first, whichever the player named first
            a, b, top_a, top_b = b, a, top_b, top_a
        return [PairRemoved(piles=(a, b), cards=(top_a.id, top_b.id))]

    def apply(self, board: PairsBoard, event: AnyEvent, variant: V) -> PairsBoard:
        assert isinstance(event, PairRemoved)
        piles = list(board.piles)
        for index in event.piles:
            piles[index] = piles[index].take()[0]
        return PairsBoard(tuple(piles))

    def legal_moves(self, state: GameState) -> list[AnyIntent]:
        return [PairIntent(a, b) for a, b in pairs_on(state.board.piles)]

    def outcome(self, board: PairsBoard, variant: V) -> str:
        if not any(pile.cards for pile in board.piles):
            return WON
        return IN_PROGRESS if next(iter(pairs_on(board.piles)), None) else LOST

    def piles(self, state: GameState) -> tuple[PileView, ...]:
        return tuple(
            PileView(f"t{i}", "tableau", pile.down, pile.face_up) for i, pile in enumerate(state.board.piles)
        )

    def info(self, state: GameState) -> dict[str, Any]:  # Any: the game's own JSON counters
        return {"cards_left": sum(len(pile) for pile in state.board.piles)}

    def notes(self, state: GameState) -> tuple[str, ...]:
        left = sum(len(pile) for pile in state.board.piles)
        return (f"{left} card{'' if left == 1 else 's'} left",)

    finish_rule = "Finish comes once every pile left holds a single card"

    def finish_line(self, board: PairsBoard, variant: V) -> list[AnyIntent] | None:
        return pairs_line(board.piles)

    def hidden_cards(self, board: PairsBoard) -> frozenset[int]:
        return frozenset(card.id for pile in board.piles for card in pile.cards[: pile.down])

    def revealed_piles(self, board: PairsBoard) -> tuple[PileView, ...]:
        return tuple(PileView(f"t{i}", "tableau", 0, pile.cards) for i, pile in enumerate(board.piles))


def pairs_on(piles: tuple[Pile, ...]) -> Iterator[tuple[int, int]]:
    """Every (a, b), a < b, whose top cards share a rank."""
    tops = [(i, pile.cards[-1].rank) for i, pile in enumerate(piles) if pile.cards]
    for x, (a, rank_a) in enumerate(tops):
        for b, rank_b in tops[x + 1 :]:
            if rank_a == rank_b:
                yield a, b
