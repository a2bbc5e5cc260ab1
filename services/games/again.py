""""Play this deal again": a new practice game on the deal of one of the player's games.

Offered after a casual or practice game. A daily's or a race's deal (the attempt, a race game, practice
on their deal) is refused until that deal is public: a player who could deal it again before the contest
is over could study it and pass it on. The rule is the same one hints follow (DealSecrecy.may_hint).
"""

from __future__ import annotations

from engine import RuleError

from .entries import PRACTICE, GameLinks
from .model import NOT_PUBLIC_YET, NOT_YOUR_GAME, GameSummary, Refusal
from .service import GameService


async def play_again(service: GameService, player_id: str, game_id: str) -> GameSummary | Refusal | None:
    """The new practice game, a Refusal (not_your_game, not_public_yet), or None for no such game."""
    live = await service.refresh(game_id)
    if live is None:
        return None
    created = live.created
    if player_id != created.player_id:
        return Refusal(NOT_YOUR_GAME, "only the game's player may play its deal again")
    if not service.secrecy.may_hint(created, service.clock()):
        return Refusal(NOT_PUBLIC_YET, f"this {created.kind} deal stays secret until its contest is over: "
                                       "it may be played again after that")
    again = await service.create_game(
        player_id, created.game, created.variant, created.seed, kind=PRACTICE, chosen_deal=True,
        links=GameLinks(challenge=created.links.challenge),  # practice on a daily's deal stays linked to it
    )
    assert not isinstance(again, RuleError), again  # the deal dealt once already
    return again
