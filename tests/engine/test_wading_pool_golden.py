"""Golden Wading Pool deals: a published deal must deal identically forever.

tests/golden/wading-pool.json was generated once (seeds 1, 2, 42, 2**63) and is never regenerated;
a failure here means the shuffle, the deck order or the deal order changed, which would change
every published deal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine

GOLDEN = json.loads((Path(__file__).parent.parent / "golden" / "wading-pool.json").read_text())["deals"]


@pytest.mark.parametrize("deal", GOLDEN, ids=[str(d["seed"]) for d in GOLDEN])
def test_deal_matches_the_published_vector(deal):
    state = engine.initial_state(deal["game"], deal["variant"], deal["seed"])
    assert [[card.id for card in pile.cards] for pile in state.board.piles] == deal["piles"]
    assert [pile.down for pile in state.board.piles] == deal["down"]


def test_the_file_pins_the_four_published_seeds_in_the_documented_shape():
    assert [d["seed"] for d in GOLDEN] == [1, 2, 42, 2**63]
    for deal in GOLDEN:
        assert deal["game"] == "wading-pool" and deal["variant"] == {}
        assert [len(pile) for pile in deal["piles"]] == [7, 7, 7, 7, 6, 6, 6, 6]
        assert sorted(i for pile in deal["piles"] for i in pile) == list(range(52))
