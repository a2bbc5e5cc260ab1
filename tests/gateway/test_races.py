"""Races through the real gateway (uvicorn, Redis, the validator worker): the HTTP routes, the race
room socket, and every cheat the issue lists tried over the wire and refused."""

from __future__ import annotations

import json
import time

import httpx
import msgspec
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import engine
from engine.solver import solve
from services.games.record import read_log
from services.races.store import RaceStore  # noqa: F401  (the keys the test reads by hand are the store's)
from services.store.envelope import ENTRY_FIELD, decode_event, log_key
from tests.gateway.client import Client
from tests.gateway.conftest import ServerThread, gateway_settings
from tests.races.client import RaceWatch, api, card_keys_in

pytestmark = pytest.mark.integration

WISH = {"game": "wish", "variant": {"mode": "standard"}, "seats": 3, "time_limit_ms": 120_000}


@pytest.fixture(scope="module")
def race_server(redis_url, tmp_path_factory):
    settings = gateway_settings(redis_url, tmp_path_factory.mktemp("races"), race_countdown_ms=800, race_deal_pool=0)
    server = ServerThread(settings).start()
    yield server
    server.stop()


@pytest.fixture
def guests(race_server, audit):
    with httpx.Client(base_url=race_server.url, timeout=20) as http:
        yield lambda: Client.guest(race_server.url, http, audit)


def race_seed(redis, race_id: str) -> int:
    from services.races.events import from_stored

    [(_, fields), *_] = redis.xrange(log_key(race_id, "race"), count=1)
    return from_stored(decode_event(fields[ENTRY_FIELD])).sealed.seed


def play_to_win(client: Client, game_id: str, redis) -> None:
    log = read_log([decode_event(f[ENTRY_FIELD]) for _, f in redis.xrange(log_key(game_id))])
    line = solve(engine.initial_state(log.created.game, log.created.variant, log.created.seed)).line
    sock = client.open(game_id)
    assert sock.recv()["type"] == "s2c.snapshot"
    for version, intent in enumerate(line):
        assert sock.move(version, msgspec.to_builtins(intent))["type"] == "s2c.accepted"
    sock.close()


def test_a_race_over_http_and_the_race_socket_with_every_cheat_refused(guests, sync_redis_client):
    host, second, third, spectator, outsider = (guests() for _ in range(5))
    seen: list[str] = []  # every response body and frame, scanned for the seed at the end

    status, view, text = api(host, "POST", "/api/races", json=WISH)
    assert status == 201 and view["status"] == "lobby" and view["seed"] is None and len(view["code"]) == 6
    seen.append(text)
    race_id = view["race_id"]
    for player in (second, third):
        status, body, text = api(player, "POST", f"/api/races/join/{view['code'].lower()}")
        assert status == 200, body
        seen.append(text)
    # A full race takes nobody; a racer is in one race at a time.
    status, body, _ = api(outsider, "POST", f"/api/races/{race_id}/join")
    assert (status, body["code"]) == (409, "race_full")
    status, body, _ = api(host, "POST", "/api/races", json=WISH)
    assert (status, body["code"]) == (409, "in_another_race")
    watch = RaceWatch(spectator, race_id)
    mine = RaceWatch(second, race_id)  # a racer's own race socket: counts, never cards
    assert watch.recv()["role"] == "spectator" and mine.recv()["role"] == "racer"
    for player in (host, second):
        seen.append(api(player, "POST", f"/api/races/{race_id}/ready")[2])
    seen.append(api(host, "POST", f"/api/races/{race_id}/start")[2])  # the host need not wait for the third
    countdown = watch.race_status("countdown")["race"]
    assert all(r["game_id"] is None for r in countdown["racers"])
    # Moving before the start signal: even with the game id (read here from the log, as a forger would).
    state_games = _games_in_log(sync_redis_client, race_id)
    assert state_games, "the games are dealt when the countdown starts"
    early = Client.open(host, state_games[host.player_id])
    assert early.recv()["code"] == "not_started"
    early.close()
    assert all(g["kind"] != "race" for g in api(host, "GET", "/api/games/")[1])  # not listed before the start
    status, body, _ = api(outsider, "POST", f"/api/races/{race_id}/join")
    assert (status, body["code"]) == (409, "race_started")
    started = watch.race_status("started")["race"]
    games = {r["player"]: r["game_id"] for r in started["racers"]}
    # A racer opening another racer's game: refused until the race has ended.
    with connect(f"{host.base_url.replace('http', 'ws')}/ws/games/{games[third.player_id]}?ticket={host.ticket()}") as rival:
        assert '"not_public_yet"' in rival.recv(timeout=10)
    play_to_win(host, games[host.player_id], sync_redis_client)
    watch.until(lambda f: f["type"] == "s2c.race_progress" and f["player"] == host.player_id and f["status"] == "won")
    for player in (second, third):
        sock = player.open(games[player.player_id])
        sock.recv()
        assert sock.move(0, {"type": "resign"})["type"] == "s2c.accepted"
        sock.close()
    final = watch.race_status("final", timeout=40)["race"]
    assert [s["player"] for s in final["standings"]][0] == host.player_id
    assert final["seed"] == race_seed(sync_redis_client, race_id)
    status, body, text = api(spectator, "GET", f"/api/races/{race_id}")
    assert body["final"] and body["seed"] == final["seed"]
    # Every frame of the whole race, on both sockets: no card, no pile, no seed before the end.
    for sock in (watch, mine):
        sock.until(lambda f: f["type"] == "s2c.race" and f["race"]["status"] == "final")
        for frame in sock.frames:
            assert not card_keys_in(frame), frame
        ended_at = next(i for i, f in enumerate(sock.frames) if f.get("race", {}).get("status") in ("ended", "final"))
        seen.extend(sock.raw[:ended_at])
        assert any(f["type"] == "s2c.race_progress" for f in sock.frames)
    seed = str(final["seed"])
    assert not [text for text in seen if seed in text]
    # Ratings: the board of the race's game and variant, with uncertainty, provisional at first.
    status, rows, _ = api(spectator, "GET", "/api/ratings/wish", params={"variant": "mode=standard", "limit": 200})
    assert status == 200 and rows and rows == sorted(rows, key=lambda r: -r["rating"])
    assert all(r["provisional"] == (r["races"] < 10) and r["sigma"] > 0 for r in rows)
    status, missing, _ = api(spectator, "GET", "/api/ratings/chess")
    assert status == 404
    # What the race changed, per racer in finishing order (rated a moment after the results are final).
    changed = _rated(spectator, race_id)
    assert [c["player"] for c in changed["changes"]] == [s["player"] for s in final["standings"]]
    by_player = {r["player"]: r for r in rows}
    assert all(c["first_race"] and c["after"] == by_player[c["player"]]["rating"] for c in changed["changes"])
    assert changed["changes"][0]["after"] > changed["changes"][0]["before"]
    # The rematch: one click, the same seats, a new deal.
    status, again, _ = api(third, "POST", f"/api/races/{race_id}/rematch")
    assert status == 201 and again["rematch_of"] == race_id and len(again["racers"]) == 3
    assert api(host, "POST", f"/api/races/{race_id}/rematch")[1]["race_id"] == again["race_id"]
    watch.close()
    mine.close()


def _rated(client: Client, race_id: str) -> dict:
    for _ in range(100):
        status, body, _ = api(client, "GET", f"/api/races/{race_id}/ratings")
        assert status == 200, body
        if body["rated"]:
            return body
        assert body["changes"] == []
        time.sleep(0.1)
    raise AssertionError("the race was never rated")


def test_the_race_menu_the_join_link_and_the_server_clock(guests):
    host = guests()
    status, menu, _ = api(host, "GET", "/api/races/catalogue")
    assert status == 200 and (menu["min_seats"], menu["max_seats"]) == (2, 8)
    assert host.http.get("/api/races/catalogue").json() == menu  # a menu: no token needed
    assert {"game": "wish", "variant": {"mode": "standard"}, "variant_text": "mode=standard", "title": "The Wish"} in menu["games"]
    entry = next(g for g in menu["games"] if g["game"] == "spider" and g["variant"]["suits"] == 2)
    status, view, _ = api(host, "POST", "/api/races", json={"game": entry["game"], "variant": entry["variant"], "seats": 2})
    assert status == 201
    # The join link opens the web client's race page on the code; anything but letters stays out of the URL.
    link = host.http.get(view["join_path"], follow_redirects=False)
    assert link.status_code == 302 and link.headers["location"] == f"/race.html#/join/{view['code']}"
    odd = host.http.get("/race/AB%22%3Cx%3E", follow_redirects=False)
    assert odd.headers["location"] == "/race.html#/join/ABx"
    status, unrated, _ = api(host, "GET", f"/api/races/{view['race_id']}/ratings")
    assert status == 200 and unrated["rated"] is False and unrated["changes"] == []
    assert api(host, "GET", "/api/races/no-such-race/ratings")[0] == 404
    watch = RaceWatch(host, view["race_id"])  # the snapshot tells the server's clock (a countdown runs on it)
    snapshot = watch.recv()
    assert snapshot["type"] == "s2c.race_snapshot" and snapshot["now_ms"] >= view["created_at_ms"]
    watch.close()
    assert api(host, "POST", f"/api/races/{view['race_id']}/leave")[0] == 200


def _games_in_log(redis, race_id: str) -> dict[str, str]:
    from services.races.events import GamesDealt, from_stored

    for _, fields in redis.xrange(log_key(race_id, "race")):
        event = from_stored(decode_event(fields[ENTRY_FIELD]))
        if isinstance(event, GamesDealt):
            return event.games
    return {}


def refused(url: str) -> tuple[str, int]:
    """The error a socket was told, and the code it was closed with."""
    with connect(url) as sock:
        code = json.loads(sock.recv(timeout=10))["code"]
        with pytest.raises(ConnectionClosed) as closed:
            sock.recv(timeout=10)
        return code, closed.value.rcvd.code


def test_the_race_socket_takes_a_ticket_once_and_never_a_token(guests):
    host = guests()
    status, view, _ = api(host, "POST", "/api/races", json=WISH)
    assert status == 201
    url = f"{host.base_url.replace('http://', 'ws://')}/ws/races/{view['race_id']}"
    assert refused(f"{url}?token={host.token}") == ("token_in_url", 4401)  # a URL ends up in logs
    assert refused(url) == ("unauthorized", 4401)
    assert refused(f"{url}?ticket=made-up") == ("bad_ticket", 4401)
    ticket = host.ticket()
    with connect(f"{url}?ticket={ticket}") as first:
        assert json.loads(first.recv(timeout=10))["role"] == "racer"
        assert refused(f"{url}?ticket={ticket}") == ("bad_ticket", 4401)  # one use: a copied ticket is dead
        # A race's games are the race's: a racer's socket makes none of its own (c2s.new_game is the game socket's).
        first.send(json.dumps({"type": "c2s.new_game", "request_id": "r", "game": "wish"}))
        assert json.loads(first.recv(timeout=10))["code"] == "not_a_game"
    assert api(host, "POST", f"/api/races/{view['race_id']}/leave")[0] == 200


def test_races_are_counted_in_the_metrics_by_event(guests, race_server):
    from tests.gateway.test_metrics import scrape, value

    with httpx.Client(base_url=race_server.url, timeout=10) as http:
        before = scrape(http)
        host = guests()
        status, view, _ = api(host, "POST", "/api/races", json=WISH)
        assert status == 201
        assert api(host, "POST", f"/api/races/{view['race_id']}/leave")[0] == 200  # the last one out ends it
        after = scrape(http)
    for kind, moved in (("race_created", 1), ("racer_left", 1), ("race_ended", 1), ("race_started", 0)):
        delta = value(after, "arena_race_events_total", type=kind) - value(before, "arena_race_events_total", type=kind)
        assert delta == moved, (kind, delta)
