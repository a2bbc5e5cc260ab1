"""The project's own deal shuffle: a pure function of a text key, stable forever.

Algorithm (version 1, pinned by the golden deals in tests/golden; never change it, add a v2):
1. The key is ``patience-arena/deal/v1/<game>/<variant>/<seed>`` where <variant> is the game's
   canonical variant text (``name=value`` pairs joined by ``,``, sorted by name).
2. A byte stream is SHA-256(key || counter) for counter = 0, 1, 2, ... (8-byte big-endian), the
   32-byte digests concatenated; it is read as unsigned 64-bit big-endian integers.
3. Fisher-Yates from the end: for i = n-1 down to 1, draw j uniform in [0, i] and swap items i
   and j. A draw below k uses rejection: take the next integer x until x < 2**64 - (2**64 % k),
   then j = x % k, so no index is favoured.
Python's `random` is not used: its algorithms are not promised to stay the same across versions.
"""

from __future__ import annotations

import hashlib
from typing import TypeVar
from collections.abc import Sequence

T = TypeVar("T")
_SPAN = 1 << 64


class _DigestStream:
    def __init__(self, key: str) -> None:
        self._key = key.encode("utf-8")
        self._counter = 0
        self._buffer: list[int] = []

    def next_u64(self) -> int:
        if not self._buffer:
            digest = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._buffer.pop()

    def below(self, k: int) -> int:
        limit = _SPAN - (_SPAN % k)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % k


def deal_key(game: str, variant_text: str, seed: int) -> str:
    return f"patience-arena/deal/v1/{game}/{variant_text}/{seed}"


def shuffled(items: Sequence[T], key: str) -> tuple[T, ...]:
    """The items in the order the v1 algorithm gives for `key`."""
    out = list(items)
    stream = _DigestStream(key)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)
