"""Helpers for the Spider solver's tests: one best-first setting searched alone on a deal (as the
portfolio runs it, but without the others taking turns), and a solver line played out in the engine."""

from __future__ import annotations

import engine
from engine.games.spider import RUNS_TO_WIN
from engine.solver.spider import SpiderSearch
from engine.solver.spider_best import best_first, interleave
from engine.solver.spider_board import code_of, make_node


def deal_root(suits: int, seed: int):
    """Deal `seed` as the solver starts it: (its root node, the stock's deals, a search over them)."""
    board = engine.initial_state("spider", {"suits": suits}, seed).board
    stock = [code_of(card) for card in board.stock]
    deals = tuple(tuple(stock[i : i + 10]) for i in range(0, len(stock), 10))
    root = make_node([tuple(code_of(card) for card in pile.cards) for pile in board.columns],
                     [pile.down for pile in board.columns], 0, 0)
    return root, deals, SpiderSearch(deals, RUNS_TO_WIN)


def search_alone(suits: int, seed: int, weights, budget: int, *, pruned: bool = False):
    """The setting `weights` alone on deal `seed`: (won, steps, nodes) as `interleave` answers. `pruned`:
    children from the depth-first pass's pruned expansion (the macro settings' own)."""
    root, deals, search = deal_root(suits, seed)
    extra = (search.expand_pruned,) if pruned else ()
    return interleave([best_first(root, deals, RUNS_TO_WIN, search.key, weights, *extra)], budget)


def play_out(variant: dict, seed: int, intents) -> engine.GameState:
    """The deal's state after the engine plays `intents` in turn; every one must be legal."""
    state = engine.initial_state("spider", variant, seed)
    for intent in intents:
        played = engine.play(intent, state)
        assert not isinstance(played, engine.RuleError), (intent, played)
        state = played[0]
    return state
