"""A digest of everything the engine answers along seeded games, for comparing compiled and source.

tests/engine/test_compiled.py computes it in this process (the compiled modules) and in a process
running a copy of the engine without its extensions: equal digests mean every view, legal list,
hidden set, accepted move's events and refusal (code and message) was the same along the way. At
each step illegal intents (of the shapes msgspec decodes: the engine's input is typed) are asked
too, so every refusal's words are compared, not only the moves listed as legal.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec

import engine
from engine.intents import (
    AnyIntent, CastIntent, DealIntent, FinishIntent, LuckIntent, MoveIntent, PairIntent, RecycleIntent, ResignIntent,
    UndoIntent,
)

# (game, variant, seeds, steps per game): every registered game of the five, Spider in each suit count.
TRACE_CASES: list[tuple[str, dict[str, Any], tuple[int, ...], int]] = [
    ("spider", {"suits": 1}, (1, 2, 3), 160), ("spider", {"suits": 2}, (4, 5), 120), ("spider", {"suits": 4}, (6,), 120),
    ("wish", {}, (1, 2, 3, 4), 40), ("wish", {"mode": "open"}, (5, 6), 40), ("patient-pairs", {}, (1, 2), 60),
    ("wizard", {}, (1, 2), 120), ("wading-pool", {}, (1, 2), 120),
]

# Asked at every step besides the listed moves: no pile, the same pile, a zero count, runs too long.
_PROBES: tuple[AnyIntent, ...] = (
    MoveIntent("t0", "t0", 1), MoveIntent("t0", "t1", 0), MoveIntent("t9", "t1", 3), MoveIntent("x", "t1", 1),
    MoveIntent("t3", "f0", 1), MoveIntent("waste", "t2", 1), PairIntent(0, 1), PairIntent(0, 99), PairIntent(-1, 1),
    DealIntent(), RecycleIntent(), CastIntent(), LuckIntent(0, "t0"), FinishIntent(), UndoIntent(),
)


def _answer(decided: list[engine.AnyEvent] | engine.RuleError) -> bytes:
    if isinstance(decided, engine.RuleError):
        return f"refused {decided.code}: {decided.message}".encode()
    return msgspec.json.encode(decided)


def trace_digest(game: str, variant: dict[str, Any], seeds: tuple[int, ...], steps: int) -> str:
    digest = hashlib.sha256()
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.initial_state(game, variant, seed, practice_undo=seed % 2 == 0)
        assert not isinstance(state, engine.RuleError), state
        for _ in range(steps):
            digest.update(msgspec.json.encode(engine.player_view(state)))
            digest.update(repr(sorted(engine.hidden_cards(state))).encode())
            for probe in _PROBES:
                digest.update(_answer(engine.decide(probe, state)))
            listed: list[AnyIntent] = [i for i in engine.legal_moves(state) if not isinstance(i, ResignIntent)]
            if not listed:
                break
            chosen = rng.choice(listed)
            played = engine.play(chosen, state)
            assert not isinstance(played, engine.RuleError), (chosen, played)
            state, events = played
            digest.update(msgspec.json.encode(events))
        digest.update(_answer(engine.decide(ResignIntent(), state)))
        digest.update(repr(engine.is_over(state)).encode())
    return digest.hexdigest()
