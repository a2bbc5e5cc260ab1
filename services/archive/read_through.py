"""Reading a finished game whatever tier it is on: the event store, reading through to the archive.

Every reader of a game's log goes through the game service's event store (`service.store.read`):
rebuilds, summaries, replay files and views, ghosts, race replays, hints, the validator's checks and
sweeps. So the read-through is there, once: `ReadThroughStore` is the EventStore whose `read`,
`version`, `exists` and `move_result` of a game whose log is gone answer from its archived object,
as they answered from the log (the same entries, versions, times and move ids). A hot game costs
nothing more; an archived one a pointer read and, unless this process has the object cached (it is
immutable), one object get.

An archive that cannot answer raises `ArchiveUnavailable`, a StoreError: the gateway answers it
`unavailable` (503, or s2c.error on a socket) like a Redis away, never 500. An object that is not
the game its pointer names raises `ArchiveCorrupt` (also a StoreError, so `unavailable`), is logged
as an error and counted: it is reported, never served as valid.

Appends are the hot store's: an archived game takes none (its log is gone, so the append script
sees version 0 and answers a conflict for any move; the service refuses moves to it first).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from ..games.model import GAME_ID, GameSummary
from ..store import EventStore, StoredEvent, StoreError
from ..store.keys import GAME_STREAMS, archive_counts_key
from . import metrics
from .archived_game import Unreadable, unpack
from .objects import ObjectFault, ObjectStore
from .pointer import Pointer, pointer_of

CACHED_GAMES = 512
log = logging.getLogger("arena.archive")


class ArchiveUnavailable(StoreError):
    def __init__(self, fault: ObjectFault) -> None:
        super().__init__(f"archive {fault.code}: {fault.message}")
        self.code = fault.code


class ArchiveCorrupt(StoreError):
    def __init__(self, problem: Unreadable) -> None:
        super().__init__(problem.message)
        self.code = problem.code


class GameArchive:
    """Archived logs by pointer: fetched from the object store, checked, kept in a small LRU."""

    def __init__(self, objects: ObjectStore, redis: Any, *, cached: int = CACHED_GAMES) -> None:  # Any: a redis-py client
        self.objects, self.redis, self.cached = objects, redis, cached
        self._logs: OrderedDict[str, list[StoredEvent]] = OrderedDict()

    async def entries(self, game_id: str, pointer: Pointer) -> list[StoredEvent]:
        known = self._logs.get(pointer.key)
        if known is not None:
            self._logs.move_to_end(pointer.key)
            return known
        data = await self.objects.get(pointer.key)
        if isinstance(data, ObjectFault):
            metrics.read_failed(data.code)
            raise ArchiveUnavailable(data)
        entries = unpack(game_id, data, pointer.digest_prefix)
        if isinstance(entries, Unreadable):
            metrics.read_failed(entries.code)
            log.error("archive: %s (object %s); it is not served", entries.message, pointer.key)
            await self.redis.hincrby(archive_counts_key(), "corrupt", 1)
            raise ArchiveCorrupt(entries)
        metrics.read_through()
        self._logs[pointer.key] = entries
        while len(self._logs) > self.cached:
            self._logs.popitem(last=False)
        return entries


class ReadThroughStore(EventStore):
    """The game namespace's EventStore, answering archived games from their objects."""

    def __init__(self, client: Any, archive: GameArchive, **store_options: Any) -> None:  # Any: a redis-py client
        super().__init__(client, **store_options)
        if self.namespace != GAME_STREAMS:
            raise ValueError("only game logs are archived")
        self.archive = archive

    async def _archived(self, stream_id: str) -> list[StoredEvent] | None:
        pointer = await pointer_of(self.client, stream_id)
        return None if pointer is None else await self.archive.entries(stream_id, pointer)

    async def read(self, stream_id: str, from_version: int = 1) -> list[StoredEvent]:
        hot = await super().read(stream_id, from_version)
        if hot:
            return hot
        archived = await self._archived(stream_id)  # after the log's read: the swap is atomic, so one is there
        return [] if archived is None else archived[from_version - 1:]

    async def version(self, stream_id: str) -> int:
        hot = await super().version(stream_id)
        if hot:
            return hot
        pointer = await pointer_of(self.client, stream_id)
        return 0 if pointer is None else pointer.version

    async def exists(self, stream_id: str) -> bool:
        return await super().exists(stream_id) or await pointer_of(self.client, stream_id) is not None

    async def move_result(self, stream_id: str, move_id: str) -> int | None:
        hot = await super().move_result(stream_id, move_id)
        if hot is not None or await super().exists(stream_id):
            return hot
        archived = await self._archived(stream_id)
        versions = [stored.version for stored in archived or () if stored.move_id == move_id]
        return max(versions) if versions else None

    async def archived_summary(self, stream_id: str) -> GameSummary | None:
        """An archived game's summary from its pointer (no object fetched); None for a hot game."""
        if not GAME_ID.fullmatch(stream_id):
            return None
        pointer = await pointer_of(self.client, stream_id)
        return None if pointer is None else pointer.summary

    async def is_archived(self, stream_id: str) -> bool:
        return not await super().exists(stream_id) and await pointer_of(self.client, stream_id) is not None
