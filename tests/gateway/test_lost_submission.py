"""A gateway killed (SIGKILL) between a winning append and its submission: the win is still verified.

The first server dies at that very point (ARENA_TEST_FAULT, services/runtime/faults.py); the validator of a
second server, started afterwards on the same Redis, finds the won game among the unsettled ones by
reading its log and verifies it: the project's own reconciliation, not a retry by the client.
"""

from __future__ import annotations

import time

import httpx
import pytest

import engine
from engine.solver import solve
from tests.gateway.client import Audit, Client
from tests.gateway.test_two_processes import ServeProcess
from tests.support.play import WISH_OPEN, winnable_wish_seed

pytestmark = pytest.mark.integration


def test_a_win_whose_gateway_died_before_submitting_is_found_and_verified(private_redis, tmp_path):
    import redis as sync_redis

    audit = Audit(sync_redis.Redis.from_url(private_redis.url))
    doomed = ServeProcess(private_redis.url, tmp_path / "a", {"ARENA_TEST_FAULT": "before-submission",
                                                              "ARENA_VALIDATORS": "0"})
    with httpx.Client(base_url=doomed.url, timeout=10) as http:
        player = Client.guest(doomed.url, http, audit)
        seed = winnable_wish_seed(300)
        game_id = player.create("wish", WISH_OPEN, seed)["id"]
        sock = player.open(game_id)
        sock.recv()
        line = solve(engine.initial_state("wish", WISH_OPEN, seed)).line
        for version, intent in enumerate(line[:-1]):
            assert sock.move(version, {"type": "pair", "a": intent.a, "b": intent.b})["type"] == "s2c.accepted"
        last = line[-1]
        sock.send({"type": "c2s.move", "move_id": "the-win", "version": len(line) - 1,
                   "move": {"type": "pair", "a": last.a, "b": last.b}})
        assert doomed.process.wait(20) == -9  # it died at the crash point: stored, never submitted
    survivor = ServeProcess(private_redis.url, tmp_path / "b", {"ARENA_VALIDATORS": "1"})
    try:
        with httpx.Client(base_url=survivor.url, timeout=10) as http:
            assert http.get(f"/api/games/{game_id}", headers=player.headers).json()["status"] == "won"
            deadline, found = time.monotonic() + 60, None
            while time.monotonic() < deadline:
                found = http.get(f"/api/games/{game_id}/verdict")
                if found.status_code == 200:
                    break
                time.sleep(0.25)
            assert found.status_code == 200, "the lost submission was never found"
            verdict = found.json()
            assert verdict["outcome"] == "verified" and verdict["moves"] == 16
    finally:
        survivor.stop()
