"""Replay files: exported from a real server once public, verified offline, every tampered copy rejected."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest

import engine
from engine.solver import solve
from services.validator.replay_file import log_digest, stored_entries
from tests.support.replays import outcome_of, read_file, verdict_of
from tests.gateway.client import Audit, Client
from tests.support.play import WISH_OPEN, winnable_wish_seed

pytestmark = pytest.mark.integration


def arena(*args: str) -> subprocess.CompletedProcess:
    # A wide terminal, so the summary table's cells are not folded across lines.
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.fixture(scope="module")
def won_game(gateway, sync_redis_client):
    """A Wish won over the socket on the real gateway, every frame audited; (game id, replay JSON)."""
    with httpx.Client(base_url=gateway.url, timeout=10) as http:
        return _win(Client.guest(gateway.url, http, Audit(sync_redis_client)), http)


def _win(alice, http):
    seed = winnable_wish_seed(100)
    created = alice.create("wish", WISH_OPEN, seed=seed)
    refused = http.get(f"/api/games/{created['id']}/replay")
    assert refused.status_code == 403 and refused.json()["code"] == "not_public_yet"  # in play: no cards out
    sock = alice.open(created["id"])
    version = sock.recv()["snapshot"]["version"]
    for intent in solve(engine.initial_state("wish", WISH_OPEN, seed)).line:
        assert sock.move(version, {"type": "pair", "a": intent.a, "b": intent.b})["type"] == "s2c.accepted"
        version += 1
    sock.close()
    body = http.get(f"/api/games/{created['id']}/replay").raise_for_status().json()
    return created["id"], body


def test_the_servers_validator_verifies_the_win(won_game, http):
    game_id, body = won_game
    for _ in range(200):
        found = http.get(f"/api/games/{game_id}/verdict")
        if found.status_code == 200:
            break
        time.sleep(0.05)
    verdict = found.raise_for_status().json()
    assert verdict["outcome"] == "verified" and verdict["moves"] == 16 == body["result"]["moves"]
    assert verdict["time_ms"] == body["result"]["time_ms"]
    status = http.get("/api/validator/status").raise_for_status().json()
    assert status["verified"] >= 1 and set(status) == {"pending", "lag", "verified", "rejected", "dead", "submitted"}


def test_a_missing_game_has_no_replay(http):
    assert http.get("/api/games/0123456789abcdef/replay").status_code == 404


def _tampered(body: dict) -> dict[str, dict]:
    entries = body["entries"]
    moves = [i for i, item in enumerate(entries) if item["entry"]["type"] == "pair_removed"]
    first = moves[0]

    def copy(**changes):  # deep, changes too: no edit may reach the module's one won game
        return json.loads(json.dumps({**body, **changes}))

    edited = copy()
    edited["entries"][first]["entry"]["cards"] = edited["entries"][first]["entry"]["cards"][::-1]
    reordered = copy()
    reordered["entries"][first]["entry"], reordered["entries"][first + 1]["entry"] = (
        reordered["entries"][first + 1]["entry"], reordered["entries"][first]["entry"])
    reordered["entries"][first]["at_ms"], reordered["entries"][first + 1]["at_ms"] = (
        reordered["entries"][first + 1]["at_ms"], reordered["entries"][first]["at_ms"])
    inserted = copy(entries=entries[: first + 1] + [entries[first]] + entries[first + 1:])
    for n, item in enumerate(inserted["entries"], start=1):
        item["version"] = n
    dropped = copy(entries=entries[:-1])
    faster = copy()
    faster["entries"][1]["entry"]["at_ms"] += 500  # the first look moved later: a shorter time
    faster["result"]["time_ms"] -= 500
    seed_swap = copy(seed=body["seed"] + 1)
    seed_swap["entries"][0]["entry"]["seed"] += 1
    player_swap = copy(player_id="g_thief")
    player_swap["entries"][0]["entry"]["player_id"] = "g_thief"
    header_only = copy(player_id="g_thief")
    return {"edited card": edited, "reordered": reordered, "inserted": inserted, "dropped": dropped,
            "shortened time": faster, "swapped seed": seed_swap, "swapped player": player_swap,
            "header lies": header_only}


def test_export_then_verify_offline_accepts_the_file_and_rejects_every_tampered_copy(won_game, gateway, tmp_path):
    game_id, body = won_game
    exported = arena("export", game_id, "--server", gateway.url, "-o", str(tmp_path / "won.json"))
    assert exported.returncode == 0, exported.stderr
    assert json.loads((tmp_path / "won.json").read_text()) == body
    ok = arena("verify", str(tmp_path / "won.json"), "--server", gateway.url, "--require-signature")
    assert ok.returncode == 0 and "1 verified, 0 failed" in ok.stdout, ok.stdout + ok.stderr
    assert "rules, result, time, player" in ok.stdout and f"signed by key {body['signature']['key_id']}" in ok.stdout
    names = []
    for name, tampered in _tampered(body).items():
        assert outcome_of(json.dumps(tampered).encode()) != "verified", name
        path = tmp_path / f"{name.replace(' ', '-')}.json"
        path.write_text(json.dumps(tampered))
        names.append(str(path))
    (tmp_path / "garbage.json").write_text('{"format": 1}')
    bad = arena("verify", str(tmp_path / "won.json"), *names, str(tmp_path / "garbage.json"))
    assert bad.returncode == 1
    assert f"1 verified, {len(names) + 1} failed" in bad.stdout, bad.stdout


def test_verify_names_the_reason(won_game):
    _, body = won_game
    reasons = {name: outcome_of(json.dumps(t).encode()) for name, t in _tampered(body).items()}
    assert reasons["header lies"] == "tampered_file"
    assert reasons["edited card"] == reasons["dropped"] == reasons["inserted"] == "tampered_file"  # the digest
    assert set(reasons.values()) <= {"tampered_file", "illegal_event", "time_backwards", "wrong_time", "bad_number"}


def test_export_of_a_game_not_yet_public_is_a_clear_error(gateway, http, audit):
    bob = Client.guest(gateway.url, http, audit)
    created = bob.create("wish", WISH_OPEN)
    while bob.summary(created["id"])["status"] != "in_progress":  # a deal lost as dealt is over, so public
        created = bob.create("wish", WISH_OPEN)
    result = arena("export", created["id"], "--server", gateway.url)
    assert result.returncode == 1 and "not_public_yet" in result.stderr


def test_the_server_signs_its_files_and_lists_its_key(won_game, http, gateway, tmp_path):
    _, body = won_game
    assert body["format"] == 2 and body["signature"]["algorithm"] == "Ed25519"
    listed = http.get("/api/replay-keys").raise_for_status().json()
    assert listed["current"] == body["signature"]["key_id"] in {key["key_id"] for key in listed["keys"]}
    saved = arena("keys", "--server", gateway.url, "-o", str(tmp_path / "keys.json"))
    assert saved.returncode == 0, saved.stderr
    assert json.loads((tmp_path / "keys.json").read_text()) == listed


def test_a_first_look_re_stamped_and_re_digested_but_not_re_signed_is_refused(won_game, gateway, tmp_path):
    """The cheat a plain digest cannot stop: a faster time, the digest recomputed, the signature kept."""
    _, body = won_game
    faster = json.loads(json.dumps(body))
    first_move = faster["entries"][2]["at_ms"]  # the look stamped as late as it could be: at the first move
    faster["entries"][1]["at_ms"] = faster["entries"][1]["entry"]["at_ms"] = first_move
    faster["result"]["time_ms"] = faster["entries"][-1]["at_ms"] - first_move
    assert faster["result"]["time_ms"] < body["result"]["time_ms"]
    faster["digest"] = log_digest(stored_entries(read_file(json.dumps(faster).encode())))
    path = tmp_path / "faster.json"
    path.write_text(json.dumps(faster))
    assert verdict_of(path.read_bytes()).verified, "the log alone cannot tell: the edit is consistent"
    refused = arena("verify", str(path), "--server", gateway.url)
    assert refused.returncode == 1 and "bad_signature" in refused.stdout, refused.stdout
