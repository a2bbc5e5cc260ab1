"""Full-knowledge solver for Solitaire Wizard (every redeals variant): the stock order is known.

It searches the engine's own boards and applies moves with the engine's own `apply`, so a line is
legal by construction (the tests still replay every one). Every legal play is searched except
those that cannot matter:
- a Wizard goes only to the first empty foundation slot, and a card only to the first empty
  tableau pile: slots are alike and piles are alike (the key sorts the piles and reads the
  foundations by suit, not by slot);
- a whole pile never moves into an empty pile (the same position again);
- no shift (part of a run moved off a card it lies on, turning nothing): the search runs over
  levels (wizard_levels: the key forgets which parent each loose run card lies on, and a move that
  needs a covered card free brings the shifts that free it), unless `levels` is False, the concrete
  search the tests compare it with.
One move is made without branching because it is safe: a tableau card to its foundation when
every card that could ever be put on it is on a foundation already (an Ace, which only a Wizard
could cover and never does, or rank r when every suit's foundation holds r-1). A Wizard at the top
of a tableau pile likewise goes up at once: it can go nowhere else and every suit has its slot.
Waste cards go up without branching only on the last pass (no recycle left): before, taking a
card out of the stock cycle changes which cards later draws turn up. On the last pass the waste top
w goes up when every card of rank w-2 is up (a Wizard or an Ace always): the waste never returns to
the stock, so leaving w there only covers the cards under it, and whatever w could still do there
(go onto the tableau) it can do from its foundation, where nothing goes on it before it would have
gone up; the one thing lost, taking w-1 down, only gives a parent to cards of rank w-2, all up.
Right after a stock-cycle step (a draw, a cast or a recycle) no table move (tableau to tableau,
tableau to foundation, foundation to tableau) is searched: the two kinds touch disjoint parts of the
board (the cycle and its flags; the tableau and the foundations) and neither's legality reads the
other's, so in any winning line a table move that follows a cycle step can be swapped before it,
and a line with every table move before the cycle steps around it is searched. Whether the last
step was a cycle step is part of the node and of its key, so the table stays exact.
On the last pass a position whose waste walls in more cards than the tableau could ever carry
(wizard_bound, a relaxation: it never calls a winnable position lost) is not expanded.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from ..cards import KING, WIZARD, WIZARD_SUITS, Card
from ..events import CardsMoved, LuckPicked, SpellCast, StockDealt, WasteRecycled
from ..games.wizard import RULES, WizardVariant
from ..games.wizard_moves import (
    DECK_SIZE, FOUNDATION_NAMES, TABLEAU_NAMES, WizardBoard, fits_foundation, fits_tableau, run_length,
)
from ..intents import AnyIntent, CastIntent, DealIntent, LuckIntent, MoveIntent, RecycleIntent
from .search import UNKNOWN, WINNABLE, SearchResult, depth_first
from .spider_best import interleave
from .wizard_best import PORTFOLIOS, best_first
from .wizard_bound import lost_on_last_pass
from .wizard_level_moves import level_moves
from .wizard_levels import Node, Step, tableau_key, with_shifts

_SUIT = {suit: index for index, suit in enumerate(WIZARD_SUITS)}
# The move ranks (see WizardSearch.moves) of the stock-cycle steps: a cast, a draw, a recycle.
CYCLE_STEPS = frozenset({7, 8, 9})


def _heights(board: WizardBoard) -> list[int]:
    """Per suit: -1 while its Wizard is not up, else the rank on top of its foundation."""
    heights = [-1] * len(WIZARD_SUITS)
    for slot in board.foundations:
        if slot.cards:
            heights[_SUIT[slot.cards[0].suit]] = slot.cards[-1].rank
    return heights


def _to_foundation(card: Card, board: WizardBoard) -> str | None:
    """The one foundation slot this card should go to (the first empty one for a Wizard), or None."""
    for index, slot in enumerate(board.foundations):
        if fits_foundation(card, slot):
            return FOUNDATION_NAMES[index]
    return None


def _move(board: WizardBoard, src: str, dst: str, cards: tuple[Card, ...]) -> Step:
    return MoveIntent(src, dst, len(cards)), CardsMoved(src=src, dst=dst, cards=tuple(card.id for card in cards))


class WizardSearch:
    def __init__(self, variant: WizardVariant, complete: bool = True, reorder: bool = True,
                 levels: bool = True, waste_home: bool = True, bound: bool = True) -> None:
        self.variant = variant
        self.bound = bound  # False: no last-pass position given up unsearched (tests compare both)
        self.levels = levels  # False: search shifts too, key on every card's place (tests compare both)
        self.waste_home = waste_home  # False: no waste card home without branching (tests compare both)
        self.complete = complete  # False: the pruned first pass (see solve_board)
        self.redeals = variant.redeals
        self.reorder = reorder  # False: table moves after stock-cycle steps too (tests compare both)

    def apply(self, board: WizardBoard, step: Step) -> WizardBoard:
        return RULES.apply(board, step[1], self.variant)

    def close(self, board: WizardBoard) -> tuple[tuple[Step, ...], WizardBoard]:
        """Make the safe foundation moves until none is left."""
        steps: list[Step] = []
        while True:
            heights = _heights(board)
            floor = min(heights)
            step = None
            for index, pile in enumerate(board.tableau):
                if len(pile.cards) <= pile.down:
                    continue
                card = pile.cards[-1]
                if not (card.rank <= 1 or card.rank - 1 <= floor):
                    continue
                dst = _to_foundation(card, board)
                if dst is not None:
                    step = _move(board, TABLEAU_NAMES[index], dst, (card,))
                    break
            if step is None and self.waste_home and board.waste and self.last_pass(board):
                card = board.waste[-1]  # safe on the last pass when rank - 2 <= floor (see waste_home)
                dst = _to_foundation(card, board) if card.rank - 2 <= floor else None
                if dst is not None:
                    step = _move(board, "waste", dst, (card,))
            if step is None:
                return tuple(steps), board
            steps.append(step)
            board = self.apply(board, step)

    def last_pass(self, board: WizardBoard) -> bool:
        return self.redeals is not None and board.redeals_used >= self.redeals

    def key(self, node: Node) -> Hashable:
        board, after_cycle = node
        tableau: Hashable
        if self.levels:
            tableau = tableau_key(board)
        else:
            tableau = tuple(sorted((pile.down, *(card.id for card in pile.cards)) for pile in board.tableau))
        cycle = tuple(card.id for card in board.waste) + tuple(card.id for card in reversed(board.stock))
        left = -1 if self.redeals is None else self.redeals - board.redeals_used
        flags = (board.cast_open, board.cast_active, board.luck_open, board.luck_streak, left)
        return tableau, tuple(_heights(board)), cycle, len(board.waste), flags, after_cycle

    @staticmethod
    def won(node: Node) -> bool:
        return sum(len(slot.cards) for slot in node[0].foundations) == DECK_SIZE

    def moves(self, board: WizardBoard, after_cycle: bool = False) -> Iterator[tuple[int, Step]]:
        """Every play that can matter, each with a rank for the order of search (lower first).
        Right after a stock-cycle step (`after_cycle`) the table-only moves are left out (see
        CYCLE_STEPS)."""
        tableau = board.tableau
        first_empty = next((i for i, pile in enumerate(tableau) if not pile.cards), None)
        for s, pile in enumerate(() if after_cycle else tableau):
            face_up = pile.face_up
            if not face_up:
                continue
            top = face_up[-1]
            dst = _to_foundation(top, board)
            if dst is not None:
                yield 0, _move(board, TABLEAU_NAMES[s], dst, (top,))
            if top.rank == WIZARD:
                continue
            run = run_length(face_up)
            for d, target in enumerate(tableau):
                if d == s or (not target.cards and d != first_empty):
                    continue
                wanted = KING if not target.cards else target.cards[-1].rank - 1
                count = wanted - top.rank + 1
                if not 1 <= count <= run or not fits_tableau(face_up[-count], target):
                    continue
                if not target.cards and count == len(pile.cards):
                    continue  # a whole pile into an empty one: the same position
                reveals = count == len(face_up)  # flips a card or empties the pile
                if not self.complete and not (
                    (reveals and (target.cards or pile.down)) or (not reveals and _to_foundation(face_up[-count - 1], board))
                ):
                    continue
                yield (1 if reveals else 5), _move(board, TABLEAU_NAMES[s], TABLEAU_NAMES[d], face_up[-count:])
        if board.waste:
            card = board.waste[-1]
            dst = _to_foundation(card, board)
            if dst is not None:
                yield 2, _move(board, "waste", dst, (card,))
            for d, target in enumerate(tableau):
                if (target.cards or d == first_empty) and fits_tableau(card, target):
                    yield 3, _move(board, "waste", TABLEAU_NAMES[d], (card,))
        if board.luck_open:
            for card in reversed(board.stock):
                dst = _to_foundation(card, board)
                if dst is not None:
                    yield 4, (LuckIntent(card.id, dst), LuckPicked(card=card.id, dst=dst))
                for d, target in enumerate(tableau):
                    if (target.cards or d == first_empty) and fits_tableau(card, target):
                        name = TABLEAU_NAMES[d]
                        yield 6, (LuckIntent(card.id, name), LuckPicked(card=card.id, dst=name))
        if board.cast_open:
            yield 7, (CastIntent(), SpellCast())
        if board.stock:
            drawn = board.stock[-(1 if board.cast_active else 3) :]
            yield 8, (DealIntent(), StockDealt(cards=tuple(card.id for card in reversed(drawn))))
        elif board.waste and (self.redeals is None or board.redeals_used < self.redeals):
            yield 9, (RecycleIntent(), WasteRecycled())
        for f, slot in enumerate(board.foundations if self.complete and not after_cycle else ()):
            slot_top = slot.top
            if slot_top is None or slot_top.rank == WIZARD:
                continue
            for d, target in enumerate(tableau):
                if (target.cards or d == first_empty) and fits_tableau(slot_top, target):
                    yield 10, _move(board, FOUNDATION_NAMES[f], TABLEAU_NAMES[d], (slot_top,))

    def expand(self, node: Node) -> Iterator[tuple[tuple[Step, ...], Node]]:
        board, after_cycle = node
        if self.bound and self.last_pass(board) and lost_on_last_pass(board):
            return  # the waste can never be cleared (wizard_bound): no child
        if self.levels:
            yield from self._expand_levels(board, after_cycle)
            return
        ranked = sorted(self.moves(board, after_cycle), key=lambda item: item[0])
        for rank, step in ranked:
            steps, child = self.close(self.apply(board, step))
            yield (step, *steps), (child, self._after_cycle(rank, steps))

    def _expand_levels(self, board: WizardBoard, after_cycle: bool) -> Iterator[tuple[tuple[Step, ...], Node]]:
        ranked = sorted(level_moves(board, after_cycle, self.complete, self.redeals), key=lambda item: item[0])
        for rank, plan, make in ranked:
            shifts, moved = with_shifts(self.apply, board, plan)
            step = make(moved)
            steps, child = self.close(self.apply(moved, step))
            yield (*shifts, step, *steps), (child, self._after_cycle(rank, steps))

    def _after_cycle(self, rank: int, closing: tuple[Step, ...]) -> bool:
        """Whether the child's last step was a stock-cycle step: not when the closing moves played a
        waste card home after it (table moves may follow that)."""
        return self.reorder and rank in CYCLE_STEPS and not closing


FIRST_PASS = 2_000  # nodes of the pruned depth-first pass: most deals with recycles to spare win in a few hundred
# Tenths of the budget the pruned passes may use before the complete pass: half with unlimited
# redeals; nine tenths with a limit, where the complete pass never proved a deal lost from the deal
# (0 of 90 deals at 20,000 nodes, none of 1..3 with no redeal at 200,000) but the best-first
# searches kept winning past half (tuning seeds 1001..1070, 1 redeal, 20,000 nodes: 27 won
# against 21; docs/solvers.md).
FINDER_TENTHS = {"unlimited": 5, "limited": 9}


def solve_board(board: WizardBoard, variant: WizardVariant, budget: int) -> tuple[str, tuple[AnyIntent, ...], int]:
    """Three passes, each with what is left of the budget:
    1. the pruned depth-first pass (no card back from a foundation), up to FIRST_PASS nodes: it
       wins most deals in a few hundred;
    2. best-first searches over the same moves (wizard_best), up to half the budget (nine tenths
       with limited redeals, FINDER_TENTHS): they win where the depth-first pass is stuck under
       one early choice;
    3. the complete depth-first pass, the only one that may answer unwinnable."""
    search = WizardSearch(variant, complete=False)
    steps, closed = search.close(board)
    root = (closed, False)
    found = depth_first(root, search.expand, search.key, search.won, min(budget, FIRST_PASS))
    used = found.nodes
    kind = "unlimited" if variant.redeals is None else "limited"
    finder_budget = budget * FINDER_TENTHS[kind] // 10
    if found.result == UNKNOWN and used < finder_budget:
        searches = [best_first(root, search.expand, search.key, search.won, w) for w in PORTFOLIOS[kind]]
        won, line, used = interleave(searches, finder_budget, used)
        if won:
            found = SearchResult(WINNABLE, tuple(line), used)
    if found.result != WINNABLE and used < budget:
        complete = WizardSearch(variant, complete=True)
        last = depth_first(root, complete.expand, complete.key, complete.won, budget - used)
        found = SearchResult(last.result, last.steps, used + last.nodes)
    elif found.result != WINNABLE:
        found = SearchResult(UNKNOWN, (), used)
    intents = tuple(intent for intent, _ in steps + found.steps) if found.result == WINNABLE else ()
    return found.result, intents, found.nodes
