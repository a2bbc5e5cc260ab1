"""Server settings, read from the environment once at start-up (CLI flags override them).

Every setting has a default that works on a laptop: loopback only, data in ./data, the embedded
Redis unless REDIS_URL names another one.
"""

from __future__ import annotations

import os
from pathlib import Path

from msgspec import Struct, structs


class Settings(Struct, frozen=True, kw_only=True):
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("data")
    redis_url: str | None = None  # None: start the embedded Redis in data_dir
    secret: str | None = None  # None: generated once and kept in data_dir/secret
    max_frame_bytes: int = 4096  # a bigger websocket frame is refused with s2c.error
    rate_per_second: float = 20.0  # token bucket refill per socket
    rate_burst: int = 40  # token bucket size per socket
    cache_games: int = 10_000  # active games kept in process (LRU)
    bench_echo: bool = False  # add /ws/echo for bench/bench_gateway.py
    # uvicorn's websocket protocol: auto, websockets, websockets-sansio (lightest per socket), wsproto
    ws_impl: str = "websockets-sansio"
    ws_deflate: bool = False  # permessage-deflate costs a zlib context per socket (memory per idle socket)
    log_level: str = "warning"
    # Python's default (700, 10, 10) gave 200 ms full collections under 1k sockets (bench: p99 200 ms -> 20 ms)
    gc_thresholds: tuple[int, int, int] = (20_000, 50, 1000)
    validators: int = 1  # replay validator workers inside this process (0: run `arena validate` instead)
    review_floor_ms: int = 150  # a verified win whose median time between moves is below this is flagged
    # Appends wait for this many replicas (WAIT): "auto" = 1 where every master has a replica, else none.
    replica_acks: str = "auto"
    replica_timeout_ms: int = 500  # then the move is answered `unavailable` (it is on the master; resent)
    metrics_port: int | None = None  # `arena validate` serves /metrics here (`arena serve` on its own port)
    # Extra game modules (dotted names, each defining RULES) `arena serve` registers at start-up.
    game_modules: tuple[str, ...] = ()

    def with_overrides(self, **changes: object) -> Settings:
        """A copy with the given fields replaced, skipping the ones that are None."""
        return structs.replace(self, **{k: v for k, v in changes.items() if v is not None})


def _flag(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _thresholds(text: str | None, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if not text:
        return default
    parts = tuple(int(part) for part in text.split(","))
    if len(parts) != 3:
        raise ValueError(f"ARENA_GC_THRESHOLDS wants three numbers like 700,10,10, not {text!r}")
    return parts  # type: ignore[return-value]


def settings_from_environment(environ: dict[str, str] | None = None) -> Settings:
    """Settings from ARENA_* variables and REDIS_URL; a bad number is a clear error at start-up."""
    env = os.environ if environ is None else environ
    defaults = Settings()
    try:
        return Settings(
            host=env.get("ARENA_HOST", defaults.host),
            port=int(env.get("ARENA_PORT", defaults.port)),
            data_dir=Path(env.get("ARENA_DATA_DIR", str(defaults.data_dir))),
            redis_url=env.get("REDIS_URL") or None,
            secret=env.get("ARENA_SECRET") or None,
            max_frame_bytes=int(env.get("ARENA_MAX_FRAME_BYTES", defaults.max_frame_bytes)),
            rate_per_second=float(env.get("ARENA_RATE_PER_SECOND", defaults.rate_per_second)),
            rate_burst=int(env.get("ARENA_RATE_BURST", defaults.rate_burst)),
            cache_games=int(env.get("ARENA_CACHE_GAMES", defaults.cache_games)),
            bench_echo=_flag(env.get("ARENA_BENCH_ECHO", "")),
            ws_impl=env.get("ARENA_WS_IMPL", defaults.ws_impl),
            ws_deflate=_flag(env.get("ARENA_WS_DEFLATE", "")),
            log_level=env.get("ARENA_LOG_LEVEL", defaults.log_level),
            gc_thresholds=_thresholds(env.get("ARENA_GC_THRESHOLDS"), defaults.gc_thresholds),
            validators=int(env.get("ARENA_VALIDATORS", defaults.validators)),
            review_floor_ms=int(env.get("ARENA_REVIEW_FLOOR_MS", defaults.review_floor_ms)),
            replica_acks=env.get("ARENA_REPLICA_ACKS", defaults.replica_acks),
            replica_timeout_ms=int(env.get("ARENA_REPLICA_TIMEOUT_MS", defaults.replica_timeout_ms)),
            metrics_port=int(env["ARENA_METRICS_PORT"]) if env.get("ARENA_METRICS_PORT") else None,
            game_modules=tuple(name.strip() for name in env.get("ARENA_GAME_MODULES", "").split(",") if name.strip()),
        )
    except ValueError as exc:
        raise SystemExit(f"bad setting in the environment: {exc}") from exc
