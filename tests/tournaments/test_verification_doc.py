"""docs/daily-verification.md: its snippets run, agree with the server's derivation, and catch a lie."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from services.tournaments.derivation import commitment, pick_seed
from services.tournaments.winnable import DAILY_BUDGETS, check_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "daily-verification.md"
SECRET = b"0123456789abcdef-test-secret"


def snippets() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_example_values_are_what_the_server_derives():
    pick = pick_seed(SECRET, "2026-02-06", "wish", {"mode": "standard"}, check_for("wish"))
    salt = bytes(range(16))
    check, _shuffle = snippets()
    assert f"seed, salt, counter = {pick.seed}, \"{salt.hex()}\", {pick.counter}" in check
    assert f'day_key = "{pick.day_key.hex()}"' in check
    assert f'commitment = "{commitment("2026-02-06", "wish", "mode=standard", pick.seed, salt)}"' in check
    assert pick.counter > 0  # so the doc's check of the skipped counters checks something


def test_the_docs_budgets_are_the_servers():
    # The check of the skipped counters holds only at the budget the server picked with.
    line = re.search(r"^BUDGET = (\{.*?\})\.get\(game\)", snippets()[0], flags=re.M)
    assert line and ast.literal_eval(line.group(1)) == DAILY_BUDGETS


def test_both_snippets_run_as_written(capsys):
    for code in snippets():
        exec(compile(code, str(DOC), "exec"), {})
    assert "checked" in capsys.readouterr().out


@pytest.mark.parametrize("lie", [
    ("1480324827235566441, \"000102", "1480324827235566442, \"000102"),  # another seed
    ("0c0d0e0f\", 2", "0c0d0e10\", 2"),  # another salt
    ("0e0f\", 2", "0e0f\", 1"),  # another counter
])
def test_a_tampered_reveal_fails_the_check(lie):
    check = snippets()[0]
    assert lie[0] in check
    with pytest.raises(AssertionError):
        exec(compile(check.replace(*lie), str(DOC), "exec"), {})
