"""POST /api/games with an Idempotency-Key: the same request sent again (a lost answer, a 503, a double
click) gets the game the first one made, never a second game that would resign the first; a bad key is a
clear 400 that makes nothing; one player's key is nothing to another's."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.gateway.client import Client
from tests.gateway.conftest import ServerThread, gateway_settings
from tests.support.store_faults import time_out_first_creation_batch

pytestmark = pytest.mark.integration

SPIDER = {"game": "spider", "variant": {"suits": 1}}  # a random deal always has a first move


def create(http, client, key: str | None, body: dict | None = None):
    headers = dict(client.headers) | ({} if key is None else {"Idempotency-Key": key})
    return http.post(f"{client.base_url}/api/games", json=body or SPIDER, headers=headers)


def statuses(http, client) -> dict[str, str]:
    mine = http.get(f"{client.base_url}/api/games", headers=client.headers).raise_for_status().json()
    return {game["id"]: game["status"] for game in mine}


def test_the_same_key_again_gets_the_first_game_as_it_is_now(alice, bob, http):
    key = uuid.uuid4().hex
    first = create(http, alice, key)
    assert first.status_code == 201, first.text
    made = first.json()
    sock = alice.open(made["id"])
    moved = sock.move(0, sock.recv()["snapshot"]["view"]["legal"][0])["version"]
    sock.close()
    again = create(http, alice, key)
    assert again.status_code == 201 and again.json()["id"] == made["id"], "no second game"
    assert (again.json()["version"], again.json()["moves"]) == (moved, 1), "the game as it is now"
    assert statuses(http, alice) == {made["id"]: "in_progress"}, "nothing resigned, nothing made"
    theirs = create(http, bob, key)  # the same key from another player: their own request
    assert theirs.status_code == 201 and theirs.json()["id"] != made["id"]
    other = create(http, alice, uuid.uuid4().hex)  # another key: a new game, which abandons the first
    assert other.status_code == 201 and statuses(http, alice) == {made["id"]: "abandoned", other.json()["id"]: "in_progress"}


def test_a_double_click_with_one_key_makes_one_game_and_resigns_nothing(alice, http):
    before = alice.create("spider", {"suits": 1}, 3)["id"]
    key = uuid.uuid4().hex
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: create(http, alice, key), range(4)))
    assert [a.status_code for a in answers] == [201] * 4, [a.text for a in answers]
    [made] = {a.json()["id"] for a in answers}
    assert statuses(http, alice) == {before: "abandoned", made: "in_progress"}


@pytest.mark.parametrize("key", [b"", b"a" * 65, b"has space", b"semi;colon", "ünï".encode()])
def test_a_bad_key_is_refused_and_makes_nothing(alice, http, key):
    refused = http.post(f"{alice.base_url}/api/games", json=SPIDER,
                        headers=dict(alice.headers) | {"Idempotency-Key": key})  # (bytes: sent as they are)
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request_key", refused.text
    assert "Idempotency-Key" in refused.json()["message"]
    assert statuses(http, alice) == {}


def test_a_creation_whose_batch_failed_is_made_once_when_sent_again(redis_url, tmp_path, http, audit):
    """The log written, then Redis timed out on the creation's batch: a 503, and the same key again gets that
    game (its projections written from its log), not a second one resigning it."""
    from services.store.keys import meta_key

    server = ServerThread(gateway_settings(redis_url, tmp_path)).start()
    try:
        player = Client.guest(server.url, http, audit)
        before = player.create("spider", {"suits": 1}, 3)
        logged = time_out_first_creation_batch(server.server.config.app.state.service.lean)  # (the served app)
        key = uuid.uuid4().hex
        failed = create(http, player, key)
        assert (failed.status_code, failed.json()["code"]) == (503, "unavailable"), failed.text
        answer = create(http, player, key)
        assert answer.status_code == 201, answer.text
        made = answer.json()["id"]
        assert logged == [meta_key(made)], "the game whose log the failed request wrote"
        assert statuses(http, player) == {before["id"]: "abandoned", made: "in_progress"}
        sock = player.open(made)
        assert sock.move(0, sock.recv()["snapshot"]["view"]["legal"][0])["type"] == "s2c.accepted"
        sock.close()
    finally:
        server.stop()
