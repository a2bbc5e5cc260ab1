"""Solitaire Wizard's tableau seen by levels: which arrangements of the face-up runs are alike.

Every pile is its cards below the top run (face down, as dealt) and that run. The run's lowest card
is its *base*; each other card of the run (a *loose* card) lies on a *parent*, the card one rank
higher under it. Level r pairs the loose cards of rank r with the run cards of rank r+1 (the
parents they could lie on: any other suit). A move of part of a run off a loose card onto another
pile (a *shift*) only hands one loose card of one level to another free parent of that level: the
bases, the cards below them and the set of face-up cards stay as they are, and so does every other
level. The solver never searches shifts; instead:

- the key of a tableau is its piles up to their bases and the set of loose cards, not which parent
  each loose card lies on;
- a move that needs a card free (a card going onto it, or it going home) is searched from this
  position if some shifts could free it, and the line gets those shifts first (`free_plan`).

Why that is exact. With seven suits a loose card may lie on any parent but the one of its own suit.
For such a level with at least one free parent, every arrangement of its loose cards on its parents
is reached from every other by shifts (checked for every size and overlap of suits in
tests/engine/test_wizard_levels.py); a level with no free parent allows no shift, and nothing that
can happen to it depends on its arrangement (its parents are all covered; the first loose card to
leave, by going home, frees one and then every arrangement is reachable again). So two positions
with one key reach, shift for shift, positions with one key, and are won or lost alike; and every
other move's legality reads only the key and whether its card can be freed. What the move then
does to the key does not depend on which parent took the card (a card onto the tableau adds it to
the loose cards whatever it lies on), so one target per card is searched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..cards import KING, WIZARD, Card
from ..events import AnyEvent
from ..games.wizard_moves import WizardBoard, run_length
from ..intents import AnyIntent
from ..piles import Pile

Shift = tuple[Card, Card]  # (a loose card, the free parent its run goes onto)


def run_start(pile: Pile) -> int:
    """Index in pile.cards of the base of the top run (len(cards) when the pile is empty)."""
    face_up = pile.cards[pile.down :]
    return len(pile.cards) - (run_length(face_up) if face_up else 0)


def tableau_key(board: WizardBoard) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Piles up to their bases (sorted: piles are alike) and the loose cards (a sorted tuple)."""
    skeletons: list[tuple[int, ...]] = []
    loose: list[int] = []
    for pile in board.tableau:
        start = run_start(pile)
        skeletons.append((pile.down, *(card.id for card in pile.cards[: start + 1])))
        loose.extend(card.id for card in pile.cards[start + 1 :])
    return tuple(sorted(skeletons)), tuple(sorted(loose))


class Levels:
    """One board's levels: per run card its parent (None for a base) and whether it is a pile top."""

    def __init__(self, board: WizardBoard) -> None:
        self.parent: dict[int, Card | None] = {}
        self.child: dict[int, Card] = {}
        self.by_rank: dict[int, list[Card]] = {}  # run cards by rank (the parents of level rank-1)
        for pile in board.tableau:
            start = run_start(pile)
            run = pile.cards[start:]
            for index, card in enumerate(run):
                below = run[index - 1] if index else None
                self.parent[card.id] = below
                if below is not None:
                    self.child[below.id] = card
                self.by_rank.setdefault(card.rank, []).append(card)

    def is_base(self, card: Card) -> bool:
        return self.parent.get(card.id, 0) is None

    def free_plan(self, target: Card) -> list[Shift] | None:
        """Shifts (in order) after which run card `target` is a pile top, or None if none can.

        A breadth-first search over the parents of its level: a free parent is free now; a parent
        can be freed when its loose card can go onto another parent (another suit) that can be
        freed first. The shifts along that chain free the target, each onto a parent just freed."""
        if target.id not in self.child:
            return []
        parents = self.by_rank.get(target.rank, [])
        plan: dict[int, list[Shift]] = {p.id: [] for p in parents if p.id not in self.child}
        frontier = [p for p in parents if p.id in plan]
        while frontier:
            nxt = []
            for freed in frontier:
                for p in parents:
                    if p.id in plan:
                        continue
                    loose = self.child[p.id]
                    if loose.suit != freed.suit:
                        plan[p.id] = plan[freed.id] + [(loose, freed)]
                        if p.id == target.id:
                            return plan[p.id]
                        nxt.append(p)
            frontier = nxt
        return None

    def homes(self, card: Card) -> Iterator[tuple[Card, list[Shift]]]:
        """Parents that can take `card` (a non-King, non-Wizard card onto the tableau), each with
        the shifts that free it; those free already first. `card` itself is never its own parent."""
        if card.rank in (WIZARD, KING):
            return
        parents = self.by_rank.get(card.rank + 1, [])
        later = []
        for p in parents:
            if p.suit == card.suit:
                continue
            if p.id not in self.child:
                yield p, []
            else:
                later.append(p)
        for p in later:
            plan = self.free_plan(p)
            if plan is not None:
                yield p, plan


# The moves searched over levels ------------------------------------------------------------------

Step = tuple[AnyIntent, AnyEvent]  # a move as the Wizard searches play it: the intent and its one event
Node = tuple[WizardBoard, bool]  # a board, and whether the step that led to it was a stock-cycle step


def _locate(board: WizardBoard, card: Card) -> tuple[int, int]:
    for index, pile in enumerate(board.tableau):
        for position, other in enumerate(pile.cards):
            if other.id == card.id:
                return index, position
    raise ValueError(f"card {card.id} is not on the tableau")


def _run_move(board: WizardBoard, head: Card, dst: str) -> Step:
    """The step that moves the run headed by tableau card `head` onto pile `dst`."""
    from ..events import CardsMoved
    from ..intents import MoveIntent

    index, position = _locate(board, head)
    cards = board.tableau[index].cards[position:]
    src = f"t{index}"
    return MoveIntent(src, dst, len(cards)), CardsMoved(src=src, dst=dst, cards=tuple(card.id for card in cards))


def with_shifts(apply: Callable[[WizardBoard, Step], WizardBoard], board: WizardBoard, plan: list[Shift]
                ) -> tuple[list[Step], WizardBoard]:
    """Play the shifts of a plan on the board (each a legal run move), for the line to replay."""
    steps: list[Step] = []
    for loose, parent in plan:
        step = _run_move(board, loose, f"t{_locate(board, parent)[0]}")
        steps.append(step)
        board = apply(board, step)
    return steps, board
