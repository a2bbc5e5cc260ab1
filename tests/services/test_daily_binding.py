"""A replay file's salt and commitment must bind its own deal to its own challenge (daily_binding.py)."""

from __future__ import annotations

from services.tournaments.derivation import commitment
from services.validator.daily_binding import binding_problem

KEY, WISH, SEED, SALT = "2026-02-06/wish/mode=standard", {"mode": "standard"}, 1480324827235566441, bytes(range(16))
BOUND = commitment("2026-02-06", "wish", "mode=standard", SEED, SALT)


def test_the_commitment_of_the_files_own_deal_binds():
    assert binding_problem(KEY, "wish", WISH, SEED, SALT.hex(), BOUND) is None
    assert binding_problem(KEY, "wish", WISH, SEED, SALT.hex(), BOUND.upper()) is None  # hex in either case


def test_a_file_without_them_has_nothing_to_bind():
    assert binding_problem(None, "wish", WISH, SEED, None, None) is None
    assert binding_problem(KEY, "wish", WISH, 5, None, None) is None  # the guests' deal: no commitment binds it


def test_a_commitment_of_another_seed_day_or_salt_is_refused():
    other_seed = commitment("2026-02-06", "wish", "mode=standard", SEED + 1, SALT)
    assert "does not bind seed" in binding_problem(KEY, "wish", WISH, SEED, SALT.hex(), other_seed)
    assert "does not bind" in binding_problem("2026-02-07/wish/mode=standard", "wish", WISH, SEED, SALT.hex(), BOUND)
    assert "does not bind" in binding_problem(KEY, "wish", WISH, SEED, bytes(16).hex(), BOUND)
    assert "does not bind" in binding_problem(KEY, "wish", WISH, SEED, SALT.hex(), "0" * 64)


def test_half_a_binding_or_a_foreign_challenge_is_refused():
    assert "without" in binding_problem(KEY, "wish", WISH, SEED, SALT.hex(), None)
    assert "without" in binding_problem(KEY, "wish", WISH, SEED, None, BOUND)
    assert "names no daily" in binding_problem(None, "wish", WISH, SEED, SALT.hex(), BOUND)
    assert "not a daily of" in binding_problem("2026-02-06/spider/suits=2", "wish", WISH, SEED, SALT.hex(), BOUND)
    assert "does not read" in binding_problem("nonsense", "wish", WISH, SEED, SALT.hex(), BOUND)
    assert "not hex" in binding_problem(KEY, "wish", WISH, SEED, "zz", BOUND)
