"""What anyone may see of a race: the one shape every response and every s2c.race frame carries.

Secret until the race has ended, for everyone: the seed and the salt (the commitment is public from
the start, so anyone can check the reveal). The racers' game ids appear at the start signal, never
before (a game id in the lobby would let a racer look at the deal early); a game id lets nobody but
its racer open the game until the end (the game service's secrecy), so it shows counts at most.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from .core import COUNTDOWN, LOBBY, RaceState
from .events import Standing
from .standings import result_of, standings

JOIN_PATH = "/race/{code}"  # the web client's page for a join link


class RacerView(Struct, frozen=True):
    player: str
    ready: bool
    connected: bool  # False while all of the racer's race sockets are closed during the race
    game_id: str | None  # from the start signal on
    result: str | None  # once finished: won, lost, abandoned; timed_out or rejected at the end
    moves: int | None
    time_ms: int | None
    verified: bool | None  # a win's verdict: None until it is in


class RaceView(Struct, frozen=True):
    race_id: str
    version: int
    status: str  # lobby, countdown, started, ended, final
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    seats: int
    time_limit_ms: int
    countdown_ms: int
    code: str
    join_path: str
    host: str | None
    created_at_ms: int
    start_at_ms: int | None  # the start signal, once the countdown runs
    deadline_ms: int | None  # the start signal plus the time limit
    ended_at_ms: int | None
    end_reason: str | None
    commitment: str
    check: str
    racers: list[RacerView]
    standings: list[Standing] | None  # from the end on; final once every win has its verdict
    final: bool
    seed: int | None  # revealed at the end, with the salt of the commitment
    salt: str | None
    rematch: str | None  # the rematch's race id, once one was made
    rematch_of: str | None


def public_view(state: RaceState) -> RaceView:
    created = state.created
    assert created is not None
    over = state.over
    dealt = state.status not in (LOBBY, COUNTDOWN)
    racers = []
    for player in state.seated:
        finished = state.finishes.get(player)
        result, moves, time_ms = result_of(state, player)
        check = state.checks.get(player)
        shown = finished is not None or (over and player in state.games)
        racers.append(
            RacerView(
                player=player,
                ready=player in state.ready,
                connected=player not in state.away,
                game_id=state.games.get(player) if dealt else None,
                result=result if shown else None,
                moves=moves if shown else None,
                time_ms=time_ms if shown else None,
                verified=None if check is None else check.outcome == "verified",
            )
        )
    final = state.final
    return RaceView(
        race_id=state.race_id,
        version=state.version,
        status=state.status,
        game=created.game,
        variant=created.variant,
        seats=created.seats,
        time_limit_ms=created.time_limit_ms,
        countdown_ms=created.countdown_ms,
        code=created.code,
        join_path=JOIN_PATH.format(code=created.code),
        host=state.host,
        created_at_ms=created.created_at_ms,
        start_at_ms=state.start_at_ms,
        deadline_ms=state.deadline_ms,
        ended_at_ms=state.ended.at_ms if over else None,  # type: ignore[union-attr]  # over: ended is set
        end_reason=state.ended.reason if over else None,  # type: ignore[union-attr]  # over: ended is set
        commitment=created.commitment,
        check=created.check,
        racers=racers,
        standings=(final.standings if final is not None else standings(state)) if over and state.games else None,
        final=final is not None,
        seed=created.sealed.seed if over else None,
        salt=created.sealed.salt if over else None,
        rematch=state.rematch,
        rematch_of=created.rematch_of,
    )
