"""Appends from many games gathered into one Redis round trip.

Each move's append waits for its own answer, but appends that arrive while a batch is in flight
are queued and sent together through `EventStore.append_many` (one pipeline): with the server's
fsync-on-every-write setting, one fsync then covers many moves. A lone move goes out at once, from the
mover's own task.

Up to `max_in_flight` batches are in flight at a time (on the lean link they share one pipelined
connection, through redis-py each takes its own). Why more than one: Redis fsyncs once per pass of its
event loop, covering every command it read in that pass, so a batch sent while another is being fsynced
is covered by the next fsync. A batch held back until the first one's reply would wait for that fsync,
the reply's trip, then its own fsync: on a disk whose fsync takes 4 ms that is up to three fsyncs a
move instead of two. Under load the queue still gathers into big batches. Each append's answer is still
its own batch's reply, which the store sends only once the batch is durable; two appends to one game are
never in flight together (the game's lock is held across its append).
"""

from __future__ import annotations

import asyncio

from ..store import AppendRequest, EventStore, NewEvent


class Appender:
    def __init__(self, store: EventStore, *, batch: bool = True, max_batch: int = 256, max_in_flight: int = 16) -> None:
        self.store = store
        self.batch = batch
        self.max_batch = max_batch
        self.max_in_flight = max(1, max_in_flight)
        self._queue: list[tuple[AppendRequest, asyncio.Future]] = []
        self._in_flight = 0  # flush tasks running, each with at most one batch in flight
        self.batches = 0  # figures for the bench
        self.appends = 0

    async def append(self, stream_id: str, expected_version: int, events: list[NewEvent], move_id: str | None):
        if not self.batch:
            return await self.store.append(stream_id, expected_version, events, move_id=move_id)
        request = AppendRequest(stream_id, expected_version, events, move_id)
        if self._in_flight == 0:  # a lone move (nothing queued or in flight): its own batch, from its own task
            return await self._alone(request)
        future = asyncio.get_running_loop().create_future()
        self._queue.append((request, future))
        if self._in_flight < self.max_in_flight:
            self._start_flush()
        return await future

    def _start_flush(self) -> None:
        self._in_flight += 1
        asyncio.get_running_loop().create_task(self._flush())

    async def _alone(self, request: AppendRequest):
        # Sent from the mover's task: no flush task to start and no future to pass through (at a trickle
        # these were a fifth of the append's CPU). It counts as a batch in flight, so appends arriving
        # meanwhile queue and flush as usual; one left waiting for a free slot is started here after.
        self._in_flight += 1
        self.batches += 1
        self.appends += 1
        try:
            result = (await self.store.append_many([request]))[0]
        finally:
            self._in_flight -= 1
            if self._queue and self._in_flight < self.max_in_flight:
                self._start_flush()
        if isinstance(result, BaseException):
            raise result
        return result

    async def _flush(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
                self.batches += 1
                self.appends += len(batch)
                try:
                    results = await self.store.append_many([request for request, _ in batch])
                except Exception as exc:  # the whole round trip failed: every waiter hears it
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results):
                    if future.done():
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._in_flight -= 1


