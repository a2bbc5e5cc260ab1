"""Spider: 104 cards in ten columns, eight K..A same-suit runs to clear; unlimited undo.

Variant ``suits``: 1 (spades), 2 (spades, hearts) or 4. Tableau moves only (MoveIntent "tN" ->
"tM" with a count) and deals of ten from the stock (DealIntent). A complete King-to-Ace run of one
suit lying face up at the playable end of a column clears automatically after every move and deal;
that clearing, and the flip of the card beneath, are part of the move (no events of their own).
Undo is the decider's generic one (has_undo). See docs/rules/spider.md.
"""

from __future__ import annotations

from typing import Any, cast
from collections.abc import Iterator


from ..cards import ACE, spider_deck
from ..finishing import merge_runs_line
from ..errors import ILLEGAL_MOVE, NO_SUCH_PILE, NOT_SUPPORTED, RuleError, rule_error
from ..events import AnyEvent, CardsMoved, StockDealt
from ..intents import AnyIntent, DealIntent, MoveIntent
from ..piles import Pile, deal_rows, suit_run
from ..rules import GameRules
from ..shuffle import deal_key, shuffled
from ..state import IN_PROGRESS, LOST, WON, GameState, PileView
from ..variants import preset
from .spider_board import RUN_LENGTH, SpiderBoard, SpiderVariant

COLUMNS = 10
COLUMN_SIZES = (6, 6, 6, 6, 5, 5, 5, 5, 5, 5)  # 54 cards; the other 50 form the stock
DEAL_SIZE = COLUMNS  # one card onto each column
RUNS_TO_WIN = 8
COLUMN_NAMES = tuple(f"t{i}" for i in range(COLUMNS))
_COLUMN_INDEX = {name: i for i, name in enumerate(COLUMN_NAMES)}


def ends_in_complete_run(pile: Pile) -> bool:
    """True when the last 13 cards are face up and run King..Ace in one suit."""
    cards = pile.cards
    if len(cards) - pile.down < RUN_LENGTH or cards[-1].rank != ACE:
        return False
    suit = cards[-1].suit
    return all(cards[-1 - k].rank == ACE + k and cards[-1 - k].suit == suit for k in range(RUN_LENGTH))


def clear_complete_runs(board: SpiderBoard) -> SpiderBoard:
    """Clear every complete run, column by column from the left, until no column ends in one.

    Taking the run off flips the card beneath it (Pile.take), which is what the rules ask.
    """
    columns, cleared = list(board.columns), board.cleared
    found = True
    while found:
        found = False
        for index, pile in enumerate(columns):
            if ends_in_complete_run(pile):
                columns[index], run = pile.take(RUN_LENGTH)
                cleared += run
                found = True
    if cleared is board.cleared:
        return board
    return SpiderBoard(tuple(columns), board.stock, cleared)


def _column(name: Any) -> int | RuleError:  # Any: an intent's pile name, unchecked
    index = _COLUMN_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        return rule_error(NO_SUCH_PILE, f"no pile {name!r} in Spider: the columns are t0 to t9")
    return index


def deal_refusal(board: SpiderBoard) -> RuleError | None:
    """Why a deal is not allowed now, or None when it is."""
    if not board.stock:
        return rule_error(ILLEGAL_MOVE, "the stock is empty: all five deals have been made")
    empty = [COLUMN_NAMES[i] for i, pile in enumerate(board.columns) if not pile.cards]
    if empty:
        return rule_error(ILLEGAL_MOVE, f"cannot deal while a column is empty: fill {', '.join(empty)} first")
    return None


def move_refusal(board: SpiderBoard, src: int, dst: int, count: object) -> RuleError | None:
    """Why moving the top `count` cards of column src onto column dst is not allowed, or None.

    count: object, checked here (compiled, an `int` parameter would raise TypeError at the call)."""
    if src == dst:
        return rule_error(ILLEGAL_MOVE, "a move needs two different columns")
    source, target = board.columns[src], board.columns[dst]
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return rule_error(ILLEGAL_MOVE, f"count must be a whole number of at least 1, not {count!r}")
    if not source.cards:
        return rule_error(ILLEGAL_MOVE, f"column {COLUMN_NAMES[src]} is empty")
    face_up = len(source.cards) - source.down
    if count > face_up:
        return rule_error(
            ILLEGAL_MOVE,
            f"column {COLUMN_NAMES[src]} has only {face_up} face-up card(s); face-down cards cannot move",
        )
    if count > suit_run(source):
        return rule_error(
            ILLEGAL_MOVE, f"the top {count} cards of {COLUMN_NAMES[src]} are not a descending run of one suit"
        )
    if not target.cards:
        return None  # any face-up card or valid run may fill an empty column
    if len(target.cards) <= target.down:
        return rule_error(ILLEGAL_MOVE, f"the top card of {COLUMN_NAMES[dst]} is face down")
    moving, onto = source.cards[-count], target.cards[-1]
    if onto.rank != moving.rank + 1:
        return rule_error(
            ILLEGAL_MOVE,
            f"{moving.label()} cannot go onto {onto.label()}: it needs a card one rank higher",
        )
    return None


def legal_tableau_moves(board: SpiderBoard) -> Iterator[tuple[int, int, int]]:
    """Every legal (src, dst, count), in src, count, dst order.

    Per call, each column's top rank and run length are read once, and the columns a rank may go
    onto (its rank + 1 on top, or empty) are listed once per rank: this runs for every view.
    """
    columns = board.columns
    empty: list[int] = []
    by_top: dict[int, list[int]] = {}
    for index, pile in enumerate(columns):
        cards = pile.cards
        if not cards:
            empty.append(index)
        elif len(cards) > pile.down:
            by_top.setdefault(cards[-1].rank, []).append(index)
    targets: dict[int, list[int]] = {}  # wanted rank -> columns that take it, in column order
    for src, pile in enumerate(columns):
        run = suit_run(pile)
        cards = pile.cards
        for count in range(1, run + 1):
            wanted = cards[-count].rank + 1
            onto = targets.get(wanted)
            if onto is None:
                onto = targets[wanted] = sorted(by_top.get(wanted, []) + empty) if empty else by_top.get(wanted, [])
            for dst in onto:
                if dst != src:
                    yield src, dst, count


def legal_tableau_intents(board: SpiderBoard) -> list[MoveIntent]:
    """legal_tableau_moves as their shared intents, in the same order, in one pass with the suit runs
    read inline: this runs for every view (every accepted move), where a generator's resumption and a
    lookup by tuple per move cost about as much as the listing itself."""
    columns = board.columns
    empty: list[int] = []
    by_top: dict[int, list[int]] = {}
    for index, pile in enumerate(columns):
        cards = pile.cards
        if not cards:
            empty.append(index)
        elif len(cards) > pile.down:
            by_top.setdefault(cards[-1].rank, []).append(index)
    targets: dict[int, list[int]] = {}  # wanted rank -> columns that take it, in column order
    moves: list[MoveIntent] = []
    for src, pile in enumerate(columns):
        cards, down = pile.cards, pile.down
        at = len(cards) - 1  # the card that leads a run of `count` (the top one first)
        if at < down:
            continue
        intents, count = _INTENTS_FROM[src], 1
        while True:
            card = cards[at]
            wanted = card.rank + 1
            onto = targets.get(wanted)
            if onto is None:
                onto = targets[wanted] = sorted(by_top.get(wanted, []) + empty) if empty else by_top.get(wanted, [])
            for dst in onto:
                if dst != src:
                    moves.append(intents[dst][count])
            at -= 1
            if at < down:
                break
            below = cards[at]
            if below.suit != card.suit or below.rank != wanted:  # suit_run's test, one card further
                break
            count += 1
    return moves


def any_move_left(board: SpiderBoard) -> bool:
    if board.stock and all(pile.cards for pile in board.columns):
        return True  # a deal is possible (deal_refusal's test, without building its message)
    return next(legal_tableau_moves(board), None) is not None


def cleared_piles(board: SpiderBoard) -> tuple[PileView, ...]:
    """One pile per cleared run, "c0" for the first, laid as a player stacks it: turned over, the
    Ace at the bottom and the King on top (the board keeps each run as it lay, King first)."""
    runs = board.cleared
    return tuple(
        PileView(f"c{k}", "cleared", 0, tuple(reversed(runs[k * RUN_LENGTH : (k + 1) * RUN_LENGTH])))
        for k in range(board.cleared_runs)
    )


# Every tableau move as one shared, immutable intent: the legal list reuses them instead of
# building a few dozen new ones for each view.
_MOVE_INTENTS = {
    (src, dst, count): MoveIntent(COLUMN_NAMES[src], COLUMN_NAMES[dst], count)
    for src in range(COLUMNS)
    for dst in range(COLUMNS)
    for count in range(1, RUN_LENGTH + 1)
    if src != dst
}
# The same intents by source, target and count (count 0 unused): _INTENTS_FROM[src][dst][count].
# The Nones (count 0, a column onto itself) are never read: the listing skips both, hence the cast.
_INTENTS_FROM = cast(tuple[tuple[tuple[MoveIntent, ...], ...], ...], tuple(
    tuple((None, *(_MOVE_INTENTS.get((src, dst, count)) for count in range(1, RUN_LENGTH + 1))) for dst in range(COLUMNS))
    for src in range(COLUMNS)
))


class SpiderRules(GameRules[SpiderBoard, SpiderVariant]):
    game_id = "spider"
    title = "Spider"
    has_solver = True
    solver = "spider"
    blurb = "Two decks, ten columns. Build King to Ace in one suit; complete runs clear away."
    variant_type = SpiderVariant
    presets = (
        preset("1 suit", SpiderVariant(1)), preset("2 suits", SpiderVariant(2)), preset("4 suits", SpiderVariant(4)),
    )
    actions = ("deal",)
    has_undo = True
    daily_eligible = True
    race_eligible = True

    def deal(self, variant: SpiderVariant, seed: int) -> SpiderBoard:
        cards = shuffled(spider_deck(variant.suits), deal_key(self.game_id, self.variant_text(variant), seed))
        dealt = sum(COLUMN_SIZES)
        rows = deal_rows(cards[:dealt], COLUMN_SIZES)
        return SpiderBoard(tuple(Pile(tuple(row), len(row) - 1) for row in rows), cards[dealt:])

    def decide(self, intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
        board: SpiderBoard = state.board
        if isinstance(intent, DealIntent):
            refusal = deal_refusal(board)
            return refusal or [StockDealt(cards=tuple(card.id for card in board.stock[:DEAL_SIZE]))]
        if not isinstance(intent, MoveIntent):
            return rule_error(
                NOT_SUPPORTED,
                'Spider has moves like {"type": "move", "src": "t0", "dst": "t1", "count": 1}, '
                'deals ({"type": "deal"}), undo and resign',
            )
        src, dst = _column(intent.src), _column(intent.dst)
        if isinstance(src, RuleError):
            return src
        if isinstance(dst, RuleError):
            return dst
        refusal = move_refusal(board, src, dst, intent.count)
        if refusal:
            return refusal
        moved = board.columns[src].cards[-intent.count :]
        return [CardsMoved(src=intent.src, dst=intent.dst, cards=tuple(card.id for card in moved))]

    def apply(self, board: SpiderBoard, event: AnyEvent, variant: SpiderVariant) -> SpiderBoard:
        columns = list(board.columns)
        if isinstance(event, StockDealt):
            dealt = board.stock[:DEAL_SIZE]
            for index, card in enumerate(dealt):
                columns[index] = columns[index].put((card,))
            stock = board.stock[DEAL_SIZE:]
        else:
            assert isinstance(event, CardsMoved), event
            src, dst = _COLUMN_INDEX[event.src], _COLUMN_INDEX[event.dst]
            columns[src], moved = columns[src].take(len(event.cards))
            columns[dst] = columns[dst].put(moved)
            stock = board.stock
        return clear_complete_runs(SpiderBoard(tuple(columns), stock, board.cleared))

    def legal_moves(self, state: GameState) -> list[AnyIntent]:
        board: SpiderBoard = state.board
        # The list is built fresh for us: appending intents of other kinds to it is safe, which the
        # checker cannot know of a list[MoveIntent] (lists are invariant), and a copy would cost a move.
        moves: list[AnyIntent] = legal_tableau_intents(board)  # type: ignore[assignment]
        if deal_refusal(board) is None:
            moves.append(DealIntent())
        return moves

    def outcome(self, board: SpiderBoard, variant: SpiderVariant) -> str:
        if board.cleared_runs >= RUNS_TO_WIN:
            return WON
        return IN_PROGRESS if any_move_left(board) else LOST

    def piles(self, state: GameState) -> tuple[PileView, ...]:
        board: SpiderBoard = state.board
        views = [PileView(COLUMN_NAMES[i], "tableau", pile.down, pile.face_up) for i, pile in enumerate(board.columns)]
        views.append(PileView("stock", "stock", len(board.stock), ()))
        return tuple(views) + cleared_piles(board)

    def info(self, state: GameState) -> dict[str, Any]:  # Any: the game's own JSON counters
        board: SpiderBoard = state.board
        return {"deals_left": len(board.stock) // DEAL_SIZE, "cleared_runs": board.cleared_runs}

    def notes(self, state: GameState) -> tuple[str, ...]:
        board: SpiderBoard = state.board
        deals, runs = len(board.stock) // DEAL_SIZE, board.cleared_runs
        return (
            "no deal left" if not deals else f"{deals} deal{'' if deals == 1 else 's'} left",
            f"{runs} of {RUNS_TO_WIN} runs cleared",
        )

    finish_rule = (
        "Finish comes once the stock is dealt, no card is face down and every column is a single run of one suit"
    )

    def finish_line(self, board: SpiderBoard, variant: SpiderVariant) -> list[AnyIntent] | None:
        if board.stock:
            return None
        return merge_runs_line(board.columns, COLUMN_NAMES)

    def hidden_cards(self, board: SpiderBoard) -> frozenset[int]:
        down = (card.id for pile in board.columns for card in pile.cards[: pile.down])
        return frozenset(down).union(card.id for card in board.stock)

    def revealed_piles(self, board: SpiderBoard) -> tuple[PileView, ...]:
        views = [PileView(COLUMN_NAMES[i], "tableau", 0, pile.cards) for i, pile in enumerate(board.columns)]
        views.append(PileView("stock", "stock", 0, tuple(reversed(board.stock))))  # stock[0] deals first
        return tuple(views) + cleared_piles(board)


RULES = SpiderRules()
