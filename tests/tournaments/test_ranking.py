"""The ranking key: wins only; fewer moves, then shorter time, then earlier finish; byte order = rank order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.tournaments.ranking import (
    BAD_RANKING_VALUE,
    MAX_VALUE,
    NOT_A_WIN,
    RankingKey,
    competition_ranks,
    key_prefix,
    parse_member,
    ranking_key,
    ranking_member,
)

values = st.one_of(st.integers(0, 300), st.integers(0, MAX_VALUE), st.sampled_from([0, 2**53, 2**53 + 1, MAX_VALUE]))
keys = st.builds(RankingKey, values, values, values)


def test_order_moves_then_time_then_finish():
    entries = [
        ("late", RankingKey(90, 1000, 9)),
        ("slow", RankingKey(90, 2000, 1)),
        ("few", RankingKey(89, 9_999_999, 99)),
        ("early", RankingKey(90, 1000, 8)),
    ]
    members = sorted(ranking_member(key, player) for player, key in entries)
    assert [parse_member(m)[1] for m in members] == ["few", "early", "late", "slow"]


def test_only_wins_rank_and_values_must_fit():
    assert ranking_key("won", 1, 2, 3) == RankingKey(1, 2, 3)
    for status in ("lost", "abandoned", "in_progress"):
        assert ranking_key(status, 1, 2, 3).code == NOT_A_WIN
    for bad in (-1, MAX_VALUE + 1, True, 1.5, "3"):
        assert ranking_key("won", bad, 2, 3).code == BAD_RANKING_VALUE
        assert ranking_key("won", 1, 2, bad).code == BAD_RANKING_VALUE


@given(st.lists(st.tuples(keys, st.text("abcdefgh_-0123456789", min_size=1, max_size=20)), max_size=40))
def test_member_byte_order_is_key_order_even_for_large_values(entries):
    members = [ranking_member(key, player).encode() for key, player in entries]
    by_bytes = [parse_member(m)[0] for m in sorted(members)]  # Redis orders equal scores by memcmp
    assert by_bytes == sorted(key for key, _player in entries)


@given(keys, st.text(min_size=1, max_size=30))  # a player id may hold ":" too
def test_member_round_trips(key, player):
    assert parse_member(ranking_member(key, player)) == (key, player)


def test_large_values_do_not_collide_like_a_float_score_would():
    # 2**53 and 2**53 + 1 are one double: a float score would tie these two entries.
    a, b = RankingKey(2**53, 0, 0), RankingKey(2**53 + 1, 0, 0)
    assert ranking_member(a, "x") < ranking_member(b, "x")
    assert key_prefix(RankingKey(MAX_VALUE, MAX_VALUE, MAX_VALUE)) == "f" * 48


def test_ties_share_a_rank_even_across_a_page_edge():
    p = [key_prefix(RankingKey(m, 5, 5)) for m in (10, 20, 20, 30, 30, 30, 40)]
    assert competition_ranks(0, 0, p) == [1, 2, 2, 4, 4, 4, 7]
    # A page starting at position 4 whose first entry ties with position 3 (rank 4)
    assert competition_ranks(4, 3, p[4:]) == [4, 4, 7]
    assert competition_ranks(0, 0, []) == []
