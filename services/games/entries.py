"""The game service's own stream entries: what deals a game and whose it is, and when it was first shown.

With the engine's events these make a game's log the whole proof of it: a checker re-derives who
played, which deal (game, variant, deal algorithm version, seed), what kind of game it was, when the
deal was first shown (the clock's start), whether a hint was taken (the game is then "assisted") and
when it ended from the log alone, nothing beside it.
Versioning: fields are only ever added with defaults; a change of meaning is a new schema with an
upcaster in services/games/codec.py.
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct

from engine.intents import AnyIntent

GAME_CREATED = "game_created"
GAME_SHOWN = "game_shown"
HINT_GIVEN = "hint_given"

DEAL_VERSION = 1  # the shuffle that deals every game today (docs/rules/deal.md); recorded per game

# What a game is for. casual: a fresh random deal; practice: a chosen deal, or a finished daily or race
# deal played again (a ghost race too: links.ghost); daily: a ranked or guest attempt at a daily
# challenge; race: a racer's game.
Kind = Literal["casual", "practice", "daily", "race"]
CASUAL: Kind = "casual"
PRACTICE: Kind = "practice"
DAILY: Kind = "daily"
RACE: Kind = "race"
KINDS: tuple[Kind, ...] = (CASUAL, PRACTICE, DAILY, RACE)
# Kinds that "a new game abandons the unfinished one" applies to, among themselves.
CASUAL_KINDS: frozenset[str] = frozenset({CASUAL, PRACTICE})


class GameLinks(Struct, frozen=True, omit_defaults=True):
    """What a game belongs to: a daily challenge's key, a race's id; for a ghost race (practice on a
    revealed daily's deal), the game whose replay runs beside it."""

    challenge: str | None = None
    race: str | None = None
    ghost: str | None = None


class GameCreated(Struct, frozen=True, tag=GAME_CREATED, tag_field="type"):
    """Entry 1 of every game stream."""

    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    seed: int
    player_id: str
    created_at_ms: int
    deal_version: int = DEAL_VERSION
    kind: Kind = CASUAL
    chosen_deal: bool = False  # the player named the deal: never ranked
    ranked: bool = False  # counts on a leaderboard once verified (a named account's daily attempt)
    links: GameLinks = GameLinks()


class GameShown(Struct, frozen=True, tag=GAME_SHOWN, tag_field="type"):
    """The first look at the deal by anyone (player or spectator): the clock starts here.

    `at_ms` is the server's time; `viewer_id` is who looked first, so a check can tell a spectator's
    early look from the player's own."""

    at_ms: int
    viewer_id: str


class HintGiven(Struct, frozen=True, tag=HINT_GIVEN, tag_field="type"):
    """A hint the server gave the player (practice games only): from then on the game is assisted.

    `version` is the position it was computed for (engine events before it, which a check compares
    with the log); `result` is "winnable" with `move` the next move of a winning line, or
    "unwinnable" (proven: no winning line from there) with no move. An answer the search could not
    settle within its budget tells nothing and is not logged."""

    at_ms: int
    version: int
    result: str
    move: AnyIntent | None = None
