"""Solitaire Wizard properties: conservation, replay, and the loss search against brute force.

The generic properties (replay equals live, views never leak, legal moves agree with decide) run
for wizard from tests/engine/test_properties.py; these add longer games and the loss search.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import WIZARD_SUITS, wizard_deck
from engine.games.wizard import RULES, WizardVariant
from engine.games.wizard_moves import WizardBoard, can_play_somewhere, playable_cards, plays
from engine.intents import CastIntent, DealIntent, LuckIntent, MoveIntent, RecycleIntent, ResignIntent, UndoIntent
from engine.piles import Pile
from tests.engine.test_wizard_positions import KINGS, c
from tests.strategies import game_variants, random_games

WIZARD_VARIANTS = game_variants("wizard")


def all_ids(board: WizardBoard) -> list[int]:
    piles = board.tableau + board.foundations
    return [card.id for pile in piles for card in pile.cards] + [card.id for card in board.stock + board.waste]


@pytest.mark.parametrize("variant", WIZARD_VARIANTS, ids=str)
@given(data=st.data())
def test_every_card_is_somewhere_exactly_once(variant, data):
    start, steps, final = data.draw(random_games("wizard", variant, max_moves=150))
    state = start
    for _, events in steps:
        for event in events:
            state = engine.evolve(state, event)
        assert sorted(all_ids(state.board)) == list(range(98))


@pytest.mark.parametrize("variant", WIZARD_VARIANTS, ids=str)
@given(data=st.data())
def test_long_games_replay_to_the_live_state(variant, data):
    start, steps, final = data.draw(random_games("wizard", variant, max_moves=200, resign=True))
    events = [event for _, step_events in steps for event in step_events]
    result = engine.replay("wizard", variant, start.seed, events)
    assert result.ok, result.error
    assert result.state == final


# The loss search against a brute-force walk of real boards -------------------------------------

# Seven Kings on the tableau and every Wizard already on a foundation: of the cards below only the
# Queens can ever play, so whether the game is lost depends on the stock cycle alone. Cards are
# drawn by kind, Luck and cast cards often, so casts and luck picks matter to many examples.
KINDS = {
    "luck": [c(rank, "luck") for rank in range(2, 11)],
    "cast": [c(rank, suit) for suit in ("spells", "potions") for rank in range(2, 11)],
    "plain": [c(rank, suit) for suit in ("fire", "ice", "stars") for rank in range(2, 11)],
    "queen": [c("Q", suit) for suit in WIZARD_SUITS],
}
KIND_WEIGHTS = ["luck"] * 10 + ["cast"] * 3 + ["plain"] * 6 + ["queen"]
WIZARDS_PLACED = tuple(Pile((c("W", suit),)) for suit in WIZARD_SUITS)


@st.composite
def cycle_positions(draw):
    kinds = draw(st.lists(st.sampled_from(KIND_WEIGHTS), min_size=2, max_size=24))
    kinds.insert(draw(st.integers(0, len(kinds))), "queen")  # a card that could play, somewhere
    unused = {kind: list(cards) for kind, cards in KINDS.items()}
    cards = [unused[kind].pop(draw(st.integers(0, len(unused[kind]) - 1))) for kind in kinds if unused[kind]]
    split = draw(st.integers(0, len(cards)))
    redeals = draw(st.sampled_from([None, 0, 1, 2]))
    cast_open = draw(st.integers(0, 9)) == 0  # rarely open now, so the search has work to do
    board = WizardBoard(
        tableau=tuple(Pile(tuple(pile)) for pile in KINGS),
        foundations=WIZARDS_PLACED,
        stock=tuple(reversed(cards[split:])),
        waste=tuple(cards[:split]),
        cast_open=cast_open,
        cast_active=not cast_open and draw(st.booleans()),
        luck_open=draw(st.integers(0, 9)) == 0,
        luck_streak=draw(st.integers(0, 2)),
        redeals_used=draw(st.integers(0, redeals or 0)),
    )
    return board, WizardVariant(redeals=redeals)


def brute_force_play_reachable(board: WizardBoard, variant: WizardVariant) -> bool:
    """Walk every board that draws, recycles and casts reach, through the real decide and apply."""
    def key(b: WizardBoard) -> WizardBoard:
        # With unlimited recycles the count of them changes nothing that follows.
        return msgspec.structs.replace(b, redeals_used=0) if variant.redeals is None else b

    seen, stack = {key(board)}, [board]
    while stack:
        current = stack.pop()
        if any(not isinstance(intent, CastIntent) for intent in plays(current)):
            return True
        state = engine.GameState("wizard", variant, 0, current)
        for intent in (DealIntent(), RecycleIntent(), CastIntent()):
            events = RULES.decide(intent, state)
            if isinstance(events, engine.RuleError):
                continue
            following = RULES.apply(current, events[0], variant)
            if key(following) not in seen:
                seen.add(key(following))
                stack.append(following)
    return False


# Cheap examples, and a wrong power rule shows in only a few percent of them: four times the profile.
@settings(max_examples=settings().max_examples * 4)
@given(cycle_positions())
def test_loss_search_agrees_with_a_brute_force_walk(position):
    board, variant = position
    reachable = brute_force_play_reachable(board, variant)
    expected = engine.IN_PROGRESS if reachable or board.cast_open else engine.LOST
    assert RULES.outcome(board, variant) == expected


@given(data=st.data())
def test_the_status_of_random_play_agrees_with_a_brute_force_walk(data):
    variant = data.draw(st.sampled_from(WIZARD_VARIANTS))
    _, _, state = data.draw(random_games("wizard", variant, max_moves=120))
    parsed = WizardVariant(**variant)
    reachable = brute_force_play_reachable(state.board, parsed)
    if state.status == engine.ABANDONED:
        return
    if state.status == engine.LOST:
        assert not reachable and not state.board.cast_open
    else:
        assert reachable or state.board.cast_open


@given(data=st.data())
def test_the_fast_playable_test_equals_the_placement_rules_for_every_card(data):
    variant = data.draw(st.sampled_from(WIZARD_VARIANTS))
    _, _, state = data.draw(random_games("wizard", variant, max_moves=150))
    can_play = playable_cards(state.board)
    for card in wizard_deck():
        assert can_play(card) == can_play_somewhere(card, state.board), card


@given(data=st.data())
def test_legal_moves_list_exactly_the_moves_decide_accepts(data):
    """Every (src, dst, count) and luck pick is tried: the listing misses none and adds none."""
    variant = data.draw(st.sampled_from(WIZARD_VARIANTS))
    _, _, state = data.draw(random_games("wizard", variant, max_moves=150))
    board = state.board
    names = [f"t{i}" for i in range(7)] + [f"f{i}" for i in range(7)] + ["waste", "stock"]
    longest = max(len(pile.cards) for pile in board.tableau) + 1
    tried = [MoveIntent(src, dst, count) for src in names for dst in names for count in range(0, longest + 1)]
    tried += [LuckIntent(card.id, dst) for card in board.stock + board.waste for dst in names]
    tried += [DealIntent(), RecycleIntent(), CastIntent(), UndoIntent(), ResignIntent()]
    accepted = {intent for intent in tried if not isinstance(engine.decide(intent, state), engine.RuleError)}
    listed = engine.legal_moves(state)
    assert len(listed) == len(set(listed))
    assert set(listed) == accepted
