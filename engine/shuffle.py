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
import struct
from typing import TypeVar
from collections.abc import Sequence

T = TypeVar("T")
_SPAN = 1 << 64
_WORDS = struct.Struct(">4Q").unpack  # one 32-byte digest as four unsigned 64-bit big-endian integers, in order


def deal_key(game: str, variant_text: str, seed: int) -> str:
    return f"patience-arena/deal/v1/{game}/{variant_text}/{seed}"


def shuffled(items: Sequence[T], key: str) -> tuple[T, ...]:
    """The items in the order the v1 algorithm gives for `key`.

    Written for speed (every game's creation, its end's revealed deal and the validator's re-check deal it):
    the key is hashed once and each counter block hashed from a copy of that state, which is SHA-256 of
    key || counter all the same; a digest is read as its four integers at once. The golden deals pin the
    output (tests/golden), and tests/engine/test_core.py the algorithm word for word."""
    out = list(items)
    prefix = hashlib.sha256(key.encode("utf-8"))
    words: tuple[int, ...] = ()
    counter = taken = 0
    for i in range(len(out) - 1, 0, -1):
        k = i + 1
        limit = _SPAN - (_SPAN % k)  # rejection: only draws below a multiple of k, so no index is favoured
        while True:
            if taken == len(words):
                block = prefix.copy()
                block.update(counter.to_bytes(8, "big"))
                words, taken, counter = _WORDS(block.digest()), 0, counter + 1
            x = words[taken]
            taken += 1
            if x < limit:
                break
        j = x % k
        out[i], out[j] = out[j], out[i]
    return tuple(out)
