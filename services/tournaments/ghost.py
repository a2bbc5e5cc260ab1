"""Ghost races: a revealed daily's deal played again against the best verified replay.

A ghost race is a practice game (unranked, never on a board) on the challenge's deal, its log
marked with the ghost it races (`links.ghost`, the best verified attempt's game id). It opens only
once the challenge is final, its seed and every attempt revealed: before the reveal (the close plus
the hour of grace) no attempt's replay may be shown, so there is no ghost to race.

The ghost's progress is counts only (moves, cards home, cards left, status) at each step's time
since the ghost's own first look, computed from its public replay; the page shows it against the
player's own clock, which starts at the player's first look.
"""

from __future__ import annotations

from msgspec import Struct

from engine import RuleError
from engine.errors import rule_error

from ..games.entries import PRACTICE, GameLinks
from ..games.model import NO_SUCH_GAME, GameSummary, Refusal
from ..games.record import read_log
from ..games.service import GameService
from ..races.progress import progress_of
from ..validator.public import public_game
from ..validator.replay_views import view_steps
from .catalogue import parse_challenge_key
from .challenge import NOT_PREPARED
from .service import TournamentService

NOT_REVEALED = "not_revealed"
NO_VERIFIED_WIN = "no_verified_win"
NOT_A_GHOST_RACE = "not_a_ghost_race"


class GhostPoint(Struct, frozen=True):
    elapsed_ms: int  # since the ghost's first look
    moves: int
    cards_home: int  # on foundations or cleared away
    cards_left: int
    status: str  # in_play, won, stuck, resigned


class GhostLine(Struct, frozen=True):
    game_id: str  # the ghost: the best verified attempt, whose replay is public
    challenge: str
    name: str | None  # the ghost's player, as the board shows them
    moves: int
    time_ms: int
    points: list[GhostPoint]  # points[0] the deal at 0 ms, then one per logged step


async def start_ghost_race(t: TournamentService, player_id: str, key: str) -> GameSummary | RuleError:
    """A new practice game on the challenge's deal, marked with the best verified replay it races."""
    ref = parse_challenge_key(key)
    if isinstance(ref, RuleError):
        return ref
    state = await t.challenge(ref.key)
    if state.prepared is None:
        return rule_error(NOT_PREPARED, "this challenge has not been prepared")
    if state.revealed is None:
        return rule_error(NOT_REVEALED, "a ghost race opens once the challenge has closed and its deal is revealed"
                                        " (the close plus the hour of grace)")
    page = await t.board.page(ref.key, 0, 1)  # rank 1: the board's best verified win
    assert not isinstance(page, RuleError), page
    best = page.rows[0].entry if page.rows else None
    if best is None:
        return rule_error(NO_VERIFIED_WIN, "this challenge has no verified win: there is no replay to race")
    prepared = state.prepared
    return await t.games.create_game(
        player_id, prepared.game, prepared.variant, prepared.sealed.seed,
        kind=PRACTICE, links=GameLinks(challenge=ref.key, ghost=best.game_id),
    )


async def ghost_line(t: TournamentService, games: GameService, game_id: str) -> GhostLine | Refusal:
    """The ghost a ghost race runs beside, or why not (no such game, not a ghost race, not public)."""
    live = await games.refresh(game_id)
    if live is None:
        return Refusal(NO_SUCH_GAME, f"there is no game {game_id!r}")
    ghost_id, challenge = live.created.links.ghost, live.created.links.challenge
    if ghost_id is None or challenge is None:
        return Refusal(NOT_A_GHOST_RACE, "this game is not a ghost race")
    ghost = await public_game(games, ghost_id)  # public since the reveal; asked all the same
    if isinstance(ghost, Refusal):
        return ghost
    steps, _ = view_steps(read_log(await games.store.read(ghost_id)))
    points = [GhostPoint(step.elapsed_ms or 0, p.moves, p.cards_home, p.cards_left, p.status)
              for step in steps for p in [progress_of("ghost", 0, step.view, step.elapsed_ms)]]
    account = await t.accounts.by_player(ghost.created.player_id)
    return GhostLine(ghost_id, challenge, account.name if account else None, points[-1].moves,
                     points[-1].elapsed_ms, points)
