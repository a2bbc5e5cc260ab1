"""The full-knowledge solvers of Spider, Wading Pool and Solitaire Wizard: every winning line
replays to a win in the engine, hand-built positions get their known answers, an unwinnable
answer agrees with a plain exhaustive search, and a verdict depends on the budget, not the clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import WIZARD_SUITS
from engine.games.wading_pool import board_of
from engine.solver import solve, solve_deal
from engine.solver.wading_pool import WadingPoolSearch
from engine.state import GameState
from tests.engine.spider_boards import board as spider_board
from tests.engine.spider_boards import run_text, state_of
from tests.engine.test_wizard_positions import c, position, suit_run


def _play_line(state, line):
    for intent in line:
        played = engine.play(intent, state)
        assert not isinstance(played, engine.RuleError), (intent, played)
        state = played[0]
    return state


def _assert_wins(state, verdict):
    assert verdict.result == "winnable" and verdict.line
    assert _play_line(state, verdict.line).status == engine.WON


@pytest.mark.parametrize("game,variant,seeds,budget", [
    ("spider", {"suits": 1}, [1, 2, 4], 10_000),  # deal 4: 5,051 nodes (the depth-first pass, its 3rd turn)
    ("spider", {"suits": 2}, [1], 20_000),
    ("spider", {"suits": 4}, [159, 11], 20_000),  # won by best-first searches over macro-moves
    ("wizard", {"redeals": None}, [1, 2, 3], 5_000),
    ("wizard", {"redeals": 1}, [3], 5_000),  # its line shifts runs to free cards (over levels)
])
def test_a_winning_line_replays_to_a_win(game, variant, seeds, budget):
    for seed in seeds:
        state = engine.initial_state(game, variant, seed)
        _assert_wins(state, solve(state, budget))


def test_spider_best_first_wins_where_the_depth_first_pass_is_stuck():
    # Two-suit deal 15: the pruned depth-first search alone finds nothing in 20,000 nodes; the
    # best-first searches beside it win in a few thousand each.
    from engine.solver.spider import SpiderSearch, _depth_first
    from engine.solver.spider_best import interleave
    from engine.solver.spider_board import code_of, make_node

    state = engine.initial_state("spider", {"suits": 2}, 15)
    board = state.board
    stock = [code_of(card) for card in board.stock]
    deals = tuple(tuple(stock[i : i + 10]) for i in range(0, len(stock), 10))
    root = make_node([tuple(code_of(card) for card in pile.cards) for pile in board.columns],
                     [pile.down for pile in board.columns], 0, 0)
    search = SpiderSearch(deals, 8)
    alone = _depth_first(root, search.expand_pruned, search.key, search.won)
    next(alone)
    assert interleave([alone], 20_000)[0] is None
    verdict = solve(state, 20_000)
    _assert_wins(state, verdict)
    assert verdict.nodes < 20_000


def test_a_verdict_depends_on_the_budget_only():
    first = solve_deal("spider", {"suits": 4}, 1, 300)
    assert first.result == "unknown" and first.nodes == 300 and first.line == ()
    assert solve_deal("spider", {"suits": 4}, 1, 300) == first


def test_a_bad_budget_is_refused():
    state = engine.initial_state("spider", {"suits": 1}, 1)
    for budget in (0, -5, True, "9"):
        assert solve(state, budget).code == "bad_budget"


# Spider ------------------------------------------------------------------------------------------

FILLER = ["Kh"] * 8  # face-up Kings of hearts: nothing goes anywhere from them


def test_spider_one_move_from_the_last_run():
    state = state_of(spider_board([run_text("s", 13, 2), "As", *FILLER], cleared_runs=7))
    verdict = solve(state, 100)
    assert verdict.line == (engine.intents.MoveIntent("t1", "t0", 1),)
    _assert_wins(state, verdict)


def test_spider_an_ace_buried_under_its_own_king_is_unwinnable():
    # Q..2 may go onto the King and back, the Queen of hearts may shuttle, but the Ace of spades
    # stays face down under the King: no column is ever empty, so the King never moves.
    columns = ["As / " + run_text("s", 13, 13), "Kc / " + run_text("s", 12, 2), "Kd / Qh", *(["Kh"] * 7)]
    state = state_of(spider_board(columns, cleared_runs=7))
    verdict = solve(state, 10_000)
    assert verdict.result == "unwinnable" and 1 < verdict.nodes < 10_000


def test_spider_solver_reads_the_board_it_is_given_not_the_seed():
    # Seed 1's name on seed 2's board: a solver that dealt from the seed would give a line that
    # does not replay here.
    other = engine.initial_state("spider", {"suits": 1}, 2)
    changed = GameState("spider", other.variant, 1, other.board)
    _assert_wins(changed, solve(changed, 20_000))



def test_spider_worth_counts_the_runs_that_cover_a_face_down_card():
    from engine.solver.spider_best import MACRO_COVER_SHORT, column_worth_of

    plain, cover = column_worth_of(MACRO_COVER_SHORT._replace(cover=0)), column_worth_of(MACRO_COVER_SHORT)
    # 5h face down under 9s 8s (one run), then 4d (a break): two runs to move to turn the 5h.
    column = bytes((1 * 16 + 5, 9, 8, 2 * 16 + 4))  # codes: suit * 16 + rank, spades 0, hearts 1
    assert plain(column, 1) - cover(column, 1) == 2 * MACRO_COVER_SHORT.cover
    assert plain(column[1:], 0) == cover(column[1:], 0)  # nothing face down: nothing to dig out


def test_spider_four_suits_shift_a_run_to_free_the_last_ace():
    # The 5c lies on the Ace the hearts need: the portfolio of three and four suits (no
    # depth-first pass beside it) shifts it onto the 6d, then the Ace clears the last run.
    state = state_of(spider_board([run_text("h", 13, 2), "Ah 5c", "6d", *(["Ks"] * 7)], cleared_runs=7))
    verdict = solve(state, 100)
    assert verdict.line == (engine.intents.MoveIntent("t1", "t2", 1), engine.intents.MoveIntent("t1", "t0", 1))
    _assert_wins(state, verdict)

# Wading Pool -------------------------------------------------------------------------------------

def test_wading_pool_known_positions():
    from engine.cards import standard_deck

    deck = {(card.rank, card.suit): card for card in standard_deck()}

    def run(suit, high, low):
        return [deck[(rank, suit)] for rank in range(high, low - 1, -1)]

    piles = [run("spades", 13, 1), run("hearts", 13, 1), run("diamonds", 13, 1), run("clubs", 13, 3),
             run("clubs", 2, 1), [], [], []]
    state = GameState("wading-pool", engine.rules_for("wading-pool").variant_type(), 0, board_of(piles))
    verdict = solve(state)
    assert verdict.line == (engine.intents.MoveIntent("t4", "t3", 2),)
    _assert_wins(state, verdict)
    # The clubs lie in three piles: the 3-2 run joins the 4, then the Ace joins the 2 (two safe
    # joins, no branching). A deal where no pile can ever be emptied is lost (seed 1).
    turned = [run("spades", 13, 1), run("hearts", 13, 1), run("diamonds", 13, 1), run("clubs", 13, 4),
              [deck[(3, "clubs")], deck[(2, "clubs")]], [deck[(1, "clubs")]], [], []]
    state = GameState("wading-pool", state.variant, 0, board_of(turned))
    verdict = solve(state)
    assert len(verdict.line) == 2 and verdict.nodes == 1
    _assert_wins(state, verdict)
    assert solve(engine.initial_state("wading-pool", None, 1)).result == "unwinnable"


def _brute_force(piles, full_run):
    """Breadth-first over every legal move of the rules as written, no pruning, no safe moves."""
    def won(ps):
        return all(not p or (len(p) == full_run and all(p[i] == p[i + 1] + 1 for i in range(len(p) - 1)))
                   for p in ps)

    start = tuple(piles)
    seen, frontier = {start}, [start]
    while frontier:
        nxt = []
        for ps in frontier:
            if won(ps):
                return True
            for s, p in enumerate(ps):
                for count in range(1, len(p) + 1):
                    run = p[-count:]
                    if any(run[i] != run[i + 1] + 1 for i in range(count - 1)):
                        break
                    for d, q in enumerate(ps):
                        if d != s and (not q or q[-1] == run[0] + 1):
                            out = list(ps)
                            out[s], out[d] = p[:-count], q + run
                            out = tuple(out)
                            if out not in seen:
                                seen.add(out)
                                nxt.append(out)
        frontier = nxt
    return False


@st.composite
def reduced_wading_pools(draw):
    """2-3 suits of 3-4 ranks dealt into 3-5 piles: small enough to search exhaustively."""
    suits, ranks = draw(st.integers(2, 3)), draw(st.integers(3, 4))
    cards = draw(st.permutations([s * 16 + r for s in range(suits) for r in range(1, ranks + 1)]))
    count = draw(st.integers(suits, suits + 2))
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=count - 1, max_size=count - 1)))
    bounds = [0, *cuts, len(cards)]
    return [tuple(cards[a:b]) for a, b in zip(bounds, bounds[1:])], ranks


@settings(max_examples=150, deadline=None)
@given(case=reduced_wading_pools())
def test_wading_pool_agrees_with_brute_force_on_reduced_decks(case):
    piles, ranks = case
    found = WadingPoolSearch(full_run=ranks).solve(tuple(piles), 10**6)
    assert (found.result == "winnable") == _brute_force(piles, ranks)
    assert found.result != "unknown"


# Solitaire Wizard --------------------------------------------------------------------------------

def _all_but(suit: str, top: int):
    return [suit_run(s, 13) if s != suit else suit_run(s, top) for s in WIZARD_SUITS]


def test_wizard_two_moves_from_a_win():
    state = position(tableau=[[c("K", "moon")], [c("Q", "moon")]], foundations=_all_but("moon", 11), redeals=0)
    verdict = solve(state)
    assert len(verdict.line) == 2
    _assert_wins(state, verdict)


def test_wizard_an_ace_under_its_two_is_unwinnable():
    # The Ace of stars lies face down under the 2, and every other card left is a star, so none
    # goes onto another. Draws turn up the King and Queen of stars; a King may come down from a
    # foundation into the empty pile and the Queen go onto it, but a 3 of another suit for the 2
    # never comes out: the search runs out of positions.
    tableau = [[c("A", "stars"), c(2, "stars")], *([c(n, "stars"), c(n + 1, "stars")] for n in (3, 5, 7, 9)),
               [c("J", "stars")]]
    state = position(tableau=tableau, foundations=_all_but("stars", 0), stock=[c("K", "stars"), c("Q", "stars")],
                     down=[1], redeals=0)
    verdict = solve(state, 10_000)
    assert verdict.result == "unwinnable" and verdict.nodes > 2
    assert _wizard_complete(state, reorder=False) == _wizard_complete(state, reorder=True) == "unwinnable"


def test_wizard_uses_the_stock_it_is_given():
    state = position(tableau=[[c("K", "moon")]], foundations=_all_but("moon", 11), stock=[c("Q", "moon")],
                     redeals=0)
    _assert_wins(state, solve(state))


def test_wizard_wins_where_the_concrete_depth_first_pass_is_stuck():
    # Unlimited-redeal deal 18: the pruned depth-first pass over concrete positions (every shift of
    # a run searched, every card's place in the key) finds nothing in 20,000 nodes; the solver,
    # which searches over levels (wizard_levels), wins it in a few hundred.
    from engine.games.wizard import WizardVariant
    from engine.solver.search import depth_first
    from engine.solver.wizard import WizardSearch

    state = engine.initial_state("wizard", {"redeals": None}, 18)
    search = WizardSearch(WizardVariant(None), complete=False, levels=False)
    _, board = search.close(state.board)
    root = (board, False)
    assert depth_first(root, search.expand, search.key, search.won, 20_000).result == "unknown"
    verdict = solve(state, 20_000)
    assert verdict.nodes < 2_000
    _assert_wins(state, verdict)


def _wizard_complete(state, reorder: bool):
    from engine.solver.search import depth_first
    from engine.solver.wizard import WizardSearch

    search = WizardSearch(state.variant, complete=True, reorder=reorder)
    _, board = search.close(state.board)
    return depth_first((board, False), search.expand, search.key, search.won, 5_000).result


@st.composite
def _reduced_wizard(draw):
    # One to three suits not yet home, their last few cards dealt out over three piles (all but the
    # top face down) and the stock; every other suit is home.
    # One suit alone, its cards face down over one another, is often unwinnable: one card of a
    # suit cannot lie on another of the same suit.
    suits = draw(st.lists(st.sampled_from(WIZARD_SUITS), min_size=1, max_size=3, unique=True))
    heights = {suit: draw(st.integers(6 if len(suits) == 1 else 9, 12)) for suit in suits}
    loose = [c(rank, suit) for suit in suits for rank in range(heights[suit] + 1, 14)]
    loose = draw(st.permutations(loose))
    cut = sorted(draw(st.lists(st.integers(0, len(loose)), min_size=3, max_size=3)))
    piles = [loose[:cut[0]], loose[cut[0]:cut[1]], loose[cut[1]:cut[2]]]
    down = [max(len(pile) - 1, 0) for pile in piles]
    foundations = [suit_run(s, heights.get(s, 13)) for s in WIZARD_SUITS]
    redeals = draw(st.sampled_from([0, 1, None]))
    return position(tableau=piles, foundations=foundations, stock=loose[cut[2]:], down=down, redeals=redeals)


@settings(max_examples=40, deadline=None)
@given(_reduced_wizard())
def test_wizard_leaving_out_table_moves_after_draws_changes_no_answer(state):
    # The complete pass plays no table move right after a draw, cast or recycle (it could have
    # come first); the same pass with them must answer alike wherever both finish.
    with_reorder, without = _wizard_complete(state, True), _wizard_complete(state, False)
    if "unknown" not in (with_reorder, without):
        assert with_reorder == without
    verdict = solve(state, 5_000)
    if verdict.winnable:
        _assert_wins(state, verdict)
