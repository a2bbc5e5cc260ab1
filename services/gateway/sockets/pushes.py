"""Versioned pushes to one socket, shared by every room (a game, a leaderboard): each version at most
once and in order, queued without blocking the sender, older ones dropped past a limit for a slow
socket. A game's update is usually a delta against the version before it, so a socket that lost some
gets one that does not follow what its client holds: the client asks for the whole with c2s.sync (a
leaderboard's push is whole: the newest one is all its client needs)."""

from __future__ import annotations

import asyncio
from collections import deque


class VersionedPushes:
    outbox_limit = 256

    def __init__(self) -> None:
        self.sent_version = -1  # the newest version this socket has shown
        self.outbox: deque[bytes] | None = None  # made on the first push (idle sockets keep none)
        self.draining: asyncio.Task | None = None

    async def send(self, frame: bytes) -> None:
        raise NotImplementedError

    def push(self, version: int, frame: bytes) -> None:
        """Queue `frame` unless this socket already showed `version`; sends keep order."""
        if version <= self.sent_version:
            return  # already shown (its own move, or a newer snapshot)
        self.sent_version = version
        if self.outbox is None:
            self.outbox = deque(maxlen=self.outbox_limit)
        self.outbox.append(frame)
        if self.draining is None:
            self.draining = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.outbox:
                await self.send(self.outbox.popleft())
        except Exception:  # noqa: BLE001  the socket closed under us; the receive loop ends the connection
            if self.outbox is not None:
                self.outbox.clear()
        finally:
            self.draining = None

    def stop_pushing(self) -> None:
        if self.draining is not None:
            self.draining.cancel()
