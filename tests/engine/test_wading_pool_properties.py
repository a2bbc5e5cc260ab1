"""Wading Pool properties over random deals and random boards, with random legal play.

Random play from a deal ends within a few moves (most deals jam fast), so the properties also run
on random boards: the 52 cards cut into 8 piles of any sizes, empty piles included, which is where
the long lines of play are. Replay equals live play is covered by tests/engine/test_properties.py.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.cards import standard_deck
from engine.errors import RuleError
from engine.games.wading_pool import PILE_NAMES, RULES, WadingPoolVariant, board_of
from engine.intents import MoveIntent, ResignIntent, UndoIntent
from tests.strategies import forward_moves, random_games

EVERY_MOVE_SHAPE = [MoveIntent(s, d, n) for s in PILE_NAMES for d in PILE_NAMES for n in range(0, 15)]


@st.composite
def random_boards(draw) -> engine.GameState:
    """Any arrangement of the 52 cards in 8 piles (a cut of a permutation; piles may be empty)."""
    cards = draw(st.permutations(standard_deck()))
    cuts = sorted(draw(st.lists(st.integers(0, 52), min_size=7, max_size=7)))
    bounds = [0, *cuts, 52]
    board = board_of([list(cards[a:b]) for a, b in zip(bounds, bounds[1:])])
    variant = WadingPoolVariant()
    return engine.GameState("wading-pool", variant, 0, board, status=RULES.outcome(board, variant))


@st.composite
def played_from_random_board(draw, max_moves: int = 40):
    state = draw(random_boards())
    for _ in range(draw(st.integers(0, max_moves))):
        options = forward_moves(state)
        if not options:
            break
        state, _ = engine.play(options[draw(st.integers(0, len(options) - 1))], state)
    return state


def _assert_each_card_once_face_up(state: engine.GameState) -> None:
    ids = [card.id for pile in state.board.piles for card in pile.cards]
    assert sorted(ids) == list(range(52))
    assert all(pile.down == 0 for pile in state.board.piles)
    assert len(state.board.piles) == 8


@given(data=st.data())
def test_every_card_is_present_once_through_play_from_a_deal(data):
    start, steps, final = data.draw(random_games("wading-pool", {}, max_moves=40))
    state = start
    _assert_each_card_once_face_up(state)
    for _, events in steps:
        for event in events:
            state = engine.evolve(state, event)
            _assert_each_card_once_face_up(state)
    assert state == final


@given(state=played_from_random_board())
def test_every_card_is_present_once_through_play_from_any_board(state):
    _assert_each_card_once_face_up(state)


@given(state=played_from_random_board())
def test_decide_accepts_exactly_the_legal_moves(state):
    legal = engine.legal_moves(state)
    tried = EVERY_MOVE_SHAPE + [UndoIntent(), ResignIntent()]
    accepted = [m for m in tried if not isinstance(engine.decide(m, state), RuleError)]
    assert accepted == legal
    for intent in EVERY_MOVE_SHAPE:
        if intent not in legal:
            error = engine.decide(intent, state)
            assert isinstance(error, RuleError) and error.code in ("illegal_move", "game_over")
            assert engine.play(intent, state) == error


@given(state=played_from_random_board())
def test_every_legal_move_builds_down_in_suit_or_fills_an_empty_pile(state):
    piles = state.board.piles
    for move in [m for m in engine.legal_moves(state) if isinstance(m, MoveIntent)]:
        source, target = piles[int(move.src[1:])], piles[int(move.dst[1:])]
        moving = source.cards[-move.count :]
        assert all(a.suit == b.suit and a.rank == b.rank + 1 for a, b in zip(moving, moving[1:]))
        if target.cards:
            assert target.top.suit == moving[0].suit and target.top.rank == moving[0].rank + 1
        after, (event,) = engine.play(move, state)
        assert event.cards == tuple(card.id for card in moving)
        assert after.board.piles[int(move.dst[1:])].cards == target.cards + moving


@given(state=played_from_random_board())
def test_status_is_won_lost_or_in_progress_exactly_as_the_text_says(state):
    suits = engine.player_view(state).info["complete_suits"]
    if suits == 4:
        assert state.status == engine.WON
        assert sum(1 for pile in state.board.piles if not pile.cards) == 4
    elif RULES.legal_moves(state):
        assert state.status == engine.IN_PROGRESS
    else:
        assert state.status == engine.LOST
        assert all(pile.cards for pile in state.board.piles)  # an empty pile always offers a move
