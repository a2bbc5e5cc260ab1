"""A revealed daily's proofs on a real `arena serve` (its scheduler and validator, a test clock file):
the replay file of the attempt carries the challenge's salt and commitment and `arena verify` accepts
it, refusing it with a changed commitment or one binding another seed; `arena verify-daily` checks
the day against a copy of the hub's answer saved the evening before, re-solving every skipped counter,
and names a commitment changed since that copy."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time

import httpx
import msgspec
import pytest
import redis

import engine
from engine.solver import solve
from services.games.record import read_log
from services.store.envelope import ENTRY_FIELD, decode_event
from services.store.keys import log_key
from services.tournaments.derivation import commitment
from tests.gateway.client import Audit, Client
from tests.gateway.test_dailies import Clock, register, wait_for
from tests.gateway.test_two_processes import ServeProcess

pytestmark = pytest.mark.integration

DAY = dt.date(2036, 9, 17)  # a day of this test's own
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
KEY = f"{DAY.isoformat()}/wish/mode=standard"
PATH = f"/api/dailies/{KEY}"


@pytest.fixture
def server(private_redis, tmp_path):
    # A Redis of its own: a validator of another test's server on a shared Redis could take this win.
    clock = Clock(tmp_path / "clock")
    clock.set(OPENS - HOUR)  # the eve: an account made now is ranked on the day
    env = {"ARENA_TEST_CLOCK_FILE": str(clock.path), "ARENA_SCHEDULER": "1", "ARENA_DAILY_GAMES": "wish",
           "ARENA_TOURNAMENT_SECRET": "a tournament secret for the proofs test", "ARENA_VALIDATORS": "1"}
    serve = ServeProcess(private_redis.url, tmp_path / "serve", env)
    sync = redis.Redis.from_url(private_redis.url)
    with httpx.Client(base_url=serve.url, timeout=20) as http:
        yield serve, clock, http, sync
    sync.close()
    serve.stop()


def arena(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}  # a wide terminal: the summary table's cells stay on one line
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True, text=True, timeout=120, env=env)


def status_of(http: httpx.Client) -> str:
    cards = http.get(f"/api/dailies/{DAY.isoformat()}").json()["challenges"]
    return next((c["challenge"]["status"] for c in cards if c["challenge"]["challenge"] == KEY), "")


def play_out(client: Client, game_id: str, seed: int) -> None:
    sock = client.open(game_id)
    sock.recv()
    for version, intent in enumerate(solve(engine.initial_state("wish", {"mode": "standard"}, seed)).line):
        assert sock.move(version, msgspec.to_builtins(intent))["type"] == "s2c.accepted"
    sock.close()


class RevealedDeal:
    """The audit for a game on a revealed deal: it may show its seed and deal while in play."""

    def check(self, game_id: str, frame: dict) -> None:
        pass


def resign(client: Client, game_id: str) -> None:
    client = Client(client.base_url, client.http, RevealedDeal(), client.player_id, client.token)
    sock = client.open(game_id)
    sock.recv()
    assert sock.move(0, {"type": "resign"})["type"] == "s2c.accepted"
    sock.close()


def test_a_revealed_daily_proves_its_deal_in_its_replay_file_and_against_the_copy_saved_before(server, tmp_path):
    serve, clock, http, sync = server
    wait_for(lambda: status_of(http) == "scheduled", "the day to be prepared")
    before = tmp_path / "dailies-before.json"
    before.write_text(http.get("/api/dailies").text)  # the eve's hub: the day's commitment among the upcoming
    assert KEY in {c["challenge"] for c in json.loads(before.read_text())["upcoming"]}
    audit = Audit(sync)
    ann = register(http, f"pro{time.time_ns() % 10**8}", audit)
    clock.set(OPENS + HOUR)
    wait_for(lambda: status_of(http) == "open", "the day to open")
    attempt = http.post(f"{PATH}/attempt", headers=ann.headers).raise_for_status().json()
    assert attempt["ranked"]
    seed = read_log([decode_event(f[ENTRY_FIELD]) for _, f in sync.xrange(log_key(attempt["id"]))]).created.seed
    play_out(ann, attempt["id"], seed)
    guest = Client.guest(serve.url, http, audit)
    guest_game = http.post(f"{PATH}/attempt", headers=guest.headers).raise_for_status().json()
    wait_for(lambda: http.get(f"{PATH}/leaderboard").json()["page"]["rows"], "ann's win to be verified")
    assert http.get(f"/api/games/{attempt['id']}/replay").status_code == 403  # before the reveal: nothing
    clock.set(OPENS + 24 * HOUR + 1)
    wait_for(lambda: status_of(http) == "closed", "the close")
    clock.set(OPENS + 25 * HOUR + 1)
    wait_for(lambda: status_of(http) == "final", "the reveal", 90)
    final = http.get(f"/api/dailies/{DAY.isoformat()}").json()["challenges"][0]["challenge"]

    # The attempt's replay file carries the revealed salt and the commitment published before the day.
    body = http.get(f"/api/games/{attempt['id']}/replay").raise_for_status().json()
    assert (body["challenge"], body["seed"], body["salt"], body["commitment"]) == \
           (KEY, final["seed"], final["salt"], final["commitment"])
    good = tmp_path / "attempt.replay.json"
    good.write_text(json.dumps(body))
    checked = arena("verify", str(good))
    assert checked.returncode == 0 and "verified" in checked.stdout, checked.stdout + checked.stderr
    changed = tmp_path / "changed.replay.json"
    changed.write_text(json.dumps({**body, "commitment": "0" * 64}))
    other_seed = commitment(DAY.isoformat(), "wish", "mode=standard", final["seed"] + 1, bytes.fromhex(final["salt"]))
    elsewhere = tmp_path / "other-seed.replay.json"
    elsewhere.write_text(json.dumps({**body, "commitment": other_seed}))
    moved = tmp_path / "other-day.replay.json"  # the same commitment claimed for the next day's challenge
    moved.write_text(json.dumps({**body, "challenge": KEY.replace(DAY.isoformat(), str(DAY + dt.timedelta(days=1)))}))
    refused = arena("verify", str(changed), str(elsewhere), str(moved))
    assert refused.returncode == 1 and refused.stdout.count("commitment_mismatch") == 2, refused.stdout
    assert "0 verified, 3 failed" in refused.stdout and "tampered_file" in refused.stdout

    # Practice on the deal carries them too; the guests' deal, which no commitment binds, does not.
    practice = http.post(f"{PATH}/practice", headers=ann.headers).raise_for_status().json()
    resign(ann, practice["id"])
    practised = http.get(f"/api/games/{practice['id']}/replay").raise_for_status().json()
    assert (practised["salt"], practised["commitment"]) == (final["salt"], final["commitment"])
    guests = http.get(f"/api/games/{guest_game['id']}/replay").raise_for_status().json()
    assert guests["seed"] != final["seed"] and guests["salt"] is None and guests["commitment"] is None

    # verify-daily against the eve's copy: every skipped counter re-solved; a changed copy is named.
    true_copy = arena("verify-daily", DAY.isoformat(), "--server", serve.url, "--published", str(before))
    out = true_copy.stdout
    assert true_copy.returncode == 0, out + true_copy.stderr
    assert "commitment: matches the one published before the day (dailies-before.json" in out
    for counter in range(final["counter"]):
        assert f"skipped counter {counter} (seed " in out and "re-solved, refused by exact_solver" in out
    assert f"chosen counter {final['counter']}: re-solved, accepted by exact_solver" in out
    forged = json.loads(before.read_text())
    for info in forged["upcoming"]:
        if info["challenge"] == KEY:
            info["commitment"] = "f" * 64
    (tmp_path / "forged-before.json").write_text(json.dumps(forged))
    lied = arena("verify-daily", DAY.isoformat(), "--server", serve.url, "--published", str(tmp_path / "forged-before.json"))
    assert lied.returncode == 1, lied.stdout + lied.stderr
    assert f"mismatch: the commitment published before the day was {'f' * 64}" in lied.stdout
    alone = arena("verify-daily", DAY.isoformat(), "--server", serve.url)
    assert alone.returncode == 0 and "compared only with the server's present answer" in alone.stdout
