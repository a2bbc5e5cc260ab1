"""The Solitaire Wizard solver's levels (engine.solver.wizard_levels): the fact its key rests on, its
plans replay, and on real positions its answers agree with the concrete search (every shift searched, every card's
place in the key), which finishes there only on small spaces."""

from __future__ import annotations

from collections import deque

import engine
from engine.solver.search import depth_first
from engine.solver.wizard import WizardSearch
from engine.solver.wizard_levels import Levels, tableau_key, with_shifts
from tests.engine.test_wizard_positions import c, position


def _matchings(children, parents):
    """Every placement of the children (suits) on distinct parents (suits) of another suit."""
    found = []

    def place(i, used, chosen):
        if i == len(children):
            found.append(tuple(chosen))
            return
        for p in range(len(parents)):
            if p not in used and parents[p] != children[i]:
                place(i + 1, used | {p}, chosen + [p])

    place(0, frozenset(), [])
    return found


def test_every_arrangement_of_a_level_with_a_free_parent_reaches_every_other():
    # A level: loose cards of one rank (distinct suits) on parents one rank higher (distinct suits),
    # each on a parent of another suit. A shift moves one loose card onto a free parent. With at
    # least one parent more than loose cards, shifts connect all arrangements: for every size and
    # every number of suits the two sides share (suits are otherwise alike), of seven suits.
    checked = 0
    for n in range(7):
        for m in range(n + 1, 8):
            for shared in range(min(n, m) + 1):
                children = list(range(shared)) + [10 + i for i in range(n - shared)]
                parents = list(range(shared)) + [20 + i for i in range(m - shared)]
                every = set(_matchings(children, parents))
                if not every:
                    continue
                start = next(iter(every))
                seen, queue = {start}, deque([start])
                while queue:
                    now = queue.popleft()
                    for i in range(n):
                        for p in range(m):
                            if p not in now and parents[p] != children[i]:
                                nxt = now[:i] + (p,) + now[i + 1:]
                                if nxt not in seen:
                                    seen.add(nxt)
                                    queue.append(nxt)
                assert seen == every, (n, m, shared)
                checked += 1
    assert checked == 84  # every (n, m, shared) above has arrangements


def test_a_plan_frees_a_covered_parent_by_legal_shifts():
    # 9 of fire under an 8 of ice; a free 9 of moon elsewhere: the 8 (with the 7 on it) shifts over.
    state = position(tableau=[[c(10, "luck"), c(9, "fire"), c(8, "ice"), c(7, "moon")], [c(9, "moon")]],
                     down=[1], redeals=0)
    levels = Levels(state.board)
    plan = levels.free_plan(c(9, "fire"))
    assert plan == [(c(8, "ice"), c(9, "moon"))]
    search = WizardSearch(state.variant)
    steps, board = with_shifts(search.apply, state.board, plan)
    assert board.tableau[0].cards[-1] == c(9, "fire") and board.tableau[1].cards[-1] == c(7, "moon")
    assert tableau_key(board) == tableau_key(state.board)  # a shift keeps the key
    replayed = state
    for intent, _ in steps:
        replayed = engine.play(intent, replayed)[0]
    assert replayed.board == board
    # The 9 of ice cannot take the 8 of ice (same suit), and no other 9 is free: nothing frees it.
    blocked = position(tableau=[[c(10, "luck"), c(9, "fire"), c(8, "ice")], [c(9, "ice")]], down=[1], redeals=0)
    assert Levels(blocked.board).free_plan(c(9, "fire")) is None


def _complete(state_or_board, variant, levels: bool, budget: int = 20_000, waste_home: bool = True):
    search = WizardSearch(variant, complete=True, levels=levels, waste_home=waste_home)
    _, board = search.close(state_or_board)
    return depth_first((board, False), search.expand, search.key, search.won, budget)


def _late_positions(variant: dict, seed: int, every: int, count: int, stock: int = 0):
    """Positions the level search itself visits on a real deal once the stock is empty (where
    most lost positions lie), every `every`-th of them: deterministic, as the search is."""
    state = engine.initial_state("wizard", variant, seed)
    search = WizardSearch(state.variant)
    _, board = search.close(state.board)
    found, seen = [], [0]

    def expand(node):
        if len(node[0].stock) <= stock and len(found) < count:
            seen[0] += 1
            if seen[0] % every == 0:
                found.append(node[0])
        yield from search.expand(node)

    depth_first((board, False), expand, search.key, search.won, 3_000)
    return state.variant, found


def test_over_levels_late_positions_of_real_deals_get_the_concrete_answer():
    # With no redeal the concrete search (every shift searched) often finishes from a position with
    # the stock drawn; where it does, the search over levels must agree (it takes a few nodes).
    agreed = 0
    for seed in (1, 2, 3, 4, 5, 6):
        variant, boards = _late_positions({"redeals": 0}, seed, every=37, count=3)
        for board in boards:
            concrete = _complete(board, variant, levels=False, budget=3_000)
            over_levels = _complete(board, variant, levels=True)
            assert over_levels.result != "unknown"
            if concrete.result != "unknown":
                assert over_levels.result == concrete.result, seed
                assert over_levels.nodes <= concrete.nodes
                agreed += 1
    assert agreed >= 5


def test_over_levels_every_position_of_a_concrete_winning_line_is_winnable():
    # Winning lines found by the concrete search alone (no levels in it): every position on them is
    # winnable, so the search over levels must never call one unwinnable (nor fail to win it).
    for variant, seed in (({"redeals": 3}, 1), ({"redeals": 3}, 2), ({"redeals": None}, 3)):
        state = engine.initial_state("wizard", variant, seed)
        search = WizardSearch(state.variant, complete=False, levels=False)
        _, board = search.close(state.board)
        line = depth_first((board, False), search.expand, search.key, search.won, 20_000)
        assert line.result == "winnable", (variant, seed)
        for index, step in enumerate(line.steps):
            board = search.apply(board, step)
            if index % 15 == 0:
                assert _complete(board, state.variant, levels=True).result == "winnable", (variant, seed, index)


def test_waste_cards_home_on_the_last_pass_change_no_answer():
    # On the last pass a waste card goes home without branching when every card two ranks lower is
    # home (see WizardSearch.close): the answers with and without it agree, from positions with the
    # stock drawn and with a few cards still to draw.
    answers = set()
    for seed, stock in ((1, 0), (2, 6), (3, 0), (4, 9), (5, 6), (6, 0), (7, 3), (8, 9)):
        variant, boards = _late_positions({"redeals": 0}, seed, every=29, count=3, stock=stock)
        for board in boards:
            with_rule = _complete(board, variant, levels=True, budget=5_000)
            without = _complete(board, variant, levels=True, budget=5_000, waste_home=False)
            if "unknown" not in (with_rule.result, without.result):
                assert with_rule.result == without.result, seed
                answers.add(with_rule.result)
    assert "unwinnable" in answers


def test_only_the_last_pass_sends_a_waste_ace_home_at_once():
    from engine.games.wizard import WizardVariant

    tableau = [[c("K", "moon")], [c(9, "fire")]]
    for redeals, used, home in ((0, 0, True), (1, 1, True), (1, 0, False), (None, 5, False)):
        board = position(tableau=tableau, waste=[c(5, "ice"), c("A", "stars")], redeals=redeals,
                         foundations=[[c("W", "stars")]], redeals_used=used).board
        steps, closed = WizardSearch(WizardVariant(redeals)).close(board)
        assert (closed.waste[-1] == c(5, "ice")) == home, (redeals, used)
        assert len(steps) == (1 if home else 0)


def test_every_last_pass_position_of_a_winning_line_is_won_with_waste_cards_home():
    # One-redeal deal 3: every position of its winning line after the recycle is on the last pass
    # and winnable, so sending waste cards home there must never make it look lost.
    from engine.solver import solve

    state = engine.initial_state("wizard", {"redeals": 1}, 3)
    verdict = solve(state, 5_000)
    assert verdict.winnable
    checked = 0
    for index, intent in enumerate(verdict.line):
        state = engine.play(intent, state)[0]
        if state.board.redeals_used == 1 and index % 10 == 0 and state.status == engine.IN_PROGRESS:
            assert _complete(state.board, state.variant, levels=True).result == "winnable", index
            checked += 1
    assert checked >= 5
