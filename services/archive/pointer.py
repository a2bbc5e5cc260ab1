"""What is left of an archived game in Valkey: its meta hash, with the object's key, and nothing else.

The swap from hot to archived is one Lua script on the game's own slot (its log, its move records and
its meta hash share the hash tag `{<game id>}`): it deletes the log and the move records and writes
the pointer only if the log is still exactly the one archived (its length is its version: entries
are never trimmed). A process killed before the script leaves the game hot (an object written
and perhaps read back, which the next try overwrites with the same bytes); after it, archived. No
state has the log gone without the pointer, or the pointer naming an object not yet read back.

The pointer is the meta hash the game already had (player, game, kind, status, times, assisted:
services/games/projections.py) plus `archived` (the first 32 hex digits of the log's digest, which
with the game's id name its object: archived_game.object_key) and `archived_version` (the stream's
version). Nothing else of the game stays: about 200 B in a small hash (a listpack: every value under
64 bytes, which a whole object key would not be), where a 150-move game's log took about 35 KB.
"""

from __future__ import annotations

import hashlib
from typing import Any

from msgspec import Struct
from redis.exceptions import NoScriptError

from ..store.keys import log_key, meta_key, moves_key
from .archived_game import DIGEST_DIGITS, object_key

ARCHIVED, ARCHIVED_VERSION = "archived", "archived_version"

# KEYS: log, moves, meta. ARGV: the version archived, the digest's prefix.
# Returns -1 when swapped, else the log's length now (it moved on, or is gone: nothing was changed).
SWAP_LUA = """
local length = redis.call('XLEN', KEYS[1])
if length ~= tonumber(ARGV[1]) then return length end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[3], 'archived', ARGV[2], 'archived_version', ARGV[1])
return -1
"""
SWAP_SHA = hashlib.sha1(SWAP_LUA.encode()).hexdigest()
SWAPPED = -1


class Pointer(Struct, frozen=True):
    game_id: str
    digest_prefix: str  # the log's digest, its first 32 hex digits
    version: int  # the stream version the log had

    @property
    def key(self) -> str:
        """The object's key in the archive."""
        return object_key(self.game_id, self.digest_prefix)


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


async def pointer_of(redis: Any, game_id: str) -> Pointer | None:
    """The game's pointer, or None while it is hot (or was never a game)."""
    digest, version = await redis.hmget(meta_key(game_id), [ARCHIVED, ARCHIVED_VERSION])
    if digest is None or version is None:
        return None
    return Pointer(game_id, _text(digest), int(version))


async def swap(redis: Any, game_id: str, version: int, digest: str) -> int:
    """Run the swap script; SWAPPED, or the log's length that stopped it (nothing changed then)."""
    keys = [log_key(game_id), moves_key(game_id), meta_key(game_id)]
    prefix = digest[:DIGEST_DIGITS]
    try:
        return int(await redis.evalsha(SWAP_SHA, 3, *keys, version, prefix))
    except NoScriptError:  # this node has not seen it yet: EVAL loads it
        return int(await redis.eval(SWAP_LUA, 3, *keys, version, prefix))
