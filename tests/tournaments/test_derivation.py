"""The daily seed derivation, the winnable pick and the commitment (pure)."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from engine import WON, initial_state, play
from engine.solver import solve
from services.tournaments.catalogue import CATALOGUE
from services.tournaments.derivation import (
    NO_WINNABLE_DEAL,
    SeedPick,
    commitment,
    commitment_message,
    day_key,
    derive_seed,
    pick_seed,
    seed_from_day_key,
    verify_commitment,
)
from services.tournaments.winnable import (
    DAILY_BUDGETS, EXACT_SOLVER, WinnabilityCheck, check_for, register_check,
)

SECRET = b"0123456789abcdef-test-secret"
DATE = "2026-12-01"


def test_golden_vectors_never_change():
    # Published dailies must derive and commit identically forever: these values are pinned.
    assert day_key(SECRET, DATE, "spider", "suits=2").hex() == (
        "a0d2982bd16957b010c72811dc429ff9118358d4e8c85c4551b16c34bf5486f6"
    )
    assert derive_seed(SECRET, DATE, "spider", "suits=2", 0) == 11764396739191096919
    assert derive_seed(SECRET, DATE, "spider", "suits=2", 1) == 10504425049053487760
    assert commitment(DATE, "spider", "suits=2", 12345, bytes(range(16))) == (
        "7be6ce4a50b4ae9acb5387708e9e0cf968cb32b11a9b7b21cb90b04c72061775"
    )


def test_derivation_is_the_documented_hmac_text():
    key = hmac.new(SECRET, b"patience-arena/daily-key/v1/2026-12-01/wish/mode=standard", hashlib.sha256).digest()
    assert day_key(SECRET, DATE, "wish", "mode=standard") == key
    digest = hmac.new(key, b"patience-arena/daily-seed/v1/7", hashlib.sha256).digest()
    assert derive_seed(SECRET, DATE, "wish", "mode=standard", 7) == int.from_bytes(digest[:8], "big")


def test_every_part_changes_the_seed():
    base = derive_seed(SECRET, DATE, "spider", "suits=2", 0)
    others = {
        derive_seed(SECRET + b"x", DATE, "spider", "suits=2", 0),
        derive_seed(SECRET, "2026-12-02", "spider", "suits=2", 0),
        derive_seed(SECRET, DATE, "spider", "suits=4", 0),
        derive_seed(SECRET, DATE, "wish", "suits=2", 0),
        derive_seed(SECRET, DATE, "spider", "suits=2", 1),
    }
    assert base not in others and len(others) == 5
    assert all(0 <= seed < 2**64 for seed in others)


@pytest.mark.parametrize("bad", [
    dict(secret=b"short"),
    dict(date="2026-12-1"),
    dict(date="2026/12/01"),
    dict(game="Spider"),
    dict(game="spider/x"),
    dict(variant="suits=2/extra"),
])
def test_ambiguous_or_weak_inputs_are_refused(bad):
    args = dict(secret=SECRET, date=DATE, game="spider", variant="suits=2") | bad
    with pytest.raises(ValueError):
        day_key(args["secret"], args["date"], args["game"], args["variant"])


def test_pick_steps_the_counter_until_the_check_accepts():
    seen: list[int] = []

    def fourth_is_winnable(game, variant, seed):
        seen.append(seed)
        return len(seen) == 4

    pick = pick_seed(SECRET, DATE, "spider", {"suits": 2}, fourth_is_winnable)
    assert isinstance(pick, SeedPick) and pick.counter == 3
    assert seen == [derive_seed(SECRET, DATE, "spider", "suits=2", c) for c in range(4)]
    assert pick.seed == seen[-1] == seed_from_day_key(pick.day_key, 3)


def test_pick_gives_up_at_the_guard_with_an_error_value():
    calls = []
    result = pick_seed(SECRET, DATE, "wish", {"mode": "standard"}, lambda *a: calls.append(a) or False, max_counter=5)
    assert result.code == NO_WINNABLE_DEAL and len(calls) == 5


def test_the_wish_pick_is_proven_winnable_and_skips_only_unwinnable_deals():
    # Find a date whose first deal The Wish's solver refuses, so the skip itself is checked.
    check = check_for("wish")
    assert check.name == EXACT_SOLVER and check.proves
    for day in range(1, 29):
        date = f"2026-02-{day:02d}"
        pick = pick_seed(SECRET, date, "wish", {"mode": "standard"}, check)
        if pick.counter > 0:
            break
    else:
        pytest.fail("no date in February 2026 skipped a deal: the check never refused one?")
    assert solve(initial_state("wish", {"mode": "standard"}, pick.seed)).winnable
    for counter in range(pick.counter):
        skipped = seed_from_day_key(pick.day_key, counter)
        assert not solve(initial_state("wish", {"mode": "standard"}, skipped)).winnable


def replays_to_a_win(game: str, variant: dict, seed: int, line) -> bool:
    state = initial_state(game, variant, seed)
    for intent in line:
        state, _ = play(intent, state)
    return bool(line) and state.status == WON


def test_every_catalogue_entry_has_a_solver_check_and_a_proven_pick():
    from engine.solver import solve

    for daily in CATALOGUE:
        check = check_for(daily.game)
        assert check.name == EXACT_SOLVER and check.proves
        # Four-suit Spider included: its deal on this date is the first counter (some 5 s of solving).
        pick = pick_seed(SECRET, DATE, daily.game, daily.variant, check)
        assert isinstance(pick, SeedPick), pick
        line = solve(initial_state(daily.game, daily.variant, pick.seed), DAILY_BUDGETS.get(daily.game)).line
        assert replays_to_a_win(daily.game, daily.variant, pick.seed, line)


def test_spider_deals_are_picked_within_200_000_nodes_below_the_solver_default():
    # The solver's default rose (one and two suits to 1,000,000 nodes, four to 500,000:
    # engine.solver.default_budget); the pickers kept 200,000, so a deal that needs more costs no minute of
    # solving, and the same secret picks the same deals as before.
    from engine.solver import default_budget

    assert DAILY_BUDGETS["spider"] == 200_000
    for suits, default in ((1, 1_000_000), (2, 1_000_000), (4, 500_000)):
        assert default_budget(initial_state("spider", {"suits": suits}, 1)) == default


def test_a_registered_solver_replaces_the_fallback():
    from services.tournaments import winnable

    before = check_for("wizard")
    try:
        register_check("wizard", WinnabilityCheck("wizard_solver", True, lambda g, v, s: s % 2 == 0))
        pick = pick_seed(SECRET, DATE, "wizard", {"redeals": None}, check_for("wizard"))
        assert pick.seed % 2 == 0 and check_for("wizard").name == "wizard_solver"
    finally:
        winnable._CHECKS.pop("wizard", None)
    assert check_for("wizard") == before


def test_commitment_binds_every_part_and_verifies():
    salt = bytes(range(16))
    published = commitment(DATE, "spider", "suits=2", 42, salt)
    assert verify_commitment(published, DATE, "spider", "suits=2", 42, salt)
    assert verify_commitment(published.upper(), DATE, "spider", "suits=2", 42, salt)
    assert commitment_message(DATE, "spider", "suits=2", 42, salt) == (
        b"patience-arena/daily-commitment/v1/2026-12-01/spider/suits=2/42/000102030405060708090a0b0c0d0e0f"
    )
    assert hashlib.sha256(commitment_message(DATE, "spider", "suits=2", 42, salt)).hexdigest() == published


@pytest.mark.parametrize("lie", [
    dict(date="2026-12-02"),
    dict(game="wish"),
    dict(variant="suits=4"),
    dict(seed=43),
    dict(salt=bytes(range(1, 17))),
    dict(published="0" * 64),
    dict(published="é" * 64),
    dict(seed=-1),
    dict(salt=b""),
])
def test_a_different_reveal_fails_the_commitment(lie):
    salt = bytes(range(16))
    args = dict(published=commitment(DATE, "spider", "suits=2", 42, salt), date=DATE, game="spider",
                variant="suits=2", seed=42, salt=salt) | lie
    assert not verify_commitment(args["published"], args["date"], args["game"], args["variant"], args["seed"],
                                 args["salt"])
