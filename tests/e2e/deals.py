"""Deals chosen with the engine's full knowledge (the test sees what the player cannot): a
winning line for a pairing game, a Solitaire Wizard deal that opens a luck pick."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

import engine
from engine.intents import CastIntent, DealIntent, LuckIntent, MoveIntent, PairIntent, RecycleIntent


def _intent_dict(intent) -> dict[str, Any]:
    return msgspec.to_builtins(intent)


def pairing_win(game: str, variant: dict[str, Any], seed: int, budget: int = 200_000) -> list[dict] | None:
    """A winning sequence of pair intents, by depth-first search over pile heights (the board of a
    pairing game is fixed by how many cards each pile still holds), or None."""
    start = engine.initial_state(game, variant, seed)
    dead: set[tuple[int, ...]] = set()
    steps = 0

    def heights(state) -> tuple[int, ...]:
        return tuple(len(pile.cards) for pile in state.board.piles)

    def search(state) -> list | None:
        nonlocal steps
        if state.status == engine.WON:
            return []
        key = heights(state)
        if key in dead or steps > budget:
            return None
        steps += 1
        for intent in (i for i in engine.legal_moves(state) if isinstance(i, PairIntent)):  # never resign
            after, _ = engine.play(intent, state)
            line = search(after)
            if line is not None:
                return [intent, *line]
        dead.add(key)
        return None

    line = search(start)
    return None if line is None else [_intent_dict(intent) for intent in line]


@lru_cache
def winnable_pairing_deal(game: str, mode_key: tuple = ()) -> tuple[int, list[dict]]:
    variant = dict(mode_key)
    for seed in range(1, 500):
        line = pairing_win(game, variant, seed)
        if line:
            return seed, line
    raise LookupError(f"no winnable {game} deal among seeds 1..499")


@lru_cache
def wizard_luck_deal() -> tuple[int, list[dict]]:
    """A seed where drawing and recycling only (no other move) opens a luck pick, with those moves."""
    for seed in range(1, 400):
        state = engine.initial_state("wizard", None, seed)
        line = []
        for _ in range(80):
            legal = engine.legal_moves(state)
            step = next((i for i in legal if isinstance(i, (DealIntent, RecycleIntent))), None)
            if step is None:
                break
            state, _ = engine.play(step, state)
            line.append(_intent_dict(step))
            opened = engine.player_view(state).info.get("luck_open")
            if opened and any(isinstance(i, LuckIntent) for i in engine.legal_moves(state)):
                return seed, line
    raise LookupError("no Solitaire Wizard deal opens a luck pick by drawing alone among seeds 1..399")


@lru_cache
def wish_losing_line() -> tuple[int, list[dict]]:
    """A Wish deal and a line of first-listed legal pairs that ends lost (cards left, no pair)."""
    for seed in range(1, 500):
        state = engine.initial_state("wish", {"mode": "standard"}, seed)
        line = []
        while state.status == engine.IN_PROGRESS:
            intent = engine.legal_moves(state)[0]
            state, _ = engine.play(intent, state)
            line.append(_intent_dict(intent))
        if state.status == engine.LOST and line:
            return seed, line
    raise LookupError("no losing first-pair line among Wish seeds 1..499")


@lru_cache
def wizard_cast_deal() -> tuple[int, list[dict]]:
    """A Solitaire Wizard seed where drawing alone opens a cast, with those draws."""
    for seed in range(1, 400):
        state = engine.initial_state("wizard", None, seed)
        line = []
        for _ in range(20):
            legal = engine.legal_moves(state)
            if any(isinstance(i, CastIntent) for i in legal):
                stock = next(p for p in engine.player_view(state).piles if p.id == "stock")
                if stock.down >= 3:
                    return seed, line
            if not any(isinstance(i, DealIntent) for i in legal):
                break
            state, _ = engine.play(DealIntent(), state)
            line.append({"type": "deal"})
    raise LookupError("no Solitaire Wizard deal opens a cast by drawing alone among seeds 1..399")


@lru_cache
def spider_group_line() -> tuple[int, list[dict], dict]:
    """A one-suit Spider seed, a short line of moves, and then a legal move of a group of 2+ cards
    from a pile that may also move one card fewer (so the keyboard can step the count down and up)."""
    for seed in range(1, 300):
        state = engine.initial_state("spider", {"suits": 1}, seed)
        line: list[dict] = []
        last = None
        for _ in range(25):
            legal = [i for i in engine.legal_moves(state) if isinstance(i, MoveIntent)]
            smaller = {(i.src, i.count + 1) for i in legal}
            group = next((i for i in legal if i.count >= 2 and (i.dst, i.src) != last
                          and (i.src, i.count) in smaller), None)
            if group is not None:
                return seed, line, _intent_dict(group)
            fresh = [i for i in legal if (i.dst, i.src) != last]
            if not fresh:
                break
            state, _ = engine.play(fresh[0], state)
            last = (fresh[0].src, fresh[0].dst)
            line.append(_intent_dict(fresh[0]))
    raise LookupError("no one-suit Spider line reaches a group move among seeds 1..299")


@lru_cache
def spider_empty_column_line() -> tuple[int, list[dict]]:
    """A one-suit Spider seed and a line of moves (seeded random choices) that empties a column
    while the stock still has deals: Deal is then refused, and its button must say why."""
    import random

    for seed in range(1, 400):
        rng = random.Random(seed)
        for _ in range(30):
            state, line = engine.initial_state("spider", {"suits": 1}, seed), []
            for _ in range(40):
                moves = [i for i in engine.legal_moves(state) if isinstance(i, MoveIntent)]
                if not moves:
                    break
                intent = rng.choice(moves)
                state, _ = engine.play(intent, state)
                line.append(_intent_dict(intent))
                if state.board.stock and any(not pile.cards for pile in state.board.columns):
                    return seed, line
    raise LookupError("no Spider line empties a column among seeds 1..399")


@lru_cache
def pairing_finish_line(game: str = "wish", mode: str = "open") -> tuple[int, list[dict], int]:
    """A deal, a line of first-listed pairs after which Finish is offered, and how many moves
    Finish then plays (at least two)."""
    variant = {"mode": mode} if game == "wish" else {}
    for seed in range(1, 400):
        state, line = engine.initial_state(game, variant, seed), []
        while state.status == engine.IN_PROGRESS:
            finish = next(a for a in engine.actions(state) if a.type == "finish")
            if finish.available:
                rest = engine.decide(engine.intents.FinishIntent(), state)
                if len(rest) >= 2:
                    return seed, line, len(rest)
                break
            intent = engine.legal_moves(state)[0]
            state, _ = engine.play(intent, state)
            line.append(_intent_dict(intent))
    raise LookupError(f"no {game} deal reaches a Finish of two moves or more among seeds 1..399")
