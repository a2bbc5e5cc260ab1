"""A player's next game over the socket already open (c2s.new_game): what POST /api/games would make, on
the same socket, with nothing of the game before sent after it; a retry makes no second game; a refusal
leaves the socket where it was; the new games are limited per player, whatever sockets they come over."""

from __future__ import annotations

import uuid

import pytest

from tests.gateway.client import Client
from tests.gateway.conftest import ServerThread, gateway_settings
from tests.support.store_faults import time_out_first_creation_batch

pytestmark = pytest.mark.integration

WISH = {"mode": "standard"}
SPIDER = {"suits": 1}


def opened(client: Client, game: str = "wish", variant=None, seed: int | None = 9):
    created = client.create(game, variant or WISH, seed)
    sock = client.open(created["id"])
    assert sock.recv()["type"] == "s2c.snapshot"
    return created, sock


def test_a_new_game_over_the_socket_is_the_players_casual_game_and_the_socket_plays_it(alice):
    before, sock = opened(alice, seed=None)
    answer = sock.new_game("spider", {"suits": 1})  # a casual deal the server picks, with a move (Spider's)
    assert answer["type"] == "s2c.new_game" and answer["role"] == "player", answer
    summary, snapshot = answer["summary"], answer["snapshot"]
    assert summary["id"] != before["id"] and snapshot["game_id"] == summary["id"] == sock.game_id
    assert summary["player_id"] == alice.player_id and summary["kind"] == "casual" and not summary["ranked"]
    assert summary["seed"] is None and snapshot["seed"] is None and snapshot["deal"] is None  # (audited too)
    assert "ticket" not in summary  # this socket needs none
    # The same game over HTTP (its clock started at the snapshot, the first look: the summary is the creation's).
    assert {**alice.summary(summary["id"]), "elapsed_ms": None} == summary
    # A new casual game resigns the unfinished one before it, as POST /api/games does.
    assert alice.summary(before["id"])["status"] == "abandoned"
    # The socket plays the new game: a move on it is answered, at its own versions.
    accepted = sock.move(0, snapshot["view"]["legal"][0])
    assert accepted["type"] == "s2c.accepted" and accepted["snapshot"]["game_id"] == summary["id"]
    assert alice.summary(summary["id"])["moves"] == 1
    sock.close()


def test_a_named_seed_makes_a_practice_game_on_that_deal_never_ranked(alice):
    _, sock = opened(alice)
    summary = sock.new_game("spider", {"suits": 1}, seed=4242)["summary"]
    assert summary["kind"] == "practice" and summary["chosen_deal"] and not summary["ranked"]
    assert summary["game"] == "spider" and summary["deal_number"] == 4242
    # 7.0 is 7 over the socket too, as in a body (JSON has one number type).
    again = sock.new_game("spider", {"suits": 2.0}, seed=4243)["summary"]
    assert again["variant"]["suits"] == 2
    sock.close()


def test_nothing_of_the_game_before_reaches_the_socket_after_it_moved(alice, bob):
    """Alice watches Bob's game, then makes one of her own over that socket: Bob's moves reach her old
    socket no more, and her own socket plays hers."""
    bobs, bob_sock = opened(bob)
    watcher = alice.open(bobs["id"])
    assert watcher.recv()["role"] == "spectator"
    answer = watcher.new_game("spider", {"suits": 1}, seed=5)  # a deal with a move (a random Wish may have none)
    assert answer["role"] == "player" and answer["summary"]["player_id"] == alice.player_id
    mine = answer["summary"]["id"]
    view = bob_sock.shown["view"]
    version = 0
    for _ in range(3):
        accepted = bob_sock.move(version, view["legal"][0])
        version, view = accepted["version"], accepted["snapshot"]["view"]
    # Her own move's answer is the first frame she gets: none of Bob's three updates came before it.
    watcher.send({"type": "c2s.move", "move_id": "m1", "version": 0, "move": answer["snapshot"]["view"]["legal"][0]})
    first = watcher.recv()
    assert first["type"] == "s2c.accepted" and first["snapshot"]["game_id"] == mine, first
    watcher.send({"type": "c2s.ping"})
    assert watcher.recv()["type"] == "s2c.pong"  # and nothing of Bob's queued behind it either
    watcher.close()
    bob_sock.close()


def test_the_same_request_sent_again_makes_no_second_game(alice, http):
    """A double click, or a retry after `unavailable`: the game the first one made, as it is now."""
    _, sock = opened(alice)
    request_id = uuid.uuid4().hex
    # Spider: a random deal always has a first move (a random Wish deal is, rarely, lost as it is dealt)
    first = sock.new_game("spider", SPIDER, request_id=request_id)
    sock.move(0, first["snapshot"]["view"]["legal"][0])
    second = sock.new_game("spider", SPIDER, request_id=request_id)
    assert second["summary"]["id"] == first["summary"]["id"] and second["snapshot"]["version"] == 1
    mine = http.get("/api/games", headers=alice.headers).raise_for_status().json()
    assert [game["id"] for game in mine].count(first["summary"]["id"]) == 1 and len(mine) == 2
    sock.close()


@pytest.mark.parametrize(("frame", "code"), [
    ({"game": "no-such-game"}, "unknown_game"),
    ({"game": "spider", "variant": {"suits": 3}}, "bad_variant"),
    ({"game": "wish", "variant": WISH, "seed": -1}, "bad_seed"),
    ({"game": "wish", "ranked": True}, "bad_frame"),  # no field a client may set beyond the four
    ({"game": ""}, "bad_frame"),
])
def test_a_refused_new_game_changes_nothing_and_the_socket_stays(alice, http, frame, code):
    created, sock = opened(alice)
    sock.send({"type": "c2s.new_game", "request_id": "r1", **frame})
    error = sock.recv_until("s2c.error")
    assert error["code"] == code, error
    # The engine's refusal names the request it answers; a frame refused unread has no id to name.
    assert error.get("request_id") == (None if code == "bad_frame" else "r1"), error
    assert [g["id"] for g in http.get("/api/games", headers=alice.headers).raise_for_status().json()] == [created["id"]]
    assert alice.summary(created["id"])["status"] == "in_progress"  # nothing resigned either
    accepted = sock.move(0, sock.shown["view"]["legal"][0])  # the socket still plays the game it had
    assert accepted["type"] == "s2c.accepted" and accepted["snapshot"]["game_id"] == created["id"]
    sock.close()


def test_new_games_are_limited_per_player_across_their_sockets(redis_url, tmp_path, http, audit):
    """Two a minute: a third is refused, from a second socket of the same player too (more sockets are not
    more games); another player has their own."""
    server = ServerThread(gateway_settings(redis_url, tmp_path, limit_games=(2, "minute"))).start()
    try:
        player = Client.guest(server.url, http, audit)
        # The HTTP limit counts per address and is another budget; this game is made over HTTP.
        created = player.create("wish", WISH, 1)
        first, second = player.open(created["id"]), player.open(created["id"])
        first.recv(), second.recv()
        assert first.new_game("wish", WISH)["type"] == "s2c.new_game"
        assert second.new_game("wish", WISH)["type"] == "s2c.new_game"
        for sock in (first, second):
            refused = sock.new_game("wish", WISH)
            assert refused["type"] == "s2c.error" and refused["code"] == "rate_limited", refused
            assert "at most 2 a minute" in refused["message"] and refused["request_id"]
        mine = http.get(f"{server.url}/api/games", headers=player.headers).raise_for_status().json()
        assert len(mine) == 3
        other = Client.guest(server.url, http, audit)
        theirs = other.open(other.create("wish", WISH, 2)["id"])
        theirs.recv()
        assert theirs.new_game("wish", WISH)["type"] == "s2c.new_game"
        for sock in (first, second, theirs):
            sock.close()
    finally:
        server.stop()


def test_the_same_request_after_its_game_is_gone_is_answered_not_left_waiting(alice, sync_redis_client):
    """Its log deleted meanwhile (retention, an operator): the retry gets no_such_game naming the request."""
    from services.store.keys import log_key

    _, sock = opened(alice)
    first = sock.new_game("wish", WISH, request_id="gone-1")
    sync_redis_client.delete(log_key(first["summary"]["id"]))
    answer = sock.new_game("wish", WISH, request_id="gone-1")
    assert answer["type"] == "s2c.error" and answer["code"] == "no_such_game", answer
    assert answer["request_id"] == "gone-1"
    sock.send({"type": "c2s.ping"})
    assert sock.recv()["type"] == "s2c.pong"  # the socket lives on
    sock.close()


def test_a_new_game_whose_store_failed_after_its_log_is_made_once_when_asked_again(redis_url, tmp_path, http, audit):
    """The log written, then Redis timed out on the creation's batch: the socket answers `unavailable`, and the
    same request again gets that game (the batch written from its log), not a second one."""
    from services.store.keys import meta_key

    server = ServerThread(gateway_settings(redis_url, tmp_path)).start()
    try:
        player = Client.guest(server.url, http, audit)
        before = player.create("spider", {"suits": 1}, 3)
        sock = player.open(before["id"])
        sock.recv()
        logged = time_out_first_creation_batch(server.server.config.app.state.service.lean)  # (the served app)
        failed = sock.new_game("spider", {"suits": 1}, request_id="again-1")
        assert (failed["type"], failed["code"], failed["request_id"]) == ("s2c.error", "unavailable", "again-1"), failed
        answer = sock.new_game("spider", {"suits": 1}, request_id="again-1")
        assert answer["type"] == "s2c.new_game", answer
        made = answer["summary"]["id"]
        assert logged == [meta_key(made)], "the game whose log the failed ask wrote: no second game"
        mine = http.get(f"{server.url}/api/games", headers=player.headers).raise_for_status().json()
        assert {game["id"]: game["status"] for game in mine} == {before["id"]: "abandoned", made: "in_progress"}
        accepted = sock.move(0, answer["snapshot"]["view"]["legal"][0])
        assert accepted["type"] == "s2c.accepted" and accepted["snapshot"]["game_id"] == made
        sock.close()
    finally:
        server.stop()
