"""Player tokens, settings from the environment, and the event codec."""

from __future__ import annotations

import time
from pathlib import Path

import jwt
import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from services.games import codec
from services.identity.tokens import Identity, TokenClaims, load_or_create_secret, signing_key
from services.runtime.settings import Settings, parse_limit, settings_from_environment
from tests.strategies import random_games, registered_variants


def test_tokens_verify_and_forgeries_do_not():
    identity = Identity(b"one secret")
    issued = identity.new_guest()
    assert identity.check(issued.token) == TokenClaims(issued.player_id, 0, issued.expires_at_ms // 1000)
    assert issued.expires_at_ms - issued.issued_at_ms == 30 * 86_400 * 1000
    assert Identity(b"another secret").check(issued.token).code == "bad_token"
    head, payload, signature = issued.token.split(".")
    unsigned = jwt.encode({"sub": "g_x", "iat": 1, "exp": 2**40, "gen": 0}, None, algorithm="none")
    wrong_claims = jwt.encode({"sub": "g_x", "iat": 1, "exp": 2**40}, signing_key(b"one secret"), algorithm="HS256")
    for forged in [f"{head}.{payload}.{signature[:-2]}", f"{head}.{payload}", "g_someone.c2ln", "x", unsigned,
                   wrong_claims, issued.token + "x"]:
        assert identity.check(forged).code == "bad_token", forged
    assert identity.check(None).code == identity.check("").code == "unauthorized"


def test_tokens_expire_after_their_lifetime():
    now = time.time()
    issued = Identity(b"s", ttl_seconds=60, clock=lambda: now - 61).new_guest()
    assert Identity(b"s").check(issued.token).code == "token_expired"
    assert Identity(b"s", ttl_seconds=60, clock=lambda: now - 30).new_guest().token != issued.token
    assert isinstance(Identity(b"s").check(Identity(b"s", 60, clock=lambda: now - 30).new_guest().token), TokenClaims)
    with pytest.raises(ValueError):
        Identity(b"s", ttl_seconds=0)


def test_a_verified_token_is_not_verified_again_yet_still_expires(monkeypatch):
    identity = Identity(b"s", ttl_seconds=60)
    issued = identity.new_guest()
    claims = identity.check(issued.token)
    assert isinstance(claims, TokenClaims)
    decoded = []
    real_decode = jwt.decode
    with monkeypatch.context() as patched:
        patched.setattr(jwt, "decode", lambda token, *args, **kwargs: decoded.append(token) or real_decode(token, *args, **kwargs))
        assert identity.check(issued.token) == claims  # its claims, as the first check found them
        assert identity.check(issued.token + "x").code == "bad_token"  # another string: checked, refused
    assert decoded == [issued.token + "x"]
    identity._now = lambda: claims.expires_at  # the second PyJWT calls it expired at
    assert identity.check(issued.token).code == "token_expired"
    identity._now = time.time
    assert identity._verified == {}  # the expired one went; refused ones never came in


def test_the_verified_tokens_kept_are_bounded(monkeypatch):
    monkeypatch.setattr("services.identity.tokens.VERIFIED_KEPT", 2)
    identity = Identity(b"s")
    tokens = [identity.new_guest().token for _ in range(3)]
    for token in tokens:
        assert isinstance(identity.check(token), TokenClaims)
    assert list(identity._verified) == tokens[1:]  # the oldest made room
    assert isinstance(identity.check(tokens[0]), TokenClaims)  # and is simply verified again


def test_rate_limit_settings_parse_and_refuse_nonsense():
    assert parse_limit("5/hour", None, "X") == (5, "hour") and parse_limit("off", (1, "day"), "X") is None
    assert parse_limit(None, (1, "day"), "X") == (1, "day")
    env = {"ARENA_LIMIT_GUESTS": "off", "ARENA_LIMIT_GAMES": "7/second", "ARENA_TOKEN_TTL_SECONDS": "90"}
    settings = settings_from_environment(env)
    assert (settings.limit_guests, settings.limit_games, settings.token_ttl_seconds) == (None, (7, "second"), 90)
    for bad in ["5/week", "0/minute", "-1/minute", "many/minute", "5"]:
        with pytest.raises(SystemExit, match="ARENA_LIMIT_GAMES"):
            settings_from_environment({"ARENA_LIMIT_GAMES": bad})


def test_secret_from_setting_else_created_once_and_kept(tmp_path: Path):
    assert load_or_create_secret("given", tmp_path) == b"given"
    assert not (tmp_path / "secret").exists()
    first = load_or_create_secret(None, tmp_path / "data")
    assert first and load_or_create_secret(None, tmp_path / "data") == first
    assert oct((tmp_path / "data" / "secret").stat().st_mode & 0o777) == "0o600"


def test_settings_defaults_environment_and_overrides():
    assert settings_from_environment({}) == Settings()
    env = {"ARENA_HOST": "0.0.0.0", "ARENA_PORT": "9000", "ARENA_DATA_DIR": "/srv/arena", "REDIS_URL": "redis://x:1/0",
           "ARENA_SECRET": "s", "ARENA_BENCH_ECHO": "yes"}
    settings = settings_from_environment(env)
    assert (settings.host, settings.port, settings.data_dir) == ("0.0.0.0", 9000, Path("/srv/arena"))
    assert (settings.redis_url, settings.secret, settings.bench_echo) == ("redis://x:1/0", "s", True)
    assert settings.with_overrides(port=1, host=None).port == 1 and settings.with_overrides(host=None).host == "0.0.0.0"
    assert settings.game_modules == ()
    assert settings_from_environment({"ARENA_GAME_MODULES": " a.b, c ,"}).game_modules == ("a.b", "c")
    with pytest.raises(SystemExit, match="bad setting"):
        settings_from_environment({"ARENA_PORT": "eighty"})
    assert settings_from_environment({"ARENA_HTTP_IMPL": "h11"}).http_impl == "h11"
    with pytest.raises(SystemExit, match="ARENA_HTTP_IMPL must be one of auto, httptools, h11"):
        settings_from_environment({"ARENA_HTTP_IMPL": "fast"})


@given(data=st.data())
def test_engine_events_round_trip_through_the_codec(data):
    game, variant = data.draw(st.sampled_from(registered_variants()))
    _, steps, _ = data.draw(random_games(game, variant, max_moves=20))
    for _, events in steps:
        for event in events:
            entry = codec.new_entry(event)
            assert entry.type == codec.entry_tag(event)
            assert codec.decode_payload(entry.type, entry.schema, entry.data) == event


def test_game_created_round_trips():
    created = codec.GameCreated("wish", {"mode": "open"}, 2**64 - 1, "g_x", 1_700_000_000_000)
    entry = codec.new_entry(created)
    assert entry.type == codec.GAME_CREATED and codec.decode_payload(entry.type, entry.schema, entry.data) == created
    assert not isinstance(engine.initial_state(created.game, created.variant, created.seed), engine.RuleError)


def test_processes_starting_together_share_one_secret_and_an_empty_one_is_refused(tmp_path: Path):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        found = set(pool.map(lambda _: load_or_create_secret(None, tmp_path / "data"), range(32)))
    assert len(found) == 1 and b"" not in found
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["secret"]  # no draft left behind
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "secret").write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        load_or_create_secret(None, tmp_path / "empty")
