"""Hand-built positions for the pairing games."""

from __future__ import annotations

import engine
from engine.cards import Card
from engine.games.pairing import PairsBoard
from engine.piles import Pile

SUITS = ("spades", "hearts", "diamonds", "clubs")


def board_state(game: str, piles: list[list[int]], down: list[int] | None = None, variant=None) -> engine.GameState:
    """A game whose piles hold the given ranks (bottom to top); suits cycle so ids stay unique."""
    start = engine.initial_state(game, variant, 1)
    built, next_id = [], 0
    for index, ranks in enumerate(piles):
        cards = []
        for rank in ranks:
            cards.append(Card(next_id, rank, SUITS[next_id % 4]))
            next_id += 1
        built.append(Pile(tuple(cards), (down or [0] * len(piles))[index]))
    board = PairsBoard(tuple(built))
    rules = engine.rules_for(game)
    return engine.GameState(game, start.variant, 1, board, status=rules.outcome(board, start.variant))
