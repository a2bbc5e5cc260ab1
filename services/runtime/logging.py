"""Structured logs: one JSON object a line on stderr, for `arena serve` and `arena validate`.

Every line carries the same four ids, null when a line has none: request_id (one HTTP request or one
websocket, from the X-Request-ID header or made up), game_id, race_id and player_id (bound where they
become known: routing, the token check). Lines from the standard library's loggers (uvicorn, the Redis
supervisor, the validator) go through the same processors, so they are JSON with the ids too.

No token or secret is ever written: fields named like one are replaced, and every text is scrubbed of
guest tokens' signatures, `token=` / `Bearer` values and the server secret itself (`never_log`). The
player id before a token's dot is not secret and stays. The level comes from ARENA_LOG_LEVEL.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog
from structlog.typing import Processor
from structlog.contextvars import bind_contextvars, bound_contextvars, merge_contextvars

IDS = ("request_id", "game_id", "race_id", "player_id")
REDACTED = "[redacted]"
SECRET_FIELDS = {"token", "secret", "password", "authorization", "cookie", "arena_secret", "signature", "ticket"}
# A player token is a JWT: three url-safe base64 parts, the first always starting "eyJ" ('{"').
JWT = re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
# A guest token is "<player id>.<signature>" (HMAC-SHA256, url-safe base64, 43 characters).
SIGNED_TOKEN = re.compile(r"\b(g_[0-9a-f]{16})\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
SECRET_IN_TEXT = re.compile(r"(?i)\b(token=|ticket=|secret=|password=|bearer\s+)[^\s&\"',;)]+")
LEVELS = {**logging.getLevelNamesMapping(), "TRACE": logging.DEBUG}  # uvicorn's "trace" is our debug

_never_logged: set[str] = set()

__all__ = ["bind_ids", "bound_ids", "configure_logging", "get_logger", "never_log"]


def never_log(value: str | bytes) -> None:
    """Scrub this exact value (the server secret) from every line, wherever it would appear."""
    text = value.decode(errors="replace") if isinstance(value, bytes) else value
    if len(text) >= 8:  # shorter strings would blank out ordinary words
        _never_logged.add(text)


def bind_ids(**ids: str | None) -> None:
    """Put ids (game_id, race_id, player_id) on every later line of this task (request, socket, job)."""
    bind_contextvars(**ids)


def bound_ids(**ids: str | None):
    """The same for a `with` block only."""
    return bound_contextvars(**ids)


def get_logger(name: str) -> Any:  # Any: structlog's bound logger (structlog types it loosely)
    return structlog.get_logger(name)


def _scrub_text(text: str) -> str:
    for value in _never_logged:
        text = text.replace(value, REDACTED)
    text = SIGNED_TOKEN.sub(rf"\1.{REDACTED}", text)
    text = JWT.sub(REDACTED, text)
    return SECRET_IN_TEXT.sub(rf"\1{REDACTED}", text)


def _scrub(value: Any) -> Any:  # Any: any value, as its caller has it
    if isinstance(value, str):
        return _scrub_text(value)
    if isinstance(value, dict):
        return {k: REDACTED if str(k).lower() in SECRET_FIELDS else _scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(item) for item in value]
    return value


def redact(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:  # Any: structlog's processor signature
    return _scrub(event)


def add_ids(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:  # Any: structlog's processor signature
    for key in IDS:
        event.setdefault(key, None)
    return event


def level_number(level: str) -> int:
    number = LEVELS.get(level.strip().upper())
    if number is None:
        raise SystemExit(f"bad setting in the environment: ARENA_LOG_LEVEL={level!r} (debug, info, warning, error)")
    return number


SHARED: list[Processor] = [
    merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    add_ids,
]
# structlog's loggers hand their lines to the standard library's, scrubbed already: so even a process that
# never called configure_logging (a test's in-process server) follows the stdlib levels and logs no secret.
structlog.configure(
    processors=[structlog.stdlib.filter_by_level, *SHARED, redact, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
    cache_logger_on_first_use=True,
)


def configure_logging(level: str = "warning", stream: TextIO | None = None) -> None:
    """JSON lines on `stream` (stderr) at `level`, for structlog's loggers and the standard library's."""
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=SHARED,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,  # before redact: a traceback's text is scrubbed too
            redact,
            structlog.processors.JSONRenderer(),
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level_number(level))
    # uvicorn's loggers come with handlers of their own when it configures logging: ours print instead.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "services.redis"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
