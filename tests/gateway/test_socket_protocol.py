"""The socket's contract: identity, retries, stale versions, resync, spectators, bad frames, floods."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from services.games.view_delta import FULL_EVERY
from tests.gateway.conftest import ServerThread, gateway_settings

pytestmark = pytest.mark.integration


def open_game(client, game="wish", variant=None, seed=9):
    created = client.create(game, variant or {"mode": "standard"}, seed)
    sock = client.open(created["id"])
    snapshot = sock.recv()
    assert snapshot["type"] == "s2c.snapshot"
    return created["id"], sock, snapshot


def test_no_ticket_gets_an_error_and_a_close(gateway, alice):
    game_id, sock, _ = open_game(alice)
    url = gateway.url.replace("http://", "ws://")
    with connect(f"{url}/ws/games/{game_id}") as conn:
        assert json.loads(conn.recv(timeout=5))["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed) as closed:
            conn.recv(timeout=5)
        assert closed.value.rcvd.code == 4401
    sock.close()


def test_unknown_game_gets_an_error(alice):
    sock = alice.open("0000000000000000")
    assert sock.recv()["code"] == "no_such_game"


def test_a_snapshot_is_whole_and_a_move_is_answered_with_a_delta(alice):
    game_id, sock, snapshot = open_game(alice)
    fields = {"game_id", "version", "view", "elapsed_ms", "seed", "deal", "deal_number"}
    assert set(snapshot) == {"type", "role", "snapshot"} and set(snapshot["snapshot"]) == fields
    assert snapshot["snapshot"]["game_id"] == game_id and snapshot["snapshot"]["version"] == 0
    # The mover's one frame per move: the acceptance, carrying the game after the move as a change to the
    # version it moved at (the test socket applies it and checks the result against the engine's view).
    accepted = sock.move(0, snapshot["snapshot"]["view"]["legal"][0])
    assert set(sock.raw) == {"type", "move_id", "version", "delta"}
    delta = accepted["delta"]
    assert accepted["type"] == "s2c.accepted" and accepted["version"] == delta["version"] == 1 and delta["base"] == 0
    assert {"game_id", "base", "version", "status", "moves", "undos", "elapsed_ms", "piles", "legal"} <= set(delta)
    assert set(accepted["snapshot"]) == fields and accepted["snapshot"]["version"] == 1
    # Another socket of the game: whole on connect, then the same delta as an update.
    watcher = alice.open(game_id)
    assert watcher.recv()["snapshot"]["version"] == 1
    accepted = sock.move(1, accepted["snapshot"]["view"]["legal"][0])
    update = watcher.recv_until("s2c.update")
    assert set(watcher.raw) == {"type", "delta"} and update["delta"] == accepted["delta"]
    assert update["snapshot"] == accepted["snapshot"] and update["snapshot"]["version"] == 2
    sock.close()
    watcher.close()


def test_a_delta_that_does_not_follow_is_healed_by_a_sync(alice, bob):
    """A socket that missed a version (its client dropped a frame) cannot apply the next delta: the base is
    not its version. c2s.sync brings the whole game, and the deltas after it apply again."""
    game_id, sock, snapshot = open_game(alice, "spider", {"suits": 1}, 5)
    watcher = bob.open(game_id)
    watcher.recv()
    version, view = 0, snapshot["snapshot"]["view"]
    for _ in range(2):
        accepted = sock.move(version, view["legal"][0])
        version, view = accepted["version"], accepted["snapshot"]["view"]
    watcher.shown = None  # the watcher forgets it saw anything: the first delta it reads does not apply
    gap = watcher.recv_until("s2c.update")
    assert gap["delta"]["base"] == 0 and "snapshot" not in gap
    watcher.send({"type": "c2s.sync", "version": 0})
    assert watcher.recv_until("s2c.snapshot")["snapshot"]["version"] == 2
    accepted = sock.move(version, view["legal"][0])
    assert watcher.recv_until("s2c.update")["snapshot"] == accepted["snapshot"]
    sock.close()
    watcher.close()


def test_a_whole_snapshot_goes_every_full_every_versions_and_at_the_end(alice, bob):
    game_id, sock, snapshot = open_game(alice, "spider", {"suits": 1}, 5)
    watcher = bob.open(game_id)
    watcher.recv()
    version, view = 0, snapshot["snapshot"]["view"]
    whole_at = []
    while version < FULL_EVERY + 1:
        move = next(m for m in view["legal"] if m["type"] not in ("undo", "resign"))
        accepted = sock.move(version, move)
        if "snapshot" in sock.raw:
            whole_at.append(accepted["version"])
        version, view = accepted["version"], accepted["snapshot"]["view"]
        update = watcher.recv_until("s2c.update")
        assert ("snapshot" in watcher.raw) == (version in whole_at) and update["snapshot"]["view"] == view
    assert whole_at == [FULL_EVERY]
    # The end: status changes and the deal shows, so the whole snapshot goes.
    ended = sock.move(version, {"type": "resign"})
    assert "snapshot" in sock.raw and ended["snapshot"]["seed"] == 5 and ended["snapshot"]["deal"]
    assert "snapshot" in watcher.recv_until("s2c.update") and "snapshot" in watcher.raw
    sock.close()
    watcher.close()


def test_stranger_watches_but_cannot_move(alice, bob):
    game_id, sock, snapshot = open_game(alice)
    watcher = bob.open(game_id)
    seen = watcher.recv()
    assert seen["role"] == "spectator" and seen["snapshot"]["view"] == snapshot["snapshot"]["view"]
    answer = watcher.move(0, snapshot["snapshot"]["view"]["legal"][0])
    assert answer["type"] == "s2c.rejected" and answer["code"] == "not_your_game"
    assert alice.summary(game_id)["version"] == 0
    # The spectator sees the player's moves as they happen, the same view the player gets.
    mine = sock.move(0, snapshot["snapshot"]["view"]["legal"][0])
    assert mine["type"] == "s2c.accepted"
    theirs = watcher.recv_until("s2c.update")
    assert theirs["snapshot"] == mine["snapshot"] and mine["snapshot"]["version"] == 1
    sock.close()
    watcher.close()


def test_retried_move_id_gets_the_first_answer_and_moves_once(alice):
    game_id, sock, snapshot = open_game(alice)
    move = snapshot["snapshot"]["view"]["legal"][0]
    first = sock.move(0, move, move_id="same")
    again = sock.move(0, move, move_id="same")
    assert first["snapshot"]["version"] == 1
    # The retry's answer is the first one's; the socket showed that version already, so no view again.
    assert again == {"type": "s2c.accepted", "move_id": "same", "version": 1}
    assert {key: first[key] for key in again} == again
    assert alice.summary(game_id)["version"] == 1
    # Also after a reconnect (a lost connection is the usual reason for a retry).
    sock.close()
    sock = alice.open(game_id)
    assert sock.recv()["snapshot"]["version"] == 1
    assert sock.move(0, move, move_id="same")["version"] == 1
    assert alice.summary(game_id)["version"] == 1
    sock.close()


def test_stale_version_is_rejected_with_the_current_one(alice):
    game_id, sock, snapshot = open_game(alice)
    legal = snapshot["snapshot"]["view"]["legal"]
    assert sock.move(0, legal[0])["type"] == "s2c.accepted"
    stale = sock.move(0, legal[-1])
    assert stale["type"] == "s2c.rejected" and stale["code"] == "stale_version" and stale["version"] == 1
    assert alice.summary(game_id)["version"] == 1
    sock.close()


def test_illegal_move_is_rejected_with_the_engine_reason(alice):
    game_id, sock, _ = open_game(alice)
    answer = sock.move(0, {"type": "pair", "a": 0, "b": 0})
    assert answer["type"] == "s2c.rejected" and answer["code"] == "illegal_move" and answer["message"]
    assert alice.summary(game_id)["version"] == 0
    sock.close()


def test_reconnect_and_sync_bring_the_missed_moves(alice, bob):
    game_id, sock, snapshot = open_game(alice)
    watcher = bob.open(game_id)
    assert watcher.recv()["snapshot"]["version"] == 0
    watcher.close()  # the spectator drops; the player moves on
    version, view = 0, snapshot["snapshot"]["view"]
    for _ in range(3):
        accepted = sock.move(version, view["legal"][0])
        assert accepted["type"] == "s2c.accepted"
        update = accepted["snapshot"]
        version, view = update["version"], update["view"]
    watcher = bob.open(game_id)
    back = watcher.recv()
    assert back["type"] == "s2c.snapshot" and back["snapshot"]["version"] == 3
    assert back["snapshot"]["view"] == view
    watcher.send({"type": "c2s.sync", "version": 1})
    assert watcher.recv()["snapshot"]["version"] == 3
    sock.send({"type": "c2s.ping"})
    assert sock.recv() == {"type": "s2c.pong"}
    sock.close()
    watcher.close()


@pytest.mark.parametrize(
    "frame, code",
    [
        ("not json", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ('{"type": "c2s.dance"}', "bad_frame"),
        ('{"type": "c2s.move", "move_id": "x", "version": 0}', "bad_frame"),
        ('{"type": "c2s.move", "move_id": "x", "version": -1, "move": {"type": "deal"}}', "bad_frame"),
        ('{"type": "c2s.move", "move_id": "", "version": 0, "move": {"type": "deal"}}', "bad_frame"),
        ('{"type": "c2s.move", "move_id": "x", "version": 0, "move": {"type": "fly"}}', "bad_frame"),
        ('{"type": "c2s.ping", "extra": 1}', "bad_frame"),
        ("[]", "bad_frame"),
        ('{"type": "c2s.ping", "pad": "' + "x" * 5000 + '"}', "frame_too_big"),
        ('{"type": "c2s.ping", "pad": "' + "\u00e9" * 3000 + '"}', "frame_too_big"),  # 3000 chars, 6000 bytes
    ],
)
def test_bad_frames_get_an_error_and_change_nothing(alice, frame, code):
    game_id, sock, _ = open_game(alice)
    sock.send(frame)
    error = sock.recv()
    assert error["type"] == "s2c.error" and error["code"] == code, error
    assert alice.summary(game_id)["version"] == 0
    sock.send({"type": "c2s.ping"})  # the connection is still fine
    assert sock.recv()["type"] == "s2c.pong"
    sock.close()


def test_flood_is_limited(redis_url, tmp_path, http, audit):
    from tests.gateway.client import Client

    server = ServerThread(gateway_settings(redis_url, tmp_path, rate_per_second=5.0, rate_burst=10)).start()
    try:
        # Guest and game come over the session gateway: the same secret and Redis serve both.
        player = Client.guest(server.url, http, audit)
        created = player.create("wish", None, 1)
        sock = player.open(created["id"])
        sock.recv()
        for _ in range(40):
            sock.send({"type": "c2s.ping"})
        frames = [sock.recv() for _ in range(11)]
        kinds = [frame["type"] for frame in frames]
        assert kinds.count("s2c.pong") == 10 and kinds.count("s2c.error") == 1
        assert next(f for f in frames if f["type"] == "s2c.error")["code"] == "rate_limited"
        sock.close()
    finally:
        server.stop()


def test_a_games_creation_and_its_socket_start_no_task_for_their_dependencies(alice, monkeypatch):
    """The hot routes' dependencies form one chain (or none): Litestar resolves two or more without
    dependencies of their own in an anyio task group, a task each, for lookups that cannot fail."""
    import litestar._kwargs.kwargs_model as kwargs_model

    groups: list[int] = []
    real = kwargs_model.create_task_group
    monkeypatch.setattr(kwargs_model, "create_task_group", lambda: groups.append(1) or real())
    created = alice.create("wish", {"mode": "standard"}, seed=7)
    sock = alice.open(created["id"])
    assert sock.recv()["type"] == "s2c.snapshot"
    sock.close()
    assert groups == []
    alice.http.get("/api/games", headers=alice.headers)  # (the patch sees a handler with two, as a check)
    assert groups == [1]
