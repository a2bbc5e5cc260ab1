"""Progress shows counts, never a card; a race's deal is solver-proven and bound by its commitment."""

from __future__ import annotations

import msgspec
import pytest

import engine
from services.races.deal import choose_deal, commitment, verify_commitment
from services.races.progress import progress_of


@pytest.mark.parametrize("game,variant", [("wish", {"mode": "standard"}), ("spider", {"suits": 1}), ("wizard", None)])
def test_progress_names_no_card_at_any_point_of_a_game(game, variant):
    state = engine.initial_state(game, variant, 4242)
    total = sum(p.down + len(p.cards) for p in engine.player_view(state).piles)
    card_ids = {card.id for pile in engine.revealed_view(game, variant or {}, 4242).piles for card in pile.cards}
    for version in range(40):
        view = engine.player_view(state)
        progress = progress_of("p1", version, view, 1_000)
        assert progress.cards_left + progress.cards_home <= total  # a pairing game takes pairs away
        frame = msgspec.to_builtins(progress)
        assert set(frame) == {"player", "version", "status", "moves", "cards_left", "cards_home", "elapsed_ms"}
        assert all(isinstance(v, (int, str, type(None))) for v in frame.values())  # numbers and a status: no pile
        moves = [m for m in engine.legal_moves(state) if type(m).__name__ != "ResignIntent"]
        if not moves:
            break
        state, _ = engine.play(moves[0], state)
    assert card_ids  # the deal had cards to hide


def test_a_won_pairing_game_has_every_card_home_or_gone():
    state = engine.initial_state("wish", {"mode": "standard"}, 7)
    progress = progress_of("p1", 0, engine.player_view(state), None)
    assert progress.status == "in_play" and progress.cards_left == 32 and progress.moves == 0


def test_the_deal_is_proven_winnable_and_its_commitment_checks():
    chosen = choose_deal("patient-pairs", {"piles": 13})
    assert chosen.check == "exact_solver"
    state = engine.initial_state("patient-pairs", {"piles": 13}, chosen.seed)
    assert engine.solver.solve(state).winnable
    published = commitment("race-1", chosen.seed, chosen.salt)
    assert verify_commitment(published, "race-1", chosen.seed, chosen.salt)
    assert not verify_commitment(published, "race-1", chosen.seed + 1, chosen.salt)
    assert not verify_commitment(published, "race-2", chosen.seed, chosen.salt)
