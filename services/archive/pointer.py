"""What is left of an archived game in Valkey: a small meta hash with its summary and its object's name.

The swap from hot to archived is one Lua script on the game's own slot (its log, its move records and
its meta hash share the hash tag `{<game id>}`): it deletes the log and the move records and rewrites
the meta hash as the pointer only if the log is still exactly the one archived (its length is its
version: entries are never trimmed). A process killed before the script leaves the game hot (an
object written and perhaps read back, which the next try overwrites with the same bytes); after it,
archived. No state has the log gone without the pointer, or a pointer naming an object not read back.

The pointer keeps the three meta fields other parts read (`player_id`, `kind`, `status`: abandoning
a player's unfinished games, retention) and a few packed ones: `archived` (the log's digest, its
first 16 bytes, which with the game's id name the object; the stream's version; the summary's
numbers), `dealt` (game and variant), and `challenge` or `ghost` where the game has one. Together
they are the game's summary (everything GET /api/games/{id} shows, final since the game is over and
public), so a summary, a player's list of games and their statistics never fetch the object. About
250 B in a small hash (a listpack) where a 150-move game's log took about 35 KB.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from msgspec import Struct
from redis.exceptions import NoScriptError

from ..games.model import GameSummary
from ..store.keys import log_key, meta_key, moves_key
from .archived_game import DIGEST_DIGITS, object_key

ARCHIVED = "archived"

# KEYS: log, moves, meta. ARGV: the version archived, then the pointer's fields and values.
# Returns -1 when swapped, else the log's length now (it moved on, or is gone: nothing was changed).
SWAP_LUA = """
local length = redis.call('XLEN', KEYS[1])
if length ~= tonumber(ARGV[1]) then return length end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('HSET', KEYS[3], unpack(ARGV, 2))
return -1
"""
SWAP_SHA = hashlib.sha1(SWAP_LUA.encode()).hexdigest()
SWAPPED = -1


class Packed(Struct, frozen=True, array_like=True):
    """The `archived` field: positional, so field names cost no bytes (add fields only at the end)."""

    digest: bytes  # the log digest's first DIGEST_DIGITS / 2 bytes
    stream_version: int
    version: int
    moves: int
    seed: int
    created_at_ms: int
    finished_after_ms: int | None  # finished_at_ms - created_at_ms: a short number, not a second timestamp
    elapsed_ms: int | None
    flags: int  # CHOSEN_DEAL | RANKED | ASSISTED | PRACTICE_UNDO


class Dealt(Struct, frozen=True, array_like=True):
    """The `dealt` field: the game and its variant."""

    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)


CHOSEN_DEAL, RANKED, ASSISTED, PRACTICE_UNDO = 1, 2, 4, 8
# Valkey keeps a hash as a listpack (its compact form) while every value is under 64 bytes: so the
# pointer is a few short fields, the challenge key and the ghost's game id each their own.
_encoder = msgspec.msgpack.Encoder()
_packed = msgspec.msgpack.Decoder(Packed)
_dealt = msgspec.msgpack.Decoder(Dealt)
POINTER_FIELDS = [ARCHIVED, "dealt", "player_id", "kind", "status", "challenge", "ghost"]


class Pointer(Struct, frozen=True):
    game_id: str
    digest_prefix: str  # the log's digest, its first DIGEST_DIGITS hex digits
    version: int  # the stream version the log had
    summary: GameSummary

    @property
    def key(self) -> str:
        """The object's key in the archive."""
        return object_key(self.game_id, self.digest_prefix)


def pointer_fields(summary: GameSummary, digest: str, stream_version: int) -> dict[str, bytes | str]:
    flags = ((CHOSEN_DEAL if summary.chosen_deal else 0) | (RANKED if summary.ranked else 0)
             | (ASSISTED if summary.assisted else 0) | (PRACTICE_UNDO if summary.practice_undo else 0))
    finished = None if summary.finished_at_ms is None else summary.finished_at_ms - summary.created_at_ms
    fields: dict[str, bytes | str] = {
        ARCHIVED: _encoder.encode(Packed(bytes.fromhex(digest[:DIGEST_DIGITS]), stream_version, summary.version,
                                         summary.moves, summary.seed or 0, summary.created_at_ms, finished,
                                         summary.elapsed_ms, flags)),
        "dealt": _encoder.encode(Dealt(summary.game, summary.variant)),
        "player_id": summary.player_id, "kind": summary.kind, "status": summary.status,
    }
    if summary.challenge is not None:
        fields["challenge"] = summary.challenge
    if summary.ghost is not None:
        fields["ghost"] = summary.ghost
    return fields


def unpack_pointer(game_id: str, values: list[Any]) -> Pointer:  # Any: HMGET's replies, bytes or None
    raw, dealt_raw, player_id, kind, status, challenge, ghost = values
    p, dealt = _packed.decode(raw), _dealt.decode(dealt_raw)
    summary = GameSummary(
        id=game_id, game=dealt.game, variant=dealt.variant, player_id=_text(player_id), status=_text(status),
        version=p.version, moves=p.moves, created_at_ms=p.created_at_ms, seed=p.seed, elapsed_ms=p.elapsed_ms,
        kind=_text(kind), chosen_deal=bool(p.flags & CHOSEN_DEAL),
        finished_at_ms=None if p.finished_after_ms is None else p.created_at_ms + p.finished_after_ms,
        challenge=_text(challenge), ranked=bool(p.flags & RANKED), assisted=bool(p.flags & ASSISTED),
        ghost=_text(ghost), deal_number=p.seed, practice_undo=bool(p.flags & PRACTICE_UNDO),
    )  # archived only once public: its seed and deal number are shown to anyone
    return Pointer(game_id, p.digest.hex(), p.stream_version, summary)


def _text(value: Any) -> Any:  # Any: any value, as its caller has it
    return value.decode() if isinstance(value, bytes) else value


async def pointer_of(redis: Any, game_id: str) -> Pointer | None:  # Any: a redis-py client
    """The game's pointer, or None while it is hot (or was never a game)."""
    values = await redis.hmget(meta_key(game_id), POINTER_FIELDS)
    return None if values[0] is None else unpack_pointer(game_id, values)


async def swap(redis: Any, summary: GameSummary, stream_version: int, digest: str) -> int:  # Any: a redis-py client
    """Run the swap script; SWAPPED, or the log's length that stopped it (nothing changed then)."""
    game_id = summary.id
    keys = [log_key(game_id), moves_key(game_id), meta_key(game_id)]
    fields = pointer_fields(summary, digest, stream_version)
    args = [stream_version, *(item for pair in fields.items() for item in pair)]
    try:
        return int(await redis.evalsha(SWAP_SHA, 3, *keys, *args))
    except NoScriptError:  # this node has not seen it yet: EVAL loads it
        return int(await redis.eval(SWAP_LUA, 3, *keys, *args))
