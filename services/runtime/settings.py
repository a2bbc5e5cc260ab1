"""Server settings, read from the environment once at start-up (CLI flags override them).

Every setting has a default that works on a laptop: loopback only, data in ./data, the embedded
Redis unless REDIS_URL names another one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from msgspec import Struct, structs

LimitUnit = Literal["second", "minute", "hour", "day"]  # Litestar's RateLimitConfig units
HttpLimit = tuple[int, LimitUnit]
LIMIT_UNITS: tuple[LimitUnit, ...] = ("second", "minute", "hour", "day")


class Settings(Struct, frozen=True, kw_only=True):
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("data")
    redis_url: str | None = None  # None: start the embedded Redis in data_dir
    secret: str | None = None  # None: generated once and kept in data_dir/secret
    max_frame_bytes: int = 4096  # a bigger websocket frame is refused with s2c.error
    rate_per_second: float = 20.0  # frame budget refill per player, shared by all their sockets
    rate_burst: int = 40  # frame budget size per player
    # HTTP limits per client address: (requests, per "second" | "minute" | "hour" | "day"), None = off
    limit_guests: HttpLimit | None = (30, "minute")  # POST /api/players/guest
    limit_sign_in: HttpLimit | None = (10, "minute")  # routes that issue a token for one (refresh; later sign-in)
    limit_games: HttpLimit | None = (60, "minute")  # POST /api/games
    limit_tickets: HttpLimit | None = (120, "minute")  # POST /api/tickets (one per socket opened)
    token_ttl_seconds: int = 30 * 86_400  # a token's lifetime; POST /api/session/refresh issues a new one
    ticket_ttl_seconds: float = 30.0  # a socket ticket's lifetime (it also works only once)
    cache_games: int = 10_000  # active games kept in process (LRU)
    # Redis connections per server (per process), and how long a command waits for a free one before the
    # client is told unavailable (socket) or 503 (HTTP)
    redis_pool_size: int = 100
    redis_pool_timeout: float = 5.0
    # The move path's Redis commands (appends, fan-out counts and publishes) over lean pipelined connections
    # (services/redis/lean_link.py), redis-py carrying what they cannot; False: everything through redis-py
    lean_redis: bool = True
    # Batches of move appends in flight at once (group commit). Redis fsyncs once per pass of its event loop,
    # covering every command it read in that pass: a batch sent while another is being fsynced is covered by
    # the next fsync, while a batch held back until the first one's reply waits a whole extra fsync.
    append_in_flight: int = 16
    bench_echo: bool = False  # add /ws/echo for bench/bench_gateway.py
    workers: int = 1  # `arena serve` processes sharing the port (SO_REUSEPORT), the fan-out between them on Redis
    reuse_port: bool = False  # set by `arena serve --workers` for its workers: bind the port with SO_REUSEPORT
    # uvicorn's websocket protocol: auto, websockets, websockets-sansio (lightest per socket), wsproto
    ws_impl: str = "websockets-sansio"
    # uvicorn's HTTP parser: auto (httptools, its C parser, where installed: a dependency), httptools, h11 (Python)
    http_impl: str = "auto"
    ws_deflate: bool = False  # permessage-deflate costs a zlib context per socket (memory per idle socket)
    log_level: str = "warning"
    # Python's default (700, 10, 10) gave 200 ms full collections under 1k sockets (bench: p99 200 ms -> 20 ms).
    # A middle collection every 10 young ones: with the young collector's tick (below) one a second, holding a
    # second's survivors (20 ms of CPU at 5,000 sockets, where every 50 held five seconds' and took 50 ms).
    gc_thresholds: tuple[int, int, int] = (20_000, 10, 1000)
    # The youngest generation is also collected this often (0: only by CPython's count), which a move that
    # frees as much as it makes hardly moves: see services/runtime/young_collector.py
    gc_young_ms: int = 100
    daily_games: tuple[str, ...] = ()  # restrict the dailies to these game ids (empty: the whole catalogue)
    test_clock_file: Path | None = None  # tests only: read "now" from this file (services/runtime/clock.py)
    tournament_secret: str | None = None  # None: generated once into data_dir/tournament-secret
    # The replay files' Ed25519 key is derived from this (None: generated once into
    # data_dir/replay-signing-secret); a new value rotates the key, the old one stays listed.
    replay_signing_secret: str | None = None
    scheduler: bool = True  # prepare and settle daily challenges in this process (safe on every process)
    # A daily whose deal the solver cannot prove winnable in winnable.PROOF_COUNTERS tries is not prepared
    # (the rules promise a winnable deal); True: it falls back to "not lost as dealt", marked `check: weak`.
    daily_weak_check: bool = False
    retention_days: int = 30  # ended casual guest games are trimmed after this many days (0: keep all)
    validators: int = 1  # replay validator workers inside this process (0: run `arena validate` instead)
    hint_nodes: int = 50_000  # search nodes per hint in a practice game (the solver's budget, never time)
    # The human-speed review (services/validator/review.py says why each leaves a fast person alone; 0: off).
    # A verified win tripping one is flagged: ranked, marked `review` until an operator clears it.
    review_floor_ms: int = 150  # the median time between moves below this: fast_moves
    review_first_move_ms: int = 300  # first look to first move below this: fast_first_move
    review_even_spread: float = 0.15  # the gaps' spread / mean below this, over review_even_moves: even_tempo
    review_even_moves: int = 12
    review_total_move_ms: int = 250  # the game shorter than this times the solver line's moves: fast_total
    # Appends wait for this many replicas (WAIT): "auto" = 1 where every master has a replica, else none.
    replica_acks: str = "auto"
    replica_timeout_ms: int = 500  # then the move is answered `unavailable` (it is on the master; resent)
    metrics_port: int | None = None  # `arena validate` serves /metrics here (`arena serve` on its own port)
    # Extra game modules (dotted names, each defining RULES) `arena serve` registers at start-up.
    game_modules: tuple[str, ...] = ()
    race_countdown_ms: int = 5_000  # from the countdown's start (all ready, or the host) to the start signal
    race_deal_pool: int = 2  # proven deals kept ready per game and variant (0: each race waits for the solver)
    # The archive tier (services/archive/): where finished games go (None: file://<data_dir>/archive), how long
    # after its end a game stays hot (a loss a practice undo could reopen: the longer window), each call's bound.
    archive_url: str | None = None
    archiver: bool = True  # run the archiver task in this process (safe on every process: a game at a time)
    archive_after_s: float = 3600.0
    archive_lost_after_s: float = 7 * 86_400.0
    archive_timeout_s: float = 10.0
    archive_every_s: float = 5.0  # the archiver's pause between passes that found nothing more to do

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
    return parts


def _at_least(low: float, value, name: str):
    if not value >= low:  # (also refuses nan)
        raise ValueError(f"{name} must be at least {low:g}, not {value}")
    return value


def _one_of(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def parse_limit(text: str | None, default: HttpLimit | None, name: str) -> HttpLimit | None:
    """`30/minute` -> (30, "minute"); `off` -> None (no limit); unset -> the default."""
    if text is None or not text.strip():
        return default
    if text.strip().lower() == "off":
        return None
    count, _, unit = text.strip().partition("/")
    if unit not in LIMIT_UNITS or not count.isdigit() or int(count) < 1:
        raise ValueError(f"{name} wants a limit like 30/minute (per second, minute, hour or day) or off, not {text!r}")
    return int(count), unit  # one of LIMIT_UNITS, checked above (the check narrows it)


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
            limit_guests=parse_limit(env.get("ARENA_LIMIT_GUESTS"), defaults.limit_guests, "ARENA_LIMIT_GUESTS"),
            limit_sign_in=parse_limit(env.get("ARENA_LIMIT_SIGN_IN"), defaults.limit_sign_in, "ARENA_LIMIT_SIGN_IN"),
            limit_games=parse_limit(env.get("ARENA_LIMIT_GAMES"), defaults.limit_games, "ARENA_LIMIT_GAMES"),
            limit_tickets=parse_limit(env.get("ARENA_LIMIT_TICKETS"), defaults.limit_tickets, "ARENA_LIMIT_TICKETS"),
            token_ttl_seconds=int(env.get("ARENA_TOKEN_TTL_SECONDS", defaults.token_ttl_seconds)),
            ticket_ttl_seconds=float(env.get("ARENA_TICKET_TTL_SECONDS", defaults.ticket_ttl_seconds)),
            cache_games=int(env.get("ARENA_CACHE_GAMES", defaults.cache_games)),
            redis_pool_size=_at_least(1, int(env.get("ARENA_REDIS_POOL_SIZE", defaults.redis_pool_size)),
                                      "ARENA_REDIS_POOL_SIZE"),
            redis_pool_timeout=_at_least(0, float(env.get("ARENA_REDIS_POOL_TIMEOUT", defaults.redis_pool_timeout)),
                                         "ARENA_REDIS_POOL_TIMEOUT"),
            lean_redis=_flag(env.get("ARENA_LEAN_REDIS", "1")),
            append_in_flight=_at_least(1, int(env.get("ARENA_APPEND_IN_FLIGHT", defaults.append_in_flight)),
                                       "ARENA_APPEND_IN_FLIGHT"),
            bench_echo=_flag(env.get("ARENA_BENCH_ECHO", "")),
            workers=_at_least(1, int(env.get("ARENA_WORKERS", defaults.workers)), "ARENA_WORKERS"),
            reuse_port=_flag(env.get("ARENA_REUSE_PORT", "")),
            ws_impl=env.get("ARENA_WS_IMPL", defaults.ws_impl),
            http_impl=_one_of(env.get("ARENA_HTTP_IMPL", defaults.http_impl), ("auto", "httptools", "h11"), "ARENA_HTTP_IMPL"),
            ws_deflate=_flag(env.get("ARENA_WS_DEFLATE", "")),
            log_level=env.get("ARENA_LOG_LEVEL", defaults.log_level),
            gc_thresholds=_thresholds(env.get("ARENA_GC_THRESHOLDS"), defaults.gc_thresholds),
            gc_young_ms=_at_least(0, int(env.get("ARENA_GC_YOUNG_MS", defaults.gc_young_ms)), "ARENA_GC_YOUNG_MS"),
            tournament_secret=env.get("ARENA_TOURNAMENT_SECRET") or None,
            replay_signing_secret=env.get("ARENA_REPLAY_SIGNING_SECRET") or None,
            daily_games=tuple(g.strip() for g in env.get("ARENA_DAILY_GAMES", "").split(",") if g.strip()),
            test_clock_file=Path(env["ARENA_TEST_CLOCK_FILE"]) if env.get("ARENA_TEST_CLOCK_FILE") else None,
            scheduler=_flag(env.get("ARENA_SCHEDULER", "1")),
            daily_weak_check=_flag(env.get("ARENA_DAILY_WEAK_CHECK", "")),
            retention_days=int(env.get("ARENA_RETENTION_DAYS", defaults.retention_days)),
            validators=int(env.get("ARENA_VALIDATORS", defaults.validators)),
            review_floor_ms=int(env.get("ARENA_REVIEW_FLOOR_MS", defaults.review_floor_ms)),
            review_first_move_ms=int(env.get("ARENA_REVIEW_FIRST_MOVE_MS", defaults.review_first_move_ms)),
            review_even_spread=float(env.get("ARENA_REVIEW_EVEN_SPREAD", defaults.review_even_spread)),
            review_even_moves=int(env.get("ARENA_REVIEW_EVEN_MOVES", defaults.review_even_moves)),
            review_total_move_ms=int(env.get("ARENA_REVIEW_TOTAL_MOVE_MS", defaults.review_total_move_ms)),
            race_countdown_ms=int(env.get("ARENA_RACE_COUNTDOWN_MS", defaults.race_countdown_ms)),
            race_deal_pool=int(env.get("ARENA_RACE_DEAL_POOL", defaults.race_deal_pool)),
            archive_url=env.get("ARENA_ARCHIVE_URL") or None,
            archiver=_flag(env.get("ARENA_ARCHIVER", "1")),
            archive_after_s=_at_least(0, float(env.get("ARENA_ARCHIVE_AFTER_SECONDS", defaults.archive_after_s)),
                                      "ARENA_ARCHIVE_AFTER_SECONDS"),
            archive_lost_after_s=_at_least(0, float(env.get("ARENA_ARCHIVE_LOST_AFTER_SECONDS",
                                                            defaults.archive_lost_after_s)),
                                           "ARENA_ARCHIVE_LOST_AFTER_SECONDS"),
            archive_timeout_s=_at_least(0.1, float(env.get("ARENA_ARCHIVE_TIMEOUT_SECONDS", defaults.archive_timeout_s)),
                                        "ARENA_ARCHIVE_TIMEOUT_SECONDS"),
            archive_every_s=_at_least(0.05, float(env.get("ARENA_ARCHIVE_EVERY_SECONDS", defaults.archive_every_s)),
                                      "ARENA_ARCHIVE_EVERY_SECONDS"),
            hint_nodes=_at_least(1, int(env.get("ARENA_HINT_NODES", defaults.hint_nodes)), "ARENA_HINT_NODES"),
            replica_acks=env.get("ARENA_REPLICA_ACKS", defaults.replica_acks),
            replica_timeout_ms=int(env.get("ARENA_REPLICA_TIMEOUT_MS", defaults.replica_timeout_ms)),
            metrics_port=int(env["ARENA_METRICS_PORT"]) if env.get("ARENA_METRICS_PORT") else None,
            game_modules=tuple(name.strip() for name in env.get("ARENA_GAME_MODULES", "").split(",") if name.strip()),
        )
    except ValueError as exc:
        raise SystemExit(f"bad setting in the environment: {exc}") from exc
