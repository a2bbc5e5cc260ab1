"""The flow of play through the real gateway: refusals with their codes, Play this deal again over
HTTP (and its refusal for a daily still open), undo and Finish over the socket, the view's reasons."""

from __future__ import annotations

import datetime as dt

import msgspec
import pytest

import engine
from engine import intents as it
from services.games.entries import GameLinks
from services.games.service import GameService
from services.store import EventStore
from services.store.envelope import log_key
from tests.support.play import IN_PLAY_WISH, lost_wish_line

pytestmark = pytest.mark.integration

WISH = {"mode": "standard"}


def as_dict(intent) -> dict:
    return msgspec.to_builtins(intent)


def play(sock, version: int, intents) -> dict:
    """Each intent accepted in turn; the last update's snapshot."""
    snapshot = None
    for intent in intents:
        answer = sock.move(version, as_dict(intent))
        assert answer["type"] == "s2c.accepted", answer
        snapshot = answer["snapshot"]  # the acceptance carries the game after the move
        version = snapshot["version"]
    return snapshot


def action(view: dict, name: str) -> dict:
    return next(a for a in view["actions"] if a["type"] == name)


def test_a_lost_game_refuses_resign_with_game_over_and_its_button_says_why(alice):
    seed, line = lost_wish_line(min_moves=2)
    created = alice.create("wish", WISH, seed)
    sock = alice.open(created["id"])
    sock.recv()
    lost = play(sock, 0, line)
    assert lost["view"]["status"] == "lost"
    resign = action(lost["view"], "resign")
    assert not resign["available"] and resign["code"] == "game_over" and "stays lost" in resign["reason"]
    refused = sock.move(lost["version"], {"type": "resign"})
    assert refused["type"] == "s2c.rejected" and refused["code"] == "game_over"
    summary = alice.summary(created["id"])
    assert (summary["status"], summary["version"]) == ("lost", lost["version"]), "a lost game stays lost"
    sock.close()


def test_practice_undo_takes_a_casual_wish_out_of_its_loss_and_marks_it_assisted(alice):
    seed, line = lost_wish_line(min_moves=2)
    created = alice.create("wish", WISH, seed)
    sock = alice.open(created["id"])
    sock.recv()
    lost = play(sock, 0, line)
    assert action(lost["view"], "undo")["available"] and {"type": "undo"} in lost["view"]["legal"]
    back = play(sock, lost["version"], [it.UndoIntent()])
    assert back["view"]["status"] == "in_progress" and back["view"]["undos"] == 1
    summary = alice.summary(created["id"])
    assert summary["assisted"] and summary["practice_undo"] and summary["finished_at_ms"] is None
    resigned = play(sock, back["version"], [it.ResignIntent()])
    sock.close()
    views = alice.http.get(f"/api/games/{created['id']}/replay/views").raise_for_status().json()
    assert len(views["steps"]) == resigned["version"] + 1, "the replay folds the undo like any event"
    assert [s["event"]["type"] for s in views["steps"][1:]].count("move_undone") == 1
    exported = alice.http.get(f"/api/games/{created['id']}/replay").raise_for_status().json()
    assert exported["result"]["status"] == "abandoned"


def test_finish_plays_the_rest_as_logged_moves(alice, sync_redis_client):
    variant = {"mode": "open"}
    for seed in range(1, 400):
        state, prefix = engine.initial_state("wish", variant, seed), []
        while state.status == engine.IN_PROGRESS and not action(msgspec.to_builtins(engine.player_view(state)), "finish")["available"]:
            intent = engine.legal_moves(state)[0]
            state, _ = engine.play(intent, state)
            prefix.append(intent)
        if state.status == engine.IN_PROGRESS and len(engine.decide(it.FinishIntent(), state)) >= 2:
            break
    created = alice.create("wish", variant, seed)
    sock = alice.open(created["id"])
    before = sock.recv()["snapshot"]
    early = sock.move(0, {"type": "finish"})
    if prefix:  # the rest still needs choices: refused, and the button said so already
        assert early["type"] == "s2c.rejected" and early["code"] == "nothing_to_finish"
        assert early["message"] == action(before["view"], "finish")["reason"]
    at = play(sock, 0, prefix)
    finishing = len(engine.decide(it.FinishIntent(), state))
    answer = sock.move(at["version"], {"type": "finish"})
    assert answer["type"] == "s2c.accepted" and answer["version"] == at["version"] + finishing
    won = answer["snapshot"]  # at the version the finish made
    assert won["view"]["status"] == "won" and won["view"]["moves"] == len(prefix) + finishing
    entries = sync_redis_client.xrange(log_key(created["id"]))
    assert len(entries) == 2 + len(prefix) + finishing, "creation, first look, then one entry per move"
    sock.close()


def test_play_again_over_http_deals_the_same_deal_as_practice(alice, bob, http):
    created = alice.create("wish", WISH)
    assert 1 <= created["deal_number"] <= 10**9, "a casual deal's short number, at once"
    # The seed stays hidden while play goes on; about 1 random Wish deal in 150 has no move at all and is
    # lost as it is dealt, and a game whose play has stopped shows its seed at once (the deal number).
    stopped = created["status"] != "in_progress"
    assert created["seed"] == (created["deal_number"] if stopped else None), created
    again = http.post(f"/api/games/{created['id']}/again", headers=alice.headers)
    assert again.status_code == 201
    body = again.json()
    assert (body["kind"], body["chosen_deal"], body["deal_number"]) == ("practice", True, created["deal_number"])
    theirs = http.post(f"/api/games/{created['id']}/again", headers=bob.headers)
    assert theirs.status_code == 403 and theirs.json()["code"] == "not_your_game"
    missing = http.post("/api/games/0123456789abcdef/again", headers=alice.headers)
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_game"


async def test_play_again_is_refused_for_a_daily_still_open(gateway, redis_client, alice, http):
    service = GameService(EventStore(redis_client), redis_client)  # the gateway's own store and keys
    today = dt.datetime.now(dt.UTC).date().isoformat()
    daily = await service.create_game(alice.player_id, "wish", None, IN_PLAY_WISH, kind="daily",
                                      links=GameLinks(challenge=f"{today}/wish/mode=standard"))
    await service.open_for(daily.id, alice.player_id)
    assert (await service.submit(alice.player_id, daily.id, "r", 0, it.ResignIntent())).answer.accepted
    before = len(http.get("/api/games", headers=alice.headers).json())
    refused = http.post(f"/api/games/{daily.id}/again", headers=alice.headers)
    assert refused.status_code == 409 and refused.json()["code"] == "not_public_yet"
    assert refused.json().keys() == {"code", "message"}, "no deal number in the refusal"
    assert len(http.get("/api/games", headers=alice.headers).json()) == before, "no game was made"
    assert http.get(f"/api/games/{daily.id}", headers=alice.headers).json()["deal_number"] is None


def test_a_deal_with_no_move_is_lost_as_it_is_dealt_and_shows_its_seed_at_once(alice):
    seed = next(s for s in range(1, 10_000)
                if engine.initial_state("wish", WISH, s).status != engine.IN_PROGRESS)  # 1 deal in ~150
    created = alice.create("wish", WISH, seed)
    assert (created["status"], created["seed"], created["deal_number"]) == ("lost", seed, seed)
