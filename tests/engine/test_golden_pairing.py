"""Golden deals for The Wish and Patient Pairs: a published deal must deal identically forever."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine

GOLDEN = Path(__file__).parent.parent / "golden"
CASES = [deal for game in ("wish", "patient-pairs") for deal in json.loads((GOLDEN / f"{game}.json").read_text())["deals"]]


@pytest.mark.parametrize("deal", CASES, ids=[f"{d['game']}-{d['variant']}-{d['seed']}" for d in CASES])
def test_deal_matches_the_published_vector(deal):
    state = engine.initial_state(deal["game"], deal["variant"], deal["seed"])
    assert [[card.id for card in pile.cards] for pile in state.board.piles] == deal["piles"]
    assert [pile.down for pile in state.board.piles] == deal["down"]


def test_every_game_and_variant_of_these_files_is_covered():
    covered = {(d["game"], json.dumps(d["variant"], sort_keys=True)) for d in CASES}
    assert ("wish", '{"mode": "open"}') in covered and ("patient-pairs", '{"piles": 8}') in covered
    assert all(sum(1 for d in CASES if (d["game"], json.dumps(d["variant"], sort_keys=True)) == key) >= 4
               for key in covered)
