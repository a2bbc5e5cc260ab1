"""Golden Solitaire Wizard deals: a published deal must deal identically forever (shuffle v1, deal order).

tests/golden/wizard.json was generated once from the code and is never changed; if this test
fails, the deal changed, which would break every published daily challenge and stored game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.cards import wizard_deck

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "wizard.json").read_text())["deals"]
IDS = [f"{json.dumps(entry['variant'], sort_keys=True)}-seed{entry['seed']}" for entry in GOLDEN]


def test_golden_file_covers_the_default_seeds_and_a_no_recycle_deal():
    keys = sorted((json.dumps(entry["variant"]), entry["seed"]) for entry in GOLDEN)
    assert keys == sorted([("{}", seed) for seed in (1, 2, 42, 2**63)] + [('{"redeals": 0}', 1)])


@pytest.mark.parametrize("entry", GOLDEN, ids=IDS)
def test_deal_matches_the_golden_deal(entry):
    state = engine.initial_state("wizard", entry["variant"], entry["seed"])
    board = state.board
    assert [[card.id for card in pile.cards] for pile in board.tableau] == entry["tableau"]
    assert [pile.down for pile in board.tableau] == entry["down"] == list(range(7))
    assert [card.id for card in reversed(board.stock)] == entry["stock_draw_order"]
    # The ids name the same physical cards as the documented deck order, each exactly once.
    deck = wizard_deck()
    dealt = [card for pile in board.tableau for card in pile.cards] + list(board.stock)
    assert all(card == deck[card.id] for card in dealt)
    assert sorted(card.id for card in dealt) == list(range(98))


def test_a_variant_deals_its_own_shuffle():
    """The variant is part of the deal key: redeals=0 at seed 1 is not the default deal at seed 1."""
    by_key = {(json.dumps(entry["variant"]), entry["seed"]): entry for entry in GOLDEN}
    assert by_key[("{}", 1)]["stock_draw_order"] != by_key[('{"redeals": 0}', 1)]["stock_draw_order"]
