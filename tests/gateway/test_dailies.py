"""A daily challenge end to end on two real `arena serve` processes with a shared test clock.

The day is crossed by rewriting the clock file both servers read: commitments prepared by exactly one
scheduler, attempts won, lost and resigned over the socket with every frame and body scanned for the
seed, the salt and unseen cards, the close, the hour of grace, the reveal, and `arena verify-daily`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time

import httpx
import pytest
from websockets.sync.client import connect

import engine
from engine.solver import solve
from tests.gateway.client import Client
from tests.gateway.test_two_processes import ServeProcess

pytestmark = pytest.mark.integration

DAY = dt.date(2032, 5, 6)  # a day of this test's own on the session's shared Redis
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
WISH = f"{DAY.isoformat()}/wish/mode=standard"
TOURNAMENT_SECRET = "a tournament secret for the daily test"


class Clock:
    def __init__(self, path) -> None:
        self.path = path

    def set(self, ms: int) -> None:
        draft = self.path.with_suffix(".draft")
        draft.write_text(str(ms))
        draft.replace(self.path)  # whole, at once: a server never reads half a number


@pytest.fixture
def day(redis_url, tmp_path, audit):
    clock = Clock(tmp_path / "clock")
    clock.set(OPENS - HOUR)  # the eve: accounts made now are ranked on the day (made before it opened)
    env = {"ARENA_TEST_CLOCK_FILE": str(clock.path), "ARENA_SCHEDULER": "1", "ARENA_DAILY_GAMES": "wish",
           "ARENA_TOURNAMENT_SECRET": TOURNAMENT_SECRET, "ARENA_VALIDATORS": "0"}
    servers = [ServeProcess(redis_url, tmp_path / name, env) for name in ("a", "b")]
    # The deployment's shape: gateways without validators, and an `arena validate` process beside them.
    validator = subprocess.Popen([sys.executable, "-m", "cli.main", "validate"], env={**os.environ, **env,
                                 "REDIS_URL": redis_url}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    https = [httpx.Client(base_url=s.url, timeout=20) for s in servers]
    yield clock, servers, https
    validator.terminate()
    validator.wait(20)
    for http in https:
        http.close()
    for server in servers:
        if server.process.poll() is None:
            server.stop()


def wait_for(check, what: str, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def card_of(body: dict, key: str) -> dict | None:
    return next((c for c in body["today"]["challenges"] if c["challenge"]["challenge"] == key), None)


def register(http, name: str, audit) -> Client:
    body = http.post("/api/accounts", json={"name": name, "password": "correct horse battery"})
    assert body.status_code == 201, body.text
    return Client(str(http.base_url).rstrip("/"), http, audit, body.json()["player_id"], body.json()["token"])


def test_a_daily_from_commitment_to_reveal_on_two_processes(day, sync_redis_client, tmp_path, audit):
    clock, (a, b), (http_a, http_b) = day
    wait_for(lambda: http_a.get(f"/api/dailies/{DAY.isoformat()}").json()["challenges"], "the Wish to be prepared")
    suffix = str(time.time_ns())[-6:]
    ann, ben = register(http_a, f"ann{suffix}", audit), register(http_b, f"ben{suffix}", audit)
    clock.set(OPENS + HOUR)
    card = wait_for(lambda: card_of(http_a.get("/api/dailies").json(), WISH), "today's Wish to be open")
    commitment = card["challenge"]["commitment"]
    assert card["challenge"]["status"] == "open" and card["challenge"]["seed"] is None
    assert card_of(http_b.get("/api/dailies").json(), WISH)["challenge"]["commitment"] == commitment
    upcoming = http_b.get("/api/dailies").json()["upcoming"]
    assert len({c["date"] for c in upcoming}) == 7  # published for the next 7 days too
    stream = sync_redis_client.xrange(f"arena:daily:{{daily-{WISH}}}:log")
    assert len(stream) == 1  # two schedulers, one commitment

    assert http_a.post("/api/accounts", json={"name": f"ANN{suffix}", "password": "x" * 12}).json()["code"] == "name_taken"
    wrong = http_b.post("/api/session/sign-in", json={"name": f"ann{suffix}", "password": "wrong password"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "wrong_password"
    guest = Client.guest(a.url, http_a, audit)
    path = "/api/dailies/" + WISH
    watcher = connect(b.url.replace("http://", "ws://") + "/ws/dailies/" + WISH).__enter__()  # no token needed
    first = json.loads(watcher.recv(timeout=10))
    assert first["type"] == "s2c.board" and first["challenge"] == WISH
    attempt = http_a.post(f"{path}/attempt", headers=ann.headers).json()
    assert attempt["kind"] == "daily" and attempt["ranked"] and attempt["seed"] is None
    again = http_b.post(f"{path}/attempt", headers=ann.headers).json()
    assert again["id"] == attempt["id"]  # a second attempt is the first one again, on any process

    # Ann wins (the test knows the seed from the server's own stream; no response ever showed it).
    created = engine.initial_state("wish", {"mode": "standard"}, _seed_from_log(sync_redis_client, attempt["id"]))
    frames: list[str] = []
    sock = ann.open(attempt["id"], a.url)
    frames.append(json.dumps(sock.recv()))
    version = 0
    for intent in solve(created).line:
        sock.send({"type": "c2s.move", "move_id": f"m{version}", "version": version,
                   "move": {"type": "pair", "a": intent.a, "b": intent.b}})
        while True:
            frame = sock.conn.recv(timeout=10)
            frames.append(frame)
            if '"s2c.accepted"' in frame:  # it carries the game after the move
                break
        version += 1
    sock.close()
    # Ben resigns his; the guest plays unranked and resigns.
    ben_game = http_b.post(f"{path}/attempt", headers=ben.headers).json()
    spy = guest.http.get(f"/api/games/{ben_game['id']}/replay")
    assert spy.status_code == 403 and spy.json()["code"] == "not_public_yet"  # nobody but Ben opens it
    resign = ben.open(ben_game["id"], b.url)
    frames.append(json.dumps(resign.recv()))
    frames.append(json.dumps(resign.move(0, {"type": "resign"})))
    resign.close()
    guest_game = http_a.post(f"{path}/attempt", headers=guest.headers).json()
    assert not guest_game["ranked"]
    ranked_chosen = http_a.post("/api/games", json={"game": "wish", "variant": {"mode": "standard"}, "seed": 7},
                                headers=ann.headers).json()
    assert ranked_chosen["kind"] == "practice" and ranked_chosen["chosen_deal"] and not ranked_chosen["ranked"]

    board = wait_for(lambda: (r := http_b.get(f"{path}/leaderboard", headers=ann.headers).json())["page"]["rows"] and r,
                     "ann's win to be verified")
    assert [row["entry"]["player"] for row in board["page"]["rows"]] == [ann.player_id]
    assert board["mine"]["rank"] == 1 and board["counts"]["guests"] == 1
    pushed = [first]
    while pushed[-1]["counts"]["wins"] < 1:  # changes made through A reach the watcher on B, versioned
        pushed.append(json.loads(watcher.recv(timeout=20)))
    versions = [frame["version"] for frame in pushed]
    assert versions == sorted(set(versions)) and len(versions) > 1
    watcher.close()
    frames += [json.dumps(frame) for frame in pushed]
    bodies = [http_a.get("/api/dailies", headers=h).text for h in (ann.headers, ben.headers, guest.headers)]
    bodies += [http_a.get(f"/api/games/{g}", headers=h).text for g, h in
               ((attempt["id"], ann.headers), (ben_game["id"], ben.headers))]
    bodies += [json.dumps(board), http_b.get(f"/api/dailies/{DAY.isoformat()}").text]
    _assert_no_secret(sync_redis_client, attempt["id"], frames + bodies)

    # The close, the grace (the guest's game ends abandoned), the reveal, then everything is public.
    clock.set(OPENS + 24 * HOUR + 1)
    wait_for(lambda: http_a.get(f"/api/dailies/{DAY.isoformat()}").json()["challenges"][0]["challenge"]["status"]
             == "closed", "the close")
    assert http_a.get(f"/api/games/{attempt['id']}/replay").status_code == 403  # closed, still in the grace
    clock.set(OPENS + 25 * HOUR + 1)
    final = wait_for(lambda: (c := http_b.get(f"/api/dailies/{DAY.isoformat()}").json()["challenges"][0]["challenge"])
                     ["status"] == "final" and c, "the reveal", 90)
    assert final["seed"] is not None and final["salt"] and final["commitment"] == commitment
    assert http_a.get(f"/api/games/{guest_game['id']}", headers=guest.headers).json()["status"] == "abandoned"
    assert http_b.get(f"/api/games/{attempt['id']}/replay").status_code == 200
    assert len(sync_redis_client.xrange(f"arena:daily:{{daily-{WISH}}}:log")) == 3  # prepared, closed, revealed
    # Anyone checks the revealed day against its commitment, from the server or a saved file.
    checked = subprocess.run([sys.executable, "-m", "cli.main", "verify-daily", DAY.isoformat(), "--server", a.url],
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    saved = tmp_path / "day.json"
    saved.write_text(http_a.get(f"/api/dailies/{DAY.isoformat()}").text)
    forged = json.loads(saved.read_text())
    forged["challenges"][0]["challenge"]["seed"] += 1
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    assert subprocess.run([sys.executable, "-m", "cli.main", "verify-daily", "--file", str(saved)],
                          capture_output=True, text=True, timeout=120).returncode == 0
    bad = subprocess.run([sys.executable, "-m", "cli.main", "verify-daily", "--file", str(tmp_path / "forged.json")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "mismatch" in bad.stdout


def _seed_from_log(redis, game_id: str) -> int:
    from services.games.record import read_log
    from services.store.envelope import ENTRY_FIELD, decode_event
    from services.store.keys import log_key

    entries = [decode_event(fields[ENTRY_FIELD]) for _, fields in redis.xrange(log_key(game_id))]
    return read_log(entries).created.seed


def _assert_no_secret(redis, game_id: str, texts: list[str]) -> None:
    """No text carries the seed, the salt, the day key, or a card the player had not been shown."""
    stream = redis.xrange(f"arena:daily:{{daily-{WISH}}}:log")
    from services.store.envelope import ENTRY_FIELD, decode_event
    from services.tournaments.events import from_stored

    prepared = from_stored(decode_event(stream[0][1][ENTRY_FIELD]))
    secrets_ = [str(prepared.sealed.seed), prepared.sealed.salt, prepared.sealed.day_key]
    for text in texts:
        for secret in secrets_:
            assert secret not in text, f"a response carries a secret of the challenge: {text[:200]}"
