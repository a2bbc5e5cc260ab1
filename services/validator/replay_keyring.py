"""The deployment's replay-file keys in Redis: every public key a server has signed with, kept for good.

A server records its key (HSETNX: the first time stamp stands) before it serves the first file it
signs, so no file is ever out whose key is not listed. Nothing removes a key: after a rotation (a
new ARENA_REPLAY_SIGNING_SECRET) the old one stays listed, and every file signed with it still
checks. GET /api/replay-keys serves the list; `arena keys` prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from ..redis.client import as_bytes
from ..store.keys import replay_keys_key
from .replay_format import ReplayFile
from .replay_signing import KeyList, PublicKey, ReplaySigner


class ReplayKeys:
    """Signs replay files with this deployment's current key and lists every key it has used."""

    def __init__(self, client: Any, signer: ReplaySigner, *, clock: Callable[[], int]) -> None:  # Any: a redis-py client
        self.client, self.signer, self.clock = client, signer, clock
        self._recorded = False

    async def sign(self, file: ReplayFile) -> ReplayFile:
        await self._record()
        return self.signer.sign(file)

    async def listed(self) -> KeyList:
        """Every key ever recorded, oldest first, and the one this server signs with now."""
        await self._record()
        found = await self.client.hgetall(replay_keys_key())
        keys = [msgspec.json.decode(as_bytes(raw), type=PublicKey) for raw in found.values()]
        keys.sort(key=lambda key: (key.since_ms or 0, key.key_id))
        return KeyList(self.signer.key_id, keys)

    async def _record(self) -> None:
        if self._recorded:
            return
        public = msgspec.structs.replace(self.signer.public, since_ms=self.clock())
        await self.client.hsetnx(replay_keys_key(), public.key_id, msgspec.json.encode(public))
        self._recorded = True
