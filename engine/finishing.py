"""Finishing lines shared by several games: the moves that win once the rest needs no choice.

Each function answers None unless the position is one where every order of play wins, so a
"Finish" never takes a decision the player could have made differently. Why each condition is
enough is said beside it; docs/rules says the same per game in players' words.
"""

from __future__ import annotations

from collections import defaultdict

from .cards import KING, Card
from .intents import AnyIntent, MoveIntent, PairIntent
from .piles import Pile, suit_run


def pairs_line(piles: tuple[Pile, ...]) -> list[AnyIntent] | None:
    """Pairing games (The Wish, Patient Pairs): when every pile left holds one card, every card is
    a top card, and each rank is left an even number of times (cards go two by two): any two of a
    rank pair off, in any order, until none is left."""
    by_rank: dict[int, list[int]] = defaultdict(list)
    for index, pile in enumerate(piles):
        if len(pile.cards) > 1:
            return None
        if pile.cards:
            by_rank[pile.cards[0].rank].append(index)
    if not by_rank or any(len(indexes) % 2 for indexes in by_rank.values()):
        return None
    line: list[AnyIntent] = []
    for indexes in by_rank.values():
        line += [PairIntent(indexes[k], indexes[k + 1]) for k in range(0, len(indexes), 2)]
    return line


def merge_runs_line(piles: tuple[Pile, ...], names: tuple[str, ...]) -> list[AnyIntent] | None:
    """Spider (stock empty) and Wading Pool: when no card is face down and every pile is a single
    descending run of one suit, bottom to top.

    Why any order wins: take a run whose bottom card (rank r) is not a King. Every r+1 of its suit
    lies in some run, and in a one-suit run an r+1 is either at the top or has an r right on it; the
    r's are as many as the r+1's and this one is a bottom, so some r+1 is a top. Moving the run there
    leaves one run fewer; once every run starts at a King, the counts make each a King-to-Ace run.
    """
    columns: list[list[Card]] = []
    for pile in piles:
        if pile.down or suit_run(pile) != len(pile.cards):
            return None
        columns.append(list(pile.cards))
    line: list[AnyIntent] = []
    while True:
        src = next((i for i, cards in enumerate(columns) if cards and cards[0].rank != KING), None)
        if src is None:
            break
        head = columns[src][0]
        dst = next((j for j, cards in enumerate(columns)
                    if j != src and cards and cards[-1].suit == head.suit and cards[-1].rank == head.rank + 1), None)
        if dst is None:
            return None  # not reachable by the argument above; refusing is the safe answer
        line.append(MoveIntent(names[src], names[dst], len(columns[src])))
        columns[dst] += columns[src]
        columns[src] = []
    return line or None
