"""Identity routes: a guest's first token, refreshing and signing out a token, socket tickets.

Routes that hand out a token or a ticket take a rate limit per client address (limits.py).
"""

from __future__ import annotations

from litestar import Controller, post
from litestar.di import NamedDependency
from msgspec import Struct
from redis.exceptions import RedisError

from .api_docs import errors
from ...identity.tokens import Identity, IssuedToken, TokenClaims
from ...identity.sessions import Sessions, Ticket
from ..errors import ApiError
from ..guards.limits import rate_limited


class TokenIssued(Struct, frozen=True):
    """A token and its lifetime (ms since the epoch): refresh it once half of that has passed."""

    player_id: str
    token: str
    issued_at_ms: int
    expires_at_ms: int


class TicketIssued(Struct, frozen=True):
    ticket: str
    expires_in_ms: int


def token_body(issued: IssuedToken) -> TokenIssued:
    return TokenIssued(issued.player_id, issued.token, issued.issued_at_ms, issued.expires_at_ms)


def unavailable(exc: RedisError) -> ApiError:
    return ApiError(503, "unavailable", f"the session store did not answer: {exc}")


class PlayersController(Controller):
    path = "/api/players"
    tags = ["players"]

    @post("/guest", status_code=201, opt=rate_limited("guests"), responses=errors(429))
    async def create_guest(self, identity: NamedDependency[Identity]) -> TokenIssued:
        """A new guest player and its token. Needs no Redis: the token is signed, not stored."""
        return token_body(identity.new_guest())


class SessionController(Controller):
    path = "/api/session"
    tags = ["players"]

    @post("/refresh", status_code=201, opt=rate_limited("sign_in"), responses=errors(401, 429))
    async def refresh(self, sessions: NamedDependency[Sessions], claims: NamedDependency[TokenClaims]) -> TokenIssued:
        """A new token for the same player, a full lifetime from now; the old one lives out its time."""
        return token_body(await sessions.refresh(claims))

    @post("/sign-out", status_code=204, responses=errors(401))
    async def sign_out(self, sessions: NamedDependency[Sessions], claims: NamedDependency[TokenClaims]) -> None:
        """End this token, and every other token of the player issued until now, on every process.
        A guest has no way back in: its games stay, but nobody can play them as that player again."""
        try:
            await sessions.sign_out(claims)
        except RedisError as exc:
            raise unavailable(exc) from exc


class TicketsController(Controller):
    path = "/api/tickets"
    tags = ["players"]

    @post("/", status_code=201, opt=rate_limited("tickets"), responses=errors(401, 429))
    async def new_ticket(self, sessions: NamedDependency[Sessions], claims: NamedDependency[TokenClaims]) -> TicketIssued:
        """A ticket for one socket: `?ticket=<ticket>`, used once, within `expires_in_ms`."""
        try:
            ticket: Ticket = await sessions.new_ticket(claims)
        except RedisError as exc:
            raise unavailable(exc) from exc
        return TicketIssued(ticket.ticket, ticket.expires_in_ms)
