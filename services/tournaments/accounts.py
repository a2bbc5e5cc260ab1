"""Named accounts: a unique display name and an argon2id password hash, stored in Redis.

Ranked play needs one. An account keeps a player id of the same form as a guest's, so a guest who
registers keeps their id, and with it their games and statistics (`upgrade_guest`); tokens stay
what services.identity.tokens signs. Names are 3 to 20 ASCII letters, digits, "_" or "-", starting with a
letter or digit; unique regardless of case ("Alice" and "alice" are one name), shown as typed.

Keys (services/store/keys.py): `account-name:{<folded name>}` -> player id, claimed with SET NX,
which is what makes a name unique across processes; `account:{<player id>}` hash (name, password
hash, created_at_ms), written only if absent. The two keys sit in different slots, so a registration
claims the name first and gives it back if the account cannot be written.
Argon2 is slow on purpose (tens of ms, 64 MiB): it runs in a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from msgspec import Struct

from engine.errors import RuleError, rule_error
from services.identity.tokens import PLAYER_PREFIX
from services.redis.client import AnyRedis, as_text
from services.store.keys import account_key, account_name_key

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
PLAYER_ID = re.compile(r"g_[A-Za-z0-9_-]{1,62}")
RESERVED = frozenset({"admin", "administrator", "arena", "guest", "moderator", "system", "unranked"})
MIN_PASSWORD, MAX_PASSWORD = 8, 128
# Error codes
BAD_NAME, NAME_TAKEN, BAD_PASSWORD = "bad_name", "name_taken", "bad_password"
BAD_PLAYER, ALREADY_REGISTERED = "bad_player", "already_registered"
UNKNOWN_NAME, WRONG_PASSWORD = "unknown_name", "wrong_password"

# Writes the account hash only when the player has none: a guest upgraded twice at once gets one.
_CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'password', ARGV[2], 'created_at_ms', ARGV[3])
return 1
"""
# Gives a claimed name back only if this registration still owns it.
_RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Account(Struct, frozen=True):
    player_id: str
    name: str  # as the player typed it
    created_at_ms: int


def fold_name(name: str) -> str:
    return name.lower()  # names are ASCII, so lower() is the whole case folding


def name_problem(name: object) -> str | None:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return "a name is 3 to 20 letters (A-Z), digits, '_' or '-', starting with a letter or digit"
    if fold_name(name) in RESERVED:
        return f"{name!r} is reserved"
    return None


def password_problem(password: object) -> str | None:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters"
    return None


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class AccountStore:
    """Accounts on one Redis (or cluster) client. `hasher` defaults to argon2-cffi's argon2id profile."""

    def __init__(
        self, client: AnyRedis, *, hasher: PasswordHasher | None = None, clock: Callable[[], int] = _now_ms
    ) -> None:
        self.client = client
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self._create = client.register_script(_CREATE_LUA)
        self._release = client.register_script(_RELEASE_LUA)

    async def register(self, name: str, password: str) -> Account | RuleError:
        """A new account with a new player id."""
        return await self._register(name, password, PLAYER_PREFIX + secrets.token_hex(8))

    async def upgrade_guest(self, player_id: str, name: str, password: str) -> Account | RuleError:
        """Give a guest's player id a name and a password; the id, and all it played, stay."""
        if not isinstance(player_id, str) or not PLAYER_ID.fullmatch(player_id):
            return rule_error(BAD_PLAYER, f"{player_id!r} is not a player id")
        return await self._register(name, password, player_id)

    async def _register(self, name: str, password: str, player_id: str) -> Account | RuleError:
        problem = name_problem(name)
        if problem:
            return rule_error(BAD_NAME, problem)
        problem = password_problem(password)
        if problem:
            return rule_error(BAD_PASSWORD, problem)
        if await self.client.exists(account_key(player_id)):
            return rule_error(ALREADY_REGISTERED, "this player already has an account")
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        name_key = account_name_key(fold_name(name))
        if not await self.client.set(name_key, player_id, nx=True):
            return rule_error(NAME_TAKEN, f"the name {name!r} is taken")
        created_at = self.clock()
        if not await self._create([account_key(player_id)], [name, hashed, created_at]):
            await self._release([name_key], [player_id])
            return rule_error(ALREADY_REGISTERED, "this player already has an account")
        return Account(player_id, name, created_at)

    async def verify(self, name: str, password: str) -> Account | RuleError:
        """The account when `password` is its password (any case of the name finds it)."""
        if name_problem(name) or not isinstance(password, str):
            return rule_error(UNKNOWN_NAME, f"no account is named {name!r}")
        player_id = await self.client.get(account_name_key(fold_name(name)))
        record = None if player_id is None else await self._record(as_text(player_id))
        if record is None:
            return rule_error(UNKNOWN_NAME, f"no account is named {name!r}")
        account, hashed = record
        try:
            await asyncio.to_thread(self.hasher.verify, hashed, password)
        except (VerificationError, InvalidHashError):
            return rule_error(WRONG_PASSWORD, "wrong password")
        if self.hasher.check_needs_rehash(hashed):  # the cost settings were raised since
            rehashed = await asyncio.to_thread(self.hasher.hash, password)
            await self.client.hset(account_key(account.player_id), "password", rehashed)
        return account

    async def by_player(self, player_id: str) -> Account | None:
        record = await self._record(player_id)
        return None if record is None else record[0]

    async def _record(self, player_id: str) -> tuple[Account, str] | None:
        name, hashed, created = await self.client.hmget(account_key(player_id), "name", "password", "created_at_ms")
        if name is None or hashed is None:
            return None
        return Account(player_id, as_text(name), int(created or 0)), as_text(hashed)
