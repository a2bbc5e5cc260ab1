"""Ratings per game and variant from race results: openskill's Plackett-Luce model.

A projection of the race logs: each race's final standings (ResultsFinal) update its racers' ratings
on the board of its game and variant, in the order the results became final. `rebuild_ratings` runs
every race log again from nothing and writes the same boards, so the Redis keys are a cache.

A rating is shown as mu with its uncertainty sigma; the leaderboard sorts by the conservative value
mu - 3 sigma (openskill's ordinal), so a newcomer's wide uncertainty keeps them low until they have
raced. A player's first PROVISIONAL_RACES races on a board are marked provisional.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec import Struct
from openskill.models import PlackettLuce

from engine.rules import variant_key

from ..store.keys import RACE_LOG_KEY_PATTERN, RACE_STREAMS, game_id_of_log_key
from ..store.keys import ratings_board_key, ratings_changes_key, ratings_key, ratings_lock_key, ratings_rated_key
from .events import Standing

PROVISIONAL_RACES = 10
LOCK_MS = 5_000
MODEL = PlackettLuce()


class Rating(Struct, frozen=True):
    mu: float
    sigma: float
    races: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RatingRow(Struct, frozen=True):
    """One line of a rating leaderboard."""

    place: int
    player: str
    rating: float  # mu - 3 sigma: what the board sorts by
    mu: float
    sigma: float  # the uncertainty: mu is likely within about 2 sigma of the player's skill
    races: int
    provisional: bool  # fewer than PROVISIONAL_RACES races on this board


class RatingChange(Struct, frozen=True):
    """What one race did to one racer's rating on its board (the results page shows it)."""

    player: str
    before: float  # mu - 3 sigma before the race (a newcomer's starting rating on a first race)
    after: float
    first_race: bool  # the player's first race on this board
    mu: float  # after the race, with its uncertainty
    sigma: float
    races: int
    provisional: bool


class RaceRatings(Struct, frozen=True):
    """A race's rating changes, in the order of its standings; `rated` turns true once the race was rated
    (a moment after its results are final)."""

    race_id: str
    board: str
    rated: bool
    changes: list[RatingChange]


class RatedRace(Struct, frozen=True):
    race_id: str
    board: str
    standings: list[Standing]
    final_at_ms: int


def board_of(game: str, variant: dict[str, Any]) -> str:  # Any: a variant's JSON values (the engine checks them)
    """A board's name: the game and its canonical variant text, e.g. "spider/suits=2"."""
    return f"{game}/{variant_key(variant)}"


def fresh() -> Rating:
    start = MODEL.rating()
    return Rating(start.mu, start.sigma, 0)


def rate(current: dict[str, Rating], standings: list[Standing]) -> dict[str, Rating]:
    """The racers' ratings after one race (pure). Each racer is a team of one; equal places tie."""
    players = [s.player for s in standings]
    if len(players) < 2:
        return {}
    teams = [[MODEL.rating(mu=current.get(p, fresh()).mu, sigma=current.get(p, fresh()).sigma)] for p in players]
    rated = MODEL.rate(teams, ranks=[s.place for s in standings])
    return {
        player: Rating(team[0].mu, team[0].sigma, current.get(player, fresh()).races + 1)
        for player, team in zip(players, rated)
    }


Changes = dict[str, tuple[Rating | None, Rating]]  # one race's: player -> (before or None, after)


def fold_ratings(races: Iterable[RatedRace], changes: dict[str, dict[str, Changes]] | None = None
                 ) -> dict[str, dict[str, Rating]]:
    """Every board's ratings after the races, in the order given (pure); each race's changes go into
    `changes` (board -> race id -> Changes) when it is given."""
    boards: dict[str, dict[str, Rating]] = {}
    for race in races:
        board = boards.setdefault(race.board, {})
        after = rate(board, race.standings)
        if changes is not None:
            changes.setdefault(race.board, {})[race.race_id] = {p: (board.get(p), r) for p, r in after.items()}
        board.update(after)
    return boards


def change_rows(standings: list[Standing], changes: Changes) -> list[RatingChange]:
    rows = []
    for standing in standings:
        if standing.player in changes:
            before, after = changes[standing.player]
            rows.append(RatingChange(standing.player, (before or fresh()).ordinal, after.ordinal, before is None,
                                     after.mu, after.sigma, after.races, after.races < PROVISIONAL_RACES))
    return rows


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Rating)
_changes_decoder = msgspec.msgpack.Decoder(Changes)


class Ratings:
    """The boards in Redis. One race is rated once; one board is written by one process at a time."""

    def __init__(self, redis: Any) -> None:  # Any: a redis-py client, one server's or a cluster's (they share no type)
        self.redis = redis

    async def record(self, race: RatedRace) -> bool:
        """Rate a race's final standings (once; False when it was rated before)."""
        token = secrets.token_hex(8)
        lock = ratings_lock_key(race.board)
        for _ in range(200):
            if await self.redis.set(lock, token, nx=True, px=LOCK_MS):
                break
            await asyncio.sleep(0.01)
        else:
            raise TimeoutError(f"the ratings board {race.board!r} stayed locked")
        try:
            if await self.redis.hexists(ratings_rated_key(race.board), race.race_id):
                return False
            players = [s.player for s in race.standings]
            stored = await self.redis.hmget(ratings_key(race.board), players) if players else []
            current = {p: _decoder.decode(raw) for p, raw in zip(players, stored) if raw is not None}
            after = rate(current, race.standings)
            changes = {race.race_id: {p: (current.get(p), r) for p, r in after.items()}}
            await self._write(race.board, after, {race.race_id: race.final_at_ms}, changes)
            return True
        finally:
            await self.redis.eval(
                "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
                1, lock, token,
            )

    async def _write(self, board: str, ratings: dict[str, Rating], rated: dict[str, int],
                     changes: dict[str, Changes]) -> None:
        pipe = self.redis.pipeline(transaction=True)  # one board's keys share a slot
        if ratings:
            pipe.hset(ratings_key(board), mapping={p: _encoder.encode(r) for p, r in ratings.items()})
            pipe.zadd(ratings_board_key(board), {p: r.ordinal for p, r in ratings.items()})
        if rated:
            pipe.hset(ratings_rated_key(board), mapping=rated)
        if changes:
            pipe.hset(ratings_changes_key(board), mapping={r: _encoder.encode(c) for r, c in changes.items()})
        await pipe.execute()

    async def race_ratings(self, race: RatedRace) -> RaceRatings:
        """What a race with final standings changed (rated false, no changes, until it is rated)."""
        raw = await self.redis.hget(ratings_changes_key(race.board), race.race_id)
        if raw is None:
            return RaceRatings(race.race_id, race.board, False, [])
        return RaceRatings(race.race_id, race.board, True, change_rows(race.standings, _changes_decoder.decode(raw)))

    async def rating_of(self, board: str, player: str) -> Rating | None:
        raw = await self.redis.hget(ratings_key(board), player)
        return None if raw is None else _decoder.decode(raw)

    async def leaderboard(self, board: str, limit: int = 50) -> list[RatingRow]:
        ranked = await self.redis.zrevrange(ratings_board_key(board), 0, max(0, limit - 1))
        players = [_text(p) for p in ranked]
        stored = await self.redis.hmget(ratings_key(board), players) if players else []
        rows = []
        for place, (player, raw) in enumerate(zip(players, stored), start=1):
            if raw is None:
                continue
            r = _decoder.decode(raw)
            rows.append(RatingRow(place, player, r.ordinal, r.mu, r.sigma, r.races, r.races < PROVISIONAL_RACES))
        return rows

    async def replace_all(self, boards: dict[str, dict[str, Rating]], rated: dict[str, dict[str, int]],
                          changes: dict[str, dict[str, Changes]] | None = None) -> None:
        for board in set(boards) | set(rated):
            await self.redis.delete(ratings_key(board), ratings_board_key(board), ratings_rated_key(board),
                                    ratings_changes_key(board))
            await self._write(board, boards.get(board, {}), rated.get(board, {}), (changes or {}).get(board, {}))


async def rebuild_ratings(races_store, ratings: Ratings) -> int:
    """Rate every race with final results again, from their logs, in the order they became final;
    returns how many races were rated. `races_store` is a services.races.store.RaceStore."""
    finished: list[RatedRace] = []
    async for key in races_store.redis.scan_iter(match=RACE_LOG_KEY_PATTERN, count=500):
        race_id = game_id_of_log_key(_text(key), RACE_STREAMS)
        state = None if race_id is None else await races_store.load(race_id)
        if state is not None and state.final is not None:
            finished.append(rated_race_of(state))
    finished.sort(key=lambda race: (race.final_at_ms, race.race_id))
    rated: dict[str, dict[str, int]] = {}
    for race in finished:
        rated.setdefault(race.board, {})[race.race_id] = race.final_at_ms
    changes: dict[str, dict[str, Changes]] = {}
    await ratings.replace_all(fold_ratings(finished, changes), rated, changes)
    return len(finished)


def rated_race_of(state) -> RatedRace:
    assert state.final is not None and state.created is not None
    board = board_of(state.created.game, state.created.variant)
    return RatedRace(state.race_id, board, list(state.final.standings), state.final.at_ms)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
