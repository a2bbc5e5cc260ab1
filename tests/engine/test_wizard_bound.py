"""The Solitaire Wizard solver's bound for the last pass (engine.solver.wizard_bound): what it calls
lost, that it never calls a position of a winning line lost, and that the search gives the answers
it gives without it wherever both finish."""

from __future__ import annotations

import random


import engine
from engine.cards import WIZARD_SUITS
from engine.solver import solve
from engine.solver.search import depth_first
from engine.solver.wizard import WizardSearch
from engine.solver.wizard_bound import lost_on_last_pass, matched
from tests.engine.test_wizard_levels import _late_positions
from tests.engine.test_wizard_positions import c, position, suit_run

OTHERS = [suit for suit in WIZARD_SUITS if suit != "moon"]


def _walled(parent_in_stock: str | None = None, down: int = 0):
    # Moon: its Ace at the bottom of the waste, its 2 on top; every other suit home up to its 2,
    # their 3s in the waste between (or one of them in the stock). The 2 of moon must leave the waste
    # before its Ace and cannot go home before it; its only parent left (a 3 of another suit) is
    # under it, so it would be a base, and no pile can take a non-King base.
    threes = [c(3, suit) for suit in OTHERS if suit != parent_in_stock]
    rest = [c(rank, "moon") for rank in range(3, 14)] + [c(rank, s) for s in OTHERS for rank in range(4, 14)]
    stock = rest + ([c(3, parent_in_stock)] if parent_in_stock else [])
    tableau = [[c("K", "moon"), c("Q", "stars")]] if not down else [[c(9, "fire"), c("K", "moon")]]
    stock = [card for card in stock if card not in tableau[0]]
    return position(tableau=tableau, down=[down], waste=[c("A", "moon"), *threes, c(2, "moon")], stock=stock,
                    foundations=[[c("W", "moon")], *(suit_run(s, 2) for s in OTHERS)], redeals=0)


def test_a_card_with_no_parent_left_and_no_pile_for_a_base_is_lost():
    assert lost_on_last_pass(_walled().board)
    assert not lost_on_last_pass(_walled(parent_in_stock="luck").board)  # a 3 of luck may yet come
    assert not lost_on_last_pass(_walled(down=1).board)  # a face-down card may carry it as a base


def _nines_below(luck_nine_in_stock: bool):
    # The 2 of moon on top of the waste, its Ace at the bottom, every 9 between (or all but the 9
    # of luck): the 2 has parents (every other 3 is home) but sits in a run, and a run on a King
    # would need a 9; no pile can take a non-King base.
    nines = [c(9, suit) for suit in WIZARD_SUITS if not (luck_nine_in_stock and suit == "luck")]
    rest = [c(rank, suit) for suit in WIZARD_SUITS for rank in range(3 if suit == "moon" else 10, 14) if rank != 9]
    stock = rest + ([c(9, "luck")] if luck_nine_in_stock else [])
    return position(waste=[c("A", "moon"), *nines, c(2, "moon")], stock=stock, redeals=0,
                    foundations=[[c("W", "moon")], *(suit_run(s, 8) for s in OTHERS)])


def test_a_card_no_run_can_carry_is_lost():
    assert lost_on_last_pass(_nines_below(False).board)
    assert not lost_on_last_pass(_nines_below(True).board)


def test_the_matching_of_a_level_is_the_brute_force_one():
    def brute(children, parents):
        kids = [s for s in range(7) if children >> s & 1]
        tops = [s for s in range(7) if parents >> s & 1]

        def best(i, used):
            if i == len(kids):
                return 0
            options = [best(i + 1, used)]
            options += [1 + best(i + 1, used | {p}) for p in tops if p != kids[i] and p not in used]
            return max(options)

        return best(0, frozenset())

    for children in range(0, 128, 3):
        for parents in range(0, 128, 5):
            assert matched(children, parents) == brute(children, parents), (children, parents)


def _search(board, variant, budget=5_000, **rules):
    search = WizardSearch(variant, complete=True, **rules)
    _, board = search.close(board)
    return depth_first((board, False), search.expand, search.key, search.won, budget)


def _complete(board, variant, budget=5_000, **rules):
    return _search(board, variant, budget, **rules).result


def test_no_position_of_a_winning_line_is_called_lost():
    # Every last-pass position of the winning lines of one-redeal deals is winnable: the bound must
    # never fire there, and the complete pass with it must win every 10th of them.
    checked = searched = 0
    for seed in (3, 11, 5):
        state = engine.initial_state("wizard", {"redeals": 1}, seed)
        verdict = solve(state, 20_000)
        assert verdict.winnable, seed
        for index, intent in enumerate(verdict.line):
            state = engine.play(intent, state)[0]
            if state.board.redeals_used == 1 and state.status == engine.IN_PROGRESS:
                assert not lost_on_last_pass(state.board), seed
                checked += 1
                if index % 10 == 0:
                    assert _complete(state.board, state.variant, budget=20_000) == "winnable", (seed, index)
                    searched += 1
    assert checked > 200 and searched > 20


def test_the_bound_changes_no_answer_on_late_positions():
    # Positions the search visits on real no-redeal deals with a few cards left to draw (lost ones:
    # winnable ones are the test above): the complete pass with and without the bound agree
    # wherever both finish, and with it in fewer nodes.
    agreed, fired = 0, 0
    for seed, stock in ((1, 3), (2, 0), (3, 6), (4, 3), (5, 0), (6, 9)):
        variant, boards = _late_positions({"redeals": 0}, seed, every=23, count=3, stock=stock)
        for board in boards:
            fired += lost_on_last_pass(board)
            with_bound = _complete(board, variant)
            without = _complete(board, variant, bound=False)
            if "unknown" not in (with_bound, without):
                assert with_bound == without, seed
                agreed += 1
    assert agreed >= 8 and fired >= 1


def _walls(count: int):
    """Last-pass positions (no redeal) with a few cards of several suits left, at most one pile and
    every other card in the waste or the stock: the waste often walls a card in. Drawn from a fixed
    random sequence, so the same positions every run."""
    rng = random.Random(14)
    for _ in range(count):
        suits = rng.sample(WIZARD_SUITS, rng.randint(2, 7))
        heights = {suit: rng.randint(8, 12) for suit in suits}
        loose = [c(rank, suit) for suit in suits for rank in range(heights[suit] + 1, 14)]
        rng.shuffle(loose)
        a, b = sorted(rng.randint(0, len(loose)) for _ in range(2))
        yield position(tableau=[loose[:a]], down=[max(a - 1, 0)], waste=loose[a:b], stock=loose[b:],
                       foundations=[suit_run(s, heights.get(s, 13)) for s in WIZARD_SUITS], redeals=0)


def test_the_bound_changes_no_answer_on_small_walled_positions():
    answers, cut = set(), 0
    for state in _walls(300):
        with_bound = _search(state.board, state.variant)
        without = _search(state.board, state.variant, bound=False)
        if "unknown" not in (with_bound.result, without.result):
            assert with_bound.result == without.result
            answers.add(with_bound.result)
            cut += with_bound.nodes < without.nodes
    assert answers == {"winnable", "unwinnable"} and cut >= 2
