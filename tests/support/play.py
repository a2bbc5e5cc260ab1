"""Playing real games through the game service in tests: a won Wish from the solver's line."""

from __future__ import annotations

import engine
from engine.solver import solve

WISH_OPEN = {"mode": "open"}

# A Wish deal still in play as dealt: about 1 deal in 160 is lost before any move (no pair to take),
# and a test that resigns or abandons a server-chosen deal fails on those. Given with the kind named,
# it is still a server's (casual, daily, race) deal, not a chosen one.
IN_PLAY_WISH = next(seed for seed in range(1, 1000)
                    if engine.initial_state("wish", None, seed).status == engine.IN_PROGRESS)


def winnable_wish_seed(start: int = 0) -> int:
    return next(s for s in range(start, start + 500) if solve(engine.initial_state("wish", WISH_OPEN, s)).winnable)


async def play_line(service, player_id: str, game_id: str, line, *, tick=None) -> None:
    for intent in line:
        version = service.live.get(game_id).version
        result = await service.submit(player_id, game_id, f"m{version}", version, intent)
        assert result.answer.accepted, result.answer
        if tick is not None:
            tick()


async def won_wish(service, player_id: str, *, seed: int | None = None, tick=None, **create):
    """A Wish game created and won through `service`; its summary at the end."""
    seed = winnable_wish_seed() if seed is None else seed
    game = await service.create_game(player_id, "wish", WISH_OPEN, seed, **create)
    await service.open_for(game.id, player_id)
    if tick is not None:
        tick()
    line = solve(engine.initial_state("wish", WISH_OPEN, seed)).line
    await play_line(service, player_id, game.id, line, tick=tick)
    summary = await service.summary(game.id)
    assert summary.status == "won"
    return summary


def lost_wish_line(mode: str = "standard", min_moves: int = 8) -> tuple[int, list]:
    """A winnable Wish deal that playing the first listed pair every time loses after at least
    `min_moves`: a seed and its intents (a review finds the move after which it could no longer be won)."""
    for seed in range(1, 500):
        start = engine.initial_state("wish", {"mode": mode}, seed)
        if not solve(start).winnable:
            continue
        state, line = start, []
        while state.status == engine.IN_PROGRESS:
            intent = engine.legal_moves(state)[0]  # the game's own moves come first, resign last
            state, _ = engine.play(intent, state)
            line.append(intent)
        if state.status == engine.LOST and len(line) >= min_moves:
            return seed, line
    raise LookupError(f"no winnable Wish ({mode}) deal among seeds 1..499 is lost by first-pair play")
