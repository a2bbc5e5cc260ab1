"""A race's commands: validated values only. Unvalidated input (HTTP bodies) is checked into these
by `check_settings` and the routes; `core.decide` takes nothing else.

The lobby's bounds are here too: 2 to 8 seats, a time limit from one minute to an hour, a game and
variant of the daily catalogue (the deals the server can prove winnable).
"""

from __future__ import annotations

from typing import Any, Union

from msgspec import Struct

from ..tournaments.catalogue import daily_for
from engine import RuleError

MIN_SEATS, MAX_SEATS = 2, 8
MIN_TIME_LIMIT_MS, MAX_TIME_LIMIT_MS = 60_000, 3_600_000
DEFAULT_TIME_LIMIT_MS = 900_000  # 15 minutes unless the host chooses otherwise

BAD_SETTINGS = "bad_race_settings"
NOT_A_RACE_GAME = "not_a_race_game"


class RaceError(Struct, frozen=True):
    """Why a command was refused: a code a program branches on and a message a person reads."""

    code: str
    message: str


class RaceSettings(Struct, frozen=True):
    """A race's settings, checked: the variant has every field given."""

    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    seats: int
    time_limit_ms: int


def check_settings(game: str, variant: dict[str, Any] | None, seats: int, time_limit_ms: int) -> RaceSettings | RaceError:  # Any: a variant's JSON values
    daily = daily_for(game, variant)
    if isinstance(daily, RuleError):
        return RaceError(NOT_A_RACE_GAME, f"races are run on the daily catalogue's games: {daily.message}")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        return RaceError(BAD_SETTINGS, f"a race has {MIN_SEATS} to {MAX_SEATS} seats, not {seats}")
    if not MIN_TIME_LIMIT_MS <= time_limit_ms <= MAX_TIME_LIMIT_MS:
        return RaceError(
            BAD_SETTINGS,
            f"the time limit is {MIN_TIME_LIMIT_MS // 1000} s to {MAX_TIME_LIMIT_MS // 1000} s, not {time_limit_ms} ms",
        )
    return RaceSettings(daily.game, daily.variant, seats, time_limit_ms)


class Join(Struct, frozen=True):
    player: str


class Leave(Struct, frozen=True):
    player: str


class SetReady(Struct, frozen=True):
    player: str
    ready: bool


class StartCountdown(Struct, frozen=True):
    """The host starts the countdown without waiting for every seat to be ready."""

    player: str


class DealGames(Struct, frozen=True):
    games: dict[str, str]  # player -> the game made for them on the race's deal


class SignalStart(Struct, frozen=True):
    """The start time has come (any process's timer, or a request that noticed)."""


class Presence(Struct, frozen=True):
    player: str
    connected: bool


class Finish(Struct, frozen=True):
    """A racer's game ended, as its log says."""

    player: str
    game_id: str
    result: str
    moves: int
    time_ms: int
    at_ms: int  # the game's last entry's time


class TimeUp(Struct, frozen=True):
    """The time limit may have passed (a timer fired, or a request noticed)."""


class CheckWin(Struct, frozen=True):
    """The replay validator's verdict on a racer's win."""

    player: str
    game_id: str
    verified: bool
    reason: str


class Rematch(Struct, frozen=True):
    player: str
    new_race_id: str


AnyCommand = Union[Join, Leave, SetReady, StartCountdown, DealGames, SignalStart, Presence, Finish, TimeUp, CheckWin, Rematch]
