"""Accounts on a real Redis: unique names regardless of case, argon2id passwords, guest upgrade."""

from __future__ import annotations

import asyncio

import pytest
from argon2 import PasswordHasher

from services.store.keys import account_key
from services.tournaments.accounts import (
    ALREADY_REGISTERED,
    BAD_NAME,
    BAD_PASSWORD,
    BAD_PLAYER,
    NAME_TAKEN,
    UNKNOWN_NAME,
    WRONG_PASSWORD,
    Account,
    AccountStore,
)
from tests.fixtures.redis import unique_id

pytestmark = pytest.mark.integration
# Real argon2id with a small cost, so the suite stays quick; production uses argon2-cffi's profile.
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture
def accounts(redis_client) -> AccountStore:
    return AccountStore(redis_client, hasher=CHEAP, clock=lambda: 1_700_000_000_000)


def fresh_name() -> str:
    return "N" + unique_id("")[2:14]


async def test_register_then_verify_with_any_case(accounts, redis_client):
    name = fresh_name()
    account = await accounts.register(name, "correct horse")
    assert isinstance(account, Account) and account.name == name and account.player_id.startswith("g_")
    assert await accounts.verify(name.lower(), "correct horse") == account
    assert await accounts.by_player(account.player_id) == account
    stored = await redis_client.hget(account_key(account.player_id), "password")
    assert stored.startswith(b"$argon2id$") and b"correct horse" not in stored


async def test_a_taken_name_is_refused_whatever_its_case(accounts):
    name = fresh_name()
    assert isinstance(await accounts.register(name, "password1"), Account)
    for same in (name, name.upper(), name.lower()):
        taken = await accounts.register(same, "password2")
        assert taken.code == NAME_TAKEN and same in taken.message
    assert isinstance(await accounts.verify(name, "password1"), Account)  # the first owner keeps it


async def test_a_wrong_password_or_unknown_name_is_an_error_value(accounts):
    name = fresh_name()
    await accounts.register(name, "password1")
    assert (await accounts.verify(name, "password2")).code == WRONG_PASSWORD
    assert (await accounts.verify(name, "")).code == WRONG_PASSWORD
    assert (await accounts.verify(fresh_name(), "password1")).code == UNKNOWN_NAME
    assert (await accounts.verify("x{y}", "password1")).code == UNKNOWN_NAME


async def test_a_guest_keeps_their_player_id_and_upgrades_once(accounts):
    guest = unique_id("g")[:18].replace("-", "_")
    account = await accounts.upgrade_guest(guest, fresh_name(), "password1")
    assert account.player_id == guest
    assert (await accounts.upgrade_guest(guest, fresh_name(), "password1")).code == ALREADY_REGISTERED
    assert (await accounts.upgrade_guest("not-a-player", fresh_name(), "password1")).code == BAD_PLAYER
    assert (await accounts.upgrade_guest("g_{slot}", fresh_name(), "password1")).code == BAD_PLAYER


async def test_two_upgrades_of_one_guest_at_once_make_one_account_and_free_the_other_name(accounts):
    guest = "g_" + unique_id("")[2:18]
    first, second = fresh_name(), fresh_name()
    results = await asyncio.gather(
        accounts.upgrade_guest(guest, first, "password1"), accounts.upgrade_guest(guest, second, "password1")
    )
    made = [r for r in results if isinstance(r, Account)]
    assert len(made) == 1 and [r.code for r in results if not isinstance(r, Account)] == [ALREADY_REGISTERED]
    loser = second if made[0].name == first else first
    assert isinstance(await accounts.register(loser, "password1"), Account)  # its name was given back


@pytest.mark.parametrize("name", ["ab", "a" * 21, "-alice", "alice bob", "al{ce}", "Ålice", "ADMIN", "", None, 5])
async def test_bad_names_are_refused_and_claim_nothing(accounts, name):
    assert (await accounts.register(name, "password1")).code == BAD_NAME


@pytest.mark.parametrize("password", ["short", "x" * 129, None, b"password1"])
async def test_bad_passwords_are_refused(accounts, password):
    name = fresh_name()
    assert (await accounts.register(name, password)).code == BAD_PASSWORD
    assert isinstance(await accounts.register(name, "password1"), Account)  # the name was not claimed


async def test_a_password_hashed_at_an_older_cost_is_rehashed_at_the_next_login(accounts, redis_client):
    name = fresh_name()
    account = await accounts.register(name, "password1")
    stronger = AccountStore(redis_client, hasher=PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1))
    assert await stronger.verify(name, "password1") == account
    stored = await redis_client.hget(account_key(account.player_id), "password")
    assert b"m=2048,t=2,p=1" in stored
    assert await accounts.verify(name, "password1") == account  # the new hash still checks
