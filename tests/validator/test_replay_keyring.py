"""The deployment's replay keys in a real Valkey: every key a server signed with stays listed, so a
rotation leaves every file signed before it checkable."""

from __future__ import annotations

import json
import secrets

import pytest

from services.validator.replay_file import build_replay
from services.validator.replay_format import document_of
from services.validator.replay_keyring import ReplayKeys
from services.validator.replay_signing import Keyring, KeyList, ReplaySigner
from tests.support.replays import outcome_of
from tests.validator.replay_documents import GAME_ID, won_casual

pytestmark = pytest.mark.integration


async def test_a_rotated_key_stays_listed_and_its_files_still_check(redis_client):
    # Nothing is deleted: the gateway tests' servers may share this Valkey and its list of keys.
    old = ReplayKeys(redis_client, ReplaySigner(secrets.token_bytes(16)), clock=lambda: 1000)
    signed_before = document_of(await old.sign(build_replay(GAME_ID, won_casual())))
    new = ReplayKeys(redis_client, ReplaySigner(secrets.token_bytes(16)), clock=lambda: 2000)
    signed_after = document_of(await new.sign(build_replay(GAME_ID, won_casual())))
    listed: KeyList = await new.listed()
    assert listed.current == new.signer.key_id != old.signer.key_id
    ours = [key for key in listed.keys if key.key_id in (old.signer.key_id, new.signer.key_id)]
    assert [(key.key_id, key.since_ms) for key in ours] == [(old.signer.key_id, 1000), (new.signer.key_id, 2000)]
    keys = Keyring(listed.keys)
    for tree in (signed_before, signed_after):
        assert outcome_of(json.dumps(tree).encode(), keys) == "verified"
    only_new = Keyring([key for key in listed.keys if key.key_id == new.signer.key_id])
    assert outcome_of(json.dumps(signed_before).encode(), only_new) == "unknown_key", "had the old key been dropped"


async def test_a_key_is_recorded_once_with_its_first_time(redis_client):
    signer = ReplaySigner(secrets.token_bytes(16))  # one secret, two processes
    for at in (5000, 9000):  # a second process with the same secret later
        await ReplayKeys(redis_client, signer, clock=lambda at=at: at).listed()
    listed = await ReplayKeys(redis_client, signer, clock=lambda: 0).listed()
    assert [(key.key_id, key.since_ms) for key in listed.keys if key.key_id == signer.key_id] == [(signer.key_id, 5000)]
