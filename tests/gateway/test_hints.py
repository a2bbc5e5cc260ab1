"""POST /api/games/{id}/hint on the real server: a practice Wish won by following the hints over the
socket (every frame audited), marked assisted, its replay file showing each hint and still verified;
every game the rules give no hint is refused with its code and nothing is logged."""

from __future__ import annotations

import time

import pytest

from services.store.envelope import ENTRY_FIELD, decode_event, log_key
from tests.support.replays import verdict_of

pytestmark = pytest.mark.integration

WISH = {"mode": "standard"}
WINNABLE_SEED, UNWINNABLE_SEED = 3, 0


def ask(http, client, game_id: str, body=None):
    return http.post(f"/api/games/{game_id}/hint", json=body, headers=client.headers)


def test_a_practice_game_won_on_hints_is_assisted_and_its_replay_shows_them(alice, http):
    game = alice.create("wish", WISH, seed=WINNABLE_SEED)
    assert game["kind"] == "practice" and game["assisted"] is False
    sock = alice.open(game["id"])
    version = sock.recv()["snapshot"]["version"]
    hints = 0
    while True:
        answer = ask(http, alice, game["id"], {"version": version})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert (hint["result"], hint["version"], hint["assisted"]) == ("winnable", version, True)
        hints += 1
        moved = sock.move(version, hint["move"])
        assert moved["type"] == "s2c.accepted", moved
        version = moved["version"]
        if alice.summary(game["id"])["status"] == "won":
            break
    sock.close()
    summary = alice.summary(game["id"])
    assert summary["assisted"] is True and summary["ranked"] is False
    assert ask(http, alice, game["id"]).json()["code"] == "game_over"
    replay = http.get(f"/api/games/{game['id']}/replay").raise_for_status()
    entries = [item["entry"] for item in replay.json()["entries"]]
    assert [e["type"] for e in entries].count("hint_given") == hints
    assert verdict_of(replay.content).outcome == "verified"
    for _ in range(200):  # the server's validator reads the same log, hint entries and all
        found = http.get(f"/api/games/{game['id']}/verdict")
        if found.status_code == 200:
            break
        time.sleep(0.05)
    assert found.json()["outcome"] == "verified"


def test_proven_no_winning_line_with_an_empty_body(alice, http):
    game = alice.create("wish", WISH, seed=UNWINNABLE_SEED)
    answer = http.post(f"/api/games/{game['id']}/hint", headers=alice.headers)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["result"], answer.json()["move"]) == ("unwinnable", None)
    assert alice.summary(game["id"])["assisted"] is True


def test_games_without_hints_are_refused_with_clear_codes_and_nothing_logged(alice, bob, http, audit):
    casual = alice.create("wish", WISH)
    refused = ask(http, alice, casual["id"])
    assert (refused.status_code, refused.json()["code"]) == (403, "hints_practice_only")
    practice = alice.create("wish", WISH, seed=WINNABLE_SEED)
    for client, body, status, code in [
        (bob, None, 403, "not_your_game"),
        (alice, {"version": 5}, 409, "stale_version"),
        (alice, {"version": -1}, 400, "bad_body"),
        (alice, {"version": 0, "peek": True}, 400, "bad_body"),
    ]:
        refused = ask(http, client, practice["id"], body)
        assert (refused.status_code, refused.json()["code"]) == (status, code), refused.text
    missing = ask(http, alice, "no-such-game")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_such_game")
    assert http.post(f"/api/games/{practice['id']}/hint").status_code == 401
    for game in (casual, practice):  # (the casual game was abandoned by the practice game: logged)
        assert alice.summary(game["id"])["assisted"] is False
        entries = audit.redis.xrange(log_key(game["id"]))
        assert "hint_given" not in [decode_event(fields[ENTRY_FIELD]).type for _, fields in entries]


def test_the_route_is_in_the_openapi_schema(http):
    paths = http.get("/schema/openapi.json").json()["paths"]
    assert "post" in paths["/api/games/{game_id}/hint"]
