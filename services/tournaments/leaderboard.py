"""A daily challenge's leaderboard on Redis: a projection of its attempt events.

Per challenge (keys in services/store/keys.py, one hash tag so one slot):
- board   sorted set of verified ranked wins, score 0, member = ranking.ranking_member (fewer moves,
          shorter time, earlier finish; Redis orders equal scores by member bytes);
- entries hash player -> msgpack BoardEntry (the result and the name shown);
- status  hash player -> playing | pending | verified | rejected | lost | abandoned | guest_playing | guest_done;
- counts  hash status -> number of players, and `final` (the ms it became final);
- review  set of the players whose verified win is under the human-speed review (`flag`, `clear_review`).
Every write is one Lua script that checks the previous status, so a replayed event changes nothing and
a final board accepts no change. A ranked win is `pending` (not on the board) until the replay
verifier calls `promote` or `remove` (the `EntryGate` it is given). Guests are listed apart, unranked.
A win under review keeps its place and shows `review: true` with its reasons until an operator clears
it; the mark is no status (a final board still has entries under review, and they may still be cleared).
"""

from __future__ import annotations

from typing import Protocol

import msgspec
from msgspec import Struct

from engine import ABANDONED, WON
from engine.errors import RuleError, rule_error
from services.redis.client import AnyRedis, as_bytes, as_text
from services.store.keys import (
    daily_board_key, daily_counts_key, daily_entries_key, daily_review_key, daily_status_key,
)

from .leaderboard_scripts import FINALIZE_LUA, PAGE_LUA, TRANSITION_LUA
from .ranking import KEY_LENGTH, competition_ranks, ranking_key, ranking_member

PLAYING, PENDING, VERIFIED, REJECTED = "playing", "pending", "verified", "rejected"
LOST, ABANDONED_STATUS, GUEST_PLAYING, GUEST_DONE = "lost", "abandoned", "guest_playing", "guest_done"
MAX_PAGE = 100
# Error codes
NOT_PENDING, WRONG_STATUS, BOARD_FINAL = "not_pending", "wrong_status", "board_final"
BAD_PAGE, STILL_PLAYED = "bad_page", "still_played"


class BoardEntry(Struct, frozen=True):
    player: str
    game_id: str
    result: str
    moves: int
    time_ms: int
    finished_at_ms: int
    name: str | None = None  # the display name when the attempt ended
    flagged: bool = False  # the human-speed review flagged it when it was verified (kept once cleared)
    review: bool = False  # under review: shown marked `review` until an operator clears it
    review_reasons: tuple[str, ...] = ()  # the review's reason codes (services/validator/review.py)


class BoardRow(Struct, frozen=True):
    rank: int
    entry: BoardEntry


class BoardPage(Struct, frozen=True):
    rows: list[BoardRow]
    total: int  # verified wins on the board
    offset: int
    final: bool


class Standing(Struct, frozen=True):
    """A player's place: `rank` only for a verified win; a guest's finished entry shows unranked."""

    status: str | None
    rank: int | None
    entry: BoardEntry | None


class BoardCounts(Struct, frozen=True):
    players: int  # ranked attempts started
    playing: int
    pending: int
    wins: int  # verified
    losses: int  # lost + abandoned
    rejected: int
    guests: int
    final: bool


class EntryGate(Protocol):
    """What the replay verifier needs: let a pending win onto the board, or take it off."""

    async def promote(self, challenge: str, player: str) -> str | RuleError: ...

    async def flag(self, challenge: str, player: str, reasons: tuple[str, ...] = ()) -> None:
        """Mark a verified win for review (its place is kept; `review` shows beside it until cleared)."""

    async def remove(self, challenge: str, player: str) -> str | RuleError: ...


_encoder = msgspec.msgpack.Encoder()
_entry_decoder = msgspec.msgpack.Decoder(BoardEntry)


def _member(entry: BoardEntry) -> str:
    key = ranking_key(entry.result, entry.moves, entry.time_ms, entry.finished_at_ms)
    if isinstance(key, RuleError):
        raise ValueError(f"entry of {entry.player} cannot be ranked: {key.message}")
    return ranking_member(key, entry.player)


class RedisLeaderboard:
    """Leaderboards of every challenge on one Redis (or Redis Cluster) client. Writes return the
    status the player had before (or an error value); reads never write."""

    def __init__(self, client: AnyRedis) -> None:
        self.client = client
        self._transition = client.register_script(TRANSITION_LUA)
        self._page = client.register_script(PAGE_LUA)
        self._finalize = client.register_script(FINALIZE_LUA)

    async def _change(
        self, challenge: str, player: str, allowed: str, new: str,
        entry: BoardEntry | None = None, add: str = "", remove: str = "",
    ) -> str | RuleError:
        keys = [daily_status_key(challenge), daily_entries_key(challenge), daily_counts_key(challenge),
                daily_board_key(challenge)]
        data = _encoder.encode(entry) if entry is not None else b""
        code, previous = await self._transition(keys, [player, allowed, new, data, add, remove])
        previous = previous.decode() if isinstance(previous, bytes) else str(previous)
        if code == 3:
            return rule_error(BOARD_FINAL, f"the leaderboard of {challenge} is final")
        if code == 0:
            was = "not on the board" if previous == "-" else previous
            return rule_error(WRONG_STATUS, f"{player} is {was} in {challenge}; this needs: {allowed}")
        return previous

    # ---- writes, one per attempt event ----------------------------------------------------------
    async def start(self, challenge: str, player: str, ranked: bool) -> str | RuleError:
        return await self._change(challenge, player, "-", PLAYING if ranked else GUEST_PLAYING)

    async def finish(self, challenge: str, entry: BoardEntry, ranked: bool) -> str | RuleError:
        """A ranked win becomes pending; a ranked loss or abandon is counted; a guest's result is kept."""
        if not ranked:
            return await self._change(challenge, entry.player, f"- {GUEST_PLAYING}", GUEST_DONE, entry)
        if entry.result == WON:
            _member(entry)  # refuse an entry that cannot be ranked before anything is written
            return await self._change(challenge, entry.player, f"- {PLAYING}", PENDING, entry)
        status = ABANDONED_STATUS if entry.result == ABANDONED else LOST
        return await self._change(challenge, entry.player, f"- {PLAYING}", status, entry)

    async def promote(self, challenge: str, player: str) -> str | RuleError:
        entry = await self.entry(challenge, player)
        if entry is None or entry.result != WON:
            return rule_error(NOT_PENDING, f"{player} has no win awaiting verification in {challenge}")
        return await self._change(challenge, player, PENDING, VERIFIED, add=_member(entry))

    async def flag(self, challenge: str, player: str, reasons: tuple[str, ...] = ()) -> None:
        """Mark a verified win for review (its place is kept; `review` shows beside it until cleared).
        The caller flags from the attempt stream (only a win still under review), so a verdict heard
        again after a clearance never brings the mark back."""
        entry = await self.entry(challenge, player)
        if entry is None or (entry.review and entry.review_reasons == tuple(reasons)):
            return
        await self._write_review(challenge, msgspec.structs.replace(
            entry, flagged=True, review=True, review_reasons=tuple(reasons)))

    async def clear_review(self, challenge: str, player: str) -> bool:
        """Take the mark off (the reasons stay, for the record); False when the entry had none."""
        entry = await self.entry(challenge, player)
        if entry is None or not entry.review:
            return False
        await self._write_review(challenge, msgspec.structs.replace(entry, review=False))
        return True

    async def _write_review(self, challenge: str, entry: BoardEntry) -> None:
        """The entry and the review set together (one slot: a transaction)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(daily_entries_key(challenge), entry.player, _encoder.encode(entry))
        if entry.review:
            pipe.sadd(daily_review_key(challenge), entry.player)
        else:
            pipe.srem(daily_review_key(challenge), entry.player)
        await pipe.execute()

    async def remove(self, challenge: str, player: str) -> str | RuleError:
        entry = await self.entry(challenge, player)
        if entry is None or entry.result != WON:
            return rule_error(NOT_PENDING, f"{player} has no win on or awaiting the board of {challenge}")
        return await self._change(challenge, player, f"{PENDING} {VERIFIED}", REJECTED, remove=_member(entry))

    async def finalize(self, challenge: str, now_ms: int) -> bool | RuleError:
        """Make the board final (True; False if it already was). Refused while attempts run or wins
        await the verifier."""
        code, playing, pending = await self._finalize([daily_counts_key(challenge)], [now_ms])
        if code == 0:
            return rule_error(STILL_PLAYED, f"{playing} attempt(s) still running, {pending} win(s) unverified")
        return code == 2

    # ---- reads ------------------------------------------------------------------------------------
    async def entry(self, challenge: str, player: str) -> BoardEntry | None:
        raw = await self.client.hget(daily_entries_key(challenge), player)
        return None if raw is None else _entry_decoder.decode(as_bytes(raw))

    async def under_review(self, challenge: str) -> list[BoardEntry]:
        """The entries marked `review`, by player id."""
        players = sorted(p.decode() if isinstance(p, bytes) else p
                         for p in await self.client.smembers(daily_review_key(challenge)))
        if not players:
            return []
        raw = await self.client.hmget(daily_entries_key(challenge), players)
        return [_entry_decoder.decode(as_bytes(item)) for item in raw if item is not None]

    async def page(self, challenge: str, offset: int = 0, limit: int = 50) -> BoardPage | RuleError:
        for name, value, low, high in (("offset", offset, 0, 2**31), ("limit", limit, 1, MAX_PAGE)):
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                return rule_error(BAD_PAGE, f"{name} must be a whole number from {low} to {high}, not {value!r}")
        keys = [daily_board_key(challenge), daily_entries_key(challenge), daily_counts_key(challenge)]
        total, better, members, raw_entries, final = await self._page(keys, [offset, limit, KEY_LENGTH])
        prefixes = [member[:KEY_LENGTH].decode() for member in members]
        ranks = competition_ranks(offset, int(better), prefixes)
        rows = [BoardRow(rank, _entry_decoder.decode(raw)) for rank, raw in zip(ranks, raw_entries) if raw]
        return BoardPage(rows, int(total), offset, bool(final))

    async def standing(self, challenge: str, player: str) -> Standing:
        pipe = self.client.pipeline(transaction=False)
        pipe.hget(daily_status_key(challenge), player)
        pipe.hget(daily_entries_key(challenge), player)
        status, raw = await pipe.execute()
        entry = None if raw is None else _entry_decoder.decode(raw)
        status = None if status is None else status.decode()
        rank = None
        if status == VERIFIED and entry is not None:
            prefix = _member(entry)[:KEY_LENGTH]
            better = await self.client.zlexcount(daily_board_key(challenge), "-", f"({prefix}")
            rank = int(better) + 1
        return Standing(status, rank, entry)

    async def counts(self, challenge: str) -> BoardCounts:
        raw = await self.client.hgetall(daily_counts_key(challenge))
        got = {as_text(key): int(value) for key, value in raw.items()}
        ranked = (PLAYING, PENDING, VERIFIED, REJECTED, LOST, ABANDONED_STATUS)
        return BoardCounts(
            players=sum(got.get(status, 0) for status in ranked),
            playing=got.get(PLAYING, 0),
            pending=got.get(PENDING, 0),
            wins=got.get(VERIFIED, 0),
            losses=got.get(LOST, 0) + got.get(ABANDONED_STATUS, 0),
            rejected=got.get(REJECTED, 0),
            guests=got.get(GUEST_PLAYING, 0) + got.get(GUEST_DONE, 0),
            final="final" in got,
        )

    async def is_final(self, challenge: str) -> bool:
        return bool(await self.client.hexists(daily_counts_key(challenge), "final"))
