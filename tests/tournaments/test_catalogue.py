"""The dailies catalogue, challenge keys and hours."""

from __future__ import annotations

import datetime as dt

import pytest

from engine import rules_for
from services.tournaments.catalogue import (
    BAD_CHALLENGE_KEY,
    CATALOGUE,
    DAY_MS,
    GRACE_MS,
    NOT_A_DAILY,
    challenges_of,
    daily_for,
    parse_challenge_key,
    utc_date_of,
)


def test_the_six_dailies_and_their_keys():
    keys = [ref.key for ref in challenges_of(dt.date(2026, 12, 1))]
    assert keys == [
        "2026-12-01/wish/mode=standard",
        "2026-12-01/spider/suits=1",
        "2026-12-01/spider/suits=2",
        "2026-12-01/spider/suits=4",
        "2026-12-01/patient-pairs/piles=13",
        "2026-12-01/wizard/redeals=None",
    ]


def test_the_key_variant_text_is_the_deal_keys():
    for daily in CATALOGUE:
        rules = rules_for(daily.game)
        assert daily.variant_text == rules.variant_text(rules.parse_variant(daily.variant))


def test_wading_pool_and_other_variants_are_not_dailies():
    assert daily_for("wading-pool", {}).code == NOT_A_DAILY
    assert daily_for("spider", {"suits": 3}).code == "bad_variant"
    assert daily_for("wish", {"mode": "open"}).code == NOT_A_DAILY
    assert daily_for("wizard", {}) == CATALOGUE[-1]  # defaults filled in
    assert daily_for("patient-pairs", None).variant == {"piles": 13}


def test_hours_are_utc_midnight_to_midnight_plus_grace():
    ref = parse_challenge_key("2026-12-01/spider/suits=2")
    opens = int(dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp() * 1000)
    assert (ref.opens_at_ms, ref.closes_at_ms, ref.final_at_ms) == (opens, opens + DAY_MS, opens + DAY_MS + GRACE_MS)
    assert utc_date_of(ref.opens_at_ms) == "2026-12-01" and utc_date_of(ref.closes_at_ms - 1) == "2026-12-01"
    assert utc_date_of(ref.closes_at_ms) == "2026-12-02"


@pytest.mark.parametrize("bad", [
    "2026-12-01/spider/suits=3", "2026-13-01/spider/suits=2", "2026-12-1/spider/suits=2", "2026-12-01/spider",
    "2026-12-01/wading-pool/", "2026-12-01/spider/suits=2/x", None, ["2026-12-01/spider/suits=2"],
    "٢٠٢٦-١٢-٠١/spider/suits=2",
])
def test_bad_keys_are_refused(bad):
    assert parse_challenge_key(bad).code == BAD_CHALLENGE_KEY
