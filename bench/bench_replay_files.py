"""Replay files: what the strict reader and the signature cost, and how fast a hostile file gets its verdict.

Baseline: a valid signed 16-move Wish file, read and verified in process (strict read, signature
check, every move re-decided). Against it: each hostile file of the issue (a variant nested 1,000
deep, a 5,000-digit integer, a 2 MB and a 30 MB game id, an 80 MB file), read and verified the same
way, and the whole `arena verify` command on each (interpreter start included; the bar is 2 s).
Also the signature's own price beside the digest's. Best of several rounds; asserts nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from services.validator.replay_file import log_digest, stored_entries, verify_replay
from services.validator.replay_reader import FileRefusal, read_replay
from services.validator.replay_signing import Keyring
from tests.support.replays import SIGNER
from tests.validator.replay_documents import signed, won_casual

KEYS = Keyring([SIGNER.public])


def best_ms(work: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def verdict(data: bytes) -> str:
    found = read_replay(data)
    if isinstance(found, FileRefusal):
        return found.code
    checked = verify_replay(found, KEYS).verdict
    return "verified" if checked.verified else checked.reason


def hostile(good: str, valid_id: str) -> dict[str, bytes]:
    return {
        "variant nested 1,000 deep": good.replace('"mode": "standard"', '"mode": ' + "[" * 1000 + "]" * 1000, 1).encode(),
        "a 5,000-digit integer": good.replace('"deal_version": 1', '"deal_version": ' + "9" * 5000, 1).encode(),
        "a 2 MB game id": good.replace(valid_id, "a" * 2_000_000, 1).encode(),
        "a 30 MB game id": good.replace(valid_id, "a" * 30_000_000, 1).encode(),
        "an 80 MB file": b" " * (80 * 1024 * 1024),
    }


def main(argv: list[str]) -> None:
    rounds = 3 if "--quick" in argv else 10
    tree = signed(won_casual())
    good = json.dumps(tree)
    base = best_ms(lambda: verdict(good.encode()), rounds * 10)
    print(f"valid signed file ({len(good):,} B): read + signature + re-run {base:.2f} ms  [baseline]")
    file = read_replay(good.encode())
    assert not isinstance(file, FileRefusal)
    digest = best_ms(lambda: log_digest(stored_entries(file)), rounds * 10)
    sign = best_ms(lambda: SIGNER.sign(file), rounds * 10)
    check = best_ms(lambda: KEYS.problem(file), rounds * 10)
    print(f"  digest {digest * 1000:.0f} us, sign {sign * 1000:.0f} us, check the signature {check * 1000:.0f} us "
          f"({check / base:.2f}x of the whole verify)")
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "COLUMNS": "200"}
        keys = Path(folder) / "keys.json"
        keys.write_text(json.dumps({"current": SIGNER.key_id, "keys": [json.loads(json.dumps(
            {"key_id": SIGNER.key_id, "algorithm": "Ed25519", "public_key": SIGNER.public.public_key}))]}))
        (Path(folder) / "good.json").write_text(good)
        command = [sys.executable, "-m", "cli.main", "verify", "--keys", str(keys)]
        startup = best_ms(lambda: subprocess.run([*command, str(Path(folder) / "good.json")], env=env,
                                                 capture_output=True), max(2, rounds // 3))
        print(f"arena verify on the valid file: {startup:.0f} ms (interpreter start included)  [command baseline]")
        for name, data in hostile(good, tree["game_id"]).items():
            path = Path(folder) / "hostile.json"
            path.write_bytes(data)
            inproc = best_ms(lambda data=data: verdict(data), max(2, rounds // 3))
            whole = best_ms(lambda: subprocess.run([*command, str(path)], env=env, capture_output=True), 2)
            print(f"{name:28} {verdict(data):16} in process {inproc:8.1f} ms ({inproc / base:7.1f}x)   "
                  f"arena verify {whole:6.0f} ms ({whole / startup:.2f}x)")


if __name__ == "__main__":
    main(sys.argv[1:])
