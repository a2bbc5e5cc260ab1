"""A 4-racer race on two `arena serve` processes with a spectator on each: progress made through one
process reaches the spectator on the other, a racer disconnects and rejoins through the other process
with the clock still running, and the race goes on to verified final results on both."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.gateway.client import Client
from tests.gateway.test_races import play_to_win
from tests.gateway.test_two_processes import ServeProcess
from tests.races.client import RaceWatch, api, card_keys_in

pytestmark = pytest.mark.integration


@pytest.fixture
def two_race_servers(redis_url, tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_RACE_COUNTDOWN_MS", "1000")
    monkeypatch.setenv("ARENA_RACE_DEAL_POOL", "0")
    for limit in ("GUESTS", "TICKETS"):  # every client is 127.0.0.1, and the count is shared through Redis
        monkeypatch.setenv(f"ARENA_LIMIT_{limit}", "off")
    a, b = ServeProcess(redis_url, tmp_path / "a"), ServeProcess(redis_url, tmp_path / "b")
    yield a, b
    for server in (a, b):
        if server.process.poll() is None:
            server.stop()


def connected(race: dict, player: str) -> bool:
    return next(r for r in race["racers"] if r["player"] == player)["connected"]


def test_four_racers_two_processes_a_spectator_on_each_a_disconnect_and_the_results(two_race_servers, audit, sync_redis_client):
    a, b = two_race_servers
    with httpx.Client(base_url=a.url, timeout=20) as http_a, httpx.Client(base_url=b.url, timeout=20) as http_b:
        r1, r2 = Client.guest(a.url, http_a, audit), Client.guest(a.url, http_a, audit)
        r3, r4 = Client.guest(b.url, http_b, audit), Client.guest(b.url, http_b, audit)
        status, view, _ = api(r1, "POST", "/api/races", json={"game": "wish", "seats": 4, "time_limit_ms": 300_000})
        assert status == 201, view
        race_id = view["race_id"]
        for racer in (r2, r3, r4):
            assert api(racer, "POST", f"/api/races/join/{view['code']}")[0] == 200
        watch_a = RaceWatch(Client.guest(a.url, http_a, audit), race_id)
        watch_b = RaceWatch(Client.guest(b.url, http_b, audit), race_id)
        sockets = {r.player_id: RaceWatch(r, race_id) for r in (r1, r2, r3, r4)}  # each on its own process
        for racer in (r1, r2, r3, r4):
            api(racer, "POST", f"/api/races/{race_id}/ready")
        started = watch_b.race_status("started")["race"]
        watch_a.race_status("started")
        games = {r["player"]: r["game_id"] for r in started["racers"]}
        start_ms = started["start_at_ms"]
        play_to_win(r1, games[r1.player_id], sync_redis_client)  # through A
        play_to_win(r3, games[r3.player_id], sync_redis_client)  # through B
        for watch in (watch_a, watch_b):  # each spectator sees both winners' progress, whichever process made it
            for winner in (r1, r3):
                watch.until(lambda f, p=winner.player_id: f["type"] == "s2c.race_progress" and f["player"] == p
                            and f["status"] == "won" and f["cards_left"] == 0)
        # r2 drops out (its race socket on A closes) and comes back through B.
        sockets[r2.player_id].close()
        for watch in (watch_a, watch_b):
            watch.until(lambda f: f["type"] == "s2c.race" and not connected(f["race"], r2.player_id))
        time.sleep(0.3)
        r2_on_b = Client(b.url, http_b, audit, r2.player_id, r2.token)
        sockets[r2.player_id] = RaceWatch(r2_on_b, race_id)
        assert sockets[r2.player_id].recv()["role"] == "racer"
        for watch in (watch_a, watch_b):
            watch.until(lambda f: f["type"] == "s2c.race" and f["race"]["version"] > 0 and connected(f["race"], r2.player_id)
                        and any(not connected(g["race"], r2.player_id) for g in watch.frames if g["type"] == "s2c.race"))
        game = r2_on_b.open(games[r2.player_id])
        first = game.recv()
        snapshot, now_ms = first["snapshot"], int(time.time() * 1000)
        assert first["role"] == "player" and snapshot["elapsed_ms"] >= now_ms - start_ms - 1_000  # the clock ran on
        assert game.move(snapshot["version"], {"type": "resign"})["type"] == "s2c.accepted"
        game.close()
        r4_game = r4.open(games[r4.player_id])
        r4_game.recv()
        assert r4_game.move(0, {"type": "resign"})["type"] == "s2c.accepted"
        r4_game.close()
        finals = [watch.race_status("final", timeout=60)["race"] for watch in (watch_a, watch_b)]
        assert finals[0]["standings"] == finals[1]["standings"]
        standings = finals[0]["standings"]
        assert {s["player"] for s in standings[:2]} == {r1.player_id, r3.player_id}
        assert all(s["result"] == "won" for s in standings[:2]) and [s["place"] for s in standings[2:]] == [3, 3]
        assert all(r["verified"] for r in finals[0]["racers"] if r["player"] in (r1.player_id, r3.player_id))
        for watch in (watch_a, watch_b, *sockets.values()):
            for frame in watch.frames:
                assert not card_keys_in(frame), frame
            seed = str(finals[0]["seed"])
            assert not any(seed in raw for raw, f in zip(watch.raw, watch.frames)
                           if f.get("race", {}).get("status") not in ("ended", "final"))
        for watch in (watch_a, watch_b, *sockets.values()):
            watch.close()
    assert a.stop() == 0 and b.stop() == 0
