"""A player's casual and practice games in play: the projection a new casual game reads to abandon them.

A new casual or practice game resigns the player's unfinished ones (docs/rules/README.md, "Abandoned"). Without an index that
meant reading the meta hash of each of their last twenty games at every new game, in play or not: a game
lost with an undo left is not final, so it is read again and again. This sorted set holds just the games
whose status is in play, written in the same round trips as the status itself (the creation's, the
end's, an undo out of a loss), so a new game usually reads one small key and nothing more.

The index is trusted only when it carries KEPT: a creation writes it after a whole scan (of the index, or
of the recent games when there was none), so at that moment every game in play is in it. Its life is
renewed by every creation (TTL_MS); a key that lapsed, or one an undo made again without the mark, is
not trusted, and the next creation scans the recent games as before and marks it again. So a key lost
or never written costs one slower scan, never a game left unabandoned; `rebuild_in_play` remakes every
player's from the logs (projections.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import IN_PROGRESS

from ..store.keys import player_in_play_key
from .entries import CASUAL_KINDS, GameCreated

KEPT = "kept"  # a member no game id can be (ids are hex): the index was whole when this was written
TTL_MS = 30 * 86_400_000  # a player's index lives 30 days past their last new game


def queue_in_play(pipe: Any, created: GameCreated, game_id: str, status: str, *, scanned: bool = False) -> None:  # Any: a pipeline (lean or redis-py)
    """The index after `game_id` has `status`, queued into the caller's pipeline. `scanned`: the caller has
    just seen every game of the player's in play (a creation's scan), so the index is marked kept."""
    if created.kind not in CASUAL_KINDS:
        return
    key = player_in_play_key(created.player_id)
    if status == IN_PROGRESS:
        pipe.zadd(key, {game_id: created.created_at_ms})
    else:
        pipe.zrem(key, game_id)
    if scanned:
        pipe.zadd(key, {KEPT: 0})
        pipe.pexpire(key, TTL_MS)


def in_play_members(raw: Sequence[bytes | str]) -> list[str] | None:
    """The game ids of an index as ZRANGE read it, or None when it is not to be trusted (no KEPT mark)."""
    members = [item.decode() if isinstance(item, bytes) else item for item in raw]
    if KEPT not in members:
        return None
    return [member for member in members if member != KEPT]
