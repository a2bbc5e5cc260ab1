"""The Wizard solver's budget between its passes with limited redeals (engine.solver.wizard's
FINDER_TENTHS): the best-first searches run to nine tenths of it, and a deal they win only past
half is won, its line replaying to a win in the engine."""

from __future__ import annotations

import engine
from engine.solver import solve


def test_a_one_redeal_deal_won_past_half_the_budget_is_won_and_replays():
    # Tuning seed 1039 (1 redeal): the best-first searches win it in 10,016 nodes of 20,000, just
    # past half, where the complete pass used to take over (and found nothing).
    state = engine.initial_state("wizard", {"redeals": 1}, 1039)
    verdict = solve(state, 20_000)
    assert verdict.winnable and verdict.nodes == 10_016
    for intent in verdict.line:
        state = engine.play(intent, state)[0]
    assert state.status == engine.WON

