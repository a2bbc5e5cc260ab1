"""The human-speed review end to end: a real `arena serve` with a test clock, a scripted daily win and a
person's over the socket, both verified by the server's own validator; the script's stays ranked, marked
`review` with its reasons, until `arena review clear` (a real process on REDIS_URL) clears it once.

The clock file is every time the server measures, so the test plays at exactly the tempo it means: the
audit's script (16 pairs in 2,648 ms from the first look) and a person 1 to 4 s a move.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time

import httpx
import pytest

import engine
from engine.solver import solve
from services.store.envelope import ENTRY_FIELD, decode_event
from services.store.keys import attempt_stream_id, log_key
from tests.gateway.client import Client
from tests.gateway.test_dailies import TOURNAMENT_SECRET, Clock, _seed_from_log, register, wait_for
from tests.gateway.test_two_processes import ServeProcess

pytestmark = pytest.mark.integration

DAY = dt.date(2032, 7, 14)  # this test's own day on the session's shared Redis
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
WISH = f"{DAY.isoformat()}/wish/mode=standard"
SCRIPT = [180, 166, 161, 170, 163, 168, 159, 167, 164, 171, 160, 166, 162, 169, 165, 157]  # 2,648 ms
PERSON = [2300, 1200, 3400, 1800, 2600, 1100, 3900, 1500, 2200, 1300, 2900, 1700, 3100, 1000, 2400, 1600]


@pytest.fixture
def server(redis_url, tmp_path):
    clock = Clock(tmp_path / "clock")
    clock.set(OPENS - HOUR)  # the eve: accounts made now are ranked on the day
    env = {"ARENA_TEST_CLOCK_FILE": str(clock.path), "ARENA_SCHEDULER": "1", "ARENA_DAILY_GAMES": "wish",
           "ARENA_TOURNAMENT_SECRET": TOURNAMENT_SECRET}  # the review's default thresholds, the validator inside
    process = ServeProcess(redis_url, tmp_path / "serve", env)
    yield clock, process, env
    process.stop()


def arena_review(redis_url: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", "review", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **env, "REDIS_URL": redis_url})


def win_at_tempo(client: Client, url: str, game_id: str, clock: Clock, at_ms: int, gaps: list[int], redis) -> None:
    """The attempt won along the solver's line: the first look at `at_ms`, move k `gaps[k]` ms after the one before."""
    state = engine.initial_state("wish", {"mode": "standard"}, _seed_from_log(redis, game_id))
    clock.set(at_ms)
    sock = client.open(game_id, url)
    sock.recv()
    for version, (intent, gap) in enumerate(zip(solve(state).line, gaps, strict=True)):
        at_ms += gap
        clock.set(at_ms)
        answer = sock.move(version, {"type": "pair", "a": intent.a, "b": intent.b})
        assert answer["type"] == "s2c.accepted", answer
    sock.close()


def test_a_scripted_win_is_marked_review_until_an_operator_clears_it(server, redis_url, sync_redis_client, audit):
    clock, serve, env = server
    http = httpx.Client(base_url=serve.url, timeout=20)
    day_path = f"/api/dailies/{DAY.isoformat()}"
    wait_for(lambda: http.get(day_path).json()["challenges"], "the Wish to be prepared")
    suffix = str(time.time_ns())[-6:]
    bot, person = register(http, f"bot{suffix}", audit), register(http, f"amy{suffix}", audit)
    clock.set(OPENS + HOUR)
    wait_for(lambda: http.get(day_path).json()["challenges"][0]["challenge"]["status"] == "open", "the Wish to open")
    path = f"/api/dailies/{WISH}"
    games = {c.player_id: http.post(f"{path}/attempt", headers=c.headers).json()["id"] for c in (bot, person)}
    win_at_tempo(bot, serve.url, games[bot.player_id], clock, OPENS + HOUR, SCRIPT, sync_redis_client)
    win_at_tempo(person, serve.url, games[person.player_id], clock, OPENS + 2 * HOUR, PERSON, sync_redis_client)

    def rows():
        page = http.get(f"{path}/leaderboard", headers=bot.headers).json()["page"]["rows"]
        return {row["entry"]["player"]: row for row in page} if len(page) == 2 else None

    board = wait_for(rows, "both wins to be verified")
    flagged = board[bot.player_id]
    assert flagged["rank"] == 1 and flagged["entry"]["time_ms"] == 2_648  # its place is kept
    assert flagged["entry"]["review"] and flagged["entry"]["review_reasons"] == ["fast_first_move", "even_tempo",
                                                                               "fast_total"]
    assert not board[person.player_id]["entry"]["review"]

    listed = arena_review(redis_url, env, "list", DAY.isoformat())
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert bot.player_id in listed.stdout and "fast_first_move, even_tempo, fast_total" in listed.stdout
    assert person.player_id not in listed.stdout and "1 win(s) under review" in listed.stdout

    cleared = arena_review(redis_url, env, "clear", WISH, bot.player_id, "--note", "watched the replay")
    assert cleared.returncode == 0 and "cleared" in cleared.stdout, cleared.stdout + cleared.stderr
    entry = wait_for(lambda: (e := rows()[bot.player_id])["entry"]["review"] is False and e, "the mark to go")
    assert entry["rank"] == 1 and entry["entry"]["review_reasons"]  # the reasons stay, for the record
    stream = sync_redis_client.xrange(log_key(attempt_stream_id(WISH, bot.player_id), "daily"))
    types = [decode_event(fields[ENTRY_FIELD]).type for _, fields in stream]
    assert types[-2:] == ["review_flagged", "review_cleared"]

    again = arena_review(redis_url, env, "clear", WISH, bot.player_id)
    assert again.returncode == 1 and "not_under_review" in again.stdout and "cleared" in again.stdout
    wrong = arena_review(redis_url, env, "clear", WISH, person.player_id)
    assert wrong.returncode == 1 and "never flagged" in wrong.stdout
    nobody = arena_review(redis_url, env, "clear", WISH, "nobody-here")
    assert nobody.returncode == 1 and "no_such_player" in nobody.stdout
    assert len(sync_redis_client.xrange(log_key(attempt_stream_id(WISH, bot.player_id), "daily"))) == len(stream)
    assert "0 win(s) under review" in arena_review(redis_url, env, "list", WISH).stdout
    http.close()
