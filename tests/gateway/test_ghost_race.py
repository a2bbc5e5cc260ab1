"""Ghost races on the real gateway (scheduler, validator and a test clock in one uvicorn process): refused
while the daily is open, and after its close in the hour of grace, with no card; after the reveal a
practice game on the deal, marked with its ghost in its log, and the ghost's progress at its times."""

from __future__ import annotations

import datetime as dt
import json
import time

import httpx
import msgspec
import pytest
import redis

import engine
from engine.solver import solve
from services.games.record import read_log
from services.races.progress import progress_of
from services.store.envelope import ENTRY_FIELD, decode_event
from services.store.keys import log_key
from tests.gateway.client import Audit, Client
from tests.gateway.conftest import ServerThread, gateway_settings
from tests.gateway.test_dailies import Clock, register, wait_for
from tests.races.client import card_keys_in

pytestmark = pytest.mark.integration

DAY = dt.date(2034, 7, 9)  # a day of this test's own on the session's shared Redis
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
KEY = f"{DAY.isoformat()}/wish/mode=standard"
PATH = f"/api/dailies/{KEY}"


@pytest.fixture(scope="module")
def daily_server(private_redis, tmp_path_factory):
    # A Redis of its own: every other test server on the session's Redis runs a validator in the same
    # consumer group, on the real clock, and one of them taking this daily's win left it unranked.
    folder = tmp_path_factory.mktemp("ghost")
    clock = Clock(folder / "clock")
    clock.set(OPENS - HOUR)  # the eve: the test's account is made before the day opens (ranked)
    settings = gateway_settings(private_redis.url, folder, test_clock_file=clock.path, scheduler=True,
                                daily_games=("wish",), validators=1)
    server = ServerThread(settings).start()
    yield server, clock
    server.stop()


@pytest.fixture(scope="module")
def private_sync(private_redis):
    client = redis.Redis.from_url(private_redis.url)
    yield client
    client.close()


def log_of(redis, game_id: str):
    return read_log([decode_event(fields[ENTRY_FIELD]) for _, fields in redis.xrange(log_key(game_id))])


def refused(http: httpx.Client, client: Client, code: str, status: int = 409) -> None:
    answer = http.post(f"{PATH}/ghost", headers=client.headers)
    body = answer.json()
    assert (answer.status_code, body["code"]) == (status, code), body
    assert not card_keys_in(body) and set(body) == {"code", "message"}


def status_of(http: httpx.Client) -> str:
    day = http.get(f"/api/dailies/{DAY.isoformat()}").json()
    return next((c["challenge"]["status"] for c in day["challenges"] if c["challenge"]["challenge"] == KEY), "")


def test_a_ghost_race_opens_only_after_the_reveal_and_races_the_best_verified_replay(daily_server, private_sync):
    server, clock = daily_server
    audit, sync_redis_client = Audit(private_sync), private_sync
    with httpx.Client(base_url=server.url, timeout=20) as http:
        wait_for(lambda: status_of(http) == "scheduled", "the Wish to be prepared")
        name = f"gho{time.time_ns() % 10**8}"
        ann = register(http, name, audit)
        clock.set(OPENS + HOUR)
        wait_for(lambda: status_of(http) == "open", "the Wish to open")
        racer = Client.guest(server.url, http, audit)
        refused(http, racer, "not_revealed")  # open, no win yet
        attempt = http.post(f"{PATH}/attempt", headers=ann.headers).raise_for_status().json()
        seed = log_of(sync_redis_client, attempt["id"]).created.seed
        line = solve(engine.initial_state("wish", {"mode": "standard"}, seed)).line
        sock = ann.open(attempt["id"])
        sock.recv()
        for version, intent in enumerate(line):
            assert sock.move(version, msgspec.to_builtins(intent))["type"] == "s2c.accepted"
        sock.close()
        wait_for(lambda: http.get(f"{PATH}/leaderboard").json()["page"]["rows"], "ann's win to be verified")
        refused(http, racer, "not_revealed")  # a verified win, the daily still open
        clock.set(OPENS + 24 * HOUR + 1)
        wait_for(lambda: status_of(http) == "closed", "the close")
        refused(http, racer, "not_revealed")  # closed, in the hour of grace: the deal is still secret
        assert http.get(f"/api/games/{attempt['id']}/replay").status_code == 403
        clock.set(OPENS + 25 * HOUR + 1)
        wait_for(lambda: status_of(http) == "final", "the reveal", 90)

        started = http.post(f"{PATH}/ghost", headers=racer.headers)
        assert started.status_code == 201, started.text
        game = started.json()
        assert (game["kind"], game["ranked"], game["challenge"], game["ghost"]) == ("practice", False, KEY, attempt["id"])
        created = log_of(sync_redis_client, game["id"]).created
        assert (created.kind, created.ranked, created.seed) == ("practice", False, seed)
        assert (created.links.challenge, created.links.ghost) == (KEY, attempt["id"]), "marked in its log"
        ghost = http.get(f"/api/games/{game['id']}/ghost").raise_for_status().json()
        plain = racer.create("wish", {"mode": "standard"}, seed=3)
        missing = http.get(f"/api/games/{plain['id']}/ghost")
        assert (missing.status_code, missing.json()["code"]) == (404, "not_a_ghost_race")
        assert http.get("/api/games/0123456789abcdef/ghost").status_code == 404
        replay = http.get(f"/api/games/{attempt['id']}/replay/views").raise_for_status().json()

    assert (ghost["game_id"], ghost["challenge"], ghost["name"]) == (attempt["id"], KEY, name)
    assert ghost["moves"] == len(line) and ghost["time_ms"] == replay["time_ms"]
    assert not card_keys_in(ghost), "counts only"
    points = ghost["points"]
    assert len(points) == len(line) + 1 and points[0] == {"elapsed_ms": 0, "moves": 0, "cards_home": 0,
                                                          "cards_left": 32, "status": "in_play"}
    for point, step in zip(points, replay["steps"]):
        view = msgspec.json.decode(json.dumps(step["view"]).encode(), type=engine.PlayerView)
        shown = progress_of("ghost", 0, view, step["elapsed_ms"])
        assert point == {"elapsed_ms": step["elapsed_ms"], "moves": shown.moves, "cards_home": shown.cards_home,
                         "cards_left": shown.cards_left, "status": shown.status}
    assert points[-1]["status"] == "won" and points[-1]["cards_left"] == 0

