"""The service's answers: summaries, snapshots, move results, answer codes."""

from __future__ import annotations

import re
import time
from typing import Any

from msgspec import Struct

from engine import PlayerView

from ..store.keys import meta_key, player_games_key  # noqa: F401  (re-exported)
from .live import MoveAnswer
from .view_delta import SnapshotDelta

NOT_YOUR_GAME = "not_your_game"
NO_SUCH_GAME = "no_such_game"
STALE_VERSION = "stale_version"
BAD_LOG = "bad_log"
NOT_PUBLIC_YET = "not_public_yet"
NOT_STARTED = "not_started"  # a race game before its race's start signal
ARCHIVED = "archived"  # a finished game moved to the archive tier takes no more moves (services/archive/)

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def stream_of(game_id: str) -> str:
    return game_id  # the store names its keys arena:game:{<id>}:...



class GameSummary(Struct, frozen=True):
    id: str
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    player_id: str
    status: str
    version: int
    moves: int
    created_at_ms: int
    seed: int | None  # None until the game has ended: the seed would reveal the deal
    elapsed_ms: int | None  # server-measured play time: from the deal first shown to the end of play
    kind: str = "casual"  # casual | practice | daily | race
    chosen_deal: bool = False  # the player named the deal (practice, never ranked)
    finished_at_ms: int | None = None  # when play stopped (won, lost, abandoned); cleared by an undo out of a loss
    challenge: str | None = None  # the daily challenge it belongs to (an attempt, or practice on its deal)
    ranked: bool = False
    assisted: bool = False  # a hint or an undo beyond the game's own rules was taken: marked for good
    ghost: str | None = None  # a ghost race: the game whose replay it races (links.ghost of its log)
    deal_number: int | None = None  # the deal's number once the player may know it (casual play: at once)
    practice_undo: bool = False  # undo is allowed beyond the game's own rules (casual and practice play)


class Snapshot(Struct, frozen=True):
    """What a socket shows: the player's view at a version, and the deal once the game has ended."""

    game_id: str
    version: int
    view: PlayerView
    elapsed_ms: int | None
    seed: int | None = None
    deal: PlayerView | None = None  # the deal as dealt, every card face up (engine.revealed_view); once ended
    deal_number: int | None = None  # the deal's number as soon as the player may know it (see GameSummary)


class Refusal(Struct, frozen=True):
    """Why the service will not show something (yet): a code a program branches on, a message."""

    code: str
    message: str


class MoveResult(Struct, frozen=True):
    answer: MoveAnswer
    snapshot: Snapshot | None = None  # the state after an accepted move (None when rejected)
    delta: SnapshotDelta | None = None  # the snapshot as a change to the one before (None: only the whole will do)
    # Connections subscribed to the game's update channel when the move was stored, counted by the store in
    # the same step (None: not counted, the fan-out asks Redis itself).
    watchers: int | None = None
