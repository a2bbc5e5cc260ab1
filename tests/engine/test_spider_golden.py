"""Golden Spider deals: a published deal must deal identically forever (shuffle v1, deal order).

tests/golden/spider.json was generated once from the code and is never changed; if this test
fails, the deal changed, which would break every published daily challenge and stored game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.cards import spider_deck

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "spider.json").read_text())["deals"]
IDS = [f"suits{entry['suits']}-seed{entry['seed']}" for entry in GOLDEN]


def test_golden_file_covers_every_suit_count_and_seed():
    assert sorted((entry["suits"], entry["seed"]) for entry in GOLDEN) == sorted(
        (suits, seed) for suits in (1, 2, 4) for seed in (1, 2, 42, 2**63)
    )


@pytest.mark.parametrize("entry", GOLDEN, ids=IDS)
def test_deal_matches_the_golden_deal(entry):
    state = engine.initial_state("spider", {"suits": entry["suits"]}, entry["seed"])
    board = state.board
    assert [[card.id for card in pile.cards] for pile in board.columns] == entry["columns"]
    assert [card.id for card in board.stock] == entry["stock"]
    assert all(pile.down == len(pile) - 1 for pile in board.columns)
    # The ids name the same physical cards as the documented deck order.
    deck = spider_deck(entry["suits"])
    assert all(card == deck[card.id] for pile in board.columns for card in pile.cards)
    assert all(card == deck[card.id] for card in board.stock)
