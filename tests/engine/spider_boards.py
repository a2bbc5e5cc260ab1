"""Hand-made Spider positions for scripted tests: columns written as card text.

A column is written bottom to top, e.g. ``"5h Kd / 9s 8s"``: the cards before ``/`` lie face down,
the rest face up; without ``/`` every card is face up; ``""`` is an empty column. Ranks are
A, 2..10, J, Q, K and suits s, h, d, c. Card ids are given in writing order, so every card of one
board has its own id.
"""

from __future__ import annotations

import itertools

import engine
from engine.cards import Card
from engine.games.spider import COLUMNS
from engine.games.spider_board import RUN_LENGTH, SpiderBoard, SpiderVariant
from engine.piles import Pile
from engine.registry import rules_for

SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def run_text(suit: str, high: int = 13, low: int = 1) -> str:
    """A descending run in one suit as card text: run_text("s", 13, 2) is "Ks Qs ... 2s"."""
    names = {value: name for name, value in RANKS.items()}
    return " ".join(f"{names.get(rank, rank)}{suit}" for rank in range(high, low - 1, -1))


class BoardWriter:
    """Turns card text into cards, numbering them so no id repeats within one board."""

    def __init__(self) -> None:
        self._ids = itertools.count(1000)

    def cards(self, text: str) -> tuple[Card, ...]:
        out = []
        for word in text.split():
            rank_text, suit = word[:-1], SUITS[word[-1]]
            rank = RANKS[rank_text] if rank_text in RANKS else int(rank_text)
            out.append(Card(next(self._ids), rank, suit))
        return tuple(out)

    def column(self, text: str) -> Pile:
        down_text, _, up_text = text.rpartition("/")
        down = self.cards(down_text)
        return Pile(down + self.cards(up_text), len(down))


def board(columns: list[str], stock: str = "", cleared_runs: int = 0) -> SpiderBoard:
    """A board from up to ten column texts (missing columns are empty), a stock in dealing order
    and a number of runs already cleared (spade runs, for the count only)."""
    writer = BoardWriter()
    piles = [writer.column(text) for text in columns] + [Pile()] * (COLUMNS - len(columns))
    cleared = writer.cards(" ".join(run_text("s") for _ in range(cleared_runs)))
    assert len(cleared) == cleared_runs * RUN_LENGTH
    return SpiderBoard(tuple(piles), writer.cards(stock), cleared)


def state_of(spider_board: SpiderBoard, suits: int = 4) -> engine.GameState:
    """A game in progress on a hand-made board, its status judged by the rules."""
    rules = rules_for("spider")
    variant = SpiderVariant(suits=suits)
    return engine.GameState("spider", variant, 0, spider_board, status=rules.outcome(spider_board, variant))


def ranks(pile: Pile) -> list[str]:
    """The column as text again (face-up part only), for readable assertions."""
    names = {value: name for name, value in RANKS.items()}
    return [f"{names.get(card.rank, card.rank)}{card.suit[0]}" for card in pile.face_up]


def all_ids(spider_board: SpiderBoard) -> list[int]:
    """Every card id on the board: columns, stock and cleared runs."""
    ids = [card.id for pile in spider_board.columns for card in pile.cards]
    return ids + [card.id for card in spider_board.stock] + [card.id for card in spider_board.cleared]
