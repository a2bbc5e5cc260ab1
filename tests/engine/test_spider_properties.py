"""Spider properties over random deals and random lines of moves, deals and undos."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.events import CardsMoved, StockDealt
from engine.games.spider import COLUMN_NAMES, COLUMNS, RUN_LENGTH, legal_tableau_intents, legal_tableau_moves
from engine.intents import DealIntent, MoveIntent, ResignIntent, UndoIntent
from engine.piles import Pile
from tests.engine.spider_boards import all_ids, state_of
from tests.strategies import forward_moves, seeds

SUITS = [1, 2, 4]


@st.composite
def spider_lines(draw, suits: int, max_actions: int = 80):
    """A deal and a random line of play that deals and undoes often: [(state before, intent, events)]."""
    state = engine.initial_state("spider", {"suits": suits}, draw(seeds))
    assert isinstance(state, engine.GameState)
    steps = []
    for _ in range(draw(st.integers(0, max_actions))):
        options = forward_moves(state)
        roll = draw(st.integers(0, 9))
        if state.history and roll == 0:
            options = [UndoIntent()]
        elif DealIntent() in options and roll <= 2:
            options = [DealIntent()]
        if not options:
            break
        intent = options[draw(st.integers(0, len(options) - 1))]
        result = engine.play(intent, state)
        assert not isinstance(result, engine.RuleError), (intent, result)
        steps.append((state, intent, result[1]))
        state = result[0]
    return steps, state


def complete_at_end(cards: list, face_up_from: int) -> bool:
    """An independent reading of the clearing rule: the last 13 cards are face up, one suit, K..A."""
    tail = cards[-RUN_LENGTH:]
    return (
        len(cards) - face_up_from >= RUN_LENGTH
        and [card.rank for card in tail] == list(range(13, 0, -1))
        and len({card.suit for card in tail}) == 1
    )


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_the_104_cards_are_always_all_there(suits, data):
    steps, final = data.draw(spider_lines(suits))
    for state in [before for before, _, _ in steps] + [final]:
        assert sorted(all_ids(state.board)) == list(range(104))
        assert len(state.board.cleared) % RUN_LENGTH == 0 and len(state.board.stock) % 10 == 0


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_replay_of_moves_deals_and_undos_equals_live_play(suits, data):
    steps, final = data.draw(spider_lines(suits))
    events = [event for _, _, step_events in steps for event in step_events]
    result = engine.replay("spider", {"suits": suits}, final.seed, events)
    assert result.ok, result.error
    assert result.state == final
    # The log survives the storage encoding too.
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[engine.AnyEvent])
    assert engine.replay("spider", {"suits": suits}, final.seed, decoded).state == final


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_undoing_everything_returns_the_initial_state(suits, data):
    steps, state = data.draw(spider_lines(suits))
    start = engine.initial_state("spider", {"suits": suits}, state.seed)
    taken_back = state.undos
    while state.history:
        state, _ = engine.play(UndoIntent(), state)
        taken_back += 1
    assert state.board == start.board and state.status == start.status
    assert (state.moves, state.undos) == (0, taken_back)


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_a_run_clears_exactly_when_a_move_or_deal_completes_one(suits, data):
    steps, _ = data.draw(spider_lines(suits, max_actions=150))
    for before, intent, events in steps:
        if isinstance(intent, UndoIntent):
            continue
        after = engine.evolve(before, events[0])
        event = events[0]
        completed = 0
        for index, pile in enumerate(before.board.columns):
            cards = list(pile.cards)
            if isinstance(event, CardsMoved) and COLUMN_NAMES[index] == event.dst:
                cards += before.board.columns[COLUMN_NAMES.index(event.src)].cards[-len(event.cards) :]
            elif isinstance(event, StockDealt):
                cards.append(before.board.stock[index])
            completed += complete_at_end(cards, pile.down)
        grown = len(after.board.cleared) - len(before.board.cleared)
        assert grown == completed * RUN_LENGTH
        # No complete run is ever left standing at the end of a column.
        assert not any(complete_at_end(list(p.cards), p.down) for p in after.board.columns)


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_legal_moves_are_exactly_the_accepted_moves(suits, data):
    """Undo and resign included, in every status: a lost game lists only undo, a won one nothing."""
    _, state = data.draw(spider_lines(suits))
    accepted = [
        MoveIntent(src, dst, count)
        for src in COLUMN_NAMES
        for count in range(0, 15)
        for dst in COLUMN_NAMES
        if not isinstance(engine.decide(MoveIntent(src, dst, count), state), engine.RuleError)
    ]
    for intent in (DealIntent(), UndoIntent(), ResignIntent()):
        if not isinstance(engine.decide(intent, state), engine.RuleError):
            accepted.append(intent)
    legal = engine.legal_moves(state)
    assert sorted(map(repr, legal)) == sorted(map(repr, accepted))
    assert len(set(map(repr, legal))) == len(legal)


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_the_listed_moves_come_in_the_lazy_listings_order(suits, data):
    """The view's one-pass listing and the lazy one (which any_move_left stops early in) agree, order
    included: source column, then count, then target column."""
    _, state = data.draw(spider_lines(suits))
    lazy = [MoveIntent(COLUMN_NAMES[s], COLUMN_NAMES[d], c) for s, d, c in legal_tableau_moves(state.board)]
    assert legal_tableau_intents(state.board) == lazy
    assert [(m.src, m.count, m.dst) for m in lazy] == sorted((m.src, m.count, m.dst) for m in lazy)


@pytest.mark.parametrize("suits", SUITS)
@given(data=st.data())
def test_a_deal_with_an_empty_column_is_refused_and_changes_nothing(suits, data):
    _, state = data.draw(spider_lines(suits, max_actions=30))
    if state.status != engine.IN_PROGRESS or not state.board.stock:
        return
    # Empty one column by sliding its cards, face down, under a neighbour: all 104 cards stay.
    empty = data.draw(st.integers(0, COLUMNS - 1))
    columns = list(state.board.columns)
    neighbour = (empty + 1) % COLUMNS
    moved = columns[empty].cards
    columns[neighbour] = Pile(moved + columns[neighbour].cards, columns[neighbour].down + len(moved))
    columns[empty] = Pile()
    board = msgspec.structs.replace(state.board, columns=tuple(columns))
    probe = state_of(board, suits)
    err = engine.decide(DealIntent(), probe)
    assert isinstance(err, engine.RuleError) and err.code == "illegal_move"
    assert COLUMN_NAMES[empty] in err.message and "empty" in err.message
    assert engine.play(DealIntent(), probe) == err
    assert DealIntent() not in engine.legal_moves(probe)
    assert sorted(all_ids(probe.board)) == list(range(104)) and probe.board == board
