"""The logs of a full run: `arena serve` and `arena validate` on one Redis, a game won over the socket with
a spectator watching, the win judged. Every line is JSON with the four ids; no token, no signature and
not the secret appear anywhere in them."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

import engine
from engine.solver import solve
from services.redis.embedded import EmbeddedRedis, free_port
from tests.gateway.client import Audit, Client
from tests.gateway.test_metrics import until, value
from tests.support.play import WISH_OPEN, winnable_wish_seed
from tests.support.processes import ServeProcess

pytestmark = pytest.mark.integration

IDS = {"request_id", "game_id", "race_id", "player_id"}
BANNERS = ("Patience Arena serving at ", "arena validate: ")  # printed for people, on stdout


def scrape_url(url: str) -> dict:
    from prometheus_client.parser import text_string_to_metric_families

    text = httpx.get(url, timeout=10).raise_for_status().text
    return {(s.name, frozenset(s.labels.items())): s.value for f in text_string_to_metric_families(text) for s in f.samples}


def play_a_won_game(base_url: str, audit: Audit) -> tuple[str, list[str]]:
    """A Wish won by one guest while another watches; the game id and both tokens."""
    with httpx.Client(base_url=base_url, timeout=10) as http:
        alice, bob = Client.guest(base_url, http, audit), Client.guest(base_url, http, audit)
        seed = winnable_wish_seed(100)
        game_id = alice.create("wish", WISH_OPEN, seed=seed)["id"]
        assert http.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {alice.player_id}.forged"}).status_code == 401
        sock, watcher = alice.open(game_id), bob.open(game_id)
        version = sock.recv()["snapshot"]["version"]
        assert watcher.recv()["role"] == "spectator"
        for intent in solve(engine.initial_state("wish", WISH_OPEN, seed)).line:
            assert sock.move(version, {"type": "pair", "a": intent.a, "b": intent.b})["type"] == "s2c.accepted"
            version += 1
        sock.close()
        watcher.close()
        assert alice.summary(game_id)["status"] == "won"
        until(lambda: http.get(f"/api/games/{game_id}/verdict").status_code == 200, "the validator's verdict")
        return game_id, [(alice.player_id, alice.token), (bob.player_id, bob.token)]


def test_a_full_run_logs_json_with_ids_and_no_token_or_secret(tmp_path: Path):
    secret = secrets.token_urlsafe(32)
    with EmbeddedRedis(tmp_path / "redis") as redis_server:
        env = {"REDIS_URL": redis_server.url, "ARENA_SECRET": secret, "ARENA_LOG_LEVEL": "debug", "ARENA_VALIDATORS": "0"}
        serve = ServeProcess(tmp_path / "serve", **env).start()
        metrics_port = free_port()
        validate_log = tmp_path / "validate.log"
        with validate_log.open("wb") as out:
            validate = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "validate", "--metrics-port", str(metrics_port)],
                env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
            )
        try:
            import redis as sync_redis

            audit = Audit(sync_redis.Redis.from_url(redis_server.url))
            game_id, tokens = play_a_won_game(serve.url, audit)
            judged = scrape_url(f"http://127.0.0.1:{metrics_port}/metrics")
            assert value(judged, "arena_validator_checked_total", outcome="verified") == 1
            verdicts = scrape_url(f"{serve.url}/metrics")
            assert value(verdicts, "arena_validator_verdicts", outcome="verified") == 1
        finally:
            validate.send_signal(signal.SIGTERM)
            assert validate.wait(20) == 0
            assert serve.stop() == 0
    logs = {"serve": serve.output(), "validate": validate_log.read_text(), "redis": (tmp_path / "redis" / "redis.log").read_text()}

    lines = []
    for name in ("serve", "validate"):
        for line in logs[name].splitlines():
            if line.startswith(BANNERS):
                continue
            record = json.loads(line)  # every other line is one JSON object
            assert IDS <= set(record), f"{name}: {record}"
            lines.append(record)
    players = [player for player, _ in tokens]
    # The lines that had the tokens in hand are there, with who and what, but not the tokens.
    closed = [r for r in lines if r["event"] == "socket closed" and r["game_id"] == game_id]
    assert {r["player_id"] for r in closed} == set(players) and all(r["request_id"] for r in closed)
    assert any(r["event"].startswith("validator: verdict verified") and r["game_id"] == game_id and r["player_id"] == players[0]
               for r in lines)
    assert any(r["logger"] == "uvicorn.error" for r in lines)
    for name, text in logs.items():
        for _, token in tokens:
            assert token not in text and token.split(".")[2] not in text, f"a token in the {name} log"
        assert secret not in text, f"the secret in the {name} log"
