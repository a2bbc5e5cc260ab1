"""The four-suit portfolio's key-read tie-breaking (`jitter`, `salt` in spider_best.Weights): two
settings that differ only there search apart, each line they find replays to a win, and the
answer is the same in another process with another hash seed (CRC-32 of the key, not hash())."""

from __future__ import annotations

import os
import subprocess
import sys

import engine
from engine.solver import solve_deal
from engine.solver.spider import DEAL
from engine.solver.spider_best import MACRO_COVER_JITTER, MACRO_COVER_JITTER_B, MACRO_COVER_SHORT
from tests.support.spider_search import play_out, search_alone


def _alone(seed: int, weights, budget: int):
    """One setting's best-first search alone on a four-suit deal: (won, steps, nodes)."""
    return search_alone(4, seed, weights, budget, pruned=True)


def _replays_to_a_win(seed: int, steps) -> bool:
    intents = [engine.intents.DealIntent() if step == DEAL else engine.intents.MoveIntent(
        engine.games.spider.COLUMN_NAMES[step[0]], engine.games.spider.COLUMN_NAMES[step[1]], step[2])
        for step in steps]
    return play_out({"suits": 4}, seed, intents).status == engine.WON


def test_settings_that_differ_only_in_their_tie_breaking_search_apart_and_both_win():
    # Deal 9 (a tuning seed): each of the three wins alone within 10,000 nodes, each in another count.
    found = {w: _alone(9, w, 10_000) for w in (MACRO_COVER_SHORT, MACRO_COVER_JITTER, MACRO_COVER_JITTER_B)}
    assert len({nodes for _, _, nodes in found.values()}) == 3
    for won, steps, _ in found.values():
        assert won is True and _replays_to_a_win(9, steps)


def test_jitter_zero_is_the_plain_setting():
    assert _alone(9, MACRO_COVER_SHORT._replace(salt=99), 3_000) == _alone(9, MACRO_COVER_SHORT, 3_000)


_CHILD = "from engine.solver import solve_deal; v = solve_deal('spider', {'suits': 4}, 3, 3000); print(v.result, v.nodes)"


def test_a_four_suit_verdict_is_the_same_under_another_hash_seed():
    here = solve_deal("spider", {"suits": 4}, 3, 3_000)
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.split() == [here.result, str(here.nodes)]
