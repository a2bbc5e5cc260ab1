"""Named accounts: register (a guest keeps its id and games), sign in, who am I.

Ranked daily attempts need a named account; a guest plays unranked. Passwords are argon2id hashes
(services/tournaments/accounts.py); the token a sign-in issues is the same signed, expiring,
revocable kind a guest gets (services/identity/sessions.py).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import Parameter
from msgspec import Meta, Struct

from engine import RuleError

from .api_docs import credentials_schema, errors, json_body
from ...identity.tokens import TokenClaims, TokenRefused
from ...identity.sessions import Sessions
from ...tournaments.service import TournamentService
from ..guards.auth import bearer_token
from .bodies import decode_body
from ..errors import ApiError
from ..guards.limits import rate_limited
from .session_routes import TokenIssued, token_body

Name = Annotated[str, Meta(min_length=1, max_length=64)]
Password = Annotated[str, Meta(min_length=1, max_length=256)]


class CredentialsC2S(Struct, frozen=True, forbid_unknown_fields=True):
    name: Name
    password: Password


MAX_NAMES = 32  # a race's seats and a ratings page at most: more is not a page's question
PLAYER_IDS = rf"^[A-Za-z0-9_-]{{1,64}}(,[A-Za-z0-9_-]{{1,64}}){{0,{MAX_NAMES - 1}}}$"


class PlayerName(Struct, frozen=True):
    player: str
    name: str | None  # None for a guest (or an id no one has)


class PlayerNamesS2C(Struct, frozen=True):
    players: list[PlayerName]


class Me(Struct, frozen=True):
    player_id: str
    name: str | None  # None for a guest
    ranked: bool  # a named account: its daily attempts are ranked


_credentials = msgspec.json.Decoder(CredentialsC2S)
_AUTH_ERRORS = {"wrong_password": 401, "unknown_name": 401, "name_taken": 409, "already_registered": 409}


def _refused(error: RuleError) -> ApiError:
    return ApiError(_AUTH_ERRORS.get(error.code, 400), error.code, error.message)


class AccountsController(Controller):
    path = "/api"
    tags = ["players"]

    @post("/accounts", status_code=201, opt=rate_limited("sign_in"), responses=errors(400, 401, 409, 429),
          operation_class=json_body(credentials_schema(), "the account's name and password"))
    async def register(self, request: Request, sessions: NamedDependency[Sessions],
                       tournaments: NamedDependency[TournamentService]) -> TokenIssued:
        """A named account. Sent with a guest's token, the guest becomes the account and keeps its games."""
        data = decode_body(await request.body(), _credentials)
        guest = await sessions.check(bearer_token(request)) if bearer_token(request) else None
        if isinstance(guest, TokenRefused):
            raise ApiError(401, guest.code, guest.message)
        accounts = tournaments.accounts
        if guest is not None:
            made = await accounts.upgrade_guest(guest.player_id, data.name, data.password)
        else:
            made = await accounts.register(data.name, data.password)
        if isinstance(made, RuleError):
            raise _refused(made)
        return token_body(await sessions.issue(made.player_id))

    @post("/session/sign-in", status_code=201, opt=rate_limited("sign_in"), responses=errors(400, 401, 429),
          operation_class=json_body(credentials_schema(), "the account's name and password"))
    async def sign_in(self, request: Request, sessions: NamedDependency[Sessions],
                      tournaments: NamedDependency[TournamentService]) -> TokenIssued:
        """A token for a named account, from its display name and password."""
        data = decode_body(await request.body(), _credentials)
        account = await tournaments.accounts.verify(data.name, data.password)
        if isinstance(account, RuleError):
            raise _refused(account)
        return token_body(await sessions.issue(account.player_id))

    @get("/players/me", responses=errors(401))
    async def me(self, claims: NamedDependency[TokenClaims], tournaments: NamedDependency[TournamentService]) -> Me:
        account = await tournaments.accounts.by_player(claims.player_id)
        return Me(claims.player_id, account.name if account else None, account is not None)

    @get("/players/names", responses=errors(400))
    async def names(self, tournaments: NamedDependency[TournamentService],
                    ids: Annotated[str, Parameter(pattern=PLAYER_IDS, description=(
                        f"player ids, comma-separated: at most {MAX_NAMES}, each letters, digits, _ and -"))],
                    ) -> PlayerNamesS2C:
        """The display names of players (racers, a ratings board): the names leaderboards already show.
        Guests have none. Each id once, in the order asked."""
        wanted = list(dict.fromkeys(ids.split(",")))
        accounts = [await tournaments.accounts.by_player(player) for player in wanted]
        return PlayerNamesS2C([PlayerName(player, account.name if account else None)
                               for player, account in zip(wanted, accounts)])
