"""docs/replay-format.md names every code the reader and the checks refuse a file with, as the code spells it."""

from __future__ import annotations

from pathlib import Path

from services.validator import replay_file, replay_signing, verdict
from services.validator.daily_binding import COMMITMENT_MISMATCH
from services.validator.replay_reader import READ_REFUSALS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "replay-format.md").read_text()

CHECK_CODES = (
    replay_signing.UNKNOWN_KEY, replay_signing.BAD_SIGNATURE, replay_file.TAMPERED, replay_file.WRONG_LINKS,
    replay_file.NO_BINDING, replay_file.WRONG_RESULT, COMMITMENT_MISMATCH, verdict.BAD_LOG, verdict.TIME_BACKWARDS,
    verdict.ILLEGAL_EVENT, verdict.WRONG_MOVES, verdict.WRONG_TIME, verdict.NOT_WON, verdict.UNKNOWN_DEAL,
    verdict.NOT_SHOWN,
)


def test_every_reading_refusal_has_its_row():
    missing = [code for code in READ_REFUSALS if f"| `{code}` |" not in DOC]
    assert not missing, missing


def test_every_check_code_is_named():
    missing = [code for code in CHECK_CODES if f"`{code}`" not in DOC]
    assert not missing, missing
