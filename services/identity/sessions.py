"""What a signed token cannot say by itself, kept in Redis so every gateway process agrees: whether the
player signed out since it was issued, and the one-use tickets a socket authenticates with.

Signing out raises the player's token generation; a token issued at a lower generation is refused from
then on, on every route and process. (One counter per player, not one record per token: it also ends
the tokens a refresh made, and it costs one small key per player who signed out, kept only as long as
a token lives.) A ticket is a random string that stands for the player for `ticket_ttl_seconds` and
one redemption (GETDEL), so a socket URL never carries the token: a logged ticket is already used up.

Every method may raise redis' RedisError; the gateway answers that with `unavailable`.
"""

from __future__ import annotations

import secrets
import time

from msgspec import Struct

from .tokens import Identity, IssuedToken, TokenClaims, TokenRefused
from ..redis.client import AnyRedis, as_text
from ..redis.lean_commands import LeanCommands
from ..store.keys import ticket_key, token_generation_key

MAX_TICKET_CHARS = 64
SIGNED_OUT = TokenRefused("token_revoked", "this token was signed out: it is no longer accepted anywhere")
BAD_TICKET = TokenRefused(
    "bad_ticket", "the ticket is unknown, used or expired: POST /api/tickets for a new one, then connect at once"
)


class Ticket(Struct, frozen=True):
    ticket: str
    expires_in_ms: int


class Sessions:
    def __init__(self, redis: AnyRedis, identity: Identity, ticket_ttl_seconds: float, *,
                 lean: LeanCommands | None = None) -> None:
        self.redis = redis
        # A request's generation check and a socket's ticket: over the lean link where the process has
        # one (services/redis/lean_commands.py); signing out (an INCR, never sent twice) through redis-py.
        self.lean = lean or LeanCommands(redis, None)
        self.identity = identity
        self.ticket_ttl_ms = max(1, int(ticket_ttl_seconds * 1000))

    async def _generation(self, player_id: str) -> int:
        raw = await self.lean.get(token_generation_key(player_id))
        return int(raw) if raw is not None else 0

    async def check(self, token: str | None) -> TokenClaims | TokenRefused:
        """A token's claims if it is signed, unexpired and not signed out; else why it is refused.
        Refusals that need no Redis (missing, forged, expired) are given without asking it."""
        claims = self.identity.check(token)
        if isinstance(claims, TokenRefused):
            return claims
        if claims.generation < await self._generation(claims.player_id):
            return SIGNED_OUT
        return claims

    async def issue(self, player_id: str) -> IssuedToken:
        """A token for a player who proved who they are (a sign-in): of the current generation, so a
        sign-out before it does not end it."""
        return self.identity.token_for(player_id, await self._generation(player_id))

    async def refresh(self, claims: TokenClaims) -> IssuedToken:
        """A new token for the same player, living a full lifetime from now. The old one lives out its
        own time (a client that lost the answer still has a working token); signing out ends both."""
        return self.identity.token_for(claims.player_id, claims.generation)

    async def sign_out(self, claims: TokenClaims) -> None:
        """End every token of the player issued until now. The counter may expire one token lifetime
        later: by then every token it ended has expired by itself."""
        key = token_generation_key(claims.player_id)
        pipe = self.redis.pipeline(transaction=False)  # one key, one slot: fine on a cluster too
        pipe.incr(key)
        pipe.expire(key, self.identity.ttl_seconds)
        await pipe.execute()

    async def new_ticket(self, claims: TokenClaims) -> Ticket:
        """A one-use ticket for a socket; it never outlives the token it was made with."""
        ticket = secrets.token_urlsafe(24)
        lifetime_ms = min(self.ticket_ttl_ms, max(1, int((claims.expires_at - time.time()) * 1000)))
        value = f"{claims.player_id} {claims.generation}".encode()
        await self.lean.set(ticket_key(ticket), value, px=lifetime_ms)
        return Ticket(ticket, lifetime_ms)

    async def redeem(self, ticket: str | None) -> str | TokenRefused:
        """The player a ticket stands for, once: the ticket is deleted as it is read, so two sockets (or
        two gateway processes) racing with one ticket cannot both get in."""
        if not ticket or len(ticket) > MAX_TICKET_CHARS:
            return BAD_TICKET
        raw = await self.lean.getdel(ticket_key(ticket))
        if raw is None:
            return BAD_TICKET
        player_id, _, generation = as_text(raw).rpartition(" ")
        if int(generation) < await self._generation(player_id):
            return SIGNED_OUT  # signed out between taking the ticket and using it
        return player_id
