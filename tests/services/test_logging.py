"""The log setup itself: JSON lines with the four ids, and nothing secret in them whatever a caller passes."""

from __future__ import annotations

import io
import json
import logging

import pytest

from services.identity.tokens import Identity
from services.runtime.logging import REDACTED, bind_ids, bound_ids, configure_logging, get_logger, level_number, never_log

SECRET = "a-server-secret-that-must-never-show"


@pytest.fixture
def lines():
    stream = io.StringIO()
    configure_logging("debug", stream)
    never_log(SECRET)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logging.getLogger().handlers.clear()
    logging.getLogger().setLevel(logging.WARNING)


def test_structlog_and_stdlib_lines_are_json_with_the_ids(lines):
    with bound_ids(request_id="r1", game_id="g1"):
        bind_ids(player_id="g_0123456789abcdef")
        get_logger("arena.test").info("moved", version=3)
        logging.getLogger("some.library").warning("plain %s line", "stdlib")
    get_logger("arena.test").info("outside")
    first, second, third = lines()
    assert first["event"] == "moved" and first["version"] == 3 and first["level"] == "info"
    assert second["event"] == "plain stdlib line" and second["logger"] == "some.library"
    for record in (first, second):
        assert (record["request_id"], record["game_id"], record["race_id"]) == ("r1", "g1", None)
        assert record["player_id"] == "g_0123456789abcdef"
    assert third["request_id"] is None and third["game_id"] is None  # the block's ids ended with it


def test_tokens_and_secrets_are_scrubbed_from_fields_texts_and_tracebacks(lines):
    issued = Identity(SECRET.encode()).new_guest()
    player, token = issued.player_id, issued.token
    signature = token.split(".")[2]
    log = get_logger("arena.test")
    log.info("opened", path=f"/ws/games/x?token={token}", token=token, headers={"Authorization": f"Bearer {token}"})
    log.info(f"a careless message from {player} with {token} and {SECRET} in it")
    logging.getLogger("some.library").info("GET /x?token=%s&y=1 and secret=%s", token, SECRET)
    try:
        raise ValueError(f"the token {token} was bad")
    except ValueError:
        log.exception("failed")
    records = lines()
    text = json.dumps(records)
    assert signature not in text and token not in text and SECRET not in text
    assert records[0]["token"] == REDACTED and records[0]["headers"]["Authorization"] == REDACTED
    assert player in records[1]["event"]  # the player id is not secret: it stays, for the reader


def test_the_level_is_checked():
    assert level_number("warning") == logging.WARNING and level_number("trace") == logging.DEBUG
    with pytest.raises(SystemExit, match="ARENA_LOG_LEVEL"):
        level_number("loud")
