"""Replay files in tests: read strictly (a refusal fails the test, with its reason) and verified."""

from __future__ import annotations

from services.validator.replay_file import verify_replay
from services.validator.replay_format import ReplayFile
from services.validator.replay_reader import FileRefusal, read_replay
from services.validator.replay_keyring import ReplayKeys
from services.validator.replay_signing import Keyring, ReplaySigner
from services.validator.verdict import Verdict


class _UnrecordedKeys(ReplayKeys):
    """Signs with the tests' key and records it nowhere (a test with no Redis of its own)."""

    def __init__(self) -> None:
        super().__init__(None, SIGNER, clock=lambda: 0)
        self._recorded = True


SIGNER = ReplaySigner(b"the tests' replay signing secret")
TEST_KEYS = _UnrecordedKeys()
KEYRING = Keyring([SIGNER.public])


def read_file(data: bytes) -> ReplayFile:
    found = read_replay(data)
    assert not isinstance(found, FileRefusal), found
    return found


def verdict_of(data: bytes, keys: Keyring | None = None) -> Verdict:
    return verify_replay(read_file(data), keys).verdict


def outcome_of(data: bytes, keys: Keyring | None = None) -> str:
    """`verified`, or the code that refuses the file: the reader's, else the verdict's reason."""
    found = read_replay(data)
    if isinstance(found, FileRefusal):
        return found.code
    verdict = verify_replay(found, keys).verdict
    return "verified" if verdict.verified else verdict.reason
