"""The Wizard solver's fast paths against the plain forms they replace: the last-pass bound's
incremental reading (engine.solver.wizard_bound) against the bound read in full at every moment a
waste card leaves; `run_length` against `is_run` on each pair; the foundation table of the moves
over levels against `fits_foundation` on each slot. Each must agree on every position."""

from __future__ import annotations

import random

from engine.cards import KING, WIZARD_SUITS, wizard_deck
from engine.games.wizard_moves import FOUNDATION_NAMES, fits_foundation, is_run, run_length
from engine.solver.wizard_level_moves import _slots
from engine.solver.wizard_bound import PILES, _ALL, lost_on_last_pass, matched
from tests.engine.test_wizard_bound import _walls
from tests.engine.test_wizard_levels import _late_positions
from tests.engine.test_wizard_positions import position, suit_run

_SUIT = {suit: index for index, suit in enumerate(WIZARD_SUITS)}


def _plain(board) -> bool:
    """The bound as the module's docstring states it, every moment read in full."""
    waste = board.waste
    if len(waste) < 2:
        return False
    holders = sum(1 for pile in board.tableau if pile.down or (pile.cards and pile.cards[0].rank != KING))
    cards = [(card.rank, _SUIT[card.suit]) for card in waste]
    for i in range(len(cards) - 1, 0, -1):
        under = cards[:i]
        low = [99] * 7
        for rank, suit in under:
            low[suit] = min(low[suit], rank)
        rank, suit = cards[i]
        if rank < low[suit]:
            continue  # not blocked: its leaving cannot need more bases than the moment before
        taken = [0] * 15
        for r, s in under:
            taken[r] |= 1 << s
        children = [0] * 15
        for r, s in cards[i:]:  # the leaving card and every blocked one above it
            if r > low[s]:
                children[r] |= 1 << s
        for pile in board.tableau:
            for card in pile.cards[pile.down :]:
                r, s = card.rank, _SUIT[card.suit]
                if r > low[s]:
                    children[r] |= 1 << s
        bases = sum(children[r].bit_count() - matched(children[r], _ALL & ~taken[r + 1]) for r in range(1, KING))
        if bases > holders or bases + children[KING].bit_count() > PILES:
            return True
        through = PILES
        for r in range(KING - 1, 0, -1):
            through = min(through, PILES - taken[r + 1].bit_count())
            if children[r].bit_count() > holders + through:
                return True
    return False


def _random_last_passes(count: int):
    """Random last-pass positions: a few suits home to a random height, the rest of their cards
    dealt at random to the tableau (face up, a face-down card under some piles), the waste and the
    stock. Fixed seed, so the same positions every run."""
    rng = random.Random(2026)
    deck = wizard_deck()
    for _ in range(count):
        heights = {suit: rng.randint(-1, 9) for suit in WIZARD_SUITS}
        loose = [card for card in deck if card.rank > heights[card.suit]]
        rng.shuffle(loose)
        piles = [loose[i * 3 : i * 3 + rng.randint(0, 3)] for i in range(rng.randint(0, 7))]
        rest = loose[len(piles) * 3 :]
        cut = rng.randint(len(rest) // 2, len(rest))
        foundations = [suit_run(suit, heights[suit]) for suit in WIZARD_SUITS if heights[suit] >= 0]
        yield position(tableau=piles, down=[rng.randint(0, max(len(p) - 1, 0)) for p in piles],
                       waste=rest[:cut], stock=rest[cut:], foundations=foundations, redeals=0).board


def test_the_incremental_bound_is_the_plain_one():
    lost = total = 0
    boards = list(_random_last_passes(400)) + [state.board for state in _walls(300)]
    for seed in (1, 2):
        boards += _late_positions({"redeals": 0}, seed, every=7, count=60, stock=30)[1]
    for board in boards:
        answer = lost_on_last_pass(board)
        assert answer == _plain(board)
        lost += answer
        total += 1
    assert total == 820 and lost >= 100


def test_run_length_reads_the_pairs_is_run_reads():
    def plain(face_up):
        count = 1 if face_up else 0
        while count < len(face_up) and is_run(face_up[-count - 1 : len(face_up) - count + 1]):
            count += 1
        return count

    rng = random.Random(7)
    deck = wizard_deck()
    by_rank = {rank: [card for card in deck if card.rank == rank] for rank in range(14)}
    lengths = set()
    for _ in range(20_000):
        cards = [rng.choice(deck)]
        for _ in range(rng.randint(0, 6)):  # mostly one rank lower (any suit, its own too), now and then any card
            below = by_rank[max(cards[-1].rank - 1, 0)] if rng.random() < 0.85 else deck
            cards.append(rng.choice(below))
        face_up = tuple(cards[: rng.randint(0, len(cards))])
        assert run_length(face_up) == plain(face_up), face_up
        lengths.add(run_length(face_up))
    assert lengths >= set(range(0, 6))


def test_the_foundation_table_is_fits_foundation_slot_by_slot():
    deck = wizard_deck()
    boards = list(_random_last_passes(100))
    for board in boards:
        home_of = _slots(board)
        for card in deck:
            plain = next((FOUNDATION_NAMES[i] for i, slot in enumerate(board.foundations)
                          if fits_foundation(card, slot)), None)
            assert home_of(card) == plain
