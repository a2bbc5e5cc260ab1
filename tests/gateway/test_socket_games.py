"""Whole games over the socket, for every registered game, with every frame audited."""

from __future__ import annotations

import random

import pytest

import engine
from engine.solver import SOLVABLE_GAMES, solve
from tests.strategies import VARIANTS

pytestmark = pytest.mark.integration

MAX_MOVES = 400


def play_out(sock, snapshot, rng: random.Random) -> dict:
    """Random legal moves (from the view) until the game ends or MAX_MOVES, then resign if unfinished."""
    version, view = snapshot["snapshot"]["version"], snapshot["snapshot"]["view"]
    for _ in range(MAX_MOVES):
        if view["status"] != "in_progress" or not view["legal"]:
            break
        answer = sock.move(version, rng.choice(view["legal"]))
        assert answer["type"] == "s2c.accepted", answer
        update = sock.recv_until("s2c.update")["snapshot"]
        assert update["version"] == version + 1 == answer["version"]
        version, view = update["version"], update["view"]
    if view["status"] in ("in_progress", "lost"):
        assert sock.move(version, {"type": "resign"})["type"] == "s2c.accepted"
        update = sock.recv_until("s2c.update")["snapshot"]
        view = update["view"]
        assert view["status"] == "abandoned"
    return update  # the service's snapshot, as the last update carried it


@pytest.mark.parametrize("game", engine.game_ids())
def test_random_game_to_the_end(game, alice):
    variant = VARIANTS.get(game, [{}])[0]
    created = alice.create(game, variant, seed=2024)
    sock = alice.open(created["id"])
    snapshot = sock.recv()
    assert snapshot["type"] == "s2c.snapshot" and snapshot["role"] == "player"
    assert snapshot["snapshot"]["version"] == 0
    final = play_out(sock, snapshot, random.Random(game))
    assert final["seed"] == 2024 and final["deal"] is not None  # revealed once ended
    summary = alice.summary(created["id"])
    assert summary["status"] == final["view"]["status"] and summary["seed"] == 2024
    assert summary["version"] == final["version"] and summary["elapsed_ms"] is not None
    sock.close()


@pytest.mark.parametrize("game", [g for g in SOLVABLE_GAMES if g in engine.game_ids()])
def test_solved_game_is_won_with_server_time(game, alice):
    variant = VARIANTS[game][0]
    seed = next(s for s in range(200) if solve(engine.initial_state(game, variant, s)).winnable)
    line = solve(engine.initial_state(game, variant, seed)).line
    created = alice.create(game, variant, seed)
    sock = alice.open(created["id"])
    version = sock.recv()["snapshot"]["version"]
    for intent in line:
        move = {"type": "pair", "a": intent.a, "b": intent.b}
        assert sock.move(version, move)["type"] == "s2c.accepted"
        version = sock.recv_until("s2c.update")["snapshot"]["version"]
    summary = alice.summary(created["id"])
    assert summary["status"] == "won" and summary["moves"] == len(line) and summary["elapsed_ms"] >= 0
    # A won game accepts nothing more.
    assert sock.move(version, {"type": "resign"})["code"] == "game_over"
    sock.close()
