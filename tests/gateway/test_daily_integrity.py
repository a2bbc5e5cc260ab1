"""Issue 31's cheats and faults tried against a real `arena serve` on a Redis of its own, with the daily
scheduler on and a test clock (ARENA_TEST_CLOCK_FILE) the test moves: each one must fail.

- Simultaneous first attempt requests (2 and 12) from one account: one game, never ended by another.
- A throwaway guest scouts the deal (resign at move 0, then practice, hints, ghosts), then a fresh account
  plays it: the guest and the fresh account are both on the guests' deal, unranked, and see nothing of
  the ranked one, for The Wish and for Patient Pairs (dealt face up).
- The clock jumps 5 days past the scheduler's last round: the old day is still revealed, and its running
  attempt never shows the seed before that reveal.
- Day D+8's commitment is made during day D: 7 days ahead from the first instant of day D+1.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import msgspec
import pytest
import redis

import engine
from engine.solver import solve
from services.games.record import read_log
from services.store.envelope import ENTRY_FIELD, decode_event
from services.store.keys import log_key, player_games_key, scheduler_lock_key
from services.tournaments.derivation import verify_commitment
from services.tournaments.events import from_stored
from tests.gateway.client import Audit, Client
from tests.gateway.test_dailies import TOURNAMENT_SECRET, Clock, register, wait_for
from tests.gateway.test_two_processes import ServeProcess

pytestmark = pytest.mark.integration

HOUR, DAY_MS = 3600 * 1000, 24 * 3600 * 1000
WISH, PAIRS = ("wish", "mode=standard"), ("patient-pairs", "piles=13")


def opens(day: dt.date) -> int:
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000)


def key_of(day: dt.date, game: tuple[str, str]) -> str:
    return f"{day.isoformat()}/{game[0]}/{game[1]}"


class Arena:
    def __init__(self, server: ServeProcess, clock: Clock, http: httpx.Client, redis_client) -> None:
        self.server, self.clock, self.http, self.redis = server, clock, http, redis_client
        self.audit = Audit(redis_client)

    def challenge(self, key: str) -> dict | None:
        day = self.http.get(f"/api/dailies/{key.split('/')[0]}").json()
        return next((c["challenge"] for c in day["challenges"] if c["challenge"]["challenge"] == key), None)

    def prepared(self, key: str):
        """The challenge's ChallengePrepared, from the server's own stream (its seeds are secret)."""
        stream = self.redis.xrange(f"arena:daily:{{daily-{key}}}:log")
        return from_stored(decode_event(stream[0][1][ENTRY_FIELD]))

    def log(self, game_id: str):
        return read_log([decode_event(f[ENTRY_FIELD]) for _, f in self.redis.xrange(log_key(game_id))])

    def eve_accounts(self, day: dt.date, count: int) -> list[Client]:
        """Accounts made the evening before `day` (ranked on it), then the clock at 01:00 of the day."""
        self.clock.set(opens(day) - HOUR)
        wait_for(lambda: all(self.challenge(key_of(day, g)) for g in (WISH, PAIRS)), "the day to be prepared")
        made = [register(self.http, f"ev{time.time_ns() % 10**9}", self.audit) for _ in range(count)]
        self.clock.set(opens(day) + HOUR)
        return made

    def play(self, client: Client, game_id: str, game: str, variant: dict, moves: int | None = None) -> None:
        """The solver's line for the game's deal (known only from the server's log), or its first moves."""
        line = solve(engine.initial_state(game, variant, self.log(game_id).created.seed)).line
        sock = client.open(game_id)
        sock.recv()
        for version, intent in enumerate(line[:moves]):
            assert sock.move(version, msgspec.to_builtins(intent))["type"] == "s2c.accepted"
        sock.close()


@pytest.fixture(scope="module")
def arena(private_redis, tmp_path_factory):
    folder = tmp_path_factory.mktemp("integrity")
    clock = Clock(folder / "clock")
    clock.set(opens(dt.date(2036, 1, 1)))
    env = {"ARENA_TEST_CLOCK_FILE": str(clock.path), "ARENA_SCHEDULER": "1", "ARENA_VALIDATORS": "1",
           "ARENA_DAILY_GAMES": "wish,patient-pairs", "ARENA_TOURNAMENT_SECRET": TOURNAMENT_SECRET}
    server = ServeProcess(private_redis.url, folder / "data", env)
    client = redis.Redis.from_url(private_redis.url)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        yield Arena(server, clock, http, client)
    client.close()
    server.stop()


def test_simultaneous_attempt_requests_give_one_game_that_ranks(arena):
    day = dt.date(2036, 2, 3)
    key = key_of(day, WISH)
    pair, dozen = arena.eve_accounts(day, 2)
    for player, requests in ((pair, 2), (dozen, 12)):
        def ask(_):
            return httpx.post(f"{arena.server.url}/api/dailies/{key}/attempt", headers=player.headers, timeout=30)

        with ThreadPoolExecutor(requests) as pool:
            answers = list(pool.map(ask, range(requests)))
        assert {a.status_code for a in answers} == {200}, [a.text for a in answers]
        assert len({a.json()["id"] for a in answers}) == 1, "one attempt, one game, whichever request won"
        assert all(a.json()["ranked"] for a in answers)
        games = arena.redis.zrange(player_games_key(player.player_id), 0, -1)
        assert len(games) == 1, "no second game on the deal was ever made"
        mine = arena.http.get(f"/api/dailies/{key}/leaderboard", headers=player.headers).json()["mine"]
        assert mine["status"] == "playing"
    game_id = answers[0].json()["id"]
    arena.play(dozen, game_id, "wish", {"mode": "standard"})
    board = wait_for(lambda: (b := arena.http.get(f"/api/dailies/{key}/leaderboard", headers=dozen.headers).json())
                     ["mine"]["status"] == "verified" and b["page"]["rows"] and b, "the win to be verified")
    # (the page and my standing are two reads: a verdict landing between them shows one before the other)
    assert board["mine"]["rank"] == 1 and [r["entry"]["game_id"] for r in board["page"]["rows"]] == [game_id]
    [row] = [r for r in arena.http.get("/api/players/me/stats", headers=dozen.headers).json()["rows"]
             if r["game"] == "wish"]
    assert (row["played"], row["won"], row["lost"], row["abandoned"]) == (1, 1, 0, 0)  # no extra game lost


@pytest.mark.parametrize("game", [WISH, PAIRS], ids=["wish", "patient-pairs"])
def test_a_guest_scout_and_a_fresh_account_learn_nothing_of_the_ranked_deal(arena, game):
    day = dt.date(2036, 3, 5) if game == WISH else dt.date(2036, 3, 9)
    key, name = key_of(day, game), game[0]
    variant = {"mode": "standard"} if game == WISH else {"piles": 13}
    [rival] = arena.eve_accounts(day, 1)
    ranked_seed = arena.prepared(key).sealed.seed
    path = f"/api/dailies/{key}"

    guest = Client.guest(arena.server.url, arena.http, arena.audit)
    scout = arena.http.post(f"{path}/attempt", headers=guest.headers).json()
    assert not scout["ranked"] and scout["seed"] is None
    guest_seed = arena.log(scout["id"]).created.seed
    assert guest_seed != ranked_seed
    # The guest's first look shows its own deal: for Patient Pairs (face up) a whole other layout.
    assert engine.revealed_view(name, variant, guest_seed).piles != engine.revealed_view(name, variant, ranked_seed).piles
    sock = guest.open(scout["id"])
    seen = [json.dumps(sock.recv()), json.dumps(sock.move(0, {"type": "resign"}))]
    sock.close()
    for route in ("practice", "ghost"):  # resigned at move 0: no practice, no ghost before the reveal
        refused = arena.http.post(f"{path}/{route}", headers=guest.headers)
        assert refused.status_code == 409 and refused.json()["code"] in ("not_revealed", "not_final"), refused.text
    hint = arena.http.post(f"/api/games/{scout['id']}/hint", headers=guest.headers)
    assert hint.status_code in (403, 409), hint.text
    seen += [arena.http.get(f"/api/games/{scout['id']}", headers=guest.headers).text,
             arena.http.get(f"/api/games/{scout['id']}/replay", headers=guest.headers).text]

    # A fresh account, made after the opening, plays the guests' deal unranked: never the ranked one.
    fresh = register(arena.http, f"fr{time.time_ns() % 10**9}", arena.audit)
    attempt = arena.http.post(f"{path}/attempt", headers=fresh.headers).json()
    assert not attempt["ranked"] and arena.log(attempt["id"]).created.seed == guest_seed
    arena.play(fresh, attempt["id"], name, variant)  # a win learnt from the scout: ranks nowhere
    ranked = arena.http.post(f"{path}/attempt", headers=rival.headers).json()
    assert ranked["ranked"] and arena.log(ranked["id"]).created.seed == ranked_seed
    board = arena.http.get(f"{path}/leaderboard", headers=fresh.headers).json()
    assert board["page"]["rows"] == [] and board["mine"]["rank"] is None
    assert board["mine"]["status"] in ("guest_done", "guest_playing")
    for text in seen:
        assert str(ranked_seed) not in text and str(guest_seed) not in text


def test_a_day_five_days_past_the_schedulers_last_round_is_revealed_and_secret_until_then(arena):
    day = dt.date(2036, 4, 7)
    key = key_of(day, WISH)
    [ann] = arena.eve_accounts(day, 1)
    game = arena.http.post(f"/api/dailies/{key}/attempt", headers=ann.headers).json()
    arena.play(ann, game["id"], "wish", {"mode": "standard"}, moves=1)  # still running
    # The scheduler cannot settle the day (its lock held, as by a process stuck for days), the clock jumps.
    lock = scheduler_lock_key(f"settle:{key}")
    arena.redis.set(lock, "stuck", px=10 * 60 * 1000)
    arena.clock.set(opens(day) + 5 * DAY_MS + 2 * HOUR)
    later = (day + dt.timedelta(days=12)).isoformat()  # 5 + 7: the commitments a round after the jump makes
    wait_for(lambda: arena.http.get(f"/api/dailies/{later}").json()["challenges"], "a scheduler round after the jump")
    summary = ann.summary(game["id"])
    assert summary["seed"] is None and summary["status"] == "in_progress"
    assert arena.http.get(f"/api/games/{game['id']}/replay").status_code == 403
    assert arena.challenge(key)["status"] == "closed"
    arena.redis.delete(lock)  # the scheduler comes back: the five-day-old day is settled like any other
    final = wait_for(lambda: (c := arena.challenge(key))["status"] == "final" and c, "the reveal", 60)
    assert verify_commitment(final["commitment"], day.isoformat(), "wish", "mode=standard", final["seed"],
                             bytes.fromhex(final["salt"]))
    summary = ann.summary(game["id"])
    assert summary["status"] == "abandoned" and summary["seed"] == final["seed"]
    mine = arena.http.get(f"/api/dailies/{key}/leaderboard", headers=ann.headers).json()
    assert mine["page"]["final"] and mine["mine"]["status"] == "abandoned"


def test_the_commitments_are_out_seven_days_ahead_from_the_first_instant_of_a_day(arena):
    day = dt.date(2036, 6, 1)
    arena.clock.set(opens(day) + 12 * HOUR)
    ahead = day + dt.timedelta(days=8)
    cards = wait_for(lambda: len(c := arena.http.get(f"/api/dailies/{ahead.isoformat()}").json()["challenges"]) == 2
                     and c, "day D+8 to be prepared during day D")
    for card in cards:
        assert card["challenge"]["published_at_ms"] <= opens(ahead) - 7 * DAY_MS
        assert card["challenge"]["status"] == "scheduled" and card["challenge"]["seed"] is None
    arena.clock.set(opens(day + dt.timedelta(days=1)))  # the first instant of the next day: no waiting
    upcoming = arena.http.get("/api/dailies").json()["upcoming"]
    dates = {(day + dt.timedelta(days=n)).isoformat() for n in range(2, 9)}
    assert {c["date"] for c in upcoming} == dates and len(upcoming) == 14
    assert all(c["published_at_ms"] <= c["opens_at_ms"] - 7 * DAY_MS for c in upcoming
               if c["date"] == ahead.isoformat())
