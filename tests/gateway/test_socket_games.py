"""Whole games over the socket, for every registered game, with every frame audited."""

from __future__ import annotations

import json
import random

import msgspec

import pytest

import engine
from engine.solver import solve
from tests.strategies import game_variants

pytestmark = pytest.mark.integration

MAX_MOVES = 400


def play_out(sock, snapshot, rng: random.Random) -> dict:
    """Random listed moves (never undo or resign) until the game ends or MAX_MOVES; then resign if it
    is still in play. A lost game stays lost: its resign is refused and changes nothing. Returns the last
    snapshot shown (the service's, as the frames carry it)."""
    last = snapshot["snapshot"]
    version, view = last["version"], last["view"]
    for _ in range(MAX_MOVES):
        moves = [move for move in view["legal"] if move["type"] not in ("undo", "resign")]
        if view["status"] != "in_progress" or not moves:
            break
        answer = sock.move(version, rng.choice(moves))
        assert answer["type"] == "s2c.accepted", answer
        last = answer["snapshot"]  # the acceptance carries the game after the move
        assert last["version"] == version + 1 == answer["version"]
        version, view = last["version"], last["view"]
    resigned = sock.move(version, {"type": "resign"})
    if view["status"] == "in_progress":
        assert view["legal"][-1] == {"type": "resign"}
        assert resigned["type"] == "s2c.accepted"
        last = resigned["snapshot"]
        assert last["view"]["status"] == "abandoned" and last["view"]["legal"] == []
    else:
        assert {"type": "resign"} not in view["legal"]
        assert resigned["type"] == "s2c.rejected" and resigned["code"] == "game_over", resigned
        sock.send({"type": "c2s.sync", "version": version})
        now = sock.recv_until("s2c.snapshot")["snapshot"]
        assert (now["version"], now["view"]) == (version, view), "a refused resign changed the game"
    return last


@pytest.mark.parametrize("game", engine.game_ids())
def test_random_game_to_the_end(game, alice):
    variant = game_variants(game)[0]
    created = alice.create(game, variant, seed=2024)
    sock = alice.open(created["id"])
    snapshot = sock.recv()
    assert snapshot["type"] == "s2c.snapshot" and snapshot["role"] == "player"
    assert snapshot["snapshot"]["version"] == 0
    final = play_out(sock, snapshot, random.Random(game))
    over = final["view"]["status"] != "in_progress"
    if over:  # revealed once play stops, every card face up (even a loss a practice undo could leave)
        assert final["seed"] == 2024
        revealed = engine.revealed_view(game, variant, 2024)
        assert final["deal"] == json.loads(msgspec.json.encode(revealed))
    else:
        assert final["seed"] is None and final["deal"] is None
    summary = alice.summary(created["id"])
    assert summary["status"] == final["view"]["status"] and summary["seed"] == final["seed"]
    assert summary["version"] == final["version"] and summary["elapsed_ms"] is not None
    sock.close()


@pytest.mark.parametrize("game", ["wish", "patient-pairs"])  # the moves below are pairs
def test_solved_game_is_won_with_server_time(game, alice):
    variant = game_variants(game)[0]
    seed = next(s for s in range(200) if solve(engine.initial_state(game, variant, s)).winnable)
    line = solve(engine.initial_state(game, variant, seed)).line
    created = alice.create(game, variant, seed)
    sock = alice.open(created["id"])
    version = sock.recv()["snapshot"]["version"]
    for intent in line:
        move = {"type": "pair", "a": intent.a, "b": intent.b}
        accepted = sock.move(version, move)
        assert accepted["type"] == "s2c.accepted"
        version = accepted["snapshot"]["version"]
    summary = alice.summary(created["id"])
    assert summary["status"] == "won" and summary["moves"] == len(line) and summary["elapsed_ms"] >= 0
    # A won game accepts nothing more.
    assert sock.move(version, {"type": "resign"})["code"] == "game_over"
    sock.close()
