"""GET /api/races/{id}/replay on the real gateway: refused with no card in the lobby, the countdown and
the race itself, for a racer and for anyone; after the end every racer's steps in finishing order,
each the engine's position, on the race's one clock."""

from __future__ import annotations

import json

import httpx
import msgspec
import pytest

import engine
from engine.reveal import revealed_state_view
from engine.solver import solve
from tests.gateway.client import Client
from tests.gateway.conftest import ServerThread, gateway_settings
from tests.gateway.test_races import race_seed
from tests.races.client import RaceWatch, api, card_keys_in

pytestmark = pytest.mark.integration

WISH = {"game": "wish", "variant": {"mode": "standard"}, "seats": 3, "time_limit_ms": 120_000}


@pytest.fixture(scope="module")
def race_server(redis_url, tmp_path_factory):
    settings = gateway_settings(redis_url, tmp_path_factory.mktemp("race-replay"), race_countdown_ms=600,
                                race_deal_pool=0)
    server = ServerThread(settings).start()
    yield server
    server.stop()


def refused_without_a_card(http: httpx.Client, race_id: str, client: Client | None = None) -> None:
    response = http.get(f"/api/races/{race_id}/replay", headers=client.headers if client else None)
    body = response.json()
    assert (response.status_code, body["code"]) == (409, "race_not_over"), body
    assert not card_keys_in(body) and set(body) == {"code", "message"}


def play(client: Client, game_id: str, moves: list) -> None:
    sock = client.open(game_id)
    assert sock.recv()["type"] == "s2c.snapshot"
    for version, intent in enumerate(moves):
        assert sock.move(version, msgspec.to_builtins(intent))["type"] == "s2c.accepted"
    sock.close()


def test_a_race_replay_is_refused_until_the_end_then_shows_every_racer_in_order(race_server, audit,
                                                                               sync_redis_client):
    with httpx.Client(base_url=race_server.url, timeout=20) as http:
        host, second, third = (Client.guest(race_server.url, http, audit) for _ in range(3))
        assert http.get("/api/races/nosuchrace/replay").status_code == 404
        emptied = api(host, "POST", "/api/races", json=WISH)[1]["race_id"]
        assert api(host, "POST", f"/api/races/{emptied}/leave")[1]["status"] == "ended"  # ended in its lobby
        answer = http.get(f"/api/races/{emptied}/replay")
        assert (answer.status_code, answer.json()["code"]) == (404, "no_race_games")
        status, view, _ = api(host, "POST", "/api/races", json=WISH)
        race_id = view["race_id"]
        refused_without_a_card(http, race_id)  # the lobby
        for player in (second, third):
            assert api(player, "POST", f"/api/races/join/{view['code']}")[0] == 200
        watch = RaceWatch(host, race_id)
        assert api(host, "POST", f"/api/races/{race_id}/start")[0] == 200
        refused_without_a_card(http, race_id, host)  # the countdown (the games are dealt by now)
        started = watch.race_status("started")["race"]
        games = {r["player"]: r["game_id"] for r in started["racers"]}
        seed = race_seed(sync_redis_client, race_id)
        line = solve(engine.initial_state("wish", WISH["variant"], seed)).line
        play(host, games[host.player_id], line)  # first to win
        refused_without_a_card(http, race_id, third)  # the race runs: not even a racer sees a card
        play(second, games[second.player_id], line[:4])
        refused_without_a_card(http, race_id, second)
        for player, version in ((second, 4), (third, 0)):
            sock = player.open(games[player.player_id])
            sock.recv()
            assert sock.move(version, {"type": "resign"})["type"] == "s2c.accepted"
            sock.close()
        ended = watch.until(lambda f: f["type"] == "s2c.race" and f["race"]["status"] in ("ended", "final"))["race"]
        watch.close()

        replay = http.get(f"/api/races/{race_id}/replay").raise_for_status().json()
    assert (replay["race_id"], replay["game"], replay["seed"]) == (race_id, "wish", seed)
    assert replay["start_at_ms"] == ended["start_at_ms"] and replay["end_reason"] == "all_finished"
    racers = replay["racers"]
    assert [r["player"] for r in racers] == [s["player"] for s in ended["standings"]]
    assert racers[0]["player"] == host.player_id and racers[0]["place"] == 1 and racers[0]["result"] == "won"
    assert {r["result"] for r in racers[1:]} == {"abandoned"} and {r["place"] for r in racers[1:]} == {2}
    moves = {host.player_id: line, second.player_id: [*line[:4], engine.intents.ResignIntent()],
             third.player_id: [engine.intents.ResignIntent()]}
    for racer in racers:
        assert racer["game_id"] == games[racer["player"]]
        steps = racer["steps"]
        assert len(steps) == len(moves[racer["player"]]) + 1
        state = engine.initial_state("wish", WISH["variant"], seed)
        assert steps[0]["elapsed_ms"] == 0 and steps[0]["at_ms"] == replay["start_at_ms"], "every clock starts at the signal"
        for step, intent in zip(steps[1:], moves[racer["player"]]):
            state, _ = engine.play(intent, state)
            assert step["view"] == json.loads(msgspec.json.encode(revealed_state_view(state)))
            assert step["elapsed_ms"] == step["at_ms"] - replay["start_at_ms"] >= 0
        assert [s["elapsed_ms"] for s in steps] == sorted(s["elapsed_ms"] for s in steps)
    assert replay["duration_ms"] == max(r["steps"][-1]["elapsed_ms"] for r in racers)
