"""The strict reader and the signature, beyond single cases: any one edit refused, hostile files, old files, JCS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.validator.replay_format import canonical
from services.validator.replay_reader import FileRefusal, read_replay
from services.validator.replay_signing import Keyring
from tests.support.replays import KEYRING, SIGNER, outcome_of
from tests.validator.replay_documents import daily_binding, lost_as_dealt, signed, unsigned_format_1, won_casual, won_daily

VALID = signed(won_casual())
KEYRING_DOC_KEY = SIGNER.public  # the tests' server key, as a keys document lists it


def leaves(tree: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value that is not an object or array, and every object or array itself."""
    found = [path] if path else []
    if isinstance(tree, dict):
        for key, value in tree.items():
            found += leaves(value, (*path, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            found += leaves(value, (*path, index))
    return found


PATHS = leaves(VALID)
NEW_VALUES = st.one_of(
    st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=-3, max_value=-1), st.booleans(), st.none(),
    st.text(max_size=12), st.just([]), st.just({}), st.lists(st.integers(0, 60), max_size=3),
)


def replaced(tree: Any, path: tuple, value: Any) -> Any:
    clone = json.loads(json.dumps(tree))
    node = clone
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return clone


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), value=NEW_VALUES)
def test_any_one_field_edited_in_a_signed_file_is_refused(path, value):
    old: Any = VALID
    for key in path:
        old = old[key]
    if canonical(old) == canonical(value):
        return  # not an edit
    assert outcome_of(json.dumps(replaced(VALID, path, value)).encode(), KEYRING) != "verified", path


def test_the_signed_bytes_are_rfc_8785_but_for_integers_from_2_to_the_53():
    for tree in (VALID, signed(won_daily(), **daily_binding()), signed(lost_as_dealt())):
        assert canonical(tree) == rfc8785.dumps(tree)
    odd = {"z": "tab\there \u00e9 \u2028 \x7f \x01 \"q\" \\", "a": [0, 2**53 - 1, True, None]}
    assert canonical(odd) == rfc8785.dumps(odd), "strings escaped as JCS escapes them"
    seed = 2**64 - 1  # a daily's seed is 64 bits: written whole, where JCS (numbers as doubles) would refuse it
    assert canonical({"seed": seed}) == b'{"seed":18446744073709551615}'
    try:
        rfc8785.dumps({"seed": seed})
    except rfc8785.IntegerDomainError:
        pass
    else:
        raise AssertionError("JCS took a 64-bit integer: the format's one difference from it is gone, say so")


def test_a_file_exported_before_signing_still_reads_and_is_reported_unsigned(tmp_path):
    old = unsigned_format_1(won_casual())
    assert "signature" not in old and old["format"] == 1
    assert outcome_of(json.dumps(old).encode(), KEYRING) == "verified"
    lost_old = unsigned_format_1(lost_as_dealt())
    assert lost_old["result"]["time_ms"] is None, "format 1 wrote null for a deal lost as dealt"
    assert outcome_of(json.dumps(lost_old).encode()) == "not_won", "and reads so: a true record, not a win"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    out = arena("verify", str(path))
    assert out.returncode == 0 and "unsigned (format 1)" in out.stdout and "time, player" not in out.stdout, out.stdout
    strict = arena("verify", str(path), "--require-signature")
    assert strict.returncode == 1 and "signature_required" in strict.stdout


def test_a_deal_lost_as_dealt_takes_no_time():
    assert signed(lost_as_dealt())["result"] == {"status": "lost", "moves": 0, "time_ms": 0}


def test_keys_are_checked_by_their_id():
    forged = Keyring([KEYRING_DOC_KEY.__class__(KEYRING_DOC_KEY.key_id, "Ed25519", "A" * 43)])
    assert len(forged) == 0, "a listed id that is not its key's hash is no key"


def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "300"})


def test_hostile_files_each_get_a_verdict_and_none_stops_the_others(tmp_path):
    """Deep nesting, huge integers, 80 MB, 2 MB and 30 MB ids: each one line, no traceback, and the
    good file among them still verifies (bench/bench_hostile_files.py times each)."""
    good = json.dumps(VALID)
    hostile = {
        "deep.json": good.replace('"mode": "standard"', '"mode": ' + "[" * 1000 + "]" * 1000, 1),
        "huge-int.json": good.replace('"deal_version": 1', '"deal_version": ' + "9" * 5000, 1),
        "id-2mb.json": good.replace(VALID["game_id"], "a" * 2_000_000, 1),
        "id-30mb.json": good.replace(VALID["game_id"], "a" * 30_000_000, 1),
    }
    paths = []
    for name, body in hostile.items():
        (tmp_path / name).write_text(body)
        paths.append(str(tmp_path / name))
    with open(tmp_path / "80mb.json", "wb") as big:
        big.truncate(80 * 1024 * 1024)
    (tmp_path / "good.json").write_text(good)
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"current": KEYRING_DOC_KEY.key_id, "keys": [
        {"key_id": KEYRING_DOC_KEY.key_id, "algorithm": "Ed25519", "public_key": KEYRING_DOC_KEY.public_key}]}))
    out = arena("verify", "--keys", str(keys), *paths, str(tmp_path / "80mb.json"), str(tmp_path / "good.json"))
    assert out.returncode == 1 and "Traceback" not in out.stdout + out.stderr, out.stderr
    assert "1 verified, 5 failed" in out.stdout, out.stdout
    for code in ("too_deep", "bad_number", "bad_field", "file_too_large"):
        assert code in out.stdout, code
    assert len(out.stdout) < 20_000, "no file's content reaches the table: it stays small whatever a file holds"


def test_a_refusal_is_one_short_line():
    refused = read_replay(json.dumps({**VALID, "game": "x" * 100_000}).encode())
    assert isinstance(refused, FileRefusal) and "\n" not in refused.message and len(refused.message) <= 200



def test_arena_keys_prints_this_machines_key_and_never_makes_one(tmp_path):
    from services.validator.replay_signing import ReplaySigner

    def keys(env: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "cli.main", "keys"], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "ARENA_DATA_DIR": str(tmp_path), **env})

    none = keys({})
    assert none.returncode == 1 and "no signing key yet" in none.stderr and not any(tmp_path.iterdir())
    (tmp_path / "replay-signing-secret").write_text("a secret made by a server")
    made = json.loads(keys({}).stdout)
    assert made["current"] == ReplaySigner(b"a secret made by a server").key_id == made["keys"][0]["key_id"]
    configured = json.loads(keys({"ARENA_REPLAY_SIGNING_SECRET": "another"}).stdout)
    assert configured["current"] == ReplaySigner(b"another").key_id
