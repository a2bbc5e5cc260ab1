"""The shared engine core: decks, the shuffle, the decider life cycle, bad input."""

from __future__ import annotations

import engine
from engine.cards import spider_deck, standard_deck, wish_deck, wizard_deck
from engine.errors import RuleError
from engine.intents import PairIntent, ResignIntent, UndoIntent
from engine.shuffle import shuffled


def test_decks_have_their_sizes_and_unique_ids():
    for deck, size in [(standard_deck(), 52), (wish_deck(), 32), (spider_deck(1), 104),
                       (spider_deck(2), 104), (spider_deck(4), 104), (wizard_deck(), 98)]:
        assert len(deck) == size
        assert [card.id for card in deck] == list(range(size))


def test_shuffle_is_a_permutation_and_depends_on_the_key():
    items = list(range(52))
    a = shuffled(items, "k1")
    assert sorted(a) == items
    assert a == shuffled(items, "k1")
    assert a != shuffled(items, "k2")


def test_shuffle_v1_vector_never_changes():
    # Pinned: a change here means every published deal changes. Add a v2 instead.
    assert shuffled(range(10), "patience-arena/deal/v1/test//0") == (3, 8, 1, 2, 6, 0, 5, 9, 7, 4)


def _v1_as_written(items, key: str) -> tuple:
    """engine/shuffle.py's algorithm exactly as its docstring states it: SHA-256(key || counter) per block,
    read as 64-bit big-endian integers one at a time, Fisher-Yates from the end with rejection."""
    import hashlib

    stream, counter = [], 0
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        k = i + 1
        while True:
            if not stream:
                digest = hashlib.sha256(key.encode() + counter.to_bytes(8, "big")).digest()
                stream, counter = [int.from_bytes(digest[n:n + 8], "big") for n in range(0, 32, 8)], counter + 1
            x = stream.pop(0)
            if x < 2**64 - (2**64 % k):
                break
        j = x % k
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def test_the_shuffle_is_the_algorithm_its_docstring_states():
    for size in (0, 1, 2, 3, 10, 32, 52, 98, 104):
        for n in range(60):
            key = f"patience-arena/deal/v1/test/size={size}/{n}"
            assert shuffled(range(size), key) == _v1_as_written(range(size), key), (size, n)


def test_unknown_game_bad_variant_bad_seed_are_clear_errors():
    err = engine.initial_state("chess", None, 1)
    assert isinstance(err, RuleError) and "unknown game 'chess'" in err.message
    for game in (["wish"], {"id": "wish"}, None, 7):  # JSON may carry any value where the id belongs
        err = engine.initial_state(game, None, 1)
        assert isinstance(err, RuleError) and err.code == "unknown_game", err
    err = engine.initial_state("patient-pairs", {"piles": 20}, 1)
    assert isinstance(err, RuleError) and "piles must be 8 to 13" in err.message
    err = engine.initial_state("wish", {"colour": "red"}, 1)
    assert isinstance(err, RuleError) and err.code == "bad_variant"
    for seed in (-1, 2**64, "7", True):
        err = engine.initial_state("wish", None, seed)
        assert isinstance(err, RuleError) and err.code == "bad_seed"


def test_resign_ends_the_game_and_nothing_more_is_accepted():
    state = engine.initial_state("wish", None, 7)
    state, _ = engine.play(ResignIntent(), state)
    assert state.status == engine.ABANDONED
    assert isinstance(engine.decide(PairIntent(0, 1), state), RuleError)
    assert engine.legal_moves(state) == []


def test_undo_is_refused_in_games_without_it():
    state = engine.initial_state("wish", None, 7)
    err = engine.decide(UndoIntent(), state)
    assert isinstance(err, RuleError) and err.code == "not_supported"
