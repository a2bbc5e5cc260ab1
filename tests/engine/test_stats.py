"""The statistics model: per (game, variant) games, wins, losses, abandoned, best and average."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.stats import GameResult, VariantStats, fold_results, record, variant_key

results = st.builds(
    GameResult,
    game=st.sampled_from(["spider", "wish"]),
    variant=st.sampled_from([{"suits": 1}, {"suits": 4}, {}]),
    status=st.sampled_from(["won", "lost", "abandoned"]),
    moves=st.integers(0, 500),
    time_ms=st.integers(0, 10**7),
)


def test_wins_losses_abandoned_best_and_average():
    table = fold_results([
        GameResult("spider", {"suits": 2}, "won", 120, 300_000),
        GameResult("spider", {"suits": 2}, "lost", 40, 10_000),
        GameResult("spider", {"suits": 2}, "won", 100, 400_000),
        GameResult("spider", {"suits": 2}, "abandoned", 3, 1_000),
        GameResult("spider", {"suits": 1}, "won", 90, 200_000),
    ])
    two = table[("spider", "suits=2")]
    assert (two.games, two.wins, two.losses, two.abandoned) == (4, 2, 2, 1)
    assert (two.best_moves, two.best_time_ms) == (100, 300_000)  # best of each, from different games
    assert (two.average_moves, two.average_time_ms, two.win_rate) == (110, 350_000, 0.5)
    one = table[("spider", "suits=1")]
    assert (one.games, one.wins, one.best_moves, one.average_moves) == (1, 1, 90, 90)


def test_no_wins_means_no_best_or_average():
    table = fold_results([GameResult("wish", {"mode": "open"}, "lost", 10, 5)])
    stats = table[("wish", "mode=open")]
    assert (stats.best_moves, stats.best_time_ms, stats.average_moves, stats.average_time_ms) == (None,) * 4
    assert stats.win_rate == 0 and VariantStats("wish", "").win_rate is None


def test_variant_key_is_canonical():
    assert variant_key({"suits": 2, "a": "x"}) == "a=x,suits=2"
    assert variant_key({}) == ""


@pytest.mark.parametrize("bad", [
    GameResult("spider", {"suits": 1}, "in_progress", 3, 4),
    GameResult("spider", {"suits": 1}, "won", -1, 4),
    GameResult("spider", {"suits": 1}, "won", 3, -4),
    GameResult("spider", {"suits": 1}, "won", True, 4),
    GameResult("spider", {"suits": 1}, "won", 3, 4.5),
    GameResult("", {"suits": 1}, "won", 3, 4),
    GameResult("spider", "suits=1", "won", 3, 4),
])
def test_bad_results_are_refused_and_change_nothing(bad):
    table = fold_results([GameResult("spider", {"suits": 1}, "won", 50, 60)])
    before = dict(table)
    err = fold_results([GameResult("spider", {"suits": 1}, "lost", 1, 1), bad], table)
    assert isinstance(err, RuleError) and err.code == "bad_result" and "result 1" in err.message
    assert table == before
    err = record(table[("spider", "suits=1")], bad)
    assert isinstance(err, RuleError) and err.code == "bad_result"


def test_record_refuses_a_result_of_another_variant():
    err = record(VariantStats("spider", "suits=1"), GameResult("spider", {"suits": 4}, "won", 1, 1))
    assert isinstance(err, RuleError) and "suits=4" in err.message


@given(st.lists(results, max_size=30))
def test_fold_agrees_with_counting_by_hand(items):
    table = fold_results(items)
    assert sum(stats.games for stats in table.values()) == len(items)
    for (game, variant), stats in table.items():
        mine = [r for r in items if r.game == game and variant_key(r.variant) == variant]
        won = [r for r in mine if r.status == "won"]
        assert stats.games == len(mine) and stats.wins == len(won)
        assert stats.losses == len(mine) - len(won) == stats.games - stats.wins
        assert stats.abandoned == sum(r.status == "abandoned" for r in mine)
        assert stats.best_moves == min((r.moves for r in won), default=None)
        assert stats.best_time_ms == min((r.time_ms for r in won), default=None)
        if won:
            assert stats.average_moves == pytest.approx(sum(r.moves for r in won) / len(won))


@given(st.lists(results, max_size=20), st.lists(results, max_size=20), st.randoms(use_true_random=False))
def test_folding_in_parts_or_in_any_order_gives_the_same_table(first, second, rnd):
    whole = fold_results(first + second)
    assert fold_results(second, fold_results(first)) == whole
    shuffled = first + second
    rnd.shuffle(shuffled)
    assert fold_results(shuffled) == whole


def test_tally_counts_like_record_without_a_variant_mapping():
    from engine.stats import tally

    stats = VariantStats("wizard", "redeals=None")
    by_record = record(stats, GameResult("wizard", {"redeals": None}, "won", 300, 9000))
    assert tally(stats, "won", 300, 9000) == by_record
    assert tally(stats, "in_progress", 1, 1).code == "bad_result"
