"""Playing real games through the game service in tests: a won Wish from the solver's line."""

from __future__ import annotations

import engine
from engine.solver import solve

WISH_OPEN = {"mode": "open"}


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
