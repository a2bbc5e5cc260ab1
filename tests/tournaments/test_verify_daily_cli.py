"""`arena verify-daily` on hand-made revealed days (no server): the skipped counters re-solved with the
challenge's own check, a saved published copy compared, and unreadable input said in one line."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from cli.main import main
from services.tournaments.catalogue import DAY_MS, day_start_ms
from services.tournaments.derivation import commitment, pick_seed, seed_from_day_key
from services.tournaments.winnable import check_for

DATE = "2026-02-06"
KEY = f"{DATE}/wish/mode=standard"
OPENS = day_start_ms(dt.date.fromisoformat(DATE))
SALT = bytes(range(16))
WISH = {"mode": "standard"}


def revealed(seed: int, counter: int, day_key: bytes, **changes) -> dict:
    """GET /api/dailies/DATE as a server answers it once the day is final."""
    info = {"challenge": KEY, "date": DATE, "game": "wish", "variant": WISH, "status": "final",
            "opens_at_ms": OPENS, "closes_at_ms": OPENS + DAY_MS, "final_at_ms": OPENS + DAY_MS + 3_600_000,
            "commitment": commitment(DATE, "wish", "mode=standard", seed, SALT), "check": "exact_solver",
            "published_at_ms": OPENS - 8 * DAY_MS, "seed": seed, "salt": SALT.hex(), "counter": counter,
            "day_key": day_key.hex(), **changes}
    return {"date": DATE, "now_ms": OPENS + 26 * 3_600_000, "challenges": [{"challenge": info, "counts": {}}]}


def published(day: dict, commitment_text: str | None = None) -> dict:
    """The same day as GET /api/dailies/DATE answered it a week before: no seed, salt, counter or key."""
    info = dict(day["challenges"][0]["challenge"], status="scheduled", seed=None, salt=None, counter=None, day_key=None)
    if commitment_text is not None:
        info["commitment"] = commitment_text
    return {"date": DATE, "now_ms": OPENS - 7 * DAY_MS, "challenges": [{"challenge": info, "counts": {}}]}


def run(tmp_path, capsys, day: dict, *extra: str, copy: dict | None = None) -> tuple[int, str]:
    (tmp_path / "day.json").write_text(json.dumps(day))
    args = ["verify-daily", "--file", str(tmp_path / "day.json"), *extra]
    if copy is not None:
        (tmp_path / "before.json").write_text(json.dumps(copy))
        args += ["--published", str(tmp_path / "before.json")]
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(scope="module")
def true_pick():
    pick = pick_seed(b"0123456789abcdef-test-secret", DATE, "wish", WISH, check_for("wish"))
    assert pick.counter >= 2  # so there are skipped counters to re-solve
    return pick


def test_a_true_day_checks_out_and_says_each_skipped_counter_was_re_solved(tmp_path, capsys, true_pick):
    day = revealed(true_pick.seed, true_pick.counter, true_pick.day_key)
    code, out = run(tmp_path, capsys, day, copy=published(day))
    assert code == 0, out
    for counter in range(true_pick.counter):
        assert f"skipped counter {counter} (seed {seed_from_day_key(true_pick.day_key, counter)}): re-solved, " \
               "refused by exact_solver" in out
    assert f"chosen counter {true_pick.counter}: re-solved, accepted" in out
    assert "matches the one published before the day (before.json" in out


def test_without_a_saved_copy_it_says_it_compares_only_with_the_present_answer(tmp_path, capsys, true_pick):
    code, out = run(tmp_path, capsys, revealed(true_pick.seed, true_pick.counter, true_pick.day_key))
    assert code == 0, out
    assert "compared only with the server's present answer" in out and "8.0 days before the day opened" in out


def test_a_commitment_changed_since_the_saved_copy_is_a_mismatch(tmp_path, capsys, true_pick):
    day = revealed(true_pick.seed, true_pick.counter, true_pick.day_key)
    code, out = run(tmp_path, capsys, day, copy=published(day, "ab" * 32))
    assert code == 1 and "mismatch: the commitment published before the day was " + "ab" * 32 in out


def test_a_skipped_counter_whose_deal_is_winnable_fails_the_day(tmp_path, capsys):
    # A day key whose counter 0 deals a winnable Wish, the day claiming counter 1 was the first winnable.
    day_key = next(key for key in (bytes([n]) * 32 for n in range(256))
                   if check_for("wish")("wish", WISH, seed_from_day_key(key, 0)))
    skipped = seed_from_day_key(day_key, 0)
    code, out = run(tmp_path, capsys, revealed(seed_from_day_key(day_key, 1), 1, day_key))
    assert code == 1, out
    assert f"mismatch: skipped counter 0 (seed {skipped}) passes exact_solver: the server skipped a deal" in out


def test_a_commitment_published_after_the_day_opened_fails(tmp_path, capsys, true_pick):
    day = revealed(true_pick.seed, true_pick.counter, true_pick.day_key, published_at_ms=OPENS + 60_000)
    code, out = run(tmp_path, capsys, day)
    assert code == 1 and "mismatch: the commitment was published 2026-02-06 00:01 UTC, after the day opened" in out


@pytest.mark.parametrize("content, said", [
    ("not json", "is not JSON"),
    ('{"date": "2026-02-06", "challenges": [{"challenge": {"challenge": 3}}]}', "is not a GET /api/dailies/DATE answer"),
    ('{"today": {}, "yesterday": {}}', "is a GET /api/dailies answer"),
])
def test_unreadable_input_exits_2_with_one_line(tmp_path, capsys, content, said):
    (tmp_path / "day.json").write_text(content)
    assert main(["verify-daily", "--file", str(tmp_path / "day.json")]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and err.count("\n") == 1


def test_a_saved_copy_of_another_day_exits_2(tmp_path, capsys, true_pick):
    day = revealed(true_pick.seed, true_pick.counter, true_pick.day_key)
    other = json.loads(json.dumps(published(day)).replace(DATE, "2026-02-07"))
    code, out = run(tmp_path, capsys, day, copy=other)
    assert code == 2 and "no saved copy lists a challenge of 2026-02-06" in out


def test_the_skipped_counters_are_re_solved_with_the_check_the_challenge_names(tmp_path, capsys, true_pick):
    # The same pick claimed as made on the weak check: its counter 0, not lost as dealt, would have been taken.
    weak = revealed(true_pick.seed, true_pick.counter, true_pick.day_key, check="weak")
    code, out = run(tmp_path, capsys, weak)
    assert code == 1 and "mismatch: skipped counter 0" in out and "passes weak" in out
    code, out = run(tmp_path, capsys, revealed(true_pick.seed, true_pick.counter, true_pick.day_key, check="magic"))
    assert code == 1 and "the check 'magic' is unknown to this arena" in out
