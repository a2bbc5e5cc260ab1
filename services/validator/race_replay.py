"""What the race replay page shows: every racer of a finished race, in finishing order, each with
every step of their game (every card face up) on the race's one clock.

Every racer's game shows its deal at the start signal (its first look is logged at that time), so a
step's `elapsed_ms` is the time since the start for every racer alike: one clock drives all boards.

Nothing is served before the race has ended, for anyone: the race must say so (its public view),
and then every racer's game must pass public_game as well, the one check every replay route asks.
No solver review here (the single replay page has it): only the steps, cheap beside a search.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from msgspec import Struct

from ..games.model import NOT_PUBLIC_YET, Refusal
from ..games.record import read_log
from ..games.service import GameService
from ..races.view import RaceView
from ..store import StoredEvent
from .public import public_game
from .replay_views import Answers, ViewStep, off_the_loop, view_steps

RACE_NOT_OVER = "race_not_over"
NO_RACE_GAMES = "no_race_games"
ENDED_STATUSES = ("ended", "final")
CACHED_RACES = 8


class RacerReplay(Struct, frozen=True):
    player: str
    name: str | None  # the account's display name; None for a guest
    place: int | None  # from the standings: 1, 2, 2, 4 (equal results share a place)
    result: str  # won, lost, abandoned, timed_out, rejected
    moves: int
    time_ms: int | None
    verified: bool | None  # a win's verdict, None until it is in (or for no win)
    game_id: str
    steps: list[ViewStep]  # steps[0] the deal at the start signal; elapsed_ms from the start


class RaceReplay(Struct, frozen=True):
    race_id: str
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    status: str  # ended, or final once every win has its verdict
    seed: int
    start_at_ms: int
    ended_at_ms: int
    end_reason: str
    duration_ms: int  # the last logged step of any racer, from the start: the shared clock's end
    racers: list[RacerReplay]  # in finishing order (the standings'), seat order among equals


def build_race_replay(view: RaceView, logs: dict[str, list[StoredEvent]], names: dict[str, str | None]) -> RaceReplay:
    """The page's data from the race's public view (ended) and each racer's stored log (CPU-bound)."""
    racers_by_player = {r.player: r for r in view.racers}
    order = [s.player for s in view.standings or []]
    order += [r.player for r in view.racers if r.player not in order and r.game_id is not None]
    places = {s.player: s for s in view.standings or []}
    racers = []
    for player in order:
        racer = racers_by_player[player]
        assert racer.game_id is not None
        steps, _ = view_steps(read_log(logs[racer.game_id]))
        standing = places.get(player)
        racers.append(RacerReplay(
            player=player, name=names.get(player), place=standing.place if standing else None,
            result=standing.result if standing else (racer.result or "timed_out"),
            moves=standing.moves if standing else (racer.moves or 0),
            time_ms=standing.time_ms if standing else racer.time_ms, verified=racer.verified,
            game_id=racer.game_id, steps=steps,
        ))
    duration = max((r.steps[-1].elapsed_ms or 0 for r in racers), default=0)
    assert view.seed is not None and view.start_at_ms is not None and view.ended_at_ms is not None
    return RaceReplay(
        race_id=view.race_id, game=view.game, variant=view.variant, status=view.status, seed=view.seed,
        start_at_ms=view.start_at_ms, ended_at_ms=view.ended_at_ms, end_reason=view.end_reason or "",
        duration_ms=duration, racers=racers,
    )


_answers = Answers(CACHED_RACES)


async def public_race_replay(
    service: GameService, view: RaceView, name_of: Callable[[str], Awaitable[str | None]],
) -> bytes | Refusal:
    """The encoded RaceReplay of an ended race, or why not (not over yet, a game not public, busy)."""
    if view.status not in ENDED_STATUSES or view.seed is None:
        return Refusal(RACE_NOT_OVER, "a race's replay opens when the race has ended: no card of it is shown before")
    games = [r.game_id for r in view.racers if r.game_id is not None]
    if not games or view.start_at_ms is None:
        return Refusal(NO_RACE_GAMES, "this race ended before its start signal: there is nothing to replay")
    versions = []
    for game_id in games:
        live = await public_game(service, game_id)
        if isinstance(live, Refusal):
            return live if live.code != NOT_PUBLIC_YET else Refusal(RACE_NOT_OVER, live.message)
        versions.append(live.stream_version)
    key = (view.race_id, view.version, tuple(versions))
    cached = _answers.get(key)
    if cached is not None:
        return cached
    logs = {game_id: await service.store.read(game_id) for game_id in games}
    names = {r.player: await name_of(r.player) for r in view.racers}
    encoded = await off_the_loop(lambda: msgspec.json.encode(build_race_replay(view, logs, names)))
    if not isinstance(encoded, Refusal):
        _answers.put(key, encoded)
    return encoded
